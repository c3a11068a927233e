"""What a move made on a screen costs: each seat's view built and sent once for all its screens, and, with the
chat table beside the screens, one coalesced edit of the channel message per interval and no ping for people
who see their turn on a screen."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from activity import state_frames
from bench.discord_calls import CountedCalls
from bot.tables import TableStatus
from bot.tables.events import Subscription
from cogs.tables.hand_messages import Hands
from cogs.tables.pings import TurnPings
from cogs.tables.presenting import HEARD, Presenter
from cogs.tables.publisher import Publisher
from cogs.tables.working import Work

from .conftest import ScreenClient, Served
from .test_server import first_action

QUICK = {"start_cards": 3}
PATCH = "PATCH /channels/{channel_id}/messages/{message_id}"


async def four_at_a_table(served: Served) -> tuple[int, list[ScreenClient]]:
    """Alice, Bob, Carol and Dan on screens of their own at a started table of theirs (no computer: nothing
    moves but what they do)."""
    alice = await served.screen("Alice")
    await alice.next("state")  # the lobby form
    await alice.send(op="open", game="oh-hell", options=QUICK, players=4, computers=[])
    lobby = await alice.state_where(lambda t: t["status"] == "lobby")
    screens = [alice]
    for name in ("Bob", "Carol", "Dan"):
        screen = await served.screen(name)
        await screen.state_where(lambda t: t["id"] == lobby["id"])
        await screen.send(op="join", table=lobby["id"])
        screens.append(screen)
    await alice.state_where(lambda t: len(t["lobby"]["seats"]) == 4)
    await alice.send(op="start", table=lobby["id"])
    for screen in screens:
        await screen.state_where(lambda t: t["status"] == "playing")
    return int(lobby["id"]), screens


async def move(served: Served, table_id: int, screens: list[ScreenClient]) -> int:
    """The person on turn makes a move on their screen; every screen shows it. The moves made so far."""
    table = await served.service.table(table_id)
    actor = next(s for s in screens if table.seat_of(s.user_id) in table.to_act)
    state = await actor.state_where(lambda t: t["actions"] == table.actions and bool(t["choices"]))
    await actor.send(op="act", table=table_id, action=first_action(state), turn=state["turn"])
    for screen in screens:
        await screen.state_where(lambda t: t["actions"] > table.actions)
    return table.actions + 1


async def test_a_move_builds_each_seats_screen_once_and_sends_each_screen_its_own_once(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, players = await four_at_a_table(served)
    watcher = await served.screen("Eve")
    await watcher.state_where(lambda t: t["status"] == "playing")
    alice_again = await served.another_tab(players[0])  # Alice's second tab
    await alice_again.state_where(lambda t: t["status"] == "playing")
    built: Counter[str] = Counter()
    shared, own = state_frames.table_screen, state_frames.seat_screen

    def counted_shared(*args: Any, **kwargs: Any) -> Any:
        built["shared"] += 1
        return shared(*args, **kwargs)

    def counted_own(*args: Any, **kwargs: Any) -> Any:
        built[f"seat {kwargs['seat']}"] += 1
        return own(*args, **kwargs)

    monkeypatch.setattr(state_frames, "table_screen", counted_shared)
    monkeypatch.setattr(state_frames, "seat_screen", counted_own)
    screens = [*players, watcher, alice_again]
    before = [len(s.frames) for s in screens]
    actions = await move(served, table_id, screens)
    await served.service.settle(table_id)
    # The part every screen shares once, each seat's own once (Alice's two tabs share hers), the watcher's once.
    assert built == {"shared": 1, "seat 0": 1, "seat 1": 1, "seat 2": 1, "seat 3": 1, "seat None": 1}
    for screen, seen in zip(screens, before, strict=True):
        states = [f["table"] for f in screen.frames[seen:] if f["type"] == "state"]
        assert [t["actions"] for t in states] == [actions]  # the new state, once
    info = await served.service.table(table_id)
    for screen in [*players, alice_again]:
        shown = screen.shown()
        assert shown is not None
        seat = info.seat_of(screen.user_id)
        mine = await served.service.view(table_id, seat)
        assert shown["seat"] == seat and shown["hand"] == list(mine.view["hand"])  # its own view, no other
    public = watcher.shown()
    assert public is not None and public["seat"] is None and public["hand"] == [] and public["choices"] == []
    for screen in screens:
        await screen.close()


class Clock:
    """The publisher's clock, moved by the test alone."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._moved = asyncio.Condition()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        until = self.now + seconds
        async with self._moved:
            await self._moved.wait_for(lambda: self.now >= until)

    async def move(self, seconds: float) -> None:
        async with self._moved:
            self.now += seconds
            self._moved.notify_all()


