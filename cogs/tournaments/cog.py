"""``/tournament``: create a tournament or a duplicate night, its sign-up message and host controls, and
what each round shows (its tables in threads with their people pinged, the standings, the podium).

The cog is thin: it parses each input at the door, calls ``service.tournaments``, and shows what the
service's tournament events say, read back from the service. A round's tables are ordinary tables: the
tables cog's publisher draws their messages and everything after that is the tables cog's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES, Option
from bot.games.options import whole_number
from bot.tables import NotAllowed, TableError
from bot.tables.game_nights import NightInfo
from bot.tables.tournament_records import (
    AFTER_ROUND,
    COMPARE_TIMES,
    DUPLICATE,
    FORMATS,
    SWISS,
    EntrantInfo,
    RoundTable,
    TournamentChanged,
    TournamentInfo,
)
from bot.tables.tournament_records import (
    LANGUAGE_CHANGED as LANGUAGE,
)

from ..client import TableBot
from ..gamenights.hooks import GAME_NIGHTS, SignUpsRegistry
from ..i18n import error_text, reader, t, text
from ..records.cog import game_choices
from ..replies import post, send, update
from ..tables.cog import Tables
from ..tables.lobby_clicks import NEEDED_PERMISSIONS, missing_in, missing_text
from ..tables.private_threads import PRIVATE_PERMISSIONS, open_private_thread
from ..tables.publisher import MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL
from ..tables.working import Work
from .components import HANDLER, signup_controls
from .render import comparison_embeds, podium_embed, signup_embed, standings_embed, table_ping, thread_name

log = logging.getLogger(__name__)


def table_nonce(table_id: int) -> str:
    """The nonce a tournament table's message is posted with (Discord keeps it unique for a few minutes): posted
    again after an answer lost once Discord had made it (a 5xx, the network), the table gets that message back
    rather than a second one (25 characters at most)."""
    return f"tt{table_id}"


# The bounds Discord offers for a tournament's table (the service refuses a size its game does not allow): up to
# the largest table of any game (Just Make's nine), and a knockout's advancing up to one fewer.
LARGEST_TABLE = max(max(spec.players) for spec in GAMES.values())
MOST_ADVANCING = LARGEST_TABLE - 1

MOST_OPTIONS_TEXT = 200


def parse_options(game: str, written: str | None) -> dict[str, Any] | str:
    """``name=value`` pairs as the game's options (typed by its specs), or the catalogue key of a refusal (which
    names the game, ``{game}``, and its options, ``{names}``: ``Game.option_names``)."""
    specs: dict[str, Option] = {option.name: option for option in GAMES[game].options}
    out: dict[str, Any] = {}
    if not written:
        return out
    if len(written) > MOST_OPTIONS_TEXT:
        return "tournament.bad_options_text"
    for part in written.replace(",", " ").split():
        name, _, value = part.partition("=")
        spec = specs.get(name.strip().replace("-", "_"))
        if spec is None or not value:
            return "tournament.bad_options_text"
        if isinstance(spec.default, bool):
            if value.lower() not in ("true", "false", "yes", "no", "on", "off"):
                return "tournament.bad_options_text"
            out[spec.name] = value.lower() in ("true", "yes", "on")
        elif isinstance(spec.default, int):
            number = whole_number(value)
            if number is None:
                return "tournament.bad_options_text"
            out[spec.name] = number
        else:
            out[spec.name] = value
    return out


class Tournaments(commands.Cog, name=HANDLER):
    """Tournaments and duplicate nights in chat."""

    tournament = app_commands.Group(
        name="tournament",
        description=text("command.tournament"),
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
    )

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.tournaments = bot.service.tournaments
        self.work = Work()
        self._posting: set[int] = set()  # tables whose message this process is posting
        self._told_private: set[int] = set()  # tournaments whose channel was told private threads were refused

    async def cog_load(self) -> None:
        self.tournaments.events.subscribe(self.on_event)
        self.tournaments.start_loop()
        nights = self.bot.get_cog(GAME_NIGHTS)  # loaded before this cog; loaded after, it finds this one
        if isinstance(nights, SignUpsRegistry):
            nights.register_sign_ups(self)

    async def locale_of(self, guild_id: int) -> str:
        return self.bot.languages.of(guild_id)

    # ------------------------------------------------------------------ commands

    @tournament.command(name="create", description=text("command.tournament_create"))
    @app_commands.describe(
        game=text("describe.tournament.game"),
        format=text("describe.tournament.format"),
        table_size=text("describe.tournament.table_size"),
        rounds=text("describe.tournament.rounds"),
        advance=text("describe.tournament.advance"),
        computers=text("describe.tournament.computers"),
        rated=text("describe.tournament.rated"),
        starts_in=text("describe.tournament.starts_in"),
        options=text("describe.tournament.options"),
        compare=text("describe.tournament.compare"),
    )
    @app_commands.choices(
        game=game_choices(),
        format=[app_commands.Choice(name=text(f"choice.format_{name}"), value=name) for name in FORMATS],
        compare=[app_commands.Choice(name=text(f"choice.compare_{name}"), value=name) for name in COMPARE_TIMES],
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        format: app_commands.Choice[str] | None = None,
        table_size: app_commands.Range[int, 2, LARGEST_TABLE] | None = None,
        rounds: app_commands.Range[int, 1, 15] = 3,
        advance: app_commands.Range[int, 1, MOST_ADVANCING] = 1,
        computers: bool = True,
        rated: bool = True,
        starts_in: app_commands.Range[int, 1, 43_200] | None = None,
        options: app_commands.Range[str, 1, MOST_OPTIONS_TEXT] | None = None,
        compare: app_commands.Choice[str] | None = None,
    ) -> None:
        locale = reader(interaction)
        if interaction.guild_id is None or interaction.channel_id is None or game.value not in GAMES:
            await send(interaction, t(locale, "error.unknown_game", game=game.value, allowed=", ".join(GAMES)))
            return
        chosen = parse_options(game.value, options)
        if isinstance(chosen, str):  # the names the game's options are typed by, which /rules does not show
            shown = t(locale, f"game.{game.value}")
            await send(interaction, t(locale, chosen, game=shown, names=GAMES[game.value].option_names))
            return
        kind = getattr(interaction.channel, "type", None)
        threadless = kind is not None and kind not in (discord.ChannelType.text, discord.ChannelType.news)
        if isinstance(interaction.channel, discord.Thread) or threadless:
            # its tables open threads of their own from the channel: none inside a thread, a voice or stage channel
            await send(interaction, t(locale, "tournament.not_in_thread"))
            return
        duplicate = format is not None and format.value == DUPLICATE
        if duplicate and getattr(interaction.channel, "type", None) == discord.ChannelType.news:
            await send(interaction, t(locale, "tournament.duplicate_not_in_news"))  # no private threads there
            return
        # its rounds' tables could not be posted here (a duplicate night's, in private threads): the sign-up would
        # lead nowhere
        needed = NEEDED_PERMISSIONS + (PRIVATE_PERMISSIONS if duplicate else ())
        missing = missing_in(interaction, None, needed)
        if missing:
            await send(interaction, missing_text(missing, locale, "tournament.missing_permissions"))
            return
        starts_at = self.tournaments.store.clock() + timedelta(minutes=starts_in) if starts_in else None
        async with self.work.working(interaction, update=False, public=True):
            try:
                info = await self.tournaments.create(
                    interaction.guild_id,
                    interaction.channel_id,
                    interaction.user.id,
                    interaction.user.display_name,
                    game.value,
                    chosen,
                    format=format.value if format else "swiss",
                    table_size=table_size,
                    rounds=rounds,
                    advance=advance,
                    computers=computers,
                    rated=rated,
                    starts_at=starts_at,
                    compare_after=compare.value if compare else None,
                )
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            public = await self.locale_of(info.guild_id)
            kwargs = self._signup(info, public)
            message = await post(interaction, **kwargs)  # in turn with the deferral, never both (40060)
            await self.tournaments.set_message(info.id, message.id)

    async def _entered(
        self, interaction: discord.Interaction[Any], tournament: int, player: discord.User
    ) -> tuple[TournamentInfo, EntrantInfo]:
        """A tournament of this server and ``player``'s entry in it, else refused (another server's, not entered)."""
        info = await self.tournaments.tournament(tournament)
        if info.guild_id != interaction.guild_id:
            raise NotAllowed("tournament_elsewhere")
        entrant = info.entrant_of(player.id)
        if entrant is None:
            raise NotAllowed("not_entered")
        return info, entrant

    @tournament.command(name="remove", description=text("command.tournament_remove"))
    @app_commands.describe(tournament=text("describe.tournament.tournament"), player=text("describe.tournament.player"))
    async def remove(
        self,
        interaction: discord.Interaction[Any],
        tournament: app_commands.Range[int, 1, 2_147_483_647],
        player: discord.User,
    ) -> None:
        locale = reader(interaction)
        async with self.work.working(interaction, update=False):
            try:
                _, entrant = await self._entered(interaction, tournament, player)
                manage = interaction.permissions.manage_guild  # as Discord resolved them (not the cache)
                info = await self.tournaments.remove(tournament, interaction.user.id, entrant.id, can_manage=manage)
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            await send(interaction, t(locale, "tournament.removed", name=f"<@{player.id}>"))
            await self._signup_changed(info)

    @tournament.command(name="replace", description=text("command.tournament_replace"))
    @app_commands.describe(
        tournament=text("describe.tournament.tournament"),
        player=text("describe.tournament.player"),
        replacement=text("describe.tournament.replacement"),
    )
    async def replace(
        self,
        interaction: discord.Interaction[Any],
        tournament: app_commands.Range[int, 1, 2_147_483_647],
        player: discord.User,
        replacement: discord.User,
    ) -> None:
        locale = reader(interaction)
        async with self.work.working(interaction, update=False):
            try:
                _, entrant = await self._entered(interaction, tournament, player)
                if replacement.bot:
                    raise NotAllowed("not_a_person")
                info = await self.tournaments.replace(
                    tournament,
                    interaction.user.id,
                    entrant.id,
                    replacement.id,
                    replacement.display_name,
                    can_manage=interaction.permissions.manage_guild,
                )
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            await send(interaction, t(locale, "tournament.replaced", name=f"<@{player.id}>", by=f"<@{replacement.id}>"))
            await self._signup_changed(info)

    @tournament.command(name="cancel", description=text("command.tournament_cancel"))
    @app_commands.describe(tournament=text("describe.tournament.tournament"))
    async def cancel(
        self, interaction: discord.Interaction[Any], tournament: app_commands.Range[int, 1, 2_147_483_647]
    ) -> None:
        """The sign-up message's Cancel, for a tournament whose message was deleted (nothing else could end it, and
        it held one of the server's few open tournaments for good): its host, or someone who can manage the
        server."""
        locale = reader(interaction)
        async with self.work.working(interaction, update=False):
            try:
                found = await self.tournaments.tournament(tournament)
                if found.guild_id != interaction.guild_id:
                    raise NotAllowed("tournament_elsewhere")
                manage = interaction.permissions.manage_guild
                await self.tournaments.cancel(tournament, interaction.user.id, can_manage=manage)
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            await send(interaction, t(locale, "tournament.cancelled_here", tournament=tournament))

    @tournament.command(name="standings", description=text("command.tournament_standings"))
    @app_commands.describe(tournament=text("describe.tournament.tournament"))
    async def standings(
        self, interaction: discord.Interaction[Any], tournament: app_commands.Range[int, 1, 2_147_483_647]
    ) -> None:
        locale = reader(interaction)
        async with self.work.working(interaction, update=False):
            try:
                info = await self.tournaments.tournament(tournament)
                if info.guild_id != interaction.guild_id:
                    raise NotAllowed("tournament_elsewhere")
                lines, after = await self.tournaments.standings_after(tournament)
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            embed = standings_embed(info, lines, after, locale, reader_id=interaction.user.id)
            await send(interaction, embed=embed)

    # ------------------------------------------------------------------ a tournament night's start

    async def open_sign_up(self, night: NightInfo, channel: discord.abc.Messageable) -> bool:
        """At a tournament night's start: its tournament in sign-up in ``channel``, as ``/tournament create``
        makes it (the night's host, game, options and format; its table size the night's players or the
        game's largest; the rest at their defaults), and its sign-up message posted. False, once the refusal
        is said in the channel in the server's language, when the service refuses it (the server's open
        tournaments at their limit, say)."""
        locale = await self.locale_of(night.guild_id)
        try:
            info = await self.tournaments.create(
                night.guild_id,
                night.channel_id,
                night.host_id,
                night.host_name,
                night.game,
                night.options,
                format=night.tournament_format or SWISS,
                table_size=night.players,
            )
        except TableError as error:
            await channel.send(t(locale, "night.tournament_refused", reason=error_text(error, locale)))
            return False
        try:
            message = await channel.send(**self._signup(info, locale))
        except (discord.HTTPException, aiohttp.ClientError):
            # no sign-up message, so nobody could join it: not left holding one of the server's open places
            with contextlib.suppress(TableError):
                await self.tournaments.cancel(info.id, night.host_id, can_manage=True)
            raise
        await self.tournaments.set_message(info.id, message.id)
        log.info("game night %s: tournament %s in sign-up in channel %s", night.id, info.id, night.channel_id)
        return True

    # ------------------------------------------------------------------ the sign-up message's buttons

    def _signup(self, info: TournamentInfo, locale: Any) -> dict[str, Any]:
        view = signup_controls(info.id, locale, status=info.status.value)
        return {"embed": signup_embed(info, locale), "view": view, "allowed_mentions": discord.AllowedMentions.none()}

    async def on_signup(self, interaction: discord.Interaction[Any], tournament_id: int, op: str) -> None:
        locale, user = reader(interaction), interaction.user
        async with self.work.working(interaction, update=True):
            manage = interaction.permissions.manage_guild  # as Discord resolved them (not the cache)
            try:
                found = await self.tournaments.tournament(tournament_id)
                if found.guild_id != interaction.guild_id:  # a button copied from another server
                    raise NotAllowed("tournament_elsewhere")
                if found.channel_id != interaction.channel_id:  # ... or from another channel of this one
                    await send(interaction, t(locale, "error.unknown_button"))
                    return
                if op == "join":
                    info = await self.tournaments.join(
                        tournament_id, interaction.guild_id or 0, user.id, user.display_name
                    )
                elif op == "leave":
                    info = await self.tournaments.leave(tournament_id, user.id)
                elif op == "cpu":
                    info = await self.tournaments.add_computer(tournament_id, user.id, can_manage=manage)
                elif op == "start":
                    info = await self.tournaments.start(tournament_id, user.id, can_manage=manage)
                else:
                    info = await self.tournaments.cancel(tournament_id, user.id, can_manage=manage)
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            clicked = interaction.message
            # the sign-up message itself (its id not yet recorded: a Join clicked before the create's write)
            if clicked is not None and info.message_id in (clicked.id, None):
                await update(interaction, **self._signup(info, await self.locale_of(info.guild_id)))
            else:
                await send(interaction, t(locale, "tournament.done"))

    # ------------------------------------------------------------------ what the service tells

    async def on_event(self, event: TournamentChanged) -> None:
        if event.what == "signup":
            return  # the click that changed the sign-up redrew it
        info = await self.tournaments.tournament(event.tournament_id)
        unreachable = self.bot.unreachable
        if info.guild_id in unreachable.servers or info.channel_id in unreachable.channels:
            return  # the bot was removed from the server (the tournament cancelled), or the channel was deleted
        locale = await self.locale_of(info.guild_id)
        channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        if info.message_id is not None and event.what in ("started", "cancelled", "finished", "round_opened", LANGUAGE):
            await self._redraw_signup(channel, info, locale)
        try:
            if event.what == "round_opened":
                await self._post_round(info, event.round, locale)
            elif event.what == "deal_compared" and event.deal is not None:
                if not await self.tournaments.deal_needs_posting(info.id, event.round, event.deal):
                    return  # posted already (this was published again while the first waited in the queue)
                deal = await self.tournaments.deal_comparison(info.id, event.round, event.deal)
                if deal is not None:
                    embeds = comparison_embeds(info, event.round, [deal], locale, deal_no=event.deal)
                    for part, embed in enumerate(embeds):
                        nonce = f"c{info.id}.{event.round}.{event.deal}.{part}"  # posted again: the same message
                        await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none(), nonce=nonce)
                await self.tournaments.deal_posted(info.id, event.round, event.deal)
            elif event.what == "round_done":
                if info.format == DUPLICATE and info.compare_after == AFTER_ROUND:
                    deals = await self.tournaments.comparison(info.id, event.round)
                    try:  # the standings go out below whatever happens to the comparison
                        for embed in comparison_embeds(info, event.round, deals, locale) if deals else []:
                            await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
                    except (discord.HTTPException, aiohttp.ClientError):
                        log.warning("could not show round %s's comparison of tournament %s", event.round, info.id)
                lines = await self.tournaments.standings(info.id)
                await channel.send(
                    embed=standings_embed(info, lines, event.round, locale),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            elif event.what == "finished":
                lines = await self.tournaments.standings(info.id)
                tables = await self.tournaments.round_tables(info.id)
                podium = await channel.send(
                    embed=podium_embed(info, lines, tables, locale), allowed_mentions=discord.AllowedMentions.none()
                )
                await self.tournaments.set_message(info.id, podium.id, podium=True)  # linked from /history
            elif event.what == "cancelled" and event.refusal is not None:  # its start time came with too few
                why = error_text(event.refusal, locale)
                await channel.send(t(locale, "tournament.called_off", tournament=info.id, reason=why))
            elif event.what == "cancelled":
                await channel.send(t(locale, "tournament.cancelled", tournament=info.id))
        except (discord.HTTPException, aiohttp.ClientError):
            log.warning("could not show %s of tournament %s", event.what, info.id)

    async def _signup_changed(self, info: TournamentInfo) -> None:
        """Who is in, changed by a command (/tournament remove, replace) rather than a click on the sign-up
        message: that message is redrawn to show it."""
        if info.message_id is None:
            return
        channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        await self._redraw_signup(channel, info, await self.locale_of(info.guild_id))

    async def _redraw_signup(self, channel: discord.PartialMessageable, info: TournamentInfo, locale: Any) -> None:
        """The sign-up message shows where the tournament is. Whatever happens to it, the round's tables, the
        standings, the podium follow (someone deleting it stalled the tournament for good); once deleted, it is
        forgotten, not asked for again at every round."""
        assert info.message_id is not None
        try:
            await channel.get_partial_message(info.message_id).edit(**self._signup(info, locale))
        except discord.NotFound:
            log.info("the sign-up message of tournament %s was deleted", info.id)
            with contextlib.suppress(TableError):
                await self.tournaments.set_message(info.id, None)
        except (discord.HTTPException, aiohttp.ClientError):
            log.warning("could not redraw the sign-up message of tournament %s", info.id)

    async def _post_round(self, info: TournamentInfo, round_no: int, locale: Any) -> None:
        """Each table of the round not shown yet: its message in the channel, a thread, its people pinged. The
        messages are posted one after another, so the channel lists the tables in order; each one's thread,
        place and ping follow while the next is posted (a round of 16 tables waits for Discord's answer 16
        times, not 48). A private table (a duplicate night's: every table holds the same cards) posts nothing in
        the channel: its message goes in a private thread of its own that only its people are added to."""
        tables_cog = self.bot.cog_of(Tables)
        channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        following: list[asyncio.Task[bool]] = []
        # Every table not posted yet is this call's at once: a round announced again while an earlier call is still
        # posting it (a round of many tables under Discord's limits) leaves those tables to it, so none is posted
        # twice however late the earlier call comes to one.
        claimed = [
            table
            for table in await self.tournaments.round_tables(info.id, round_no)
            if table.message_id is None and table.table_id not in self._posting
        ]
        self._posting.update(table.table_id for table in claimed)
        handed: set[int] = set()  # tables whose claim a task of their own holds (and gives up when done)
        try:
            for table in claimed:
                if table.private:
                    following.append(asyncio.create_task(self._open_private(info, table, locale)))
                    handed.add(table.table_id)
                    continue
                try:
                    message = await tables_cog.publisher.send_new(  # (as text without files)
                        channel, table.table_id, nonce=table_nonce(table.table_id)
                    )
                except (discord.HTTPException, aiohttp.ClientError) as error:
                    if isinstance(error, discord.HTTPException) and error.status in (401, 403, 404, 429):
                        raise  # the channel's refusal, not the table's (Cloudflare's 429 too): the rest would be too
                    # Discord's failure or the network's, this once
                    log.warning("table %s of tournament %s not posted: %s", table.table_id, info.id, error)
                    continue  # the service announces the round again in a while
                tables_cog.publisher.mark_shown(table.table_id)
                following.append(asyncio.create_task(self._open_table(info, table, message.id, locale)))
                handed.add(table.table_id)
        finally:
            self._posting.difference_update(table.table_id for table in claimed if table.table_id not in handed)
            outcomes = await asyncio.gather(*following, return_exceptions=True)
            for failed in outcomes:
                if isinstance(failed, Exception):
                    log.warning("a table of tournament %s was posted without its thread or ping: %s", info.id, failed)
        if False in outcomes and info.id not in self._told_private:  # shown in the channel after all: said once
            self._told_private.add(info.id)  # (a round posted in two goes, or the next round, is not told again)
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
                await channel.send(
                    missing_text(list(PRIVATE_PERMISSIONS), locale, "tournament.private_refused", tournament=info.id)
                )

    async def _open_table(
        self, info: TournamentInfo, table: RoundTable, message_id: int, locale: Any, *, private: bool | None = None
    ) -> bool:
        """A round's table just posted: its thread, where it is, and its people pinged there."""
        try:
            thread_id = None
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
                # by the route itself: this process may not hold the server (another shard's), and a
                # message's create_thread wants the server from the gateway's cache
                thread = await self.bot.http.start_thread_with_message(
                    info.channel_id, message_id, name=thread_name(info, table, locale), auto_archive_duration=1440
                )
                thread_id = int(thread["id"])
            await self.bot.cog_of(Tables).publisher.place(
                table.table_id, message_id=message_id, thread_id=thread_id, private=private
            )
            line, users = table_ping(info, table, locale)
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users])
            target = self.bot.get_partial_messageable(thread_id or info.channel_id, guild_id=info.guild_id)
            try:
                await target.send(line, allowed_mentions=mentions)
            except discord.Forbidden:  # a thread the bot may not write in (no Send Messages in Threads)
                if thread_id is None:
                    raise
                self.bot.unreachable.thread_refused(thread_id)  # its turn pings go to the channel for a while too
                channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
                await channel.send(line, allowed_mentions=mentions)  # its people pinged all the same
        finally:
            self._posting.discard(table.table_id)
        return private is not False

    async def _open_private(self, info: TournamentInfo, table: RoundTable, locale: Any) -> bool:
        """A private table of the round: a private thread only its people are added to (nobody may invite others),
        its message and their ping there. The thread is kept as soon as it is made, so a table posted again (a
        restart, a failure) goes on in it rather than in another. Where Discord refuses the thread or the message
        in it (the bot may not create private threads there, or send in threads, any more), the table is shown in
        the channel as any other, rather than not at all: False. Any other failure (Discord's, the network's) is
        raised: the table is left unposted, as any round's table Discord failed to take, and is posted when the
        service announces its round again (in this thread, once it was made)."""
        tables = self.bot.cog_of(Tables)
        publisher = tables.publisher
        try:
            current = await tables.service.table(table.table_id)
            people = [seat.user_id for seat in current.seats if seat.user_id is not None]
            thread_id = current.thread_id
            try:
                if thread_id is None:
                    name = thread_name(info, table, locale)
                    thread_id = await open_private_thread(self.bot.http, info.channel_id, name, people)
                    await tables.service.set_location(table.table_id, thread_id=thread_id)
                thread = self.bot.get_partial_messageable(thread_id, guild_id=info.guild_id)
                message = await publisher.send_new(thread, table.table_id, nonce=table_nonce(table.table_id))
            except discord.NotFound as gone:
                if gone.code == UNKNOWN_CHANNEL and current.thread_id is not None:  # deleted before its message
                    await tables.service.lobby.forget_thread(table.table_id, current.thread_id)  # a new one next
                raise
            except discord.Forbidden as refused:
                if refused.code not in (MISSING_PERMISSIONS, MISSING_ACCESS):
                    raise
                log.warning("no private thread for table %s: shown in its channel (%s)", table.table_id, refused)
                if thread_id is not None:
                    await tables.service.lobby.forget_thread(table.table_id, thread_id)
                channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
                message = await publisher.send_new(channel, table.table_id, nonce=table_nonce(table.table_id))
                publisher.mark_shown(table.table_id)
                return await self._open_table(info, table, message.id, locale, private=False)
            publisher.mark_shown(table.table_id)
            await publisher.place(table.table_id, message_id=message.id, thread_id=thread_id)
            line, _ = table_ping(info, table, locale)
            mentions = discord.AllowedMentions(users=[discord.Object(user) for user in people])
            await thread.send(line, allowed_mentions=mentions)  # only its seats' people: a mention adds to it
        finally:
            self._posting.discard(table.table_id)
        return True
