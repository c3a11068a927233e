"""A seat's clicks in its hand: an action, a next step (a card with several actions, a number, a
confirmation), cards chosen in a select, and a hint. Each acts through the service; what the action
changed reaches the table and the other hands through the service's events."""

from __future__ import annotations

from typing import Any

import discord

from bot.tables import NotAllowed, StaleAction, TableError, TableService, WrongStatus
from bot.words import hint_text

from ..i18n import error_text, reader, t
from ..replies import answer_lock, send
from .hand import confirmation, matching
from .hand_messages import Hands
from .working import Work, show_in_hand


class PlayClicks:
    """The handlers of a hand's controls."""

    def __init__(self, service: TableService, hands: Hands, work: Work) -> None:
        self.service = service
        self.hands = hands
        self.work = work

    async def on_act(self, interaction: discord.Interaction[Any], table_id: int, turn: int, action: str) -> None:
        async with self.work.working(interaction, update=True):
            await self._act(interaction, table_id, turn, action)

    async def _act(self, interaction: discord.Interaction[Any], table_id: int, turn: int, action: str) -> None:
        user, locale = interaction.user, reader(interaction)
        try:
            outcome = await self.service.act(table_id, user.id, action, expected_turn=turn)
        except StaleAction:
            await self.hands.refuse_in_hand(interaction, table_id, t(locale, "error.stale_hand"))
            return
        except TableError as error:
            await self.hands.refuse_in_hand(interaction, table_id, "⚠️ " + error_text(error, locale))
            return
        async with self.hands.lock(table_id, user.id):
            if outcome.hand is not None:  # the seat as its action left it, from the call itself
                kwargs, shown = self.hands.hand_from(outcome.hand, locale)
                await show_in_hand(interaction, **kwargs)
                self.hands.remember(interaction, table_id, shown)

    async def _turn_ok(self, interaction: discord.Interaction[Any], table_id: int, turn: int) -> list[str] | None:
        """The seat's legal actions if the message is still its latest choice, else a refusal is shown."""
        try:
            hand = await self.service.hand(table_id, interaction.user.id)
        except (NotAllowed, WrongStatus):  # no seat here, or no match: the click is not for them
            await send(interaction, t(reader(interaction), "error.stale_hand"))
            return None
        except TableError as error:
            await send(interaction, error_text(error, reader(interaction)))
            return None
        if hand.seat.acted != turn:
            await self.hands.refuse_in_hand(interaction, table_id, t(reader(interaction), "error.stale_hand"))
            return None
        return hand.legal

    async def on_choose(
        self, interaction: discord.Interaction[Any], table_id: int, turn: int, values: list[str], *, step: bool = False
    ) -> None:
        """A card with several actions, a number to bid, or an action from a select; with ``step`` (a
        next-step button) an action the game asks again about (a Reveal) shows its confirmation first. The
        seat's hand is read first (under the table's lock): answered in time however long that takes."""
        async with self.work.working(interaction, update=True):
            await self._choose(interaction, table_id, turn, values, step=step)

    async def _choose(
        self, interaction: discord.Interaction[Any], table_id: int, turn: int, values: list[str], *, step: bool
    ) -> None:
        legal = await self._turn_ok(interaction, table_id, turn)
        if legal is None:
            return
        found = matching(legal, values[0]) if values else []
        if len(found) == 1 and step and found == values:  # one action behind a next step: a confirmation
            try:
                hand = await self.service.hand(table_id, interaction.user.id)
            except TableError as error:
                await self.hands.refuse_in_hand(interaction, table_id, error_text(error, reader(interaction)))
                return
            warning = confirmation(hand.table, hand.view, hand.legal, found[0], reader(interaction))
            if warning is not None:
                kwargs, _ = self.hands.hand_from(hand, reader(interaction), focus=found, note=warning)
                await show_in_hand(interaction, **kwargs)
                return
        if len(found) == 1:
            await self._act(interaction, table_id, turn, found[0])
            return
        if not found:
            await self.hands.refuse_in_hand(interaction, table_id, t(reader(interaction), "error.stale_hand"))
            return
        kwargs, _ = await self.hands.render_hand(
            table_id,
            interaction.user.id,
            reader(interaction),
            focus=found,
            note=t(reader(interaction), "hand.choose_one"),
        )
        await show_in_hand(interaction, **kwargs)

    async def on_cards(self, interaction: discord.Interaction[Any], table_id: int, turn: int, cards: list[str]) -> None:
        """Several cards chosen in a select (a bid, a discard): confirm the action they make."""
        async with self.work.working(interaction, update=True):
            await self._cards(interaction, table_id, turn, cards)

    async def _cards(self, interaction: discord.Interaction[Any], table_id: int, turn: int, cards: list[str]) -> None:
        legal = await self._turn_ok(interaction, table_id, turn)
        if legal is None:
            return
        wanted = sorted(cards)
        found = [a for a in legal if len(a.split()) > 2 and sorted(a.split()[1:]) == wanted]
        if not found:
            await self.hands.refuse_in_hand(interaction, table_id, t(reader(interaction), "error.bad_cards"))
            return
        kwargs, _ = await self.hands.render_hand(
            table_id,
            interaction.user.id,
            reader(interaction),
            focus=found[:1],
            note=t(reader(interaction), "hand.confirm"),
        )
        await show_in_hand(interaction, **kwargs)

    async def on_hint(self, interaction: discord.Interaction[Any], table_id: int, turn: int) -> None:
        """💡: what the strong computer would do in the seat's place, in one line only the clicker sees.

        The search takes up to about a second, so the answer is deferred ("thinking") once the click is known to
        be for the seat's choice of now (or sooner, if reading the table takes long).
        """
        async with self.work.working(interaction, update=False):
            await self._hint(interaction, table_id, turn)

    async def _hint(self, interaction: discord.Interaction[Any], table_id: int, turn: int) -> None:
        user, locale = interaction.user, reader(interaction)
        try:
            table = await self.service.table(table_id)
        except TableError as error:
            await send(interaction, error_text(error, locale))
            return
        seat = next((seat for seat in table.seats if seat.user_id == user.id), None)
        if seat is not None and seat.acted != turn:  # a hint for a choice that is gone: show the hand as it is
            if interaction.response.is_done():  # deferred meanwhile ("thinking"): said there, the hand left as it is
                await send(interaction, t(locale, "error.stale_hand"))
            else:
                await self.hands.refuse_in_hand(interaction, table_id, t(locale, "error.stale_hand"))
            return
        async with answer_lock(interaction):  # unless already deferred while the table was read
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            hint = await self.service.hint(table_id, user.id)
            _, view = await self.service.seat_view(table_id, user.id)
        except TableError as error:
            await interaction.edit_original_response(content=error_text(error, locale))
            return
        await interaction.edit_original_response(content=hint_text(hint, view, locale))
