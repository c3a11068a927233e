"""A table held in memory: its rows, its engine state, and one step of play.

The state is the replay of the seed and the action log. A :class:`Step`
applies actions to the live state and collects what must be written; if the
write fails the service drops the live table and replays it from the database,
so the in-memory state is never ahead of what was committed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.games import GameState, new_game
from bot.games.views import DealSheet, View
from bot.storage.models import PLAYING, TableStatus

from .records import SeatInfo, TableInfo


@dataclass
class LiveSeat:
    id: int
    user_id: int | None
    name: str
    position: int | None = None
    absent: bool = False
    resigned: bool = False
    acted: int = 0  # actions this seat has made: a hand message shown before the last one is stale
    level: str | None = None  # a computer's level; None for a person

    @property
    def computer(self) -> bool:
        return self.user_id is None

    @property
    def on_autopilot(self) -> bool:
        """A computer player plays this seat's turns (see :mod:`bot.tables.computers`)."""
        return self.user_id is None or self.resigned


def sides_of(public: View | None, seats: int) -> list[list[int]]:
    """The units that place and are rated: the view's sides (a partnership, or each seat alone)."""
    if public is not None and public["sides"]:
        return [list(side) for side in public["sides"]]
    return [[position] for position in range(seats)]


@dataclass
class LiveTable:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    game: str
    options: dict[str, Any]
    players: int | None
    seed: int
    status: str
    host_id: int
    turn_override: int | None
    guild_turn: int
    guild_grace: int
    guild_pace_ms: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    version: int
    action_count: int
    seats: list[LiveSeat]
    hints: bool = False
    private: bool = False  # shown only to its players, in its private thread (a duplicate night's table)
    state: GameState | None = None
    public: View | None = None  # the public view, once the match has begun
    views: dict[int, View] = field(default_factory=dict)  # each person's seat's view (computers' are not kept)
    sheets: list[DealSheet] = field(default_factory=list)
    present_in_deal: bool = False  # a person (not a timer) acted in the current deal
    overdue: set[int] = field(default_factory=set)  # people whose time ran out: the computer plays their turn
    moved_at: datetime | None = None  # when the last action was committed (computers keep a pace after it)
    after_trick: bool = False  # that action completed a trick: the next lead waits longer
    turn_ends: datetime | None = None  # the turn timer's next moment: the reminder, then the computer's move
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    evicted: bool = False

    @property
    def turn_seconds(self) -> int:
        return self.guild_turn if self.turn_override is None else self.turn_override

    def seat_of(self, user_id: int) -> LiveSeat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def at(self, position: int) -> LiveSeat:
        return next(seat for seat in self.seats if seat.position == position)

    def begin(self, actions: Sequence[tuple[int, str, str]] = ()) -> None:
        """Set up the match from the seed and replay ``actions`` (seat, action, source)."""
        self.state = new_game(self.game, players=len(self.seats), options=self.options, seed=self.seed)
        self.public = self.state.view(None)
        self.sheets = []
        self.present_in_deal = False
        for live_seat in self.seats:
            live_seat.acted = 0
        replay = Step(self, None)
        for seat, action, source in actions:
            replay.apply(seat, action, source)
        self.refresh_views()

    def refresh_views(self) -> tuple[int, ...]:
        """Recompute every person's view; return the seats whose view changed. A computer's seat is never
        shown (its player reads the state itself), so its view is computed only when asked for."""
        assert self.state is not None
        changed = []
        for seat in self.seats:
            if seat.position is None or seat.computer:
                continue
            view = self.state.view(seat.position)
            if self.views.get(seat.position) != view:
                changed.append(seat.position)
                self.views[seat.position] = view
        return tuple(changed)

    def info(self) -> TableInfo:
        playing = self.state is not None and self.status == PLAYING
        seats = [
            SeatInfo(
                index=seat.position if seat.position is not None else order,
                user_id=seat.user_id,
                name=seat.name,
                absent=seat.absent,
                resigned=seat.resigned,
                acted=seat.acted,
                level=seat.level,
                key=seat.id,
            )
            for order, seat in enumerate(self.seats)
        ]
        return TableInfo(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            thread_id=self.thread_id,
            message_id=self.message_id,
            game=self.game,
            options=dict(self.options),
            players=self.players,
            status=TableStatus(self.status),
            host_id=self.host_id,
            version=self.version,
            seats=tuple(seats),
            turn_seconds=self.turn_seconds,
            grace_seconds=self.guild_grace,
            created_at=self.created_at,
            started_at=self.started_at,
            finished_at=self.finished_at,
            to_act=tuple(self.state.to_act()) if playing and self.state is not None else (),
            actions=self.action_count,
            hints=self.hints,
            private=self.private,
            turn_ends=self.turn_ends if playing else None,
        )


class Step:
    """Actions applied to a live table in one service call, and what they mean.

    ``now`` is None while replaying the log (nothing to write, no events kept).
    """

    def __init__(self, live: LiveTable, now: datetime | None) -> None:
        self.live = live
        self.now = now
        self.records: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.seat_changes: dict[int, dict[str, Any]] = {}
        self.abandon = False
        # the seats to act before this step (a turn "begins" for the others that are to act after it)
        self.before: tuple[int, ...] = tuple(live.state.to_act()) if live.state is not None and now is not None else ()

    @property
    def state(self) -> GameState:
        assert self.live.state is not None
        return self.live.state

    def apply(self, seat: int, action: str, source: str) -> None:
        """Apply one action (IllegalAction leaves everything as it was) and note its consequences."""
        live, state = self.live, self.state
        before = live.public
        state.act(seat, action)
        live.at(seat).acted += 1
        live.overdue.discard(seat)
        after = state.view(None)
        live.public = after
        if source == "player":
            live.present_in_deal = True
        sheet = after["last_deal"]
        if sheet is not None and (not live.sheets or live.sheets[-1]["deal"] != sheet["deal"]):
            live.sheets.append(sheet)
        if before is not None and (after["deal"] != before["deal"] or state.is_over()):
            self._deal_ended()  # the match's last deal too: played out by the clock alone, it is abandoned, not rated
        if self.now is None:
            return
        self.records.append(
            {
                "table_id": live.id,
                "seq": live.action_count + len(self.records),
                "seat": seat,
                "action": action,
                "source": source,
                "created_at": self.now,
            }
        )
        self.events.append({"kind": "action", "seat": seat, "action": action, "source": source})
        last = after["last_trick"]
        if last and (before is None or last != before["last_trick"]):
            self.events.append({"kind": "trick", "winner": last["winner"], "cards": last["cards"]})
        if sheet is not None and (before is None or sheet != before["last_deal"]):
            self.events.append({"kind": "deal", "sheet": sheet})

    def _deal_ended(self) -> None:
        """A whole deal with every seated person absent abandons the table."""
        live = self.live
        people = [seat for seat in live.seats if not seat.on_autopilot]
        if people and all(seat.absent for seat in people) and not live.present_in_deal:
            self.abandon = True
        live.present_in_deal = False

    def change_seat(self, seat: LiveSeat, **values: Any) -> None:
        for key, value in values.items():
            setattr(seat, key, value)
        self.seat_changes.setdefault(seat.id, {}).update(values)
