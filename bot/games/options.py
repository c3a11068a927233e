"""Declared table options, validated the same way for every game."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InvalidGame

OptionValue = bool | int | str  # what a table option may be


@dataclass(frozen=True)
class Option:
    """One table setting: its name as in rules/*.md, its default and exactly what it may be.

    A text option lists its ``choices``; a whole number either lists its
    ``values`` (Five Hundred's open misère is worth 500 or 520, nothing
    between) or allows every number from ``low`` to ``high``.
    """

    name: str
    default: bool | int | str
    choices: tuple[str, ...] = ()  # for text options
    low: int = 0  # for whole numbers in a range
    high: int = 0
    values: tuple[int, ...] = ()  # for whole numbers that may be only these (low and high: the least and most)
    players: tuple[int, ...] = ()  # the player counts whose game it changes (empty: every count)
    # the values of other options under which it changes the game (empty: whatever they are): Ninety-Nine's
    # target only with the format played to a target
    needs: tuple[tuple[str, tuple[OptionValue, ...]], ...] = ()

    def applies(self, players: int | None) -> bool:
        """Whether the option changes a game of ``players`` (None: not known yet, so it may)."""
        return not self.players or players is None or players in self.players

    def counts_with(self, options: Mapping[str, Any]) -> bool:
        """Whether the option changes the game beside the table's other ``options`` (as played: the rules'
        defaults filled in), by its :attr:`needs`."""
        return all(options.get(name) in values for name, values in self.needs)

    def allowed(self) -> str:
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, int):
            if self.values:
                return ", ".join(map(str, self.values))
            return f"a whole number from {self.low} to {self.high}"
        return ", ".join(self.choices)

    def permits(self, value: Any) -> bool:
        """True if ``value`` is one this option may take."""
        if isinstance(self.default, bool):
            return isinstance(value, bool)
        if isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                return False
            return value in self.values if self.values else self.low <= value <= self.high
        return isinstance(value, str) and value in self.choices

    def check(self, value: Any) -> bool | int | str:
        if not self.permits(value):
            limits = self.limits()
            raise InvalidGame("bad_option_value", option=self.name, value=value, allowed=self.allowed(), **limits)
        return value  # type: ignore[no-any-return]

    def limits(self) -> dict[str, Any]:
        """What ``allowed`` says in English, as data, so a presentation can say it in its reader's language."""
        if isinstance(self.default, bool):
            return {"kind": "bool"}
        if isinstance(self.default, int):
            return {"kind": "values", "values": self.values} if self.values else {"low": self.low, "high": self.high}
        return {"kind": "choices", "choices": self.choices}


WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")


def whole_number(text: str) -> int | None:
    """An option's whole number as a person types it ("7", "-3"), else None ("--5", "٣", "1e3", ten digits)."""
    return int(text) if WHOLE_NUMBER.fullmatch(text) else None


def resolve(game: str, specs: tuple[Option, ...], given: Mapping[str, object] | None) -> dict[str, Any]:
    """The full option set: defaults, overridden by ``given`` after checking each."""
    by_name = {o.name: o for o in specs}
    out: dict[str, Any] = {o.name: o.default for o in specs}
    if given is not None and not isinstance(given, Mapping):
        raise InvalidGame("bad_options", game=game)
    named: Mapping[Any, object] = given or {}  # a name that is not text is refused as unknown, compiled or not
    for key, value in named.items():
        spec = by_name.get(key) if isinstance(key, str) else None
        if spec is None:
            raise InvalidGame("unknown_option", option=key, game=game, allowed=", ".join(by_name) or "none")
        out[spec.name] = spec.check(value)
    return out
