"""Score sheets fit a phone and say why points moved."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.games import GAMES, new_game, presentation_of
from bot.games.shown import Text
from bot.tables import SeatInfo
from cogs.tables.render import sheet_text, shown_width
from tests.cogs.test_limits import LONGEST_NAME, table_of
from tests.test_five_hundred import at_play
from tests.test_ninety_nine import two_player_deal


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


def explained(notes: tuple[Text, ...], rows: list[dict[str, Any]]) -> dict[int, int]:
    """The points beyond the tricks each hand's Ninety-Nine sheet notes give it, read as a player reads them."""
    seats = [row["seat"] for row in rows]
    given = dict.fromkeys(seats, 0)
    for note in notes:
        params = note.params
        name = params["name"].index if "name" in params else None
        if note.key in ("sheet.why_bids_99", "sheet.why_bids_dummy_99"):
            for row in rows:
                given[row["seat"]] += params["bonus"] if row["made"] else 0
        elif note.key == "sheet.why_premium_failed":
            for seat in seats:
                given[seat] += params["value"] if seat != name else 0
        elif note.key in ("sheet.why_game_99", "sheet.why_premium_made"):
            given[name] += params.get("bonus", params.get("value", 0))
        elif note.key in ("sheet.why_dummy_exact_99", "sheet.why_declares_failed_99"):
            given[name] += params["value"]
        else:
            raise AssertionError(f"a note this test does not read: {note}")
    return given


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_ninety_nine_bonus_is_explained_truly(players: int) -> None:
    """Each hand's bonus column is what the notes say it got. Two players: two failed declares pay the dummy
    alone (each note said '+30 to each other hand'), the dummy's exact bid scores as a made declare (no note
    said so) and its bid taking fewer tricks is made (the note said 'exact bid')."""
    shown = presentation_of("ninety-nine")
    kinds: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game("ninety-nine", players, {"format": "nine-deals"} if seed % 2 else {}, seed=seed)
        last = 0
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal(seat)
            state.act(seat, "declare" if "declare" in legal and rng.random() < 0.7 else rng.choice(legal))
            sheet = state.view(None)["last_deal"]
            if sheet is None or sheet["deal"] == last:
                continue
            last, rows = sheet["deal"], sheet["rows"]
            notes = shown.sheet(sheet).notes
            bonuses = {row["seat"]: row["bid_bonus"] + row["premium_points"] + row["game_bonus"] for row in rows}
            assert explained(notes, rows) == bonuses, (rows, notes)
            exact = all(row["tricks"] == row["bid"] for row in rows if row["made"])
            assert exact or "sheet.why_bids_99" not in {note.key for note in notes}, (rows, notes)  # 'exact bid'
            kinds |= {note.key for note in notes}
    if players == 2:
        assert {"sheet.why_bids_dummy_99", "sheet.why_dummy_exact_99", "sheet.why_declares_failed_99"} <= kinds


def two_player_notes(bids: list[int], tricks: list[int], declares: tuple[int, ...], locale: str) -> list[str]:
    """The notes of a two-player deal's sheet, scored from its bids and tricks (seat 2 is the dummy)."""
    state = two_player_deal()
    state.bids, state.tricks = list(bids), list(tricks)
    state.premium = [1 if s in declares else 0 for s in range(3)]
    state._score_deal()
    people = (SeatInfo(0, 1, "Ann"), SeatInfo(1, 2, "Ben"))
    table = replace(table_of("ninety-nine", 2, {}, []), seats=people)
    return sheet_text(table, state.sheets[-1], locale).partition("\n```\n")[2].splitlines()


def test_two_players_sheet_says_the_dummys_own_rules() -> None:
    assert two_player_notes([2, 2, 5], [3, 4, 2], (0, 1), "en-US") == [
        "+30 each: 1 bid made, Dummy's by taking fewer tricks than it bid (enough for a dummy)",
        "+60 to Dummy alone: both declares failed (neither player scores the other's)",
    ]
    assert two_player_notes([3, 5, 2], [3, 4, 2], (), "en-US") == [
        "+20 each: 2 exact bids",
        "+30: Dummy took exactly its bid, which scores as a made declare",
    ]
    assert two_player_notes([3, 2, 1], [3, 4, 2], (0, 1), "en-US") == [
        "+30 each: 1 exact bid",
        "+30: Ann's declare made",
        "+30 to each other hand: Ben's declare failed",
    ]
    assert two_player_notes([2, 2, 5], [3, 4, 2], (0, 1), "ja") == [
        "ビッド成功1人: 各+30（ダミーは取ったトリックがビッドより少ないが、ダミーなので成功）",
        "ダミーだけに+60: 宣言が二つとも失敗（互いの分は入らない）",
    ]


def misere_notes(tricks: list[int], **options: Any) -> list[str]:
    """The notes of a four-player misère's sheet bid by seat 0 (Ann; Cid her partner), scored from its tricks."""
    state = at_play("misere", {}, **options)
    state.tricks = list(tricks)
    state._score_hand()
    people = tuple(SeatInfo(seat, seat + 1, name) for seat, name in enumerate(("Ann", "Ben", "Cid", "Dee")))
    table = replace(table_of("five-hundred", 4, options, []), seats=people)
    return sheet_text(table, state.sheets[-1], "en-US").partition("\n```\n")[2].splitlines()


def test_five_hundreds_sheet_says_why_the_other_sides_score_after_a_misere() -> None:
    """With misere_tricks_score each trick the contractor took pays every other side 10: the sheet showed +20
    beside the other side with only the misère's -250 explained."""
    assert misere_notes([2, 3, 0, 5], misere_tricks_score=True) == [
        "−250: Ann's Misère failed",
        "+20 to each other side: 10 for each trick Ann took in the misère",
    ]
    assert misere_notes([2, 3, 0, 5]) == ["−250: Ann's Misère failed"]  # nobody scores a trick: nothing to say
    assert misere_notes([0, 6, 0, 4], misere_tricks_score=True) == ["+250: Ann's Misère made"]
