"""Opening a table (``/play``, a rematch) and its lobby's clicks: join, leave, hints, computers, start.

The lobby's own message is redrawn in place by the click that changed it; a start's table and
everything after it reach the channel through the service's events (see ``presenting``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

from bot.tables import ChannelBusy, SeatInfo, TableError, TableInfo, TableService, TableStatus

from ..i18n import error_text, reader, t
from ..replies import post, send, update
from .lobby import computer_choice
from .publisher import Publisher, lobby_controls
from .render import game_name, lobby_embed, seat_name
from .working import Work, show_note

log = logging.getLogger(__name__)

# What a table needs in its channel, or it would be posted and then freeze (attaching files and threads
# have fallbacks: the table as text, the table in the channel).
NEEDED_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "read_message_history")


def missing_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    """The permissions a table needs in this channel that the bot lacks here (it would freeze)."""
    granted = interaction.app_permissions
    return [name for name in NEEDED_PERMISSIONS if not getattr(granted, name)]


def missing_in(
    interaction: discord.Interaction[Any], channel: discord.abc.GuildChannel | None, needed: tuple[str, ...]
) -> list[str]:
    """The permissions of ``needed`` the bot lacks in ``channel``, a channel chosen in a command's option (None:
    the one the command was run in, whose permissions come with the interaction)."""
    me = channel.guild.me if channel is not None else None
    granted = channel.permissions_for(me) if channel is not None and me is not None else interaction.app_permissions
    return [name for name in needed if not getattr(granted, name)]


def missing_text(missing: list[str], locale: Any, key: str = "play.missing_permissions", **params: Any) -> str:
    """What to grant, said in the reader's language."""
    names = t(locale, "permission.separator").join(t(locale, f"permission.{name}") for name in missing)
    return t(locale, key, permissions=names, **params)


