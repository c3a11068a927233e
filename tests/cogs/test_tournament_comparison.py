"""A duplicate round's comparison as the channel shows it: every deal, within Discord's limits, in English and
Japanese, however many deals, tables and seats."""

from __future__ import annotations

import re

import pytest

from bot.tables.tournament_records import (
    ComparedDeal,
    ComparedSeat,
    EntrantInfo,
    RoundTable,
    StandingLine,
    TournamentInfo,
    TournamentStatus,
)
from cogs.i18n import t
from cogs.tournaments.render import comparison_embeds, sheets_value, standings_embed


def night(size: int, tables: int) -> tuple[TournamentInfo, tuple[EntrantInfo, ...]]:
    entrants = tuple(
        EntrantInfo(i + 1, 400_000_000_000_000_000 + i, "名前の長いプレイヤー" * 2 + str(i))
        for i in range(size * tables)
    )
    info = TournamentInfo(
        id=12, guild_id=1, channel_id=2, message_id=3, host_id=entrants[0].user_id or 0, game="just-make",
        options={}, format="duplicate", table_size=size, rounds=3, advance=1, computers=True, rated=True,
        starts_at=None, seed=1, status=TournamentStatus.RUNNING, round=1, entrants=entrants,
    )  # fmt: skip
    return info, entrants


def compared(entrants: tuple[EntrantInfo, ...], size: int, tables: int, count: int) -> list[ComparedDeal]:
    return [
        ComparedDeal(
            deal,
            tuple(
                tuple(ComparedSeat(t + 1, entrants[t * size + p], 3, 2, -10, 2) for t in range(tables))
                for p in range(size)
            ),
        )
        for deal in range(1, count + 1)
    ]


@pytest.mark.parametrize("locale", ["en-US", "ja"])
@pytest.mark.parametrize(
    ("size", "tables", "count"),
    [(4, 2, 18), (7, 2, 10), (4, 3, 10), (9, 2, 8), (4, 2, 3), (4, 6, 2), (9, 3, 2), (4, 64, 1)],
)
def test_every_deal_is_shown_over_messages_discord_takes(locale: str, size: int, tables: int, count: int) -> None:
    """Each embed (one a message) is within 6,000 characters and 25 fields, each field within 1,024; every
    deal appears, in order, and every seat at every table in it, whole. A round of eighteen deals at two tables
    of four was 8,190 characters in one embed: Discord refused it, and the round's standings, sent after it,
    never went out; a deal at more than five tables of four was cut at 1,024 characters, its last seats gone and a
    mention cut in half."""
    info, entrants = night(size, tables)
    embeds = comparison_embeds(info, 1, compared(entrants, size, tables, count), locale)
    shown = []
    values: dict[int, str] = {}
    for embed in embeds:
        assert len(embed) <= 6000 and len(embed.fields) <= 25
        assert all(len(field.value or "") <= 1024 and len(field.name or "") <= 256 for field in embed.fields)
        assert embed.title and len(embed.title) <= 256
        for field in embed.fields:
            deal = next(d for d in range(1, count + 1) if field.name in deal_names(locale, d))
            if field.name == t(locale, "tournament.comparison_deal", deal=deal):
                shown.append(field.name)
            values[deal] = values.get(deal, "") + "\n" + (field.value or "")
    assert len(shown) == count and len(set(shown)) == count
    for text in values.values():  # every entrant's seat, whole, once a deal
        assert all(text.count(f"<@{entrant.user_id}>") == 1 for entrant in entrants)
        assert "…" not in text
    if count <= 3 and tables <= 3:
        assert len(embeds) == 1  # one message where it fits
    if (size, tables, count) == (4, 2, 18):
        assert len(embeds) > 1


def deal_names(locale: str, deal: int) -> tuple[str, str]:
    return (
        t(locale, "tournament.comparison_deal", deal=deal),
        t(locale, "tournament.comparison_deal_more", deal=deal),
    )


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_standings_past_forty_say_how_many_more_and_show_the_readers_own_line(locale: str) -> None:
    """64 entrants: the first 40 lines, then how many more; /tournament standings adds the reader's line when it
    is further down (the posts after each round stopped at 40 without a word)."""
    info, entrants = night(4, 16)
    lines = [StandingLine(i + 1, e, str(64 - i), "0", 0, 2, 0) for i, e in enumerate(entrants)]
    posted = standings_embed(info, lines, 2, locale).description or ""
    assert t(locale, "tournament.standings_more", count=24) in posted
    assert f"<@{entrants[39].user_id}>" in posted and f"<@{entrants[40].user_id}>" not in posted
    asked = standings_embed(info, lines, 2, locale, reader_id=entrants[60].user_id).description or ""
    assert asked.endswith(t(locale, "tournament.standing_line", rank=61, name=f"<@{entrants[60].user_id}>",
                            points="4", opponents="0", played=2))  # fmt: skip
    assert len(asked) <= 4096 and f"<@{entrants[59].user_id}>" not in asked
    few = standings_embed(info, lines[:40], 2, locale).description or ""
    assert t(locale, "tournament.standings_more", count=1)[:3] not in few


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_the_podium_lists_every_tables_number_whole_or_says_how_many_more(locale: str) -> None:
    """A long night's tables (15 rounds of many tables) were listed cut at 1,024 characters, in the middle of a
    number."""
    many = [RoundTable(1, n, 2_000_000_000 + n, (), "finished", None, None) for n in range(300)]
    value = sheets_value(many, locale)
    assert len(value) <= 1024 and t(locale, "night.list_more", count=1)[:2] in value
    numbers = re.findall(r"#(\d+)", value)
    assert numbers and all(len(number) == 10 for number in numbers)  # none cut
    left = 300 - len(numbers)
    assert t(locale, "night.list_more", count=left) in value
    few = sheets_value(many[:3], locale)
    assert few == t(locale, "tournament.sheets", tables=t(locale, "tournament.list_separator").join(
        f"#{2_000_000_000 + n}" for n in range(3)))  # fmt: skip