async def test_a_burst_of_moves_on_screens_costs_one_chat_edit_an_interval_and_no_ping(served: Served) -> None:
    calls, clock, work = CountedCalls(), Clock(), Work()
    client = discord.Client(intents=discord.Intents.none())
    calls.attach(client)

    async def english(guild_id: int) -> str:
        return "en"

    async def yes(guild_id: int) -> bool:
        return True

    publisher = Publisher(
        client, served.service, english, pictures_wanted=None, activity=True, clock=clock, sleep=clock.sleep
    )
    pings = TurnPings(client, yes, on_screen=served.server.on_screen)
    presenter = Presenter(client, publisher, pings, Hands(served.service, work), work, english)
    heard: Subscription = served.service.events.subscribe(presenter.on_event, HEARD)
    try:
        table_id, screens = await four_at_a_table(served)
        await heard.drain()
        await work.finish()
        async with asyncio.timeout(10):  # the start: the table shown at once
            while calls.calls[PATCH] == 0:
                await asyncio.sleep(0.01)
        started = calls.calls[PATCH]
        for _ in range(8):  # a burst of moves within one interval of the clock
            await move(served, table_id, screens)
        await heard.drain()
        await work.finish()
        assert calls.calls[PATCH] == started  # nothing more until the interval has passed
        await clock.move(1.0)
        await publisher.flush()
        assert calls.calls[PATCH] == started + 1  # eight moves, one edit
        assert dict(calls.calls) == {PATCH: started + 1}  # and no turn ping: everyone sees their turn come
        table = await served.service.table(table_id)
        assert table.status == TableStatus.PLAYING and table.actions >= 8
        # Someone not on turn closes their screen: when their turn comes, they are pinged in chat again.
        gone = next(s for s in screens if table.seat_of(s.user_id) not in table.to_act)
        await gone.close()
        here = [s for s in screens if s is not gone]
        while table.seat_of(gone.user_id) not in table.to_act:
            await move(served, table_id, here)
            table = await served.service.table(table_id)
        await heard.drain()
        await work.finish()
        assert calls.calls["POST /channels/{channel_id}/messages"] == 1
    finally:
        await clock.move(10.0)
        await publisher.flush()
        await heard.close()
        await client.close()
        for screen in screens:
            await screen.close()


def test_frames_are_text_once() -> None:
    frame = state_frames.frame_of({"id": 1, "name": "アリス"})
    assert json.loads(frame) == {"type": "state", "table": {"id": 1, "name": "アリス"}} and "アリス" in frame


def test_a_finished_tables_frame_is_built_again_once_its_match_is_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stored result is part of the shared frame: a frame built before the match was stored is not the one
    sent after (same version of the table), and one built with it is reused by every reader."""
    built: list[int | None] = []

    def shared(table: Any, public: Any, language: str, result: Any = None, deal_end: Any = None) -> dict[str, Any]:
        built.append(result["match_id"] if result is not None else None)
        return {"id": table.id, "final": result["match_id"] if result is not None else None}

    def own(shared: dict[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        return dict(shared)

    monkeypatch.setattr(state_frames, "table_screen", shared)
    monkeypatch.setattr(state_frames, "seat_screen", own)
    frames = state_frames.Frames()
    table: Any = SimpleNamespace(id=7, version=40)
    stored: Any = {"match_id": 3}
    before = json.loads(frames.frame(table, {}, None, None, [], "en"))
    after = json.loads(frames.frame(table, {}, None, None, [], "en", stored))
    again = json.loads(frames.frame(table, {}, None, None, [], "en", dict(stored)))
    assert before["table"]["final"] is None and after["table"]["final"] == again["table"]["final"] == 3
    assert built == [None, 3]  # the stored match's frame built once, for both readers


async def test_a_reminder_moves_the_clock_on_every_screen(served: Served) -> None:
    """A reminder moves the time to act to the end of the grace without a new version: the screens, woken only by
    new versions, went on showing the reminder's moment, and then no time left through the whole grace."""
    table_id, screens = await four_at_a_table(served)
    table = await served.service.table(table_id)
    assert table.turn_ends is not None
    [reminder] = await served.service.run_timers(now=table.turn_ends)
    assert reminder.table.version == table.version and reminder.table.turn_ends is not None
    act_at = reminder.table.turn_ends.isoformat()
    for screen in screens:
        await screen.state_where(lambda shown: shown["turn_ends"] == act_at, timeout=5)
