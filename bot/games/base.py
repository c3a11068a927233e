"""What every engine's state shares: the contract, seeded randomness, snapshots."""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Self

from . import cards as C
from .errors import GameError, InvalidGame
from .views import Record, Scores, View


class GameState(ABC):
    """One match of one game, from the first deal to its result.

    Subclasses list the attributes that make up their state in ``SAVED``;
    ``to_json`` writes exactly those and ``from_json`` restores them, so a
    snapshot round-trips exactly without replaying the log.
    """

    NAME: ClassVar[str]
    SAVED: ClassVar[tuple[str, ...]]
    SNAPSHOT_VERSION: ClassVar[int] = 1

    players: int
    seed: int
    options: dict[str, Any]
    sheets: list[Any]  # one score sheet per deal scored, in order (each game's DealSheet)

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

    @abstractmethod
    def _new_match(
        self, players: int, options: dict[str, Any], seed: int, decks: list[list[str]] | None, first_dealer: int | None
    ) -> None:
        """Set up a new match and deal its first deal."""

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

    @abstractmethod
    def scores(self) -> Scores:
        """Running scores; ``total`` is the match total per seat."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the match has a result."""

    @abstractmethod
    def _result(self) -> dict[str, Any]:
        """The result of a finished match."""

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

    @abstractmethod
    def _after_restore(self) -> None:
        """Rebuild anything derived (caches, lookup tables) after a restore."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and type(other) is type(self) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    # Helpers --------------------------------------------------------------

    @staticmethod
    def _stacked_decks(decks: list[list[str]] | None, expected: Sequence[int]) -> list[list[int]]:
        """The stacked decks as codes, each checked to be the whole deck, every card once."""
        want = sorted(expected)
        out = []
        for index, deck in enumerate(decks or []):
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
