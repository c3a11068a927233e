"""A match's deals trick by trick, replayed from its action log through the engine contract alone.

What a replay shows of a deal is what the table showed as it was played (who
led, what each played, who took each trick) and its score sheet; the hands as
dealt are kept too, and the service hands them out only once the match is
over (see ``Records.deal_reviews``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games import GameState, new_game
from bot.games.views import DealSheet, View
from bot.storage.record_rows import MatchSheet

from .live import sides_of
from .standings import match_winners, placements


@dataclass(frozen=True)
class TrickReview:
    """One trick: its cards in the order played (``(seat, card)``) and who took it (None: nobody)."""

    cards: tuple[tuple[int, str], ...]
    winner: int | None

    @property
    def leader(self) -> int:
        return self.cards[0][0]


@dataclass(frozen=True)
class DealReview:
    deal: int
    tricks: tuple[TrickReview, ...]
    sheet: DealSheet | None
    hands: tuple[tuple[str, ...], ...] = field(default_factory=tuple)  # each seat's cards as dealt

    def public(self) -> DealReview:
        """The deal without its hands: what anyone may see while the match goes on."""
        return replace(self, hands=())


def _played_card(action: str) -> str | None:
    words = action.split()
    return words[1] if len(words) > 1 and words[0] == "play" else None


def _whose_card(before: View, after: View, acted: int) -> int:
    """The seat whose card was just played, which is not always the seat that acted: in two-player
    Ninety-Nine a live seat chooses the dummy's card. Read from the hands' counts of cards: the one that
    dropped, or, once the deal is over (the counts are already the next deal's), the one hand that still
    held a card and had not played to the trick."""
    if after["deal"] == before["deal"] and len(after["cards_left"]) == len(before["cards_left"]):
        pairs = zip(before["cards_left"], after["cards_left"], strict=True)
        owners = [seat for seat, (was, now) in enumerate(pairs) if now < was]
    else:
        played = {p["seat"] for p in before["trick"]}
        owners = [seat for seat, was in enumerate(before["cards_left"]) if was and seat not in played]
    return owners[0] if len(owners) == 1 else acted


def _as_dealt(state: GameState, players: int) -> tuple[tuple[str, ...], ...]:
    """Every hand's cards as a deal starts: each seat's own hand, then any hand nobody sits at (the
    two-player Ninety-Nine dummy, hand 2)."""
    seats = [tuple(state.view(seat).get("hand") or ()) for seat in range(players)]
    seats += [_unseated(state, hand) for hand in range(players, len(state.view(None)["cards_left"]))]
    return tuple(seats)


def _unseated(state: GameState, hand: int) -> tuple[str, ...]:
    """A hand nobody sits at as its own entry in its own view's hands shows it: the cards laid aside as
    its bid when it was dealt (hidden from every seat), then the cards it plays."""
    of_hand = getattr(state, "hand_view", None)  # only a game with such hands has it (Ninety-Nine's dummy)
    view: Mapping[str, Any] = of_hand(hand) if of_hand is not None else state.view(hand)
    own: Mapping[str, Any] = view["hands"][hand]
    return (*(own.get("bid_cards") or ()), *(own.get("cards") or ()))


def _last_winner(sheet: DealSheet | None, tricks: list[TrickReview], players: int) -> int | None:
    """Who took a deal's last trick, once the deal has moved on: the seat whose sheet counts one
    trick more than the tricks already seen (None when nobody took it)."""
    if sheet is None:
        return None
    taken = [0] * max(players, 1 + max((row["seat"] for row in sheet["rows"]), default=0))
    for trick in tricks:
        if trick.winner is not None and trick.winner < len(taken):
            taken[trick.winner] += 1
    ahead = [row["seat"] for row in sheet["rows"] if row["tricks"] - taken[row["seat"]] == 1]
    return ahead[0] if len(ahead) == 1 else None


def review_deals(
    game: str, players: int, options: dict[str, Any], seed: int, actions: Iterable[tuple[int, str]]
) -> list[DealReview]:
    """Every deal of a match (the one under way last, without a sheet), replayed from its log."""
    state = new_game(game, players=players, options=options, seed=seed)
    public: View = state.view(None)
    deals: list[DealReview] = []
    tricks: list[TrickReview] = []
    hands = _as_dealt(state, players)
    seen_sheet: DealSheet | None = None
    for seat, action in actions:
        before = public
        state.act(seat, action)
        public = state.view(None)
        card = _played_card(action)
        sheet = public["last_deal"]
        new_sheet = sheet if sheet is not None and sheet != seen_sheet else None
        if new_sheet is not None:
            seen_sheet = sheet
        moved_on = public["deal"] != before["deal"] or state.is_over() or new_sheet is not None
        if card is not None and (public["tricks_played"] > before["tricks_played"] or moved_on):
            played = (_whose_card(before, public, seat), card)
            cards = (*tuple((p["seat"], p["card"]) for p in before["trick"]), played)
            last = public["last_trick"]
            if public["deal"] == before["deal"] and last is not None and not moved_on:
                winner = last["winner"]
            else:
                winner = _last_winner(new_sheet, [*tricks, TrickReview(cards, None)], players)
            tricks.append(TrickReview(cards, winner))
        if moved_on and (new_sheet is not None or state.is_over()):
            number = new_sheet["deal"] if new_sheet is not None else before["deal"]
            deals.append(DealReview(number, tuple(tricks), new_sheet, hands))
            tricks = []
            hands = _as_dealt(state, players)
    if tricks and not state.is_over():
        deals.append(DealReview(public["deal"], tuple(tricks), None, hands))
    return deals


def running_totals(sheets: Sequence[DealSheet], seats: int) -> list[list[int]]:
    """Each seat's match total after every deal, starting from 0 before the first (the end-of-match chart's
    lines, in chat and on the Activity's page)."""
    lines = [[0] for _ in range(seats)]
    for sheet in sheets:
        totals = {row["seat"]: row["total"] for row in sheet["rows"]}
        for seat, line in enumerate(lines):
            line.append(int(totals.get(seat, line[-1])))
    return lines


@dataclass(frozen=True)
class Standing:
    """One seat at the end of a match: its place (None until the match is stored), score, and rating change."""

    seat: int
    place: int | None
    score: int
    winner: bool
    rating_before: float | None = None
    rating_after: float | None = None


def final_standings(public: View, result: MatchSheet | None, resigned: Collection[int] = ()) -> list[Standing]:
    """The seats in their final order: the stored places when the match is stored (until then the places
    worked out as they will be stored: resigned sides last, winners first), then by score; each person's
    rating change once stored (a computer has none). The winners are the match's
    (:func:`~bot.tables.standings.match_winners`): never a seat that resigned (``resigned``), though the
    computer that played it on took the match."""
    totals = public["scores"]["total"]
    sides = sides_of(public, len(totals))
    gave_up = set(resigned)
    places = placements(sides, totals, set(public["winners"] or []), gave_up)
    winners = match_winners(sides, places, set(public["winners"] or []), gave_up)
    ratings: dict[int, tuple[float | None, float | None]] = {}
    placement: dict[int, int] = {}
    if result is not None:
        winners = {stored["seat"] for stored in result["seats"] if stored["won"]}
        for stored in result["seats"]:
            ratings[stored["seat"]] = (stored["rating_before"], stored["rating_after"])
            if stored["placement"] is not None:
                placement[stored["seat"]] = stored["placement"]
    place_of = {seat: place for side, place in zip(sides, places, strict=True) for seat in side}
    last = len(sides) + 1  # a seat of no side (two-player Ninety-Nine's dummy) after every player
    order = sorted(range(len(totals)), key=lambda s: (placement.get(s, place_of.get(s, last)), -totals[s]))
    return [
        Standing(seat, placement.get(seat), totals[seat], seat in winners, *ratings.get(seat, (None, None)))
        for seat in order
    ]
