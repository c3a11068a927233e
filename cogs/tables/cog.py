"""Slash commands and the handlers of every button and select at a table.

Each handler loads the table from the service, acts through the service, and
answers the interaction at once (deferring if the work takes longer than two
seconds). Refusals come back from the service as typed errors and are shown
only to the person who clicked, in their language.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.rest_budget import Priority, rest_priority
from bot.tables import (
    ChannelBusy,
    HandSnapshot,
    NotAllowed,
    Outcome,
    SeatInfo,
    StaleAction,
    TableError,
    TableInfo,
    TableService,
    TableStatus,
    WrongStatus,
)

from ..client import TableBot
from ..i18n import reader, t, text
from ..replies import handled, send, update
from .components import data_of
from .hand import confirmation, hand_message, matching
from .hints import hint_text
from .lobby import computer_choice
from .pings import TurnPings
from .play_commands import add_play_commands, refused_choice
from .publisher import Publisher, lobby_controls
from .render import game_name, lobby_embed, seat_label, seat_name
from .review import review_embed

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0  # Discord wants an answer within 3 seconds
SHUTDOWN_GRACE = 10.0  # seconds a click's work under way may take to finish when the bot stops
TOKEN_LIFETIME = 14 * 60  # an interaction token edits its message for 15 minutes; keep a margin


def error_text(error: TableError, locale: Any) -> str:
    """A service refusal in the reader's language (engine reasons included)."""
    params = {key: value for key, value in error.params.items()}
    if "game" in params and params["game"] in GAMES:
        params["game"] = game_name(params["game"], locale)
    text = t(locale, f"error.{error.key}", **params)
    return text if text != f"error.{error.key}" else str(error)


async def table_here(service: TableService, interaction: discord.Interaction[Any]) -> TableInfo | None:
    """The open table of this channel, or of this thread when the table has one."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return await service.table_in_channel(channel.parent_id or channel.id, channel.id)
    return await service.table_in_channel(interaction.channel_id or 0)


@dataclass(frozen=True)
class Shown:
    """What a hand message asks of its seat: the seat's action count then, and whether it had choices."""

    acted: int
    choosing: bool


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
    on_turn = table.status == TableStatus.PLAYING and seat.index in table.to_act
    return Shown(seat.acted, on_turn and not seat.resigned)


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction[Any], *, update: bool) -> AsyncIterator[None]:
    """Defer the interaction if the work inside has not answered it within two seconds."""

    async def defer_later() -> None:
        await asyncio.sleep(DEFER_AFTER)
        if not interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                if update:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=True, thinking=True)

    task = asyncio.create_task(defer_later())
    try:
        yield
    finally:
        task.cancel()


# What a table needs in its channel, or it would be posted and then freeze (attaching files and threads
# have fallbacks: the table as text, the table in the channel).
NEEDED_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "read_message_history")


