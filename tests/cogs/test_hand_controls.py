"""What a hand's controls say before the click: a bid card's value on the card itself."""

from __future__ import annotations

import random
import re
from typing import Any

import discord

from bot.games import cards as C
from bot.games import new_game
from bot.games.just_make import bid_value
from bot.games.ninety_nine import BID_VALUE
from cogs.tables.hand import hand_message
from tests.cogs.test_limits import table_of

SUIT_VALUE = {"♦": 0, "♠": 1, "♥": 2, "♣": 3}


def controls(view: discord.ui.View) -> list[dict[str, Any]]:
    return [item for row in view.to_components() for item in row["components"]]


def bidding_state(game: str, players: int, seed: int) -> Any:
    state = new_game(game, players=players, options={}, seed=seed)
    rng = random.Random(seed)
    while not any(a.startswith("bid ") for seat in state.to_act() for a in state.legal(seat)):
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    return state


def test_just_make_bid_cards_say_the_number_they_bid() -> None:
    for seed in range(4):
        state = bidding_state("just-make", 5, seed)
        seat = state.to_act()[0]
        table = table_of("just-make", 5, {}, state.to_act())
        _, view = hand_message(table, table.seats[seat], state.view(seat), state.legal(seat), "en-US")
        cards = [c for c in controls(view) if c.get("custom_id", "").startswith(("tt:act:", "tt:pick:"))]
        assert len(cards) == len(state.view(seat)["hand"])
        for button in cards:
            label = button["label"]
            number = int(label.rsplit("= ", 1)[1].rstrip("+"))
            if "Joker" in label:
                assert number == 4 and label.endswith("= 4+"), label  # a joker bids four or more
            else:
                suit = re.search("[♠♥♦♣]", label)
                assert suit is not None and number == SUIT_VALUE[suit.group()], label
            card = button["custom_id"].split(":")[-1].split()[1] if "tt:act:" in button["custom_id"] else None
            if card is not None:
                assert number == bid_value(C.parse(card) or 0)


def test_ninety_nine_bid_options_say_what_each_card_counts() -> None:
    for seed in range(4):
        state = bidding_state("ninety-nine", 3, seed)
        seat = state.to_act()[0]
        table = table_of("ninety-nine", 3, {}, state.to_act())
        _, view = hand_message(table, table.seats[seat], state.view(seat), state.legal(seat), "en-US")
        select = next(c for c in controls(view) if c["type"] == 3)
        assert select["min_values"] == select["max_values"] == 3
        for option in select["options"]:
            card = option["value"]
            code = C.parse(card)
            assert code is not None
            if code < C.JOKER:
                assert option["description"] == f"= {BID_VALUE[code >> 4]}", option
            else:  # the joker counts as the turned-up card it replaces
                assert option["description"].startswith("= "), option


def test_declare_is_explained_only_while_it_may_still_be_chosen() -> None:
    from bot.games import presentation_of

    shown = presentation_of("ninety-nine")
    checked = 0
    for seed in range(30):
        state = bidding_state("ninety-nine", 3, seed)
        rng = random.Random(seed)
        while not state.is_over() and state.view(None)["phase"] in ("bidding", "premium"):
            seat = state.to_act()[0]
            view, legal = state.view(seat), state.legal(seat)
            if view["phase"] == "premium":
                keys = [note.key for note in shown.hand_notes(view)]
                assert ("hand.explain_declare" in keys) == ("declare" in legal), (legal, keys)
                checked += "declare" not in legal
            state.act(seat, "declare" if "declare" in legal and seed % 2 else rng.choice(legal))
    assert checked, "some seat was asked after a declare"
