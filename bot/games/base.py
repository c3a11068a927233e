"""What every engine's state shares: the contract, the life of a match and its deals, seeded
randomness, snapshots.

The life of a match is written once, here, as a template: each engine fills in its own rules.

- A new match (``_new_match``): the player count checked, the options resolved
  (``_options_for``), the seed, the stacked decks checked against the game's deck (``_deck``), the
  totals, sheets and winners blank; then the game's own opening (``_open_match``: the first
  dealer, sides, counters) and the first deal.
- A deal's opening (``_open_deal``, each engine's own): its cards come from ``_next_deck``, the
  stacked deck given for it or the game's deck shuffled by the seed for that deal.
- A deal's end (``_close_deal``): its score sheet kept; then either the match's end (the winners
  the deal decided) or the next deal (``_pass_deal``: the next dealer, a new game's trumps, then
  ``_open_deal``).
- The match's end: ``is_over``, ``result`` (``_result``: the winners, scores, deals and sheets,
  which an engine may add to) and ``scores``.
- Snapshots: ``SAVED``, ``to_json``, ``restore`` (then ``_after_restore``), ``clone``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Self

from . import cards as C
from .errors import GameError, IllegalAction, InvalidGame
from .options import Option, resolve
from .views import Played, Record, Scores, View, copied


class GameState(ABC):
    """One match of one game, from the first deal to its result.

    Subclasses list the attributes that make up their state in ``SAVED``;
    ``to_json`` writes exactly those and ``from_json`` restores them, so a
    snapshot round-trips exactly without replaying the log.
    """

    NAME: ClassVar[str]
    SAVED: ClassVar[tuple[str, ...]]
    SNAPSHOT_VERSION: ClassVar[int] = 1
    PLAYERS: ClassVar[tuple[int, ...]]  # the player counts the rules allow
    OPTIONS: ClassVar[tuple[Option, ...]]
    OVER: ClassVar[int]  # the phase of a finished match (each game numbers its own phases)

    players: int
    seed: int
    options: dict[str, Any]
    decks: list[list[int]]  # the stacked decks given (codes), the first deals' cards; then shuffled ones
    phase: int
    totals: list[int]  # the match total per seat (per hand, with Ninety-Nine's dummy)
    sheets: list[Any]  # one score sheet per deal scored, in order (each game's DealSheet)
    winners: list[int] | None  # None until the match is over
    # Set by ``stop_at_deal_end`` (searches): the state stops when its deal is scored instead of
    # dealing the next one. Never saved: a table's state never has it.
    _stop_at_deal_end: bool

    def __init__(self) -> None:
        self._stop_at_deal_end = False

    @classmethod
    def new(
        cls,
        players: int,
        options: dict[str, Any],
        seed: int,
        decks: list[list[str]] | None = None,
        first_dealer: int | None = None,
    ) -> Self:
        """A new match (``new_game`` checks the arguments a table may get wrong first).

        A state is made blank (``cls()``, no arguments) and then filled in, here
        and by ``restore`` and ``clone``: a class compiled by mypyc (a native
        class: no ``__dict__``, no ``object.__new__``) can be made blank no other way.
        """
        state = cls()
        state._new_match(players, options, seed, decks, first_dealer)
        return state

    def _new_match(
        self, players: int, options: dict[str, Any], seed: int, decks: list[list[str]] | None, first_dealer: int | None
    ) -> None:
        """Set up a new match and deal its first deal (see the module's docstring)."""
        if players not in self.PLAYERS:
            raise InvalidGame("bad_players", game=self.NAME, players=players, allowed=_counts(self.PLAYERS))
        self.players = players
        self.options = self._options_for(players, options or {})
        self.seed = seed
        self.decks = self._stacked_decks(decks, self._deck())
        self.totals = [0] * players
        self.sheets = []
        self.winners = None
        self._open_match(first_dealer)
        self._open_deal()

    def _options_for(self, players: int, given: dict[str, Any]) -> dict[str, Any]:
        """The match's options: the given ones checked, the rules' defaults filled in. An engine adds
        the checks that depend on the player count."""
        return resolve(self.NAME, self.OPTIONS, given)

    @abstractmethod
    def _deck(self) -> list[int]:
        """The game's whole deck for this match (its players and options), a new list."""

    @abstractmethod
    def _open_match(self, first_dealer: int | None) -> None:
        """The game's own state at the start of a match: the first dealer (``_first_seat``), sides, counters."""

    @abstractmethod
    def _open_deal(self) -> None:
        """Deal the next deal (its cards from ``_next_deck``) and open its first phase."""

    def _next_deck(self, number: int) -> list[int]:
        """The cards of deal ``number`` (from 0) in dealing order: the stacked deck given for it, else
        the game's deck shuffled by the match's seed for that deal."""
        if number < len(self.decks):
            return list(self.decks[number])
        deck = self._deck()
        self._rng(f"deal-{number}").shuffle(deck)
        return deck

    def _close_deal(self, sheet: Any, winners: list[int]) -> None:
        """A deal's end: its score sheet kept; the match over if the deal decided ``winners``, else
        the deal passes (``_pass_deal``) and the next one is dealt."""
        self.sheets.append(sheet)
        if winners:
            self.winners = winners
            self.phase = self.OVER
            return
        if self._stop_at_deal_end:  # a search's world: the next deal would be work thrown away
            self.phase = self.OVER
            return
        self._pass_deal()
        self._open_deal()

    @abstractmethod
    def _pass_deal(self) -> None:
        """Between two deals: what moves on (the dealer, the first bidder, a new game's trumps)."""

    # The contract ---------------------------------------------------------

    @abstractmethod
    def to_act(self) -> list[int]:
        """The seats that may act now."""

    @abstractmethod
    def legal(self, seat: int) -> list[str]:
        """Every legal action for ``seat`` now (empty if it may not act)."""

    @abstractmethod
    def act(self, seat: int, action: str) -> None:
        """Apply ``action`` for ``seat``; raise IllegalAction and change nothing otherwise."""

    @abstractmethod
    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (or a spectator, for None) may know, as plain JSON data: the core every
        game shares (:class:`~.views.View`) and the game's own keys."""

    def scores(self) -> Scores:
        """Running scores; ``total`` is the match total per seat."""
        return {"total": list(self.totals)}

    def is_over(self) -> bool:
        """True once the match has a result."""
        return self.winners is not None

    def _result(self) -> dict[str, Any]:
        """The result of a finished match: an engine may add its own keys."""
        return {
            "winners": list(self.winners or []),
            "scores": self.scores(),
            "deals": self._deals_dealt(),
            "sheets": copied(self.sheets),  # every deal's score sheet: the match's chart and its history
        }

    def _deals_dealt(self) -> int:
        """How many deals the match has dealt (an engine that counts its deals says so itself)."""
        return len(self.sheets)

    def result(self) -> dict[str, Any]:
        if not self.is_over():
            raise GameError("not_over")
        return self._result()

    # What a computer player may know -----------------------------------------

    @abstractmethod
    def record(self, seat: int) -> Record:
        """The current deal as ``seat`` saw it, as plain JSON data.

        Everything of ``view(seat)`` that matters for a decision, plus what a
        view does not keep: every card played this deal in order (``plays``:
        ``[{"seat", "card"}, ...]``) and the suits each seat has shown void in
        (``voids``: per seat, suit letters). Never a card the seat has not seen.
        """

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A full state that ``seat`` cannot tell from this one, the unseen cards dealt from ``rng``.

        Every card the seat has seen stays where it is (its hand, face-up and
        played cards, revealed hands, what it saw of a kitty); the cards it has
        not seen are dealt at random into the places they could be, respecting
        shown voids and cards known to be in a hand (see :mod:`.hidden`).
        Hidden values that follow from hidden cards (a secret bid, a secret
        partner) are recomputed, and the seed and stacked decks are replaced,
        so that nothing of this state the seat could not know survives: two
        states the seat cannot tell apart give the same result for the same
        generator.
        """

    def clone(self) -> Self:
        """An independent copy, much faster than a snapshot round trip (for searches).

        Every saved list and dict is copied one level deep: engines replace
        nested values rather than change them in place.
        """
        try:
            mine = self.__dict__
        except AttributeError:  # compiled by mypyc: the attributes live in the object itself
            return self._clone_native()
        new = object.__new__(type(self))
        fields = new.__dict__
        fields.update(mine)
        for name in self.SAVED:
            value = fields[name]
            kind = type(value)
            if kind is list or kind is dict:
                fields[name] = value.copy()
        return new

    def _copy_match_into(self, new: GameState) -> None:
        """For an engine's ``_clone_native``: what every match has (this class's attributes), into a
        blank ``new``, lists and dicts copied one level deep."""
        new.players, new.options, new.seed = self.players, self.options.copy(), self.seed
        new.decks, new.phase = self.decks.copy(), self.phase
        new.totals, new.sheets = self.totals.copy(), self.sheets.copy()
        new.winners = None if self.winners is None else self.winners.copy()
        new._stop_at_deal_end = self._stop_at_deal_end

    def _clone_native(self) -> Self:
        """``clone`` for a class compiled by mypyc, through the state mypyc's pickling support reads.

        Generic, hence slow (twice a pure Python clone): every engine overrides
        it attribute by attribute, and the engine properties check that its
        copy has exactly the original's attributes.
        """
        new = type(self)()
        fields = self.__getstate__()
        assert isinstance(fields, dict)
        for name, value in fields.items():
            if name.startswith("__"):  # mypyc lists the class's __hash__ = None as if an attribute
                continue
            kind = type(value)
            if name in self.SAVED and (kind is list or kind is dict):
                value = value.copy()
            setattr(new, name, value)
        return new

    # The fast path of searches: moves as ints ------------------------------------

    def stop_at_deal_end(self) -> Self:
        """Make this state (and its clones) stop once its deal is scored, instead of dealing the next
        one: then ``phase`` is the game's ``OVER`` and nobody may act, while ``is_over()`` stays False
        unless the deal ended the match. A search plays its worlds to the end of the deal only, and the
        next deal's shuffle is most of a random playout's time. Returns the state itself."""
        self._stop_at_deal_end = True
        return self

    def to_move(self) -> int:
        """The seat whose move ``moves`` lists and ``move`` makes; -1 when nobody may act. Where several
        may act (simultaneous bids) the lowest of them: their moves commute."""
        seats = self.to_act()
        return seats[0] if seats else -1

    def moves(self) -> list[int]:
        """The legal moves of ``to_move()`` as ints, in the order of ``legal``; empty when nobody may
        act. An engine's own fast path says what its ints mean (a card's code, a bid's number);
        this fallback numbers the ``legal`` actions."""
        seat = self.to_move()
        return [] if seat < 0 else list(range(len(self.legal(seat))))

    def move(self, move: int) -> None:
        """Make ``move`` (one of ``moves()``) for ``to_move()``. An engine's fast path does not check
        it again: a move not listed by ``moves()`` leaves the state undefined."""
        seat = self.to_move()
        self.act(seat, self.move_action(move))

    def move_action(self, move: int) -> str:
        """The action (as ``legal`` writes it) that ``move`` makes now."""
        return self.legal(self.to_move())[move]

    def deal_afresh(self, rng: random.Random) -> None:
        """Before anybody bids: the deal's cards dealt again at random from ``rng`` (Oh Hell and
        Ninety-Nine say exactly what is dealt). For benchmarks and searches that want a new deal fast."""
        raise NotImplementedError(f"{self.NAME} cannot deal afresh")

    def random_playout(self, rng: random.Random) -> int:
        """Play uniformly random legal moves (``rng.random()`` picks each) until nobody may act: the
        match's end, or the deal's with ``stop_at_deal_end``. Returns the moves made."""
        made = 0
        while True:
            moves = self.moves()
            if not moves:
                return made
            self.move(moves[int(rng.random() * len(moves))])
            made += 1

    # Snapshots ------------------------------------------------------------

    def to_json(self) -> str:
        data = {name: getattr(self, name) for name in self.SAVED}
        data["game"] = self.NAME
        data["snapshot"] = self.SNAPSHOT_VERSION
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    @classmethod
    def restore(cls, data: dict[str, Any]) -> GameState:
        if data.get("snapshot") != cls.SNAPSHOT_VERSION:
            why = f"snapshot version {data.get('snapshot')!r} is not {cls.SNAPSHOT_VERSION}"
            raise InvalidGame("bad_state", why=why)
        missing = [name for name in cls.SAVED if name not in data]
        if missing:
            raise InvalidGame("bad_state", why="missing " + ", ".join(missing))
        state = cls()
        for name in cls.SAVED:
            setattr(state, name, data[name])
        state._after_restore()
        return state

    def _after_restore(self) -> None:  # noqa: B027  (most engines derive nothing)
        """Rebuild anything derived (caches, lookup tables) after a restore; nothing unless an engine
        derives something."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and type(other) is type(self) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    # Helpers --------------------------------------------------------------

    def _viewer(self, seat: object) -> int | None:
        """``seat`` as ``view`` and ``record`` take it: None (a spectator) or a whole number (one that is no
        player's seat, the two-player Ninety-Nine dummy's hand 2 among them, is a spectator: None); anything
        else (text, a float, a bool) is refused with IllegalAction, never a crash."""
        if seat is None:
            return None
        if type(seat) is int:
            return seat if 0 <= seat < self.players else None
        raise IllegalAction("bad_seat", seat=seat, last=self.players - 1)

    def _seat_on_turn(self, seat: object) -> int:
        """``seat`` if it may act now; else IllegalAction: the match is over, no such seat, not its turn."""
        if self.is_over():
            raise IllegalAction("game_over")
        if type(seat) is not int or not 0 <= seat < self.players:  # a bool is no seat
            raise IllegalAction("bad_seat", seat=seat, last=self.players - 1)
        if seat not in self.to_act():
            raise IllegalAction("not_your_turn", seat=seat)
        return seat

    @staticmethod
    def _stacked_decks(decks: Sequence[object] | None, expected: Sequence[int]) -> list[list[int]]:
        """The stacked decks as codes, each checked to be the whole deck, every card once (typed loosely, so a
        deck or card of the wrong kind is refused here, compiled or not, and not by a compiled type check)."""
        want = sorted(expected)
        out = []
        for index, deck in enumerate(decks or []):
            if not isinstance(deck, list):
                raise InvalidGame("bad_decks", index=index, size=len(want))
            codes = [C.parse(c) if isinstance(c, str) else None for c in deck]
            known = [c for c in codes if c is not None]
            if len(known) != len(codes) or sorted(known) != want:
                raise InvalidGame("bad_decks", index=index, size=len(want))
            out.append(known)
        return out

    def _first_seat(self, given: int | None, seats: Sequence[int]) -> int:
        """The first dealer (or first bidder): ``given``, or drawn from the seed."""
        if given is None:
            return self._rng("first-dealer").choice(list(seats))
        if given not in seats:
            raise InvalidGame("bad_first_dealer", allowed=", ".join(map(str, seats)), value=given)
        return given

    def _rng(self, purpose: str) -> random.Random:
        """A generator for one purpose of this match (a deal's shuffle, the first dealer…).

        Deriving each from the seed and its purpose keeps every deal
        reproducible without carrying a generator's state in the snapshot.
        """
        return random.Random(f"{self.NAME}:{self.seed}:{purpose}")


def _counts(players: tuple[int, ...]) -> str:
    """The player counts as a refusal names them: ``3 to 7``, or ``2 or 4`` where they are not a run."""
    if len(players) > 2 and list(players) == list(range(players[0], players[-1] + 1)):
        return f"{players[0]} to {players[-1]}"
    return ", ".join(map(str, players[:-1])) + f" or {players[-1]}"


def played_cards(plays: list[list[int]], names: list[str] = C.NAMES) -> list[Played]:
    """A deal's cards played (``[seat, code]`` pairs, in order) as a record lists them."""
    return [{"seat": seat, "card": names[code]} for seat, code in plays]


def shown_voids(voids: list[int]) -> list[Sequence[str]]:
    """The suits each seat has shown it lacks (a bit a suit) as suit letters."""
    return [[C.SUITS[suit] for suit in range(4) if void >> suit & 1] for void in voids]
