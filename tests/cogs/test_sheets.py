"""Score sheets fit a phone and say why points moved."""

from __future__ import annotations

import random

import pytest

from bot.games import GAMES, new_game
from cogs.tables.render import sheet_text, shown_width
from tests.cogs.test_limits import LONGEST_NAME, table_of


@pytest.mark.parametrize("game", list(GAMES))
def test_every_sheet_line_fits_a_phone_and_bonuses_name_their_cause(game: str) -> None:
    players = max(GAMES[game].players)
    rng = random.Random(2)
    state = new_game(game, players=players, options={}, seed=2)
    table = table_of(game, players, {}, [])
    seen, causes, last = 0, 0, 0
    for _ in range(20):  # matches until enough deals are seen
        while not state.is_over() and seen < 40:
            seat = state.to_act()[0]
            state.act(seat, rng.choice(state.legal(seat)))
            sheet = state.view(None)["last_deal"]
            if sheet is None or sheet["deal"] == last or not sheet["rows"]:
                continue
            last = sheet["deal"]
            text = sheet_text(table, sheet, "en-US")
            block, _, notes = text.partition("\n```\n")
            for line in block.splitlines()[1:]:
                assert shown_width(line) <= 40, line
            assert LONGEST_NAME[:9] in block  # a long name, cut to fit
            for note in filter(None, notes.splitlines()):
                assert note[0] in "+-−" and ": " in note, note  # each cause with what it did
                causes += 1
            seen += 1
        if seen >= 40:
            break
        state, last = new_game(game, players=players, options={}, seed=rng.randrange(10**6)), 0
    assert seen and causes, "some deal moved points for a reason the sheet gave"
