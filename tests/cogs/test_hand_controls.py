"""What a hand says and its controls offer before the click: a bid card's value on the card itself, and the
Ninety-Nine premium bids asked with every offer shown and what stands for the seat asked."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest

from bot.games import cards as C
from bot.games import new_game
from bot.games.just_make import bid_value
from bot.games.ninety_nine import BID_VALUE
from cogs.tables.hand import Controls, _action_selects, hand_message
from cogs.tables.hand_components import PickSelect
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


@pytest.mark.parametrize("players", [2, 3])
def test_declare_is_explained_only_while_it_may_still_be_chosen(players: int) -> None:
    """After a declare, three or four players may only reveal or pass; two players may both declare (the
    second was not told Declare was still open), and are told a missed declare pays the other player only if
    that player did not miss one too (it said every other hand)."""
    from bot.games import presentation_of

    shown = presentation_of("ninety-nine")
    checked = 0
    for seed in range(30):
        state = bidding_state("ninety-nine", players, seed)
        rng = random.Random(seed)
        while not state.is_over() and state.view(None)["phase"] in ("bidding", "premium"):
            seat = state.to_act()[0]
            view, legal = state.view(seat), state.legal(seat)
            if view["phase"] == "premium":
                keys = [note.key for note in shown.hand_notes(view)]
                declare = "hand.explain_declare_2" if players == 2 else "hand.explain_declare"
                assert (declare in keys) == ("declare" in legal), (legal, keys)
                assert ("hand.explain_reveal" in keys) == ("reveal" in legal), (legal, keys)
                others_declared = any(o["offer"] == "declare" and o["seat"] != seat for o in view["premium_offers"])
                checked += others_declared
            state.act(seat, "declare" if "declare" in legal and seed % 2 else rng.choice(legal))
    assert checked, "some seat was asked after a declare"


def premium_state(players: int, seed: int) -> Any:
    """A Ninety-Nine deal whose bids are all in: the premium bids are being asked."""
    state = bidding_state("ninety-nine", players, seed)
    rng = random.Random(seed)
    while state.view(None)["phase"] != "premium":
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    return state


NAMES = ("Ann", "Ben", "Cid")


def table_and_hand(state: Any, locale: str = "en-US") -> tuple[list[str], str, list[tuple[str, ...]]]:
    """What everyone sees (each seat's line of the public text, each seat plate of the picture) and the
    hand of the seat asked."""
    from dataclasses import replace

    from cogs.tables.picture import table_picture
    from cogs.tables.render import table_embed
    from tests.cogs.test_pictures_and_words import table_of as named_table

    seat = state.to_act()[0]
    table = replace(named_table("ninety-nine", NAMES[: state.players]), to_act=tuple(state.to_act()))
    public = state.view(None)
    text = table_embed(table, public, locale).description or ""
    rows = [next(line for line in text.splitlines() if f"**{name}**" in line) for name in NAMES[: state.players]]
    plates = [plate.lines for plate in table_picture(table, public, locale).seats]
    embed, _ = hand_message(table, table.seats[seat], state.view(seat), state.legal(seat), locale)
    return rows, embed.description or "", plates


OFFERS = {"declared", "revealed", "passed"}


def test_every_premium_offer_is_shown_and_the_seat_asked_is_told_what_stands() -> None:
    """One declares, the next reveals: the table showed "has bid" for everyone, and the declarer, asked
    again, was asked "Declare, reveal, or pass?" with nothing saying who had revealed or what a pass does."""
    state = premium_state(3, 1)
    first = state.to_act()[0]
    second, third = (first + 1) % 3, (first + 2) % 3
    state.act(first, "declare")
    rows, hand, plates = table_and_hand(state)
    assert "· declared ·" in rows[first] and not OFFERS & set(rows[second].split(" · "))
    assert "declared" in plates[first] and not OFFERS & set(plates[second] + plates[third])
    assert f"{NAMES[first]} declared: you may only reveal or pass." in hand
    assert hand.endswith("**Reveal, or pass?**") and "**Declare**" not in hand

    state.act(second, "reveal")
    assert state.to_act() == [first] and state.legal(first) == ["pass", "reveal"]
    rows, hand, plates = table_and_hand(state)
    assert "· declared ·" in rows[first] and "· revealed ·" in rows[second]
    assert "declared" in plates[first] and "revealed" in plates[second]
    raise_line = f"{NAMES[second]} revealed: reveal to take the premium back, or pass and your declare is void."
    assert raise_line in hand and hand.endswith("**Reveal, or pass?**") and "nothing is risked" not in hand
    _, japanese, _ = table_and_hand(state, "ja")
    assert f"{NAMES[second]}が公開しました。" in japanese and japanese.endswith("**公開、それともパス？**")

    state.act(first, "pass")  # the declare is void, the reveal stands and is carried out
    assert state.view(None)["phase"] == "playing"
    rows, _, plates = table_and_hand(state)
    assert "· revealed ·" in rows[second] and not OFFERS & set(rows[first].split(" · ") + rows[third].split(" · "))
    assert "revealed" in plates[second] and not OFFERS & set(plates[first] + plates[third])


def test_two_players_see_each_others_declare_and_may_declare_too() -> None:
    state = premium_state(2, 2)
    first, second = state.to_act()[0], 1 - state.to_act()[0]
    state.act(first, "declare")
    rows, hand, plates = table_and_hand(state)
    assert "· declared ·" in rows[first] and "declared" in plates[first] and "declared" not in rows[second]
    assert f"{NAMES[first]} declared: you may declare too, or pass." in hand and "**Declare**:" in hand
    assert hand.endswith("**Declare, or pass?**")


def test_selects_of_one_hand_never_share_a_custom_id() -> None:
    """A hand whose actions fill a select and whose left-over actions fill another (or a number's select and
    then actions' selects): each select's custom_id is its own (Discord refuses a message with two alike)."""
    state = new_game("five-hundred", players=4, options={}, seed=3)
    seat = state.to_act()[0]
    view, legal = state.view(seat), state.legal(seat)
    table = table_of("five-hundred", 4, {}, [seat])
    controls = Controls()
    many = (legal * 40)[:30]
    _action_selects(controls, table, 0, many, view, "en-US", "first")  # two selects: 25, then 5
    _action_selects(controls, table, 0, many[:10], view, "en-US", "the rest")
    ids = [item.item.custom_id for row in controls.rows for item in row if isinstance(item, PickSelect)]
    assert len(ids) == 3 and len(set(ids)) == 3, ids


def test_a_hand_messages_fifteen_minutes_run_from_the_interactions_arrival() -> None:
    """A hand remembered after a slow answer (a lock waited for, a slow database) counted its token's 15 minutes
    from the answer: an edit near their end reached Discord after the token had expired (401, 50027)."""
    from types import SimpleNamespace

    from cogs.replies import arrived
    from cogs.tables.hand_messages import TOKEN_LIFETIME, Hands, Shown

    interaction: Any = SimpleNamespace(extras={}, user=SimpleNamespace(id=5))
    came = arrived(interaction)
    interaction.extras = {key: came - TOKEN_LIFETIME - 1 for key in interaction.extras}  # it came long ago
    hands = Hands(None, None)  # type: ignore[arg-type]
    hands.remember(interaction, 7, Shown(0, True))
    assert hands.hands[(7, 5)].opened == arrived(interaction) < came
    assert not hands.hands[(7, 5)].fresh  # no edit is tried with that token
