"""/season start and /season stop (people who can manage the server), and each season's end posted once.

Every few seconds the cog asks the service to ``roll``: the seasons due are created, and each ended season
whose standings nobody posted is claimed by one process (however many run), which posts them in the channel
the admin chose, in the server's language. A post that fails is released, and tried again next round.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import TableError
from bot.tables.season_calendar import LENGTHS
from bot.tables.seasons import SeasonEnded

from ..client import TableBot
from ..i18n import error_text, reader, t, text
from ..records.cog import game_choices
from ..replies import post, send
from ..tables.lobby_clicks import missing_in, missing_text
from ..tables.render import game_name
from ..tables.working import answering
from .render import season_span, season_title, standings_embed

log = logging.getLogger(__name__)

POSTING = ("view_channel", "send_messages", "embed_links")  # what a season's standings need in its channel

ROLL_SECONDS = 5.0  # how often the seasons due are created and ended seasons announced
HANDLER = "Seasons"
DEFAULT_TOP = 3  # the players who get a season's role, unless the admin chose how many


def length_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=text(f"season.length_{length}"), value=length) for length in LENGTHS]


# What a season's role may not carry: the permissions Discord guards with two-factor authentication (administrator,
# the manage_* permissions, kick, ban, timeout) and pinging everyone. A role the bot hands out by a leaderboard is a
# badge, never a way for a player (or the admin who chose it) to gain a moderator's powers.
GUARDED = discord.Permissions.elevated().value | discord.Permissions(mention_everyone=True, manage_nicknames=True).value


def role_refusal(interaction: discord.Interaction[Any], role: discord.Role) -> str | None:
    """Why ``role`` cannot be a season's role, as a catalogue key (None: it can). The bot gives the role for the
    admin who chose it, so the admin must be able to give it themselves (Manage Roles, and the role below their
    highest, unless they own the server), as must the bot; and it may carry no guarded permission."""
    if interaction.permissions.manage_guild and not interaction.app_permissions.manage_roles:
        return "season.role_needs_manage_roles"
    if role.is_default() or role.managed:
        return "season.role_not_given"
    if role.permissions.value & GUARDED:
        return "season.role_too_powerful"
    user, guild = interaction.user, interaction.guild
    owner = guild is not None and guild.owner_id == user.id
    if not owner and not interaction.permissions.manage_roles:
        return "season.role_needs_your_manage_roles"
    if not owner and isinstance(user, discord.Member) and role >= user.top_role:
        return "season.role_above_you"
    me = guild.me if guild is not None else None
    if me is not None and role >= me.top_role:
        return "season.role_above_bot"
    return None


class Seasons(commands.Cog, name=HANDLER):
    """Seasons per game: turned on and off by admins, their ends posted in the chosen channel."""

    season = app_commands.Group(
        name="season",
        description=text("command.season"),
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = bot.service
        self._rolling: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._rolling = asyncio.create_task(self._roll_forever(), name="seasons-roll")

    async def cog_unload(self) -> None:
        if self._rolling is not None:
            self._rolling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._rolling

    # ------------------------------------------------------------------ the commands

    @season.command(name="start", description=text("command.season_start"))
    @app_commands.describe(
        game=text("describe.season.game"),
        length=text("describe.season.length"),
        channel=text("describe.season.channel"),
        first=text("describe.season.first"),
        last=text("describe.season.last"),
        role=text("describe.season.role"),
        top=text("describe.season.top"),
    )
    @app_commands.choices(game=game_choices(), length=length_choices())
    async def start(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        length: app_commands.Choice[str],
        channel: discord.TextChannel,
        first: app_commands.Range[str, 1, 10] | None = None,
        last: app_commands.Range[str, 1, 10] | None = None,
        role: discord.Role | None = None,
        top: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:
        locale = reader(interaction)
        async with answering(interaction, update=False, public=True):  # answered in time
            missing = missing_in(interaction, channel, POSTING)
            if missing:  # its standings could not be posted there at each season's end
                await send(
                    interaction, missing_text(missing, locale, "season.missing_permissions", channel=channel.mention)
                )
                return
            refusal = role_refusal(interaction, role) if role is not None else None
            if refusal is not None and role is not None:
                await send(interaction, t(locale, refusal, role=role.mention))
                return
            try:
                season = await self.service.seasons.turn_on(
                    interaction.guild_id or 0,
                    game.value,
                    by_user=interaction.user.id,
                    can_manage=interaction.permissions.manage_guild,
                    length=length.value,
                    channel_id=channel.id,
                    starts=first,
                    ends=last,
                    top_role_id=role.id if role is not None else None,
                    top_count=DEFAULT_TOP if top is None else top,  # (0, forged: refused by the service)
                )
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            public = self.bot.languages.of(interaction.guild_id)  # said to the channel: the server's language
            lines = [
                t(public, "season.started", game=game_name(game.value, public), channel=channel.mention),
                f"**{season_title(season, public)}**: {season_span(season, public)}",
            ]
            if role is not None:
                count = DEFAULT_TOP if top is None else top
                lines.append(t(public, "season.role_on", role=role.mention, top=count))
            await post(interaction, content="\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @season.command(name="stop", description=text("command.season_stop"))
    @app_commands.describe(game=text("describe.season.game"))
    @app_commands.choices(game=game_choices())
    async def stop(self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]) -> None:
        locale = reader(interaction)
        async with answering(interaction, update=False, public=True):  # answered in time
            try:
                ended = await self.service.seasons.turn_off(
                    interaction.guild_id or 0,
                    game.value,
                    by_user=interaction.user.id,
                    can_manage=interaction.permissions.manage_guild,
                )
            except TableError as error:
                await send(interaction, error_text(error, locale))
                return
            public = self.bot.languages.of(interaction.guild_id)  # said to the channel: the server's language
            said = t(public, "season.stopped", game=game_name(game.value, public))
            if ended is not None:
                said += "\n" + t(public, "season.stopped_ends", name=ended.name)
            await post(interaction, content=said)

    # ------------------------------------------------------------------ the ends

    async def _roll_forever(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.roll()
            except asyncio.CancelledError:
                raise
            except Exception:  # a database or Discord outage: the next round tries again
                log.exception("seasons: announcing ended seasons failed; trying again shortly")
            await asyncio.sleep(ROLL_SECONDS)

    async def roll(self) -> None:
        for ended in await self.service.seasons.roll():
            await self.announce(ended)

    async def announce(self, ended: SeasonEnded) -> None:
        """Post one season's final standings in its channel (claimed by this process alone)."""
        season = ended.season
        if not await self.service.seasons.still_mine(ended):
            log.info("season %s of server %s: claimed by another process meanwhile", season.name, season.guild_id)
            return
        locale = self.bot.languages.of(season.guild_id)
        left = season.guild_id in self.bot.unreachable.servers
        if self.bot.unreachable.closed(season.guild_id, ended.channel_id):  # Discord said so: not asked again
            log.warning(
                "season %s of server %s: its channel %s is out of reach", season.name, season.guild_id, ended.channel_id
            )
            await self.service.seasons.announced(season.id, 0)
            if ended.top_role_id is not None and not left:  # in a server still ours, the role still moves
                await self.move_role(ended, None, locale)
            return
        try:
            channel = self.bot.get_channel(ended.channel_id) or await self.bot.fetch_channel(ended.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                raise TypeError(f"channel {ended.channel_id} takes no messages")
            message = await channel.send(
                embed=standings_embed(ended, locale), allowed_mentions=discord.AllowedMentions.none()
            )
        except (discord.NotFound, discord.Forbidden, TypeError):  # the channel is gone or closed to the bot
            where = (season.name, season.guild_id, ended.channel_id)
            log.warning("season %s of server %s: its channel %s is out of reach", *where)
            await self.service.seasons.announced(season.id, 0)  # nowhere to post it: kept, not tried forever
            if ended.top_role_id is not None:  # the best players still get the role, told nowhere
                await self.move_role(ended, None, locale)
            return
        except (discord.HTTPException, aiohttp.ClientError):
            await self.service.seasons.release(season.id)
            raise
        await self.service.seasons.announced(season.id, message.id)
        log.info("season %s of %s in server %s ended: standings posted", season.name, season.game, season.guild_id)
        if ended.top_role_id is not None:
            await self.move_role(ended, channel, locale)

    async def move_role(self, ended: SeasonEnded, channel: discord.abc.Messageable | None, locale: str) -> None:
        """The season's role goes to its best players and leaves those of the season before; where Discord
        refuses (no Manage Roles, or the role above the bot's own), the channel is told how to fix it (None: the
        channel is out of reach, and what happened is logged alone)."""

        async def say(text: str) -> None:
            if channel is None:
                log.warning("season %s of server %s: %s", ended.season.name, ended.season.guild_id, text)
                return
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())

        assert ended.top_role_id is not None
        season, role = ended.season, ended.top_role_id
        guild = self.bot.get_guild(season.guild_id)
        now = guild.get_role(role) if guild is not None else None
        if now is not None and now.permissions.value & GUARDED:  # given a moderator's powers since it was chosen
            await say(t(locale, "season.role_too_powerful", role=f"<@&{role}>"))
            return
        best = [row["user_id"] for row in ended.standings[: ended.top_count]]
        reason = f"season {season.name}"
        try:
            for user_id in ended.previous_top:
                if user_id not in best:
                    with contextlib.suppress(discord.NotFound):  # a member who left
                        await self.bot.http.remove_role(season.guild_id, user_id, role, reason=reason)
            for user_id in best:
                with contextlib.suppress(discord.NotFound):
                    await self.bot.http.add_role(season.guild_id, user_id, role, reason=reason)
        except discord.Forbidden:
            await say(t(locale, "season.role_refused", role=f"<@&{role}>"))
            return
        if best:
            mentions = " ".join(f"<@{user_id}>" for user_id in best)
            await say(t(locale, "season.role_given", role=f"<@&{role}>", players=mentions, name=season.name))