class LobbyClicks:
    """Opening tables and the lobby's controls."""

    def __init__(
        self, service: TableService, publisher: Publisher, work: Work, locale_of: Callable[[int], Awaitable[str]]
    ) -> None:
        self.service = service
        self.publisher = publisher
        self.work = work
        self.locale_of = locale_of  # the language of a server's public messages

    @staticmethod
    def _missing(interaction: discord.Interaction[Any]) -> list[str]:
        return missing_permissions(interaction)

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
        rematch_of: int | None = None,
    ) -> None:
        """Open a lobby (the host seated, and for a rematch of table ``rematch_of`` everyone who played), post it,
        and start its thread."""
        locale = reader(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:  # (a command made by hand, in a DM)
            await send(interaction, t(locale, "error.server_only"))
            return
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id in self.publisher.unreachable.servers:  # a rematch's button clicked after the bot was removed
            await send(interaction, t(locale, "error.not_in_server"))
            return
        if isinstance(interaction.channel, discord.Thread) and interaction.channel.parent_id:
            await send(interaction, t(locale, "play.not_in_thread"))
            return
        missing = self._missing(interaction)
        if missing:  # a table posted here could not be shown or kept up to date: say what to grant
            await send(interaction, missing_text(missing, locale))
            return
        async with self.work.working(interaction, update=False, public=True):  # the lobby is for everyone
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
                    rematch_of=rematch_of,
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
            public_locale = await self.locale_of(guild_id)
            embed, view = lobby_embed(table, public_locale), lobby_controls(table, public_locale)
            try:
                message = await post(interaction, embed=embed, view=view)  # deferred: in place of "is thinking…"
            except (discord.HTTPException, aiohttp.ClientError):  # all or nothing: no lobby nobody can see
                with contextlib.suppress(TableError):
                    await self.service.abandon(table.id, interaction.user.id, can_manage=True)
                raise
            self.publisher.mark_shown(table.id, table.version)
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
            await self.publisher.place(table.id, message_id=message.id, thread_id=thread_id)
            await self._tell_host_what_is_missing(interaction, table, settings.thread_per_table and not own_thread)

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
        """A lobby opened by the bot itself (a scheduled game night at its start): the host seated, posted in
        the channel after ``intro`` (a message of its own), played in the channel. A refusal (the channel's
        open table, the server's limits) is the service's TableError, with nothing left behind."""
        settings = await self.service.guild_settings(guild_id)
        options = {**settings.default_options.get(game, {}), **options}
        table = await self.service.open_table(
            guild_id, channel_id, host[0], host[1], game, options, players, scheduled=True
        )
        locale = await self.locale_of(guild_id)
        try:
            await channel.send(intro)  # its own message: a lobby's redraw replaces the lobby message's content
            message = await channel.send(embed=lobby_embed(table, locale), view=lobby_controls(table, locale))
        except (discord.HTTPException, aiohttp.ClientError):  # no lobby nobody can see
            with contextlib.suppress(TableError):
                await self.service.abandon(table.id, host[0], can_manage=True)
            raise
        self.publisher.mark_shown(table.id, table.version)
        await self.publisher.place(table.id, message_id=message.id)
        return table

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
            await self.publisher.place(table.id, message_id=message.id, in_channel=True)
        except ChannelBusy:
            with contextlib.suppress(TableError):
                await self.service.abandon(table.id, interaction.user.id, can_manage=True)
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
                await message.delete()  # the lobby is gone: so is its message
            await send(interaction, t(locale, "play.no_thread_busy"))
            return
        await send(interaction, t(locale, "play.no_thread"))

    async def on_lobby(self, interaction: discord.Interaction[Any], table_id: int, op: str) -> None:
        user, locale = interaction.user, reader(interaction)
        if op == "cpu":
            await self.offer_computers(interaction, table_id)
            return
        async with self.work.working(interaction, update=True):
            # The lobby's lock from before the change until its message is redrawn: the edit the change's event
            # asks the publisher for comes after, sees this version shown, and is not made.
            async with self.publisher.lock(table_id):
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
                        await self.service.start(table_id, user.id, message_id=lobby)
                except TableError as error:
                    await send(interaction, error_text(error, locale))
                    return
                kwargs = await self.publisher.message(table_id, can_attach=interaction.app_permissions.attach_files)
                await update(interaction, **kwargs)
                self.publisher.mark_shown(table_id)
            if op == "start":  # the match's table follows from the service's events
                await send(interaction, t(locale, "lobby.started_hint"))

    async def offer_computers(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The host's own choice of a computer's level (anyone else is told only the host can)."""
        locale = reader(interaction)
        async with self.work.working(interaction, update=False):
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
        async with self.work.working(interaction, update=True):
            try:
                table = await self.service.add_computer(table_id, interaction.user.id, level=level)
            except TableError as error:
                await show_note(interaction, "⚠️ " + error_text(error, locale))
                return
            added = t(locale, "lobby.computer_added", name=seat_name(table, table.seats[-1].index, locale))
            kwargs = computer_choice(table, locale, note=added)
            if interaction.message is not None and interaction.message.flags.ephemeral:
                await update(interaction, content=None, **kwargs)  # no earlier warning left above it
            else:  # a choice on a public message (forged): never write the host's choice over it
                await send(interaction, **kwargs)
        self.publisher.touch(table_id)

    async def on_remove_computer(self, interaction: discord.Interaction[Any], table_id: int, key: int) -> None:
        """Take a computer out of the lobby; the host's choice is redrawn with the seats as they are now."""
        locale = reader(interaction)
        async with self.work.working(interaction, update=True):
            try:
                before = await self.service.table(table_id)
                gone = next((s for s in before.seats if s.key == key and s.computer), None)
                table = await self.service.remove_computer(table_id, interaction.user.id, key)
            except TableError as error:
                await show_note(interaction, "⚠️ " + error_text(error, locale))
                return
            name = seat_name(before, gone.index, locale) if gone is not None else ""
            kwargs = computer_choice(table, locale, note=t(locale, "lobby.computer_removed", name=name))
            if interaction.message is not None and interaction.message.flags.ephemeral:
                await update(interaction, content=None, **kwargs)
            else:  # a choice on a public message (forged): never write the host's choice over it
                await send(interaction, **kwargs)
        self.publisher.touch(table_id)

    async def on_rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        try:
            old = await self.service.table(table_id)
        except TableError as error:
            await send(interaction, error_text(error, reader(interaction)))
            return
        if old.is_open:
            await send(interaction, t(reader(interaction), "error.rematch_open"))
            return
        if old.guild_id in self.publisher.unreachable.servers:  # the button clicked after the bot was removed
            await send(interaction, t(reader(interaction), "error.not_in_server"))
            return
        if old.status != TableStatus.FINISHED or old.private:  # offered only there: a forged button changes nothing
            await send(interaction, t(reader(interaction), "error.rematch_none"))
            return
        if old.seat_of(interaction.user.id) is None:  # a watcher: the rematch is the players' to start
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
            rematch_of=old.id,
        )
