"""/gamenight schedule: a game night as a Discord Scheduled Event; its interested people pinged a little before
it begins, its lobby opened by itself at its start; an edit or a cancellation in Discord followed.

The night is kept in the database: every few seconds the cog asks the service which nights are due, each
claimed by one process however many run, so a night is pinged once and opened once, across restarts too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import TableError
from bot.tables.game_nights import NightInfo
from bot.tables.tournament_records import DUPLICATE, FORMATS

from ..client import TableBot
from ..i18n import error_text, reader, t, text
from ..records.cog import game_choices
from ..replies import PUBLIC_THINKING, answer_lock, send
from ..tables.lobby_clicks import NEEDED_PERMISSIONS, missing_in, missing_text
from ..tables.private_threads import PRIVATE_PERMISSIONS
from ..tables.render import game_name
from ..tables.working import answering
from .hooks import GAME_NIGHTS, TABLES, LobbyOpener, TournamentSignUps

log = logging.getLogger(__name__)

DUE_SECONDS = 5.0  # how often the nights due are asked for
NIGHT_HOURS = 3  # the Discord event's length (an external event must say when it ends)
INTERESTED_SHOWN = 100  # the people pinged: the first page of the event's interested users
MESSAGE_MAX = 2000
EMBED_TEXT_MAX = 2000  # a part of the list, in one embed (its description may hold 4,096)
EMBEDS_TOTAL_MAX = 6000  # a message's embeds together
MORE_ROOM = 40  # kept for "…and N more"
LISTED = 25  # the nights /gamenight list shows, and the choices offered to cancel (Discord's most)
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
AUDIT_REASON_MAX = 512
HANDLER = GAME_NIGHTS


def stamp(moment: datetime, style: str) -> str:
    return f"<t:{int(moment.timestamp())}:{style}>"


def night_title(night: NightInfo, locale: str) -> str:
    """The night's game, and its tournament's format if it opens one: "Oh Hell", "Oh Hell (Swiss)"."""
    game = game_name(night.game, locale)
    if night.tournament_format is None:
        return game
    return t(locale, "night.title_tournament", game=game, format=t(locale, f"choice.format_{night.tournament_format}"))


def night_line(night: NightInfo, locale: str) -> str:
    """One night of /gamenight list: its number (what /gamenight cancel takes), game, start, channel, host and a
    link to its Discord event (where people mark themselves Interested)."""
    return t(
        locale,
        "night.list_line",
        id=night.id,
        game=night_title(night, locale),
        when=stamp(night.starts_at, "F"),
        relative=stamp(night.starts_at, "R"),
        channel=f"<#{night.channel_id}>",
        host=f"<@{night.host_id}>",
        link=f"https://discord.com/events/{night.guild_id}/{night.event_id}",
    )


def list_embeds(title: str, lines: list[str], more: Callable[[int], str]) -> list[discord.Embed]:
    """``lines`` under ``title``, over as many embeds as their length needs (a description holds 4,096
    characters, a message's embeds 6,000 together): 25 nights' lines fit (two or three embeds); past 6,000 in
    all (never with Discord's names as they are), the last ones are counted instead (``more(n)``)."""
    embeds: list[discord.Embed] = []
    current: list[str] = []
    total = len(title)
    for at, line in enumerate(lines):
        if total + len(line) + 1 > EMBEDS_TOTAL_MAX - MORE_ROOM:
            current.append(more(len(lines) - at))
            break
        if current and len("\n".join([*current, line])) > EMBED_TEXT_MAX:
            embeds.append(discord.Embed(description="\n".join(current)))
            current = []
        current.append(line)
        total += len(line) + 1
    embeds.append(discord.Embed(description="\n".join(current)))
    embeds[0].title = title
    return embeds


def mention_messages(first: str, user_ids: list[int]) -> list[str]:
    """``first`` and the mentions of ``user_ids``, in as few messages as Discord's length allows."""
    messages, current = [], first
    for user_id in user_ids:
        mention = f"<@{user_id}>"
        if len(current) + 1 + len(mention) > MESSAGE_MAX:
            messages.append(current)
            current = mention
        else:
            current = f"{current} {mention}" if current else mention
    messages.append(current)
    return messages


@dataclass
class PingProgress:
    """How far one night's ping went: the claim it goes under (renewed just before it is sent; None: another
    process's now), and whether any of it was sent."""

    claim: NightInfo | None
    sent: bool = False


class GameNights(commands.Cog, name=HANDLER):
    """Scheduled game nights: the command, the pings, the lobby at the start, Discord's edits followed."""

    gamenight = app_commands.Group(
        name="gamenight",
        description=text("command.gamenight"),
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
    )

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.sign_ups: TournamentSignUps | None = None
        self._due: asyncio.Task[None] | None = None

    def register_sign_ups(self, hook: TournamentSignUps) -> None:
        """The tournaments' cog opens the sign-up of a tournament night through ``hook``."""
        self.sign_ups = hook

    async def cog_load(self) -> None:
        for cog in self.bot.cogs.values():  # the tournaments' cog loaded first registers here (it also looks)
            if isinstance(cog, TournamentSignUps):
                self.register_sign_ups(cog)
        self.service.game_nights.when_channel_gone(self._channel_gone)
        self._due = asyncio.create_task(self._due_forever(), name="game-nights")

    async def cog_unload(self) -> None:
        if self._due is not None:
            self._due.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._due

    # ------------------------------------------------------------------ /gamenight schedule

    @gamenight.command(name="schedule", description=text("command.gamenight_schedule"))
    @app_commands.describe(
        game=text("describe.gamenight.game"),
        start=text("describe.gamenight.start"),
        options=text("describe.gamenight.options"),
        players=text("describe.gamenight.players"),
        channel=text("describe.gamenight.channel"),
        tournament=text("describe.gamenight.tournament"),
    )
    @app_commands.choices(
        game=game_choices(),
        tournament=[app_commands.Choice(name=text(f"choice.format_{name}"), value=name) for name in FORMATS],
    )
    async def schedule(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        start: app_commands.Range[str, 1, 32],
        options: app_commands.Range[str, 1, 200] | None = None,
        players: app_commands.Range[int, 2, 10] | None = None,
        channel: discord.TextChannel | None = None,
        tournament: str | None = None,  # a plain value: one no choice offers is refused by the service, politely
    ) -> None:
        locale = reader(interaction)
        guild = interaction.guild
        where = channel or interaction.channel
        if guild is None or not isinstance(where, discord.TextChannel):
            await send(interaction, t(locale, "night.text_channel_only"))
            return
        asker = interaction.permissions
        if not (asker.create_events or asker.manage_events or asker.manage_guild):
            await send(interaction, t(locale, "night.not_allowed"))
            return
        chosen = getattr(interaction.namespace, "channel", None)  # (Discord resolved its permissions for the asker)
        if channel is not None and isinstance(chosen, app_commands.AppCommandChannel):
            theirs = chosen.permissions
            if not (theirs.view_channel and theirs.send_messages):  # nobody schedules into a channel not theirs
                await send(interaction, t(locale, "night.channel_not_yours", channel=where.mention))
                return
        # Since 2026-02-23 a bot needs Create Events to create a scheduled event (Manage Events alone no longer
        # does); with it the bot may also edit and end the events it created.
        if not interaction.app_permissions.create_events:
            await send(interaction, t(locale, "night.no_create_events"))
            return
        if tournament == DUPLICATE and where.is_news():  # a duplicate night's tables need private threads
            await send(interaction, t(locale, "tournament.duplicate_not_in_news"))
            return
        # its lobby is opened there at the start (a duplicate night's tables, in private threads of their own)
        needed = NEEDED_PERMISSIONS + (PRIVATE_PERMISSIONS if tournament == DUPLICATE else ())
        missing = missing_in(interaction, channel, needed)
        if missing:
            await send(interaction, missing_text(missing, locale, "night.missing_permissions", channel=where.mention))
            return
        try:
            plan = self.service.game_nights.check(game.value, options, players, start, tournament)
            async with answering(interaction, update=False, public=True):  # the database may be slow: in time
                await self.service.game_nights.room_for(guild.id)
        except TableError as error:
            await send(interaction, error_text(error, locale))
            return
        async with answer_lock(interaction):
            if not interaction.response.is_done():
                await interaction.response.defer(thinking=True)  # public: the night is announced in its place
        interaction.extras[PUBLIC_THINKING] = True  # a refusal from here on is for the asker alone (``send``)
        public = self.bot.languages.of(guild.id)
        name = game_name(game.value, public)
        # a tournament night's event says so, and which format: "night.event_name_tournament" and so on
        suffix = "" if plan.tournament_format is None else "_tournament"
        shown_format = "" if plan.tournament_format is None else t(public, f"choice.format_{plan.tournament_format}")
        try:
            event = await guild.create_scheduled_event(
                name=t(public, f"night.event_name{suffix}", game=name, format=shown_format)[:100],
                description=t(
                    public, f"night.event_description{suffix}", game=name, format=shown_format, channel=f"#{where.name}"
                )[:1000],
                start_time=plan.starts_at,
                end_time=plan.starts_at + timedelta(hours=NIGHT_HOURS),
                entity_type=discord.EntityType.external,
                location=f"#{where.name}"[:100],
                privacy_level=discord.PrivacyLevel.guild_only,
            )
        except discord.Forbidden:
            await send(interaction, t(locale, "night.no_create_events"))
            return
        except (discord.HTTPException, aiohttp.ClientError):
            log.warning("creating the scheduled event of a game night failed", exc_info=True)
            await send(interaction, t(locale, "night.create_failed"))
            return
        try:
            night = await self.service.game_nights.schedule(
                plan,
                guild_id=guild.id,
                channel_id=where.id,
                event_id=event.id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
            )
        except Exception as error:  # not stored (the database away, the cap reached meanwhile): no event left behind
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
                await event.delete()
            if not isinstance(error, TableError):
                raise
            await send(interaction, error_text(error, locale))  # to the asker alone (its thinking was public)
            return
        said = t(  # the channel's announcement: in the server's language, as every public message
            public,
            f"night.scheduled{suffix}",
            format=shown_format,
            host=interaction.user.mention,
            game=game_name(night.game, public),
            when=stamp(night.starts_at, "F"),
            relative=stamp(night.starts_at, "R"),
            channel=where.mention,
        )
        interaction.extras.pop(PUBLIC_THINKING, None)
        await interaction.edit_original_response(content=said, allowed_mentions=discord.AllowedMentions.none())

    # ------------------------------------------------------------------ /gamenight list and /gamenight cancel

    @gamenight.command(name="list", description=text("command.gamenight_list"))
    async def list_nights(self, interaction: discord.Interaction[Any]) -> None:
        """The server's nights to come, soonest first, for the asker alone, in their language."""
        locale, guild_id = reader(interaction), interaction.guild_id or 0
        async with answering(interaction, update=False):  # the database may be slow: answered in time
            nights = await self.service.game_nights.upcoming(guild_id, LISTED)
        if not nights:
            await send(interaction, t(locale, "night.list_empty"))
            return
        lines = [night_line(night, locale) for night in nights]
        embeds = list_embeds(t(locale, "night.list_title"), lines, lambda n: t(locale, "night.list_more", count=n))
        await send(interaction, embeds=embeds, allowed_mentions=discord.AllowedMentions.none())

    @gamenight.command(name="cancel", description=text("command.gamenight_cancel"))
    @app_commands.describe(night=text("describe.gamenight.night"))
    async def cancel(self, interaction: discord.Interaction[Any], night: int) -> None:
        """A night cancelled by its host (or by someone who manages the server's events) before it begins: its
        Discord event cancelled too (the bot created it: its host may not be able to), and its channel told."""
        locale, guild = reader(interaction), interaction.guild
        if guild is None:
            await send(interaction, t(locale, "night.text_channel_only"))
            return
        asker = interaction.permissions
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            cancelled = await self.service.game_nights.cancel(
                guild.id, night, interaction.user.id, may_manage=asker.manage_events or asker.manage_guild
            )
        except TableError as error:
            await send(interaction, error_text(error, locale))
            return
        public = self.bot.languages.of(guild.id)
        reason = t(public, "night.cancel_reason", who=interaction.user.name)[:AUDIT_REASON_MAX]
        event_gone = await self._end_event(cancelled, reason)
        when = stamp(cancelled.starts_at, "F")
        done = "night.cancel_done" if event_gone else "night.cancel_event_failed"
        await send(interaction, t(locale, done, game=night_title(cancelled, locale), when=when))
        who, title = interaction.user.mention, night_title(cancelled, public)
        said = t(public, "night.cancelled_by", who=who, game=title, when=when)
        with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, TypeError):
            await (await self._channel(cancelled)).send(said, allowed_mentions=discord.AllowedMentions.none())

    @gamenight.command(name="move", description=text("command.gamenight_move"))
    @app_commands.describe(night=text("describe.gamenight.night_move"), start=text("describe.gamenight.start"))
    async def move(
        self, interaction: discord.Interaction[Any], night: int, start: app_commands.Range[str, 1, 32]
    ) -> None:
        """A night moved to another start by its host (or someone who manages the server's events): its Discord
        event moved too (the bot created it: its host may not be able to), its people pinged again before the
        new start, and its channel told."""
        locale, guild = reader(interaction), interaction.guild
        if guild is None:
            await send(interaction, t(locale, "night.text_channel_only"))
            return
        asker, nights = interaction.permissions, self.service.game_nights
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            found, starts_at = await nights.may_move(
                guild.id, night, interaction.user.id, start, may_manage=asker.manage_events or asker.manage_guild
            )
        except TableError as error:
            await send(interaction, error_text(error, locale))
            return
        title = night_title(found, locale)
        try:  # an event Discord already began (its start came, or someone pressed Start) keeps its start
            event = await self.bot.http.get_scheduled_event(guild.id, found.event_id, with_user_count=False)
        except (discord.HTTPException, aiohttp.ClientError):
            await send(interaction, t(locale, "night.move_failed", game=title))
            return
        if int(event.get("status", discord.EventStatus.scheduled.value)) != discord.EventStatus.scheduled.value:
            await send(interaction, t(locale, "error.night_event_begun"))
            return
        # The night first, claimed by the move (no ping, no opening, meanwhile), then its event: Discord's echo of
        # the edit finds the night already there (the channel is told once, here); if the event cannot be moved,
        # the night is put back as it was.
        claim = await nights.begin_move(found, starts_at)
        if claim is None:  # it changed as this asked: said as it is now (began, cancelled; its ping under way)
            try:
                await nights.waiting_night(guild.id, found.id, interaction.user.id, may_manage=True)
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            await send(interaction, t(locale, "error.night_pinging"))  # still waiting: its ping came meanwhile
            return
        public = self.bot.languages.of(guild.id)
        reason = t(public, "night.move_reason", who=interaction.user.name)[:AUDIT_REASON_MAX]
        try:
            await self.bot.http.edit_scheduled_event(
                guild.id,
                found.event_id,
                scheduled_start_time=starts_at.isoformat(),
                scheduled_end_time=(starts_at + timedelta(hours=NIGHT_HOURS)).isoformat(),
                reason=reason,
            )
        except Exception as error:  # Discord refused, or no answer came: the night as it was
            log.warning("game night %s: could not move its Discord event %s: %s", found.id, found.event_id, error)
            await nights.put_back(found, starts_at, claim)
            await send(interaction, t(locale, "night.move_failed", game=title))
            return
        if await nights.end_move(found, starts_at, claim) is None:  # cancelled in Discord meanwhile
            await send(interaction, t(locale, "error.night_not_waiting"))
            return
        when, relative = stamp(starts_at, "F"), stamp(starts_at, "R")
        await send(interaction, t(locale, "night.move_done", game=title, when=when))
        said = t(
            public,
            "night.moved_by",
            who=interaction.user.mention,
            game=night_title(found, public),
            when=when,
            relative=relative,
        )
        with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, TypeError):
            await (await self._channel(found)).send(said, allowed_mentions=discord.AllowedMentions.none())

    @cancel.autocomplete("night")
    async def nights_to_cancel(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[int]]:
        return await self._nights_offered(interaction, typed)

    @move.autocomplete("night")
    async def nights_to_move(self, interaction: discord.Interaction[Any], typed: str) -> list[app_commands.Choice[int]]:
        return await self._nights_offered(interaction, typed)

    async def _nights_offered(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[int]]:
        """The server's nights to come that the asker may cancel or move (their own, or any if they manage
        events), those whose name holds what is typed, soonest first."""
        locale, asker = reader(interaction), interaction.permissions
        may_manage = asker.manage_events or asker.manage_guild
        wanted = str(typed).strip().casefold()
        choices = []
        for found in await self.service.game_nights.upcoming(interaction.guild_id or 0, LISTED):
            if found.host_id != interaction.user.id and not may_manage:
                continue
            channel = self.bot.get_channel(found.channel_id)
            where = f"#{channel.name}" if isinstance(channel, discord.abc.GuildChannel) else str(found.channel_id)
            name = t(
                locale,
                "night.choice",
                id=found.id,
                game=night_title(found, locale),
                when=found.starts_at.strftime("%Y-%m-%d %H:%M"),
                channel=where,
            )
            if wanted in name.casefold():
                choices.append(app_commands.Choice(name=name[:CHOICE_NAME_MAX], value=found.id))
        return choices[:CHOICES_MAX]

    async def _channel_gone(self, nights: list[NightInfo]) -> None:
        """Nights cancelled with their deleted channel: their Discord events cancelled too (external events, which
        Discord would begin, telling those interested, with no lobby to come)."""
        for night in nights:  # the audit log's reason, in the server's language as the other reasons
            await self._end_event(night, t(self.bot.languages.of(night.guild_id), "night.channel_gone_reason"))

    async def _end_event(self, night: NightInfo, reason: str) -> bool:
        """The night's Discord event cancelled (or ended, where Discord already began it at its start time, as
        it does an external event's): True once it no longer waits there (or is gone)."""
        try:
            event = await self.bot.http.get_scheduled_event(night.guild_id, night.event_id, with_user_count=False)
            status = int(event.get("status", discord.EventStatus.scheduled.value))
            if status in (discord.EventStatus.ended.value, discord.EventStatus.cancelled.value):
                return True
            for _ in range(2):  # Discord may begin it between the read and the edit: then it is ended instead
                ending = discord.EventStatus.active.value == status
                new = discord.EventStatus.ended if ending else discord.EventStatus.cancelled
                try:
                    await self.bot.http.edit_scheduled_event(
                        night.guild_id, night.event_id, status=new.value, reason=reason
                    )
                    return True
                except discord.HTTPException as refused:
                    if refused.status != 400 or ending:
                        raise
                event = await self.bot.http.get_scheduled_event(night.guild_id, night.event_id, with_user_count=False)
                status = int(event.get("status", discord.EventStatus.scheduled.value))
                if status in (discord.EventStatus.ended.value, discord.EventStatus.cancelled.value):
                    return True
            return False
        except discord.NotFound:
            return True
        except (discord.HTTPException, aiohttp.ClientError) as error:  # said to the asker: what to do by hand
            log.warning("game night %s: could not cancel its Discord event %s: %s", night.id, night.event_id, error)
            return False
        return True

    # ------------------------------------------------------------------ the nights due

    async def _due_forever(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.run_due()
            except asyncio.CancelledError:
                raise
            except Exception:  # a database or Discord outage: the next round tries again
                log.exception("game nights: the nights due failed; trying again shortly")
            await asyncio.sleep(DUE_SECONDS)

    async def run_due(self) -> None:
        pings, opens = await self.service.game_nights.due()
        for night in pings:
            await self._guarded(self.ping(night), night, "ping")
        for night in opens:
            await self._guarded(self.open(night), night, "open")

    @staticmethod
    async def _guarded(work: Any, night: NightInfo, what: str) -> None:
        """One night's ping or opening: whatever goes wrong with it (Discord, the database, a channel that
        takes no messages) is logged, and the other nights claimed with it go on."""
        try:
            await work
        except (discord.HTTPException, aiohttp.ClientError, TypeError):
            log.warning("game night %s: could not %s it", night.id, what, exc_info=True)
        except Exception:
            log.exception("game night %s: %s failed", night.id, what)

    async def _channel(self, night: NightInfo) -> discord.abc.Messageable:
        channel = self.bot.get_channel(night.channel_id) or await self.bot.fetch_channel(night.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise TypeError(f"channel {night.channel_id} takes no messages")
        return channel

    async def _still_on(self, night: NightInfo) -> bool:
        """The night's Discord event as it is now, read before pinging and before opening: an event deleted,
        cancelled or ended, or moved, while the bot was not listening (down, or the gateway's event lost) cancels
        or moves the night here too, and says so in its channel. True: the night goes on as planned."""
        try:
            event = await self.bot.http.get_scheduled_event(night.guild_id, night.event_id, with_user_count=False)
        except discord.NotFound:
            gone = await self.service.game_nights.deleted(night.event_id)
            if gone is not None:
                await self._say(gone, "night.cancelled")
            return False
        except (discord.HTTPException, aiohttp.ClientError):  # a check, not a condition: the night goes on
            log.warning("game night %s: could not read its Discord event; going on as planned", night.id)
            return True
        status = int(event.get("status", 1))
        if status in (discord.EventStatus.ended.value, discord.EventStatus.cancelled.value):
            # (read before opening, under this call's own claim of the opening: that claim does not stand in the way)
            over = await self.service.game_nights.edited(
                night.event_id, night.starts_at, cancelled=True, claim=night.opened_at
            )
            if over is not None:
                await self._say(over, "night.cancelled")
            return False
        start = datetime.fromisoformat(event["scheduled_start_time"])
        now = datetime.now(UTC)
        if status == discord.EventStatus.active.value and (night.starts_at - now).total_seconds() >= 60:
            # begun in Discord before the night's start (moved earlier, or Start event) while nobody heard: the
            # lobby opens now, as it does when the gateway tells of it, not at the old start, long after
            await self.service.game_nights.moved(night.id, now)
            return False
        if status == discord.EventStatus.scheduled.value and abs((start - night.starts_at).total_seconds()) >= 60:
            moved = await self.service.game_nights.moved(night.id, start)
            if moved is not None:
                await self._say(moved, "night.moved")
            return False
        return True

    async def ping(self, night: NightInfo) -> None:
        """The people interested in the night's event, pinged in its channel a little before it begins. Its claim
        is renewed just before the first message (another process that took the night again since sends it, not
        this one), and the ping is marked sent once any of it went out, whatever happens then (a second message
        failing, the process stopping), or where it never can (Discord refused it: the channel is gone or
        closed to the bot). Left unmarked only where nothing went out and Discord failed (a 5xx, a 429, the
        network): claimed again after its lease, while the night is still ahead."""
        progress = PingProgress(night)
        try:
            await self._ping(progress)
        except BaseException as error:
            refused = isinstance(error, TypeError) or (
                isinstance(error, discord.HTTPException) and error.status < 500 and error.status != 429
            )
            if progress.claim is not None and (progress.sent or refused):
                await asyncio.shield(self.service.game_nights.pinged(progress.claim))
            raise
        if progress.claim is not None:
            await self.service.game_nights.pinged(progress.claim)

    async def _ping(self, progress: PingProgress) -> None:
        night = progress.claim
        assert night is not None
        if not await self._still_on(night):
            return
        users = await self.bot.http.get_scheduled_event_users(
            night.guild_id, night.event_id, limit=INTERESTED_SHOWN, with_member=False
        )
        user_ids = [int(row["user"]["id"]) for row in users if not row["user"].get("bot")]
        locale = self.bot.languages.of(night.guild_id)
        first = t(locale, "night.soon", game=game_name(night.game, locale), when=stamp(night.starts_at, "R"))
        channel = await self._channel(night)
        mentions = discord.AllowedMentions(users=[discord.Object(user) for user in user_ids])
        progress.claim = await self.service.game_nights.renew_ping(night)
        if progress.claim is None:
            log.info("game night %s: its ping is no longer this process's to send", night.id)
            return
        for part, content in enumerate(mention_messages(first, user_ids)):
            # a nonce Discord keeps unique for a few minutes: sent again after an answer lost once Discord had made
            # the message (the ping claimed again 2 minutes on), the same message comes back, not a second one;
            # a night moved to another start is pinged anew (25 characters at most)
            nonce = f"n{night.id}.{int(night.starts_at.timestamp()):x}.{part}"
            await channel.send(content, allowed_mentions=mentions, nonce=nonce)
            progress.sent = True

    async def open(self, night: NightInfo) -> None:
        """At its start: the night's lobby opens in its channel (or a tournament's sign-up, through its hook)."""
        if not await self._still_on(night):
            return
        if not await self.service.game_nights.renew(night):  # taken again by another process, or cancelled
            log.info("game night %s: no longer this process's to open", night.id)
            return
        locale = self.bot.languages.of(night.guild_id)
        channel = await self._channel(night)
        if night.kind == "tournament":
            if self.sign_ups is None:
                await self.service.game_nights.opened(night.id, failed=True)
                await channel.send(t(locale, "night.no_tournaments"))
                return
            try:  # a refusal of the tournament, the hook says in the channel itself
                opened = await self.sign_ups.open_sign_up(night, channel)
            except (discord.HTTPException, aiohttp.ClientError):
                await self.service.game_nights.opened(night.id, failed=True)
                raise
            await self.service.game_nights.opened(night.id, failed=not opened)
            log.info("game night %s: tournament sign-up %s in channel %s", night.id, opened, night.channel_id)
            return
        tables = self.bot.get_cog(TABLES)
        assert isinstance(tables, LobbyOpener), "the tables cog is not loaded"
        intro = t(locale, "night.open", game=game_name(night.game, locale), host=f"<@{night.host_id}>")
        try:
            table = await tables.open_scheduled(
                channel,
                night.guild_id,
                night.channel_id,
                (night.host_id, night.host_name),
                night.game,
                night.options,
                night.players,
                intro,
            )
        except TableError as error:
            await self.service.game_nights.opened(night.id, failed=True)
            await channel.send(t(locale, "night.could_not_open", reason=error_text(error, locale)))
            return
        except (discord.HTTPException, aiohttp.ClientError):
            await self.service.game_nights.opened(night.id, failed=True)
            raise
        await self.service.game_nights.opened(night.id, table_id=table.id)
        log.info("game night %s: lobby %s open in channel %s", night.id, table.id, night.channel_id)

    # ------------------------------------------------------------------ Discord's edits of the event

    @commands.Cog.listener()
    async def on_scheduled_event_update(self, before: discord.ScheduledEvent, after: discord.ScheduledEvent) -> None:
        now = datetime.now(UTC)
        if after.status in (discord.EventStatus.cancelled, discord.EventStatus.ended):
            night = await self.service.game_nights.edited(after.id, after.start_time, cancelled=True)
            if night is not None:
                await self._say(night, "night.cancelled")
            return
        start = min(after.start_time, now) if after.status == discord.EventStatus.active else after.start_time
        night = await self.service.game_nights.night_of_event(after.id)
        if night is None or night.status != "scheduled" or night.starts_at == start:
            return
        moved = await self.service.game_nights.edited(after.id, start, cancelled=False)
        if moved is not None and after.status != discord.EventStatus.active:
            await self._say(moved, "night.moved")

    @commands.Cog.listener()
    async def on_scheduled_event_delete(self, event: discord.ScheduledEvent) -> None:
        night = await self.service.game_nights.deleted(event.id)
        if night is not None:
            await self._say(night, "night.cancelled")

    async def _say(self, night: NightInfo, key: str) -> None:
        """``night.cancelled`` or ``night.moved``, said in the night's channel in the server's language."""
        locale = self.bot.languages.of(night.guild_id)
        said = t(locale, key, game=game_name(night.game, locale), when=stamp(night.starts_at, "F"))
        with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, TypeError):
            await (await self._channel(night)).send(said)
