"""The ephemeral hands people opened: drawn from one read of their seat, remembered for the 15 minutes
their interaction can edit them, and redrawn when their turn comes or goes."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import aiohttp
import discord

from bot.tables import HandSnapshot, SeatInfo, TableError, TableInfo, TableService, TableStatus

from ..i18n import error_text, reader, t
from ..replies import arrived, send
from .hand import hand_message
from .working import Work, show_in_hand

TOKEN_LIFETIME = 14 * 60  # an interaction token edits its message for 15 minutes; keep a margin


@dataclass(frozen=True)
class Shown:
    """What a hand message asks of its seat: the seat's action count then, whether it had choices, and when the
    time to make them ran out (a reminder moves it to the end of the grace: the hand's clock is redrawn)."""

    acted: int
    choosing: bool
    turn_ends: datetime | None = None


@dataclass
class HandMessage:
    """The latest ephemeral hand a person opened at a table: its interaction can edit it for 15 minutes."""

    interaction: discord.Interaction[Any]
    opened: float
    shown: Shown

    @property
    def fresh(self) -> bool:
        return time.monotonic() - self.opened < TOKEN_LIFETIME


def shown_now(table: TableInfo, seat: SeatInfo) -> Shown:
    """What the seat's hand should ask of it as the table is now."""
    choosing = table.status == TableStatus.PLAYING and seat.index in table.to_act and not seat.resigned
    return Shown(seat.acted, choosing, table.turn_ends if choosing else None)


class Hands:
    """Every person's latest hand message, one drawing at a time per person."""

    def __init__(self, service: TableService, work: Work) -> None:
        self.service = service
        self.work = work
        self.hands: dict[tuple[int, int], HandMessage] = {}
        self._hand_locks: dict[tuple[int, int], asyncio.Lock] = {}

    def lock(self, table_id: int, user_id: int) -> asyncio.Lock:
        """One person's hand is drawn by one task at a time, so the last drawn is the last shown."""
        return self._hand_locks.setdefault((table_id, user_id), asyncio.Lock())

    async def render_hand(
        self,
        table_id: int,
        user_id: int,
        locale: Any,
        *,
        focus: list[str] | None = None,
        note: str | None = None,
    ) -> tuple[dict[str, Any], Shown]:
        """The user's hand message as it is now, and what it asks (raises a TableError when they have none)."""
        hand = await self.service.hand(table_id, user_id)  # one read: table, seat, view and choices agree
        return self.hand_from(hand, locale, focus=focus, note=note)

    @staticmethod
    def hand_from(
        hand: HandSnapshot, locale: Any, *, focus: list[str] | None = None, note: str | None = None
    ) -> tuple[dict[str, Any], Shown]:
        """A hand message drawn from one snapshot of the seat, and what it asks."""
        embed, controls = hand_message(hand.table, hand.seat, hand.view, hand.legal, locale, focus=focus, note=note)
        choosing = bool(hand.legal)
        return {"embed": embed, "view": controls}, Shown(
            hand.seat.acted, choosing, hand.table.turn_ends if choosing else None
        )

    def remember(self, interaction: discord.Interaction[Any], table_id: int, shown: Shown) -> None:
        # the token's 15 minutes run from the interaction's arrival, not from when its answer was sent
        self.hands[(table_id, interaction.user.id)] = HandMessage(interaction, arrived(interaction), shown)

    async def on_hand(self, interaction: discord.Interaction[Any], table_id: int, *, refresh: bool) -> None:
        user, locale = interaction.user, reader(interaction)
        async with self.work.working(interaction, update=refresh), self.lock(table_id, user.id):
            try:
                kwargs, shown = await self.render_hand(table_id, user.id, locale)
            except TableError as error:
                key = error.key
                text = t(locale, "error.watching") if key == "not_seated" else error_text(error, locale)
                await send(interaction, text)
                return
            if refresh:
                await show_in_hand(interaction, **kwargs)
            else:
                await send(interaction, **kwargs)
            self.remember(interaction, table_id, shown)

    async def refuse_in_hand(self, interaction: discord.Interaction[Any], table_id: int, note: str) -> None:
        """Show the hand as it is now, with why the click changed nothing."""
        async with self.lock(table_id, interaction.user.id):
            try:
                kwargs, shown = await self.render_hand(table_id, interaction.user.id, reader(interaction), note=note)
            except TableError:
                await send(interaction, note)
                return
            await show_in_hand(interaction, **kwargs)
            self.remember(interaction, table_id, shown)

    def table_changed(self, table: TableInfo) -> None:
        """Redraw (in the background) the hands whose seat's turn came or went, or whose clock moved (a reminder);
        forget a closed table's."""
        if not table.is_open:
            for key in [key for key in self.hands if key[0] == table.id]:
                del self.hands[key]
                self._hand_locks.pop(key, None)
            return
        for seat in table.seats:
            if seat.user_id is None:
                continue
            handle = self.hands.get((table.id, seat.user_id))
            if handle is not None and handle.fresh and handle.shown != shown_now(table, seat):
                self.work.in_background(self._refresh_hand(table.id, seat.user_id))

    async def _refresh_hand(self, table_id: int, user_id: int) -> None:
        """The person's turn came (or went, by a timeout), or its clock moved, and their hand can still be edited:
        show it as it is now.

        Outcomes can arrive out of order (a click's and the computers' after it), so
        the hand is drawn from the table as it is now, and only if that differs from
        what the message shows.
        """
        async with self.lock(table_id, user_id):
            handle = self.hands.get((table_id, user_id))
            if handle is None or not handle.fresh:
                return
            try:
                kwargs, shown = await self.render_hand(table_id, user_id, reader(handle.interaction))
                if shown == handle.shown:
                    return
                await handle.interaction.edit_original_response(**kwargs)
                handle.shown = shown
            except (discord.DiscordServerError, aiohttp.ClientError, TimeoutError):
                pass  # Discord's trouble, not the message's: kept, and its next change is tried again
            except (TableError, discord.HTTPException):
                self.hands.pop((table_id, user_id), None)
