"""What the screens say, built from a table alone: a lobby says whether a seat is left, as the service counts
seats; a game's words keep the catalogue's markdown for the page to draw, and a name in them is escaped."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

from activity.screen import _new_lines, choices_screen, lobby_screen, most_seats
from activity.words import escaped, said, seat_name
from bot.games import GAMES, new_game, presentation_of
from bot.games.base import GameState
from bot.games.shown import Seat, say
from bot.tables import SeatInfo, TableInfo, TableStatus


def a_table(game: str, players: int | None, names: list[str | None]) -> TableInfo:
    """A lobby whose seats are ``names`` in order (None: a computer), the first the host."""
    seats = tuple(
        SeatInfo(index, 100 + index, name, key=index + 1)
        if name is not None
        else SeatInfo(index, None, "", level="easy", key=index + 1)
        for index, name in enumerate(names)
    )
    return TableInfo(
        id=1,
        guild_id=0,
        channel_id=0,
        thread_id=None,
        message_id=None,
        game=game,
        options={},
        players=players,
        status=TableStatus.LOBBY,
        host_id=100,
        version=1,
        seats=seats,
        turn_seconds=0,
        grace_seconds=0,
        created_at=datetime.now(UTC),
        started_at=None,
        finished_at=None,
    )


def test_a_lobby_says_whether_a_seat_is_left_as_the_service_counts_them() -> None:
    three = a_table("oh-hell", 4, ["Alice", None, None])
    assert lobby_screen(three, 100, "en")["full"] is False and most_seats(three) == 4
    four = a_table("oh-hell", 4, ["Alice", None, None, None])
    shown = lobby_screen(four, 100, "en")
    assert shown["full"] is True and shown["most"] == 4
    # no count chosen: the game's largest
    largest = max(GAMES["oh-hell"].players)
    assert lobby_screen(a_table("oh-hell", None, ["Alice", None, None, None]), 100, "en")["full"] is False
    assert lobby_screen(a_table("oh-hell", None, ["Alice"] + [None] * (largest - 1)), 100, "en")["full"] is True


def test_the_words_keep_the_catalogues_markdown_and_escape_the_names_in_them() -> None:
    table = a_table("ninety-nine", 3, ["A*n\\n_", None, None])
    assert said(table, say("hand.explain_pass"), "en") == "**Pass**: nothing is shown, nothing is risked."
    assert said(table, say("hand.explain_pass"), "ja").startswith("**パス**")
    line = said(table, say("table.deal_99", deal=1, game=1, dealer=Seat(0)), "en")
    assert line == "Deal 1 (game 1) · dealer A\\*n\\\\n_"  # read by the page as "A*n\n_", never as marks
    assert seat_name(table, 0, "en") == "A*n\\n_"  # a name alone is plain text, shown as it is
    assert escaped("🤖 Easy 2") == "🤖 Easy 2" and escaped("**") == "\\*\\*"


def test_a_hand_note_says_nothing_the_tables_header_already_says() -> None:
    """The screen shows the table's header and the seat's notes side by side: in Five Hundred's auction the
    highest bid is said once (the chat's hand, a message of its own, says it there too)."""
    table = a_table("five-hundred", 4, ["Alice", None, None, None])
    state = new_game("five-hundred", players=4, options={}, seed=5)
    seat = state.to_act()[0]
    state.act(seat, next(action for action in state.legal(seat) if action != "pass"))
    shown = presentation_of("five-hundred")
    for language in ("en", "ja"):
        for reader in range(4):
            view = state.view(reader)
            header = [said(table, text, language) for line in shown.header(view) for text in line]
            notes = [said(table, text, language) for text in shown.hand_notes(view)]
            both = header + _new_lines(notes, header)  # what the screen shows
            assert len([line for line in both if line.startswith(("Highest bid", "最高ビッド"))]) == 1, both


def calling_state(seed: int = 0) -> tuple[GameState, int]:
    """Five-player Five Hundred played at random until its contractor is to call a partner's card."""
    rng = random.Random(seed)
    for attempt in range(200):
        state = new_game("five-hundred", 5, {}, seed=seed + attempt)
        while not state.is_over() and state.view(None)["phase"] != "calling":
            seat = state.to_act()[0]
            legal = [a for a in state.legal(seat) if a != "alone" and not a.startswith("bid misere")]
            state.act(seat, rng.choice(legal))
            if state.view(None)["deal"] > 1:
                break
        if state.view(None)["phase"] == "calling":
            return state, state.to_act()[0]
    raise AssertionError("no contract was made")


def test_a_long_list_of_cards_to_call_is_given_card_by_card_for_the_page_to_lay_out_by_suit() -> None:
    """Five Hundred's called card was a row of forty-odd buttons ("Call A♠", "Call K♠", ...) that ran under the
    hand on a phone: each card is given with its action, for the page to lay out a row a suit."""
    state, seat = calling_state()
    table = replace(a_table("five-hundred", 5, ["Ann", None, None, None, None]), status=TableStatus.PLAYING)
    legal = state.legal(seat)
    choices = choices_screen(table, state.view(seat), legal, "en")
    calls = [a for a in legal if a.startswith("call ")]
    listed = next(choice for choice in choices if choice.get("list_cards"))
    assert [entry["action"] for entry in listed["list_cards"]] == calls and len(calls) > 12
    assert all(entry["action"] == f"call {entry['card']}" for entry in listed["list_cards"])
    assert any(a["action"] == "alone" for choice in choices for a in choice["actions"])  # going alone: a button
    labels = {a["action"]: a["label"] for a in listed["actions"]}  # (said whole to a screen reader)
    assert all(labels[call].startswith("Call ") for call in calls)
    short = choices_screen(table, state.view(seat), ["alone", *calls[:3]], "en")
    assert not any(choice.get("list_cards") for choice in short)  # a short list stays a row of buttons
