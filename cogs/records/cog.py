"""/leaderboard, /stats and /history: a server's finished matches, in each reader's language."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.tables import TableError
from bot.tables.standings import SkillRating

from ..charts import running_totals, totals_chart
from ..client import TableBot
from ..i18n import error_text, reader, t, text
from ..replies import id_from, post, send, update
from ..tables.review import review_embed
from ..tables.working import Work
from .components import HANDLER, PERIODS, BoardPage, HistoryPage, OpenMatch, ReplayPick, ReplayStep
from .render import PAGE_SIZE, board_embed, history_embed, match_message, match_option, pages_of, person, stats_embed
from .tournament_lines import add_totals, add_tournaments

REPLAY_OPTIONS, REPLAY_PARTS = 25, 4  # deals per select (Discord's most), selects under a match's sheet

PERIOD_DAYS = {"month": 30, "week": 7}
RECENT = 5


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=text(f"game.{game}"), value=game) for game in GAMES]


def period_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=text(f"period.{period}"), value=period) for period in PERIODS]


def page_buttons(make: Any, page: int, total: int, locale: Any) -> list[discord.ui.Item[Any]]:
    """◀ and ▶, each disabled at its end; ``make(page, label, disabled)`` builds one."""
    last = pages_of(total) - 1
    return [
        make(max(page - 1, 0), t(locale, "page.previous"), page <= 0),
        make(min(page + 1, last) if page < last else page + 1, t(locale, "page.next"), page >= last),
    ]


class Records(commands.Cog, name=HANDLER):
    """Leaderboards, stats and match history, read from the service. Every answer comes in time: a command or
    click whose reads take more than a second is deferred meanwhile (``Work.working``), as a table's are."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.work = Work()

    # ------------------------------------------------------------------ /leaderboard

    @app_commands.command(name="leaderboard", description=text("command.leaderboard"))
    @app_commands.describe(
        game=text("describe.leaderboard.game"),
        period=text("describe.leaderboard.period"),
        season=text("describe.leaderboard.season"),
    )
    @app_commands.choices(game=game_choices(), period=period_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        period: app_commands.Choice[str] | None = None,
        season: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        async with self.work.working(interaction, update=False, public=True):
            if season is not None:  # a season's own board, kept after its end
                try:
                    found = await self.service.seasons.season(interaction.guild_id or 0, game.value, season)
                except TableError as error:
                    await send(interaction, error_text(error, reader(interaction)))
                    return
                await post(interaction, **await self.board_page(interaction, game.value, f"s{found.id}", 0))
                return
            await post(
                interaction, **await self.board_page(interaction, game.value, period.value if period else "all", 0)
            )

    @leaderboard.autocomplete("season")
    async def season_names(self, interaction: discord.Interaction[Any], typed: str) -> list[app_commands.Choice[str]]:
        """The server's seasons (of the game chosen, if one is), newest first, that start as typed."""
        game = getattr(interaction.namespace, "game", None)
        typed = typed.strip()[:100]  # (Discord sends at most 100 characters; a forged request, more)
        seasons = await self.service.seasons.seasons(
            interaction.guild_id or 0, game if game in GAMES else None, starting=typed
        )
        names = list(dict.fromkeys(s.name for s in seasons if s.name.startswith(typed)))
        return [app_commands.Choice(name=name, value=name) for name in names[:25]]

    async def board_page(
        self, interaction: discord.Interaction[Any], game: str, period: str, page: int
    ) -> dict[str, Any]:
        """One page of a board for the person who is looking, with their own place wherever it is. ``period``
        ``s<id>`` is a season's board (LookupError: no such season of this server and game)."""
        locale, me = reader(interaction), interaction.user
        guild_id = interaction.guild_id or 0
        season_name = None
        if period.startswith("s"):  # a season's board: paged as the all-time one, by the season's ratings
            season = await self.service.seasons.season_by_id(guild_id, int(period[1:]))
            if season is None or season.game != game:  # forged, or another server's: its first page is empty
                raise LookupError(period)
            season_name = season.name
            total = await self.service.seasons.board_size(season.id)
            page = min(page, pages_of(total) - 1)
            rows = await self.service.seasons.board(season.id, PAGE_SIZE, page * PAGE_SIZE)
            rank = await self.service.seasons.rank_of(season.id, me.id)
            mine = None if rank is None else (await self.service.seasons.board(season.id, 1, rank - 1))[0]
        elif period == "all":
            total = await self.service.leaderboard_size(guild_id, game)
            page = min(page, pages_of(total) - 1)
            rows = await self.service.leaderboard(guild_id, game, PAGE_SIZE, page * PAGE_SIZE)
            rank = await self.service.rank_of(guild_id, game, me.id)
            mine = None
            if rank is not None:
                mine = (await self.service.leaderboard(guild_id, game, 1, rank - 1))[0]
        else:
            since = datetime.now(UTC) - timedelta(days=PERIOD_DAYS[period])
            everyone = await self.service.period_board(guild_id, game, since)
            total = len(everyone)
            page = min(page, pages_of(total) - 1)
            rows = everyone[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
            mine = next((row for row in everyone if row["user_id"] == me.id), None)
        embed = board_embed(game, period, rows, page, total, mine, me.display_name, locale, season_name, me.id)
        view = discord.ui.View(timeout=None)
        if total > PAGE_SIZE:
            for item in page_buttons(
                lambda p, label, off: BoardPage(game, period, p, me.id, label=label, disabled=off), page, total, locale
            ):
                view.add_item(item)
        return {"embed": embed, "view": view}

    async def on_board_page(
        self, interaction: discord.Interaction[Any], game: str, period: str, page: int, owner: int
    ) -> None:
        if game not in GAMES:
            await send(interaction, t(reader(interaction), "error.unknown_button"))
            return
        async with self.work.working(interaction, update=True):
            try:
                kwargs = await self.board_page(interaction, game, period, page)
            except LookupError:  # a season page of no season of this server's
                await send(interaction, t(reader(interaction), "error.unknown_button"))
                return
            await self._page(interaction, owner, kwargs)

    @staticmethod
    async def _page(interaction: discord.Interaction[Any], owner: int, kwargs: dict[str, Any]) -> None:
        """The owner pages their message in place; anyone else gets their own copy at that page."""
        if interaction.user.id == owner:
            await update(interaction, **kwargs)
        else:
            await send(interaction, **kwargs)

    # ------------------------------------------------------------------ /stats

    @app_commands.command(name="stats", description=text("command.stats"))
    @app_commands.describe(user=text("describe.stats.user"), game=text("describe.stats.game"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        async with self.work.working(interaction, update=False, public=True):
            await self._stats(interaction, user, game)

    async def _stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | discord.Member | None,
        game: app_commands.Choice[str] | None,
    ) -> None:
        locale, who = reader(interaction), user or interaction.user
        guild_id = interaction.guild_id or 0
        games = [game.value] if game else await self.service.games_played(guild_id, who.id)
        profiles = {name: await self.service.player_profile(guild_id, who.id, name) for name in games}
        recent = await self.service.recent_matches(guild_id, RECENT, user_id=who.id, game=game.value if game else None)
        seasons = {name: await self.service.seasons.player_seasons(guild_id, name, who.id) for name in games}
        start = SkillRating.initial().ordinal
        embed = stats_embed(who.display_name, profiles, recent, who.id, start, locale, seasons)
        game_name = game.value if game else None
        totals = await self.service.tournaments.totals(guild_id, who.id, game_name)
        if totals.played:
            latest = await self.service.tournaments.finished(guild_id, who.id, game_name, limit=3)
            add_totals(embed, totals, latest, locale)
        await post(interaction, embed=embed, allowed_mentions=discord.AllowedMentions.none())

    # ------------------------------------------------------------------ /history

    @app_commands.command(name="history", description=text("command.history"))
    @app_commands.describe(user=text("describe.history.user"))
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction[Any], user: discord.User | discord.Member | None = None
    ) -> None:
        async with self.work.working(interaction, update=False, public=True):
            await post(interaction, **await self.history_page(interaction, 0, user.id if user else 0))

    async def history_page(self, interaction: discord.Interaction[Any], page: int, user_id: int) -> dict[str, Any]:
        """Ten matches, newest first, with a picker that opens any of them in full."""
        locale, guild_id = reader(interaction), interaction.guild_id or 0
        who = user_id or None
        total = await self.service.match_count(guild_id, user_id=who)
        page = min(page, pages_of(total) - 1)
        matches = await self.service.recent_matches(guild_id, PAGE_SIZE, user_id=who, offset=page * PAGE_SIZE)
        name = None
        if who is not None:
            seat = next((s for m in matches for s in m["seats"] if s["user_id"] == who), None)
            member = interaction.guild.get_member(who) if interaction.guild else None
            name = member.display_name if member else (seat["name"] if seat else str(who))
        embed = history_embed(matches, page, total, name, locale, who)
        if page == 0:  # the finished tournaments head the first page
            add_tournaments(embed, await self.service.tournaments.finished(guild_id, who), locale)
        view = discord.ui.View(timeout=None)
        if matches:
            options = [match_option(match, locale) for match in matches]
            view.add_item(OpenMatch(page, options, placeholder=t(locale, "history.open")))
        if total > PAGE_SIZE:
            owner = interaction.user.id
            for item in page_buttons(
                lambda p, label, off: HistoryPage(p, user_id, owner, label=label, disabled=off), page, total, locale
            ):
                view.add_item(item)
        return {"embed": embed, "view": view, "allowed_mentions": discord.AllowedMentions.none()}

    async def on_history_page(self, interaction: discord.Interaction[Any], page: int, user: int, owner: int) -> None:
        async with self.work.working(interaction, update=True):
            await self._page(interaction, owner, await self.history_page(interaction, page, user))

    async def on_open_match(self, interaction: discord.Interaction[Any], values: list[str]) -> None:
        """A match's whole score sheet and chart, for whoever picked it (the chart takes a moment to draw)."""
        async with self.work.working(interaction, update=False):
            await self._open_match(interaction, values)

    async def _open_match(self, interaction: discord.Interaction[Any], values: list[str]) -> None:
        locale = reader(interaction)
        sheet = None
        if len(values) == 1 and values[0].isascii() and values[0].isdigit() and id_from(values[0]):
            try:
                sheet = await self.service.history_sheet(id_from(values[0]))
            except TableError as error:  # a duplicate night's table whose deals another table still has to play
                await send(interaction, error_text(error, locale))
                return
        if sheet is None or sheet["guild_id"] != interaction.guild_id:
            await send(interaction, t(locale, "error.no_match"))
            return
        lines = running_totals(sheet["sheets"], len(sheet["seats"]))
        names = [person(seat, locale, marked=False) for seat in sorted(sheet["seats"], key=lambda seat: seat["seat"])]
        titles = (t(locale, "chart.deals"), t(locale, "chart.points"))
        chart = None
        if interaction.app_permissions.attach_files:  # (an answer's files need Attach Files too: else the sheet alone)
            chart = await asyncio.to_thread(totals_chart, lines, names, *titles, t(locale, "picture.undrawn"))
        view = discord.ui.View(timeout=None)
        deals = [deal["deal"] for deal in sheet["sheets"]]
        parts = [deals[i : i + REPLAY_OPTIONS] for i in range(0, len(deals), REPLAY_OPTIONS)][:REPLAY_PARTS]
        for part, numbers in enumerate(parts):
            options = [
                discord.SelectOption(label=t(locale, "review.deal_option", deal=n), value=str(n)) for n in numbers
            ]
            placeholder = (
                t(locale, "review.pick")
                if len(parts) == 1
                else t(locale, "review.pick_part", first=numbers[0], last=numbers[-1])
            )
            view.add_item(ReplayPick(sheet["match_id"], part, options, placeholder=placeholder))
        await send(interaction, view=view, **match_message(sheet, chart, locale))

    async def on_replay(
        self, interaction: discord.Interaction[Any], match_id: int, values: list[str], *, step: bool
    ) -> None:
        """A deal of a finished match of this server, trick by trick, with every hand as dealt; the
        previous and next deals in place."""
        async with self.work.working(interaction, update=step):
            await self._replay(interaction, match_id, values, step=step)

    async def _replay(
        self, interaction: discord.Interaction[Any], match_id: int, values: list[str], *, step: bool
    ) -> None:
        locale = reader(interaction)
        wanted = values[0] if len(values) == 1 else ""
        sheet = await self.service.score_sheet(match_id)
        table_id = await self.service.match_table(match_id) if sheet is not None else None
        if sheet is None or table_id is None or sheet["guild_id"] != interaction.guild_id:
            await send(interaction, t(locale, "error.no_match"))
            return
        if not (wanted.isascii() and wanted.isdigit() and len(wanted) <= 4):
            await send(interaction, t(locale, "error.unknown_button"))
            return
        try:
            table, deals = await self.service.deal_reviews(table_id)
        except TableError as error:  # a duplicate night's deal another table still has to play
            await send(interaction, error_text(error, locale))
            return
        found = next((deal for deal in deals if deal.deal == int(wanted)), None)
        if found is None:
            await send(interaction, t(locale, "error.unknown_button"))
            return
        embed = review_embed(table, found, locale, title_key="review.match_title")
        view = discord.ui.View(timeout=None)
        numbers = [deal.deal for deal in deals]
        at = numbers.index(found.deal)
        if at > 0:
            view.add_item(
                ReplayStep(
                    match_id, numbers[at - 1], label=t(locale, "review.previous", deal=numbers[at - 1]), emoji="◀"
                )
            )
        if at + 1 < len(numbers):
            view.add_item(
                ReplayStep(match_id, numbers[at + 1], label=t(locale, "review.next", deal=numbers[at + 1]), emoji="▶")
            )
        message = interaction.message
        if step and message is not None and message.flags.ephemeral:
            await update(interaction, embed=embed, view=view)
        else:
            await send(interaction, embed=embed, view=view)
