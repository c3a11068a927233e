"""Twins for the no-peek tests: a state changed only where ``seat`` cannot see, built WITHOUT the engine's
``determinize`` (which is what is under test), by swapping hidden cards between the places they could be
(respecting shown voids and the called card), re-randomising the seed and the decks of later deals."""

from __future__ import annotations

import json
import random
from typing import Any

from bot.games import GAMES, GameState, InvalidGame, new_game
from bot.games import cards as C


def cards(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


class Place:
    """A place hidden cards may be: ``get``/``put`` a mask, and the cards it may not hold."""

    def __init__(self, state: Any, attr: str | None, index: int | None, forbidden: int, mask: int | None = None):
        self.state, self.attr, self.index, self.forbidden = state, attr, index, forbidden
        self._mask = mask  # a place the engine does not store (Just Make's undealt rest)

    def get(self) -> int:
        if self.attr is None:
            return self._mask or 0
        value = getattr(self.state, self.attr)
        return value[self.index] if self.index is not None else value

    def put(self, mask: int) -> None:
        if self.attr is None:
            self._mask = mask
            return
        if self.index is None:
            setattr(self.state, self.attr, mask)
        else:
            lst = getattr(self.state, self.attr)
            lst[self.index] = mask


def void_mask(voids: int, suit_masks: Any) -> int:
    out = 0
    for suit in range(4):
        if voids >> suit & 1:
            out |= suit_masks[suit]
    return out


def hidden_places(state: Any, seat: int) -> list[Place]:
    name = state.NAME
    if name == "oh-hell":
        places = [
            Place(state, "hands", s, void_mask(state.voids[s], C.SUIT_MASK)) for s in range(state.players) if s != seat
        ]
        places.append(Place(state, "unused", None, 0))
        return places
    if name == "just-make":
        from bot.games.just_make import DECK_MASK

        seen = 0
        for s in range(state.players):
            seen |= state.hands[s]
        for code in state.bids:
            if code >= 0:
                seen |= 1 << code
        for _, code in state.plays:
            seen |= 1 << code
        places = [Place(state, "hands", s, 0) for s in range(state.players) if s != seat]
        places.append(Place(state, None, None, 0, mask=DECK_MASK & ~seen))
        return places
    if name == "ninety-nine":
        places = []
        for h in range(state._nh):
            if not state._visible_hand(h, seat):
                places.append(Place(state, "hands", h, void_mask(state.voids[h], C.SUIT_MASK)))
            if h != seat and state.shown[h] < 1 and state.bid_cards[h]:
                places.append(Place(state, "bid_cards", h, 0))
        return places
    if name == "five-hundred":
        contractor = state.contractor
        places = []
        called = state.called
        played = 0
        for _, code, _ in state.plays:
            played |= 1 << code
        called_hidden = called >= 0 and not (played | state.hands[seat]) >> called & 1
        for s in range(state.players):
            if s == seat or (state.exposed and s == contractor):
                continue
            forbidden = void_mask(state.voids[s], state._suit_masks)
            if called_hidden and ((s != state.partner) if state.partner_known else s == contractor):
                forbidden |= 1 << called
            places.append(Place(state, "hands", s, forbidden))
        bit = (1 << called) if called_hidden else 0
        if state.discards and seat != contractor:
            places.append(Place(state, "discards", None, bit))
        if state.kitty:
            places.append(Place(state, "kitty", None, bit))
        return places
    raise AssertionError(name)


def twin_of(state: GameState, seat: int, rng: random.Random, swaps: int = 400) -> GameState:
    """A copy of ``state`` the seat cannot tell from it, its hidden cards moved about at random."""
    twin: Any = type(state).restore(json.loads(state.to_json()))
    places = hidden_places(twin, seat)
    masks = [p.get() for p in places]
    if len(places) >= 2:
        for _ in range(swaps):
            i, j = rng.sample(range(len(places)), 2)
            if not masks[i] or not masks[j]:
                continue
            a, b = rng.choice(cards(masks[i])), rng.choice(cards(masks[j]))
            if places[j].forbidden >> a & 1 or places[i].forbidden >> b & 1:
                continue
            masks[i] ^= (1 << a) | (1 << b)
            masks[j] ^= (1 << a) | (1 << b)
    for p, m in zip(places, masks, strict=True):
        p.put(m)
    name = twin.NAME
    if name == "ninety-nine":
        from bot.games.ninety_nine import _bid_value

        for h in range(twin._nh):
            if twin.bid_cards[h]:
                twin.bids[h] = _bid_value(twin.bid_cards[h])
        pile = list(twin.pile)
        rng.shuffle(pile)
        twin.pile = pile
    if name == "five-hundred":
        played = 0
        for _, code, _ in twin.plays:
            played |= 1 << code
        if twin.called >= 0 and not played >> twin.called & 1:
            twin.partner = next(s for s in range(twin.players) if twin.hands[s] >> twin.called & 1)
        if twin.picked_up and seat != twin.contractor:
            mine = 0
            for s, code, _ in twin.plays:
                if s == twin.contractor:
                    mine |= 1 << code
            held = cards(twin.hands[twin.contractor] | twin.discards | mine)
            from bot.games.five_hundred import KITTY

            twin.picked_up = C.mask_of(rng.sample(held, KITTY[twin.players]))
    # The seed and the stacked decks of later deals: nothing the seat may know.
    twin.seed = rng.getrandbits(60)
    deck = list(state._deck())
    later = []
    for _ in range(len(state.sheets) + 4):
        rng.shuffle(deck)
        later.append(list(deck))
    twin.decks = later
    return twin


def random_options(game: str, players: int, rng: random.Random) -> dict[str, Any]:
    """Random options of the registry's specs, kept only where the engine accepts them together."""
    info = GAMES[game]
    for _ in range(50):
        chosen: dict[str, Any] = {}
        for option in info.options:
            if rng.random() < 0.4:
                continue
            if option.players and players not in option.players:
                continue
            d = option.default
            if isinstance(d, bool):
                chosen[option.name] = rng.random() < 0.5
            elif isinstance(d, int):
                values = getattr(option, "values", None)
                if values:
                    chosen[option.name] = rng.choice(list(values))
                else:
                    chosen[option.name] = rng.randint(option.low, option.high)
            else:
                chosen[option.name] = rng.choice(list(option.choices))
        try:
            new_game(game, players, chosen, seed=1)
        except InvalidGame:
            continue
        return chosen
    return {}
