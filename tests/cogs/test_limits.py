"""Every public table and every hand of whole random matches fits Discord's limits, at the largest sizes,
and the public table of every state names only cards its public view shows.

Nine Just Make players, thirteen-card hands, six-player Five Hundred and
32-character display names, with hints on (one more button on the hand) and a
computer in the last seat: each state is rendered exactly as the bot renders
it and checked with the same rules the Discord double enforces.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from bot.games import new_game
from bot.tables import SeatInfo, TableInfo
from cogs.i18n import ECHO_MAX
from cogs.tables.hand import hand_message, matching
from cogs.tables.play_commands import refused_choice
from cogs.tables.publisher import lobby_controls
from cogs.tables.render import lobby_embed, table_embed
from tests.double.server import DiscordDouble
from tests.e2e.driver import cards_named
from tests.e2e.leaks import card_codes

LONGEST_NAME = "W" * 32  # Discord display names are at most 32 characters

CASES = [
    ("just-make", 9, {}),
    ("just-make", 4, {"double_hard_bids": True}),
    ("ninety-nine", 4, {"trump_style": "turn-up"}),
    ("ninety-nine", 2, {}),
    ("ninety-nine", 3, {"format": "oxford"}),
    ("five-hundred", 6, {}),
    ("five-hundred", 5, {"called_partner": "announce"}),
    ("five-hundred", 2, {}),
    ("oh-hell", 7, {"start_cards": 7, "sequence": "down"}),
    ("oh-hell", 3, {"start_cards": 17, "sequence": "down"}),
]


def table_of(game: str, players: int, options: dict[str, Any], to_act: list[int], status: str = "playing") -> TableInfo:
    now = datetime.now(UTC)
    people = [SeatInfo(index, 10**17 + index, LONGEST_NAME[:-1] + str(index)) for index in range(players - 1)]
    seats = (*people, SeatInfo(players - 1, None, "", level="strong"))
    return TableInfo(
        id=2**62,
        guild_id=1,
        channel_id=2,
        thread_id=3,
        message_id=4,
        game=game,
        options=options,
        players=players,
        status=status,
        host_id=10**17,
        version=99_999,
        seats=seats,
        turn_seconds=300,
        grace_seconds=120,
        created_at=now,
        started_at=now,
        finished_at=None,
        to_act=tuple(to_act),
        actions=99_999,
        hints=True,
    )


def check(double: DiscordDouble, embed: discord.Embed, view: discord.ui.View | None, where: str) -> None:
    body: dict[str, Any] = {"embeds": [embed.to_dict()], "components": view.to_components() if view else []}
    double._check_message(body, where)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=[f"{g}-{n}" for g, n, _ in CASES])
@pytest.mark.parametrize("locale", ["en-US"])
def test_every_state_fits(game: str, players: int, options: dict[str, Any], locale: str) -> None:
    double = DiscordDouble()
    rng = random.Random(players)
    state = new_game(game, players=players, options=options, seed=players)
    lobby = table_of(game, players, options, [], status="lobby")
    check(double, lobby_embed(lobby, locale), lobby_controls(lobby, locale), "lobby")
    steps = 0
    while not state.is_over() and steps < 1500:
        table = table_of(game, players, options, state.to_act())
        public = table_embed(table, state.view(None), locale)
        check(double, public, None, f"table at step {steps}")
        shown = cards_named("\n".join(str(v) for v in public.to_dict().values()))
        assert shown <= card_codes(state.view(None)), (
            f"step {steps}: the table shows {shown - card_codes(state.view(None))}"
        )
        for seat in range(players):
            legal = state.legal(seat) if seat in state.to_act() else []
            embed, view = hand_message(table, table.seats[seat], state.view(seat), legal, locale)
            check(double, embed, view, f"hand of {seat} at step {steps}")
            prefixes = {" ".join(a.split()[:2]) for a in legal} | {
                a.split()[0] + " " + a.split()[1][:-1]
                for a in legal
                if a.startswith("bid ") and game == "five-hundred" and len(a.split()) == 2
            }
            for prefix in prefixes:
                found = matching(legal, prefix)
                if len(found) > 1:
                    embed, view = hand_message(table, table.seats[seat], state.view(seat), legal, locale, focus=found)
                    check(double, embed, view, f"next step {prefix} at step {steps}")
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
        steps += 1
    table = table_of(game, players, options, [], status="finished" if state.is_over() else "playing")
    check(double, table_embed(table, state.view(None), locale), None, "final table")
    assert double.problems == []


def test_a_hand_thrown_in_shows_its_sheet_title_alone() -> None:
    double = DiscordDouble()
    state = new_game("five-hundred", players=4, seed=1)
    for _ in range(4):  # everyone passes: the hand is thrown in and dealt again
        state.act(state.to_act()[0], "pass")
    sheet = state.view(None)["last_deal"]
    assert sheet["thrown_in"] and sheet["rows"] == []
    embed = table_embed(table_of("five-hundred", 4, {}, state.to_act()), state.view(None), "en-US")
    check(double, embed, None, "after a hand thrown in")
    field = next(f for f in embed.fields if f.name and "everyone passed" in f.name)
    assert field.value == "—"
    assert double.problems == []


@pytest.mark.parametrize("locale", ["en-US", "ja"])
@pytest.mark.parametrize("option", ["length", "scoring"])
def test_a_refused_value_is_said_back_cut_short_and_as_sent(option: str, locale: str) -> None:
    """A forged /play value of thousands of letters (a client may send anything) is said back cut to a few
    dozen, so the refusal stays within Discord's 2,000; its marks are escaped, so it reads as it was sent."""
    forged = "**bold** " + "x" * 6000
    said = refused_choice({"name": "play-oh-hell", "options": [{"name": option, "value": forged}]}, locale)
    assert said is not None and len(said) < 2000
    assert "x" * (ECHO_MAX + 1) not in said and "…" in said and "\\*\\*bold\\*\\*" in said
