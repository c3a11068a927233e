"""The tables cog: ``/play``, ``/hand``, ``/abandon``, and the handler of every button and select at a table.

The cog composes what it does, each in its own module: opening tables and their lobbies
(``lobby_clicks``), the ephemeral hands (``hand_messages``), a seat's clicks in its hand
(``play_clicks``), the deal review (``review``), and the chat table as a subscriber to the
service's events (``presenting``: the table message through ``publisher``, pings, announcements).
The components call the cog through the small :class:`~cogs.tables.clicks.TableClicks` interface.

Each handler loads the table from the service, acts through the service, and answers the interaction
at once (deferring if the work takes longer than a second). Refusals come back from the service as
typed errors and are shown only to the person who clicked, in their language.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import SeatInfo, TableError, TableInfo, TableStatus
from bot.tables.events import Subscription

from ..client import TableBot
from ..i18n import error_text, reader, t, text
from ..picture.fonts import warm as warm_fonts
from ..replies import arrived, handled, post, send
from .clicks import HANDLER, data_of
from .hand_messages import Hands
from .lobby_clicks import LobbyClicks
from .pings import TurnPings
from .play_clicks import PlayClicks
from .play_commands import add_play_commands
from .presenting import HEARD, Presenter
from .publisher import Publisher
from .review import show_review
from .working import SHUTDOWN_GRACE, Work, answering, table_here

__all__ = ["Tables", "error_text", "table_here"]

log = logging.getLogger(__name__)


class Tables(commands.Cog, name=HANDLER):
    """Open a table, join, play: the public table in the channel, each hand in an ephemeral message."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.work = Work()
        self._private_checked = False  # the open private tables looked over once connected (``on_ready``)
        self.publisher = Publisher(
            bot,
            bot.service,
            self.guild_locale,
            pictures_wanted=self._pictures_wanted,
            budget=bot.budget,
            activity=bot.activity_served,
            unreachable=bot.unreachable,
        )
        self.pings = TurnPings(
            bot, self._pings_wanted, budget=bot.budget, on_screen=bot.on_screen, unreachable=bot.unreachable
        )
        self.hands = Hands(bot.service, self.work)
        self.lobby = LobbyClicks(bot.service, self.publisher, self.work, self.guild_locale)
        self.play_clicks = PlayClicks(bot.service, self.hands, self.work)
        self.presenter = Presenter(
            bot, self.publisher, self.pings, self.hands, self.work, self.guild_locale, bot.unreachable
        )
        self._events: Subscription | None = None

    async def _pictures_wanted(self, guild_id: int) -> bool:
        return (await self.service.guild_settings(guild_id)).table_picture

    async def _pings_wanted(self, guild_id: int) -> bool:
        return (await self.service.guild_settings(guild_id)).turn_pings

    async def open_scheduled(
        self,
        channel: discord.abc.Messageable,
        guild_id: int,
        channel_id: int,
        host: tuple[int, str],
        game: str,
        options: dict[str, Any],
        players: int | None,
        intro: str,
    ) -> TableInfo:
        """A lobby the bot opens by itself (a game night's start): see ``LobbyClicks.open_scheduled``."""
        return await self.lobby.open_scheduled(channel, guild_id, channel_id, host, game, options, players, intro)

    async def guild_locale(self, guild_id: int) -> str:
        """The language of a server's public messages: its setting (see /settings), else English."""
        return self.bot.languages.of(guild_id)

    async def cog_load(self) -> None:
        # Every change of a table (a click's, a computer's move, a reminder, a timeout) comes as an event.
        self._events = self.service.events.subscribe(self.presenter.on_event, HEARD)
        # The pictures' fonts are read now, beside the event loop, not when the first table starts.
        self.work.in_background(asyncio.to_thread(warm_fonts))

    async def cog_unload(self) -> None:
        """When the bot stops: let work under way finish (a lobby being posted, a hand being redrawn) while
        Discord can still be reached, show the events already heard, then the last table edits."""
        await self.work.finish(SHUTDOWN_GRACE)
        if self._events is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(SHUTDOWN_GRACE):
                    await self._events.drain()
            await self._events.close()
            self._events = None
        await self.work.finish(SHUTDOWN_GRACE)
        await self.publisher.flush()

    # ------------------------------------------------------------------ opening a table

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
        await self.lobby.open_table(interaction, game, players, chosen, turn_seconds, hints=hints, seats=seats)

    # ------------------------------------------------------------------ other commands

    async def _table_here(self, interaction: discord.Interaction[Any]) -> TableInfo | None:
        arrived(interaction)  # the clock of its answer starts now, before the table is read
        table = await table_here(self.service, interaction)
        if table is None:
            await send(interaction, t(reader(interaction), "error.no_table_here"))
        return table

    @app_commands.command(name="hand", description=text("command.hand"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        async with answering(interaction, update=False):  # finding the table may wait (tables read back)
            table = await self._table_here(interaction)
            if table is not None:
                await self.hands.on_hand(interaction, table.id, refresh=False)

    @app_commands.command(name="abandon", description=text("command.abandon"))
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        member = interaction.user
        # as Discord resolved them for this interaction: the cache lacks a server's roles until its GUILD_CREATE
        can_manage = interaction.permissions.manage_guild
        async with self.work.working(interaction, update=False, public=True):  # the read and write may wait
            table = await self._table_here(interaction)
            if table is None:
                return
            try:
                await self.service.abandon(table.id, member.id, can_manage=can_manage)
            except TableError as error:
                await send(interaction, error_text(error, reader(interaction)))
                return
            await post(
                interaction,
                content=t(await self.guild_locale(table.guild_id), "table.abandoned_by", name=member.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @app_commands.command(name="resign", description=text("command.resign"))
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Give up the match one plays at here: a loss; the computer plays the seat on (or, where one side of
        people is left, the match ends). The channel is told in the server's language."""
        member = interaction.user
        async with self.work.working(interaction, update=False, public=True):  # the read and write may wait
            table = await self._table_here(interaction)
            if table is None:
                return
            try:
                outcome = await self.service.resign(table.id, member.id)
            except TableError as error:
                await send(interaction, error_text(error, reader(interaction)))
                return
            key = "table.resigned_by" if outcome.table.status == TableStatus.PLAYING else "table.resigned_ended"
            await post(
                interaction,
                content=t(await self.guild_locale(table.guild_id), key, name=member.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    # ------------------------------------------------------------------ clicks (see clicks.TableClicks)

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
        await self.lobby.on_lobby(interaction, table_id, op)

    async def on_add_computer(self, interaction: discord.Interaction[Any], table_id: int, level: str) -> None:
        await self.lobby.on_add_computer(interaction, table_id, level)

    async def on_remove_computer(self, interaction: discord.Interaction[Any], table_id: int, key: int) -> None:
        await self.lobby.on_remove_computer(interaction, table_id, key)

    async def on_rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self.lobby.on_rematch(interaction, table_id)

    async def on_hand(self, interaction: discord.Interaction[Any], table_id: int, *, refresh: bool) -> None:
        await self.hands.on_hand(interaction, table_id, refresh=refresh)

    async def on_act(self, interaction: discord.Interaction[Any], table_id: int, turn: int, action: str) -> None:
        await self.play_clicks.on_act(interaction, table_id, turn, action)

    async def on_choose(
        self, interaction: discord.Interaction[Any], table_id: int, turn: int, values: list[str], *, step: bool = False
    ) -> None:
        await self.play_clicks.on_choose(interaction, table_id, turn, values, step=step)

    async def on_cards(self, interaction: discord.Interaction[Any], table_id: int, turn: int, cards: list[str]) -> None:
        await self.play_clicks.on_cards(interaction, table_id, turn, cards)

    async def on_hint(self, interaction: discord.Interaction[Any], table_id: int, turn: int) -> None:
        await self.play_clicks.on_hint(interaction, table_id, turn)

    async def on_launch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Open the table as an Activity in its channel (the answer is LAUNCH_ACTIVITY): only a table that is
        (``belongs_here`` has checked it is this channel's), and only where this bot serves the Activity."""
        try:
            await self.service.table(table_id)
        except TableError as error:
            await send(interaction, error_text(error, reader(interaction)))
            return
        if not self.bot.activity_served:  # a forged button: Discord has no Activity of ours to open
            await send(interaction, t(reader(interaction), "error.unknown_button"))
            return
        await interaction.response.launch_activity()

    async def on_review(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await show_review(self.service, self.work, interaction, table_id)

    # ------------------------------------------------------------------ what Discord takes away

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (kicked, or the server deleted; an outage is ``on_guild_unavailable``,
        which changes nothing): nothing more is sent there, and its tables, tournaments and game nights close."""
        self.bot.unreachable.server_left(guild.id)
        await self.service.server_left(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.bot.unreachable.server_joined(guild.id)  # added back: it may be written to again

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: nothing more is sent there, and the tables posted in it are abandoned."""
        self.bot.unreachable.channel_deleted(channel.id)
        await self.service.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once a process is connected: each open private table's message is drawn again. A private thread
        deleted while no process heard it (the bot away) is found so (Discord: Unknown Channel), and the table
        goes on in a new one, rather than wait unseen for a move nobody can make (its hands went with it)."""
        if self._private_checked:
            return
        self._private_checked = True
        try:
            for table_id in await self.service.private_tables_open():
                self.publisher.touch(table_id)
        except Exception:
            log.exception("could not look over the open private tables")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: the tables that lived in it go on, their pings and notices in their channel."""
        self.bot.unreachable.channel_deleted(payload.thread_id)
        await self.service.thread_deleted(payload.thread_id)

    # ------------------------------------------------------------------ errors

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a component no handler knows (forged, or from a build long gone): say so, politely."""
        if interaction.type is not discord.InteractionType.component:
            return
        data = data_of(interaction)
        custom_id = str(data.get("custom_id", ""))
        if handled(custom_id) and on_its_message(interaction, data.get("component_type"), custom_id):
            return
        with contextlib.suppress(discord.HTTPException):
            await send(interaction, t(reader(interaction), "error.unknown_button"))


def on_its_message(interaction: discord.Interaction[Any], kind: object, custom_id: str) -> bool:
    """Whether the clicked message holds a component of that kind with that id: discord.py hands a click to its
    handler only then, and drops any other in silence ("This interaction failed": a select's id sent as a
    button's, an id the message does not show)."""
    message = interaction.message
    if message is None:
        return False
    layout = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = layout.from_message(message, timeout=None)
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id for item in view.walk_children()
    )


add_play_commands(Tables)  # /play-<game>, one command per game (see play_commands.py)