class Tables(commands.Cog):
    """Open a table, join, play: the public table in the channel, each hand in an ephemeral message."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.publisher = Publisher(
            bot,
            bot.service,
            self.guild_locale,
            pictures_wanted=self._pictures_wanted,
            budget=bot.budget,
            activity=bot.activity_served,
        )
        self.pings = TurnPings(bot, self._pings_wanted, budget=bot.budget)
        self.hands: dict[tuple[int, int], HandMessage] = {}
        self._hand_locks: dict[tuple[int, int], asyncio.Lock] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._in_flight: set[asyncio.Task[Any]] = set()  # handlers of clicks and commands at work

    async def _pictures_wanted(self, guild_id: int) -> bool:
        return (await self.service.guild_settings(guild_id)).table_picture

    async def _pings_wanted(self, guild_id: int) -> bool:
        return (await self.service.guild_settings(guild_id)).turn_pings

    async def guild_locale(self, guild_id: int) -> str:
        """The language of a server's public messages: its setting (see /settings), else English."""
        return self.bot.languages.of(guild_id)

    async def cog_load(self) -> None:
        # Computer moves, reminders and timeouts happen without a click: the service tells us here.
        self.service.listen(self.on_service_outcome)

    async def cog_unload(self) -> None:
        """When the bot stops: let work under way finish (a lobby being posted, a hand being redrawn) while
        Discord can still be reached, then the last table edits."""
        pending = [task for task in (*self._in_flight, *self._background) if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=SHUTDOWN_GRACE)
        await self.publisher.flush()

    @contextlib.asynccontextmanager
    async def working(self, interaction: discord.Interaction[Any], *, update: bool) -> AsyncIterator[None]:
        """A handler's work: answered in time (see ``answering``), and waited for if the bot stops meanwhile."""
        task = asyncio.current_task()
        assert task is not None  # a handler always runs in a task
        self._in_flight.add(task)
        try:
            async with answering(interaction, update=update):
                yield
        finally:
            self._in_flight.discard(task)

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------ opening a table

    play = app_commands.Group(name="play", description=text("command.play"), guild_only=True)

    add_play_commands(play)

    @staticmethod
    def _missing(interaction: discord.Interaction[Any]) -> list[str]:
        """The permissions a table needs in this channel that the bot lacks here (it would freeze)."""
        granted = interaction.app_permissions
        return [name for name in NEEDED_PERMISSIONS if not getattr(granted, name)]

    def _wants_thread(self, interaction: discord.Interaction[Any], setting: bool) -> bool:
        channel = interaction.channel
        permissions = interaction.app_permissions
        return (
            setting
            and isinstance(channel, discord.TextChannel)
            and permissions.create_public_threads
            and permissions.send_messages_in_threads
        )

    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        players: int | None,
        chosen: dict[str, Any],
        turn_seconds: int | None,
        *,
        hints: bool,
        seats: list[SeatInfo] | None = None,
    ) -> None:
        """Open a lobby (the host seated, and for a rematch everyone who played), post it, and start its thread."""
        locale = reader(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if isinstance(interaction.channel, discord.Thread) and interaction.channel.parent_id:
            await send(interaction, t(locale, "play.not_in_thread"))
            return
        missing = self._missing(interaction)
        if missing:  # a table posted here could not be shown or kept up to date: say what to grant
            names = t(locale, "permission.separator").join(t(locale, f"permission.{name}") for name in missing)
            await send(interaction, t(locale, "play.missing_permissions", permissions=names))
            return
        async with self.working(interaction, update=False):
            settings = await self.service.guild_settings(guild_id)
            options = {**settings.default_options.get(game, {}), **{k: v for k, v in chosen.items() if v is not None}}
            own_thread = self._wants_thread(interaction, settings.thread_per_table)
            table = None
            try:
                table = await self.service.open_table(
                    guild_id,
                    channel_id,
                    interaction.user.id,
                    interaction.user.display_name,
                    game,
                    options,
                    players,
                    turn_seconds=turn_seconds,
                    own_thread=own_thread,
                    hints=hints,
                )
                for seat in seats or ():
                    if seat.user_id == interaction.user.id:
                        continue
                    if seat.computer:
                        level = seat.level or "strong"
                        table = await self.service.add_computer(table.id, interaction.user.id, level=level)
                    else:
                        table = await self.service.join(table.id, seat.user_id or 0, seat.name)
            except TableError as error:
                if table is not None:  # all or nothing: no lobby is left behind half seated and never shown
                    with contextlib.suppress(TableError):
                        await self.service.abandon(table.id, interaction.user.id, can_manage=True)
                await send(interaction, error_text(error, locale))
                return
            public_locale = await self.guild_locale(guild_id)
            embed, view = lobby_embed(table, public_locale), lobby_controls(table, public_locale)
            message: discord.Message
            try:
                if interaction.response.is_done():
                    message = await interaction.followup.send(embed=embed, view=view, wait=True)
                else:
                    await interaction.response.send_message(embed=embed, view=view)
                    message = await interaction.original_response()
            except (discord.HTTPException, aiohttp.ClientError):  # all or nothing: no lobby nobody can see
                with contextlib.suppress(TableError):
                    await self.service.abandon(table.id, interaction.user.id, can_manage=True)
                raise
            self.publisher.mark_shown(table.id)
            thread_id = None
            if own_thread:
                try:
                    thread = await message.create_thread(
                        name=t(public_locale, "lobby.thread", game=game_name(game, public_locale), table=table.id)[
                            :100
                        ],
                        auto_archive_duration=1440,
                    )
                    thread_id = thread.id
                except (discord.HTTPException, aiohttp.ClientError):
                    log.warning("could not open a thread for table %s", table.id)
            if own_thread and thread_id is None:
                await self._stay_in_channel(interaction, table, message)
                return
            await self.service.set_location(table.id, message_id=message.id, thread_id=thread_id)
            await self._tell_host_what_is_missing(interaction, table, settings.thread_per_table and not own_thread)

    async def _tell_host_what_is_missing(
        self, interaction: discord.Interaction[Any], table: TableInfo, thread_refused: bool
    ) -> None:
        """What the table does without, and why: its own thread, or its picture."""
        locale, granted = reader(interaction), interaction.app_permissions
        notes = []
        if thread_refused and isinstance(interaction.channel, discord.TextChannel):
            notes.append(t(locale, "play.no_thread"))
        if not granted.attach_files:  # the table is shown as text: no second note from the publisher
            self.publisher.text_only.add(table.id)
            notes.append(t(locale, "play.no_attach"))
        if notes:
            await send(interaction, "\n".join(notes))

    async def _stay_in_channel(
        self, interaction: discord.Interaction[Any], table: TableInfo, message: discord.Message
    ) -> None:
        """The thread could not be made: the table plays in the channel (saying why, to its host), or,
        if the channel has an open table already, it is closed and the host told so."""
        locale = reader(interaction)
        try:
            await self.service.set_location(table.id, message_id=message.id, in_channel=True)
        except ChannelBusy:
            with contextlib.suppress(TableError):
                await self.service.abandon(table.id, interaction.user.id, can_manage=True)
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
                await message.delete()  # the lobby is gone: so is its message
            await send(interaction, t(locale, "play.no_thread_busy"))
            return
        await send(interaction, t(locale, "play.no_thread"))

    # ------------------------------------------------------------------ other commands

    async def _table_here(self, interaction: discord.Interaction[Any]) -> TableInfo | None:
        table = await table_here(self.service, interaction)
        if table is None:
            await send(interaction, t(reader(interaction), "error.no_table_here"))
        return table

    @app_commands.command(name="hand", description=text("command.hand"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._table_here(interaction)
        if table is not None:
            await self.on_hand(interaction, table.id, refresh=False)

    @app_commands.command(name="abandon", description=text("command.abandon"))
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._table_here(interaction)
        if table is None:
            return
        member = interaction.user
        can_manage = isinstance(member, discord.Member) and member.guild_permissions.manage_guild
        try:
            outcome = await self.service.abandon(table.id, member.id, can_manage=can_manage)
        except TableError as error:
            await send(interaction, error_text(error, reader(interaction)))
            return
        await interaction.response.send_message(
            t(await self.guild_locale(table.guild_id), "table.abandoned_by", name=member.mention),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.after(outcome)

    # ------------------------------------------------------------------ the lobby

    async def belongs_here(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """Whether a click on table ``table_id`` came from where the table is: its server, and its channel
        or thread. A button from anywhere else (forged, or another server's) gets the polite "not my
        button" and changes nothing. A table that does not exist is left to the handler to say so."""
        try:
            table = await self.service.table(table_id)
        except TableError:
            return True
        here = interaction.channel_id
        if table.guild_id == interaction.guild_id and here is not None and here in (table.channel_id, table.thread_id):
            return True
        await send(interaction, t(reader(interaction), "error.unknown_button"))
        return False

    async def on_lobby(self, interaction: discord.Interaction[Any], table_id: int, op: str) -> None:
        user, locale = interaction.user, reader(interaction)
        if op == "cpu":
            await self.offer_computers(interaction, table_id)
            return
        async with self.working(interaction, update=True):
            try:
                if op == "join":
                    await self.service.join(table_id, user.id, user.display_name)
                elif op == "leave":
                    await self.service.leave(table_id, user.id)
                elif op in ("hints-on", "hints-off"):
                    await self.service.set_hints(table_id, user.id, op == "hints-on")
                else:
                    pressed_on = interaction.message
                    lobby = pressed_on.id if pressed_on is not None and not pressed_on.flags.ephemeral else None
                    outcome = await self.service.start(table_id, user.id, message_id=lobby)
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            async with self.publisher.lock(table_id):
                kwargs = await self.publisher.message(table_id, can_attach=interaction.app_permissions.attach_files)
                await update(interaction, **kwargs)
            self.publisher.mark_shown(table_id)
            if op == "start":
                await self.after(outcome)
                await send(interaction, t(locale, "lobby.started_hint"))

    async def offer_computers(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The host's own choice of a computer's level (anyone else is told only the host can)."""
        locale = reader(interaction)
        try:
            table = await self.service.table(table_id)
        except TableError as error:
            await send(interaction, error_text(error, locale))
            return
        if table.status != TableStatus.LOBBY:
            await send(interaction, t(locale, "error.not_in_lobby"))
        elif interaction.user.id != table.host_id:
            await send(interaction, t(locale, "error.not_host"))
        else:
            await send(interaction, **computer_choice(table, locale))

    async def on_add_computer(self, interaction: discord.Interaction[Any], table_id: int, level: str) -> None:
        """Seat a computer of the chosen level; the choice stays open for another, and the lobby is redrawn."""
        locale = reader(interaction)
        async with self.working(interaction, update=True):
            try:
                table = await self.service.add_computer(table_id, interaction.user.id, level=level)
            except TableError as error:
                await self.show_note(interaction, "⚠️ " + error_text(error, locale))
                return
            added = t(locale, "lobby.computer_added", name=seat_label(table, table.seats[-1].index, locale))
            kwargs = computer_choice(table, locale, note=added)
            if interaction.message is not None and interaction.message.flags.ephemeral:
                await update(interaction, content=None, **kwargs)  # no earlier warning left above it
            else:  # a choice on a public message (forged): never write the host's choice over it
                await send(interaction, **kwargs)
        self.publisher.touch(table_id)

    async def on_remove_computer(self, interaction: discord.Interaction[Any], table_id: int, key: int) -> None:
        """Take a computer out of the lobby; the host's choice is redrawn with the seats as they are now."""
        locale = reader(interaction)
        async with self.working(interaction, update=True):
            try:
                before = await self.service.table(table_id)
                gone = next((s for s in before.seats if s.key == key and s.computer), None)
                table = await self.service.remove_computer(table_id, interaction.user.id, key)
            except TableError as error:
                await self.show_note(interaction, "⚠️ " + error_text(error, locale))
                return
            name = seat_label(before, gone.index, locale) if gone is not None else ""
            kwargs = computer_choice(table, locale, note=t(locale, "lobby.computer_removed", name=name))
            if interaction.message is not None and interaction.message.flags.ephemeral:
                await update(interaction, content=None, **kwargs)
            else:  # a choice on a public message (forged): never write the host's choice over it
                await send(interaction, **kwargs)
        self.publisher.touch(table_id)

    @staticmethod
    async def show_note(interaction: discord.Interaction[Any], note: str) -> None:
        """A short note on the clicker's own ephemeral message (in place), else as a new one."""
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await update(interaction, content=note)
        else:
            await send(interaction, note)

    async def on_review(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The deal just scored, trick by trick, for whoever asks (only what the table showed)."""
        locale = reader(interaction)
        async with self.working(interaction, update=False):
            try:
                table, deals = await self.service.deal_reviews(table_id)
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            if not deals:
                await send(interaction, t(locale, "review.none"))
                return
            await send(interaction, embed=review_embed(table, deals[-1], locale))

    async def on_rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        try:
            old = await self.service.table(table_id)
        except TableError as error:
            await send(interaction, error_text(error, reader(interaction)))
            return
        if old.is_open:
            await send(interaction, t(reader(interaction), "error.rematch_open"))
            return
        if self._seat(old, interaction.user.id) is None:  # a watcher: the rematch is the players' to start
            await send(interaction, t(reader(interaction), "error.rematch_not_player"))
            return
        await self.open_table(
            interaction,
            old.game,
            old.players,
            dict(old.options),
            old.turn_seconds,
            hints=old.hints,
            seats=list(old.seats),
        )

    # ------------------------------------------------------------------ hands

    @staticmethod
    async def show_in_hand(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
        """Show a hand where only the clicker sees it: in place on their own ephemeral hand, else as a new one.

        A hand is never written over a public message, whatever the button was on.
        """
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await update(interaction, **kwargs)
        else:
            await send(interaction, **kwargs)

    @staticmethod
    def _seat(table: TableInfo, user_id: int) -> SeatInfo | None:
        return next((seat for seat in table.seats if seat.user_id == user_id), None)

    def _hand_lock(self, table_id: int, user_id: int) -> asyncio.Lock:
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
        return {"embed": embed, "view": controls}, Shown(hand.seat.acted, bool(hand.legal))

    def _remember(self, interaction: discord.Interaction[Any], table_id: int, shown: Shown) -> None:
        self.hands[(table_id, interaction.user.id)] = HandMessage(interaction, time.monotonic(), shown)

    async def on_hand(self, interaction: discord.Interaction[Any], table_id: int, *, refresh: bool) -> None:
        user, locale = interaction.user, reader(interaction)
        async with self.working(interaction, update=refresh), self._hand_lock(table_id, user.id):
            try:
                kwargs, shown = await self.render_hand(table_id, user.id, locale)
            except TableError as error:
                key = error.key
                text = t(locale, "error.watching") if key == "not_seated" else error_text(error, locale)
                await send(interaction, text)
                return
            if refresh:
                await self.show_in_hand(interaction, **kwargs)
            else:
                await send(interaction, **kwargs)
            self._remember(interaction, table_id, shown)

    async def _refuse_in_hand(self, interaction: discord.Interaction[Any], table_id: int, note: str) -> None:
        """Show the hand as it is now, with why the click changed nothing."""
        async with self._hand_lock(table_id, interaction.user.id):
            try:
                kwargs, shown = await self.render_hand(table_id, interaction.user.id, reader(interaction), note=note)
            except TableError:
                await send(interaction, note)
                return
            await self.show_in_hand(interaction, **kwargs)
            self._remember(interaction, table_id, shown)

    async def on_act(self, interaction: discord.Interaction[Any], table_id: int, turn: int, action: str) -> None:
        user, locale = interaction.user, reader(interaction)
        async with self.working(interaction, update=True):
            try:
                outcome = await self.service.act(table_id, user.id, action, expected_turn=turn)
            except StaleAction:
                await self._refuse_in_hand(interaction, table_id, t(locale, "error.stale_hand"))
                return
            except TableError as error:
                await self._refuse_in_hand(interaction, table_id, "⚠️ " + error_text(error, locale))
                return
            async with self._hand_lock(table_id, user.id):
                if outcome.hand is not None:  # the seat as its action left it, from the call itself
                    kwargs, shown = self.hand_from(outcome.hand, locale)
                    await self.show_in_hand(interaction, **kwargs)
                    self._remember(interaction, table_id, shown)
            await self.after(outcome)

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
            await self._refuse_in_hand(interaction, table_id, t(reader(interaction), "error.stale_hand"))
            return None
        return hand.legal

    async def on_choose(
        self, interaction: discord.Interaction[Any], table_id: int, turn: int, values: list[str], *, step: bool = False
    ) -> None:
        """A card with several actions, a number to bid, or an action from a select; with ``step`` (a
        next-step button) an action the game asks again about (a Reveal) shows its confirmation first."""
        legal = await self._turn_ok(interaction, table_id, turn)
        if legal is None:
            return
        found = matching(legal, values[0]) if values else []
        if len(found) == 1 and step and found == values:  # one action behind a next step: a confirmation
            try:
                hand = await self.service.hand(table_id, interaction.user.id)
            except TableError as error:
                await self._refuse_in_hand(interaction, table_id, error_text(error, reader(interaction)))
                return
            warning = confirmation(hand.table, hand.view, hand.legal, found[0], reader(interaction))
            if warning is not None:
                kwargs, _ = self.hand_from(hand, reader(interaction), focus=found, note=warning)
                await self.show_in_hand(interaction, **kwargs)
                return
        if len(found) == 1:
            await self.on_act(interaction, table_id, turn, found[0])
            return
        if not found:
            await self._refuse_in_hand(interaction, table_id, t(reader(interaction), "error.stale_hand"))
            return
        kwargs, _ = await self.render_hand(
            table_id,
            interaction.user.id,
            reader(interaction),
            focus=found,
            note=t(reader(interaction), "hand.choose_one"),
        )
        await self.show_in_hand(interaction, **kwargs)

    async def on_cards(self, interaction: discord.Interaction[Any], table_id: int, turn: int, cards: list[str]) -> None:
        """Several cards chosen in a select (a bid, a discard): confirm the action they make."""
        legal = await self._turn_ok(interaction, table_id, turn)
        if legal is None:
            return
        wanted = sorted(cards)
        found = [a for a in legal if len(a.split()) > 2 and sorted(a.split()[1:]) == wanted]
        if not found:
            await self._refuse_in_hand(interaction, table_id, t(reader(interaction), "error.bad_cards"))
            return
        kwargs, _ = await self.render_hand(
            table_id,
            interaction.user.id,
            reader(interaction),
            focus=found[:1],
            note=t(reader(interaction), "hand.confirm"),
        )
        await self.show_in_hand(interaction, **kwargs)

    async def on_hint(self, interaction: discord.Interaction[Any], table_id: int, turn: int) -> None:
        """💡: what the strong computer would do in the seat's place, in one line only the clicker sees.

        The search takes up to about a second, so the answer is deferred ("thinking") at once.
        """
        user, locale = interaction.user, reader(interaction)
        try:
            table = await self.service.table(table_id)
        except TableError as error:
            await send(interaction, error_text(error, locale))
            return
        seat = self._seat(table, user.id)
        if seat is not None and seat.acted != turn:  # a hint for a choice that is gone: show the hand as it is
            await self._refuse_in_hand(interaction, table_id, t(locale, "error.stale_hand"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            hint = await self.service.hint(table_id, user.id)
            _, view = await self.service.seat_view(table_id, user.id)
        except TableError as error:
            await interaction.edit_original_response(content=error_text(error, locale))
            return
        await interaction.edit_original_response(content=hint_text(hint, view, locale))

    # ------------------------------------------------------------------ after every change

    async def on_service_outcome(self, outcome: Outcome) -> None:
        """What the service did by itself (a computer's move, a reminder, a timeout): show it like a click's."""
        try:
            await self.after(outcome)
        except Exception:  # the service's own loop must go on whatever the presentation does
            log.exception("could not show an outcome of table %s", outcome.table.id)

    # The launcher hands this to ``run_timers_forever``, which registers it as a listener too: the
    # same bound method as ``on_service_outcome``, so the service keeps one and nothing is shown twice.
    on_timer = on_service_outcome

    async def after(self, outcome: Outcome) -> None:
        """Show what an action, a start or the service itself changed: the table, pings, hands that now differ."""
        table = outcome.table
        self.publisher.touch(table.id)
        locale = await self.guild_locale(table.guild_id)
        self._in_background(self.pings.update(table, locale))
        for event in outcome.events:
            if event["kind"] == "reminder":
                self._in_background(self._announce(table, locale, "turn.reminder", seats=event.get("seats", [])))
            elif event["kind"] == "timeout":
                name = seat_name(table, event["seat"], locale)
                self._in_background(self._announce(table, locale, "turn.timeout", seats=[event["seat"]], name=name))
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
                self._in_background(self._refresh_hand(table.id, seat.user_id))

    async def _refresh_hand(self, table_id: int, user_id: int) -> None:
        """The person's turn came (or went, by a timeout) and their hand can still be edited: show it as it is now.

        Outcomes can arrive out of order (a click's and the computers' after it), so
        the hand is drawn from the table as it is now, and only if that differs from
        what the message shows.
        """
        async with self._hand_lock(table_id, user_id):
            handle = self.hands.get((table_id, user_id))
            if handle is None or not handle.fresh:
                return
            try:
                kwargs, shown = await self.render_hand(table_id, user_id, reader(handle.interaction))
                if shown == handle.shown:
                    return
                await handle.interaction.edit_original_response(**kwargs)
                handle.shown = shown
            except (TableError, discord.HTTPException):
                self.hands.pop((table_id, user_id), None)

    async def _announce(self, table: TableInfo, locale: Any, key: str, *, seats: list[int], **params: Any) -> None:
        """A short message in the table's thread (or channel) that pings the people concerned (a reminder, a
        timeout): it goes before table edits in the REST budget."""
        users = [s.user_id for s in table.seats if s.index in seats and s.user_id is not None]
        if not users:
            return
        mentions = " ".join(f"<@{user}>" for user in users)
        channel = self.bot.get_partial_messageable(table.thread_id or table.channel_id, guild_id=table.guild_id)
        try:
            with rest_priority(Priority.PING):
                await channel.send(
                    t(locale, key, who=mentions, **params),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]),
                )
        except discord.HTTPException:
            log.warning("could not post to the channel of table %s", table.id)

    # ------------------------------------------------------------------ errors

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a component no handler knows (forged, or from a build long gone): say so, politely."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(data_of(interaction).get("custom_id", ""))
        if handled(custom_id):
            return
        with contextlib.suppress(discord.HTTPException):
            await send(interaction, t(reader(interaction), "error.unknown_button"))

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.TransformerError):  # a value no choice offers: say which, and why
            refusal = refused_choice(data_of(interaction), reader(interaction))
            if refusal is not None:
                with contextlib.suppress(discord.HTTPException):
                    await send(interaction, refusal)
                return
        log.exception("command failed", exc_info=error)
        with contextlib.suppress(discord.HTTPException):
            await send(interaction, t(reader(interaction), "error.internal"))
