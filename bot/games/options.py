"""Declared table options, validated the same way for every game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidGame


@dataclass(frozen=True)
class Option:
    """One table setting: its name as in rules/*.md, its default and what it may be."""

    name: str
    default: bool | int | str
    choices: tuple[str, ...] = ()  # for text options
    low: int = 0  # for whole numbers
    high: int = 0

    def allowed(self) -> str:
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, int):
            return f"a whole number from {self.low} to {self.high}"
        return ", ".join(self.choices)

    def check(self, value: Any) -> bool | int | str:
        ok: bool
        if isinstance(self.default, bool):
            ok = isinstance(value, bool)
        elif isinstance(self.default, int):
            ok = isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high
        else:
            ok = isinstance(value, str) and value in self.choices
        if not ok:
            raise InvalidGame("bad_option_value", option=self.name, value=value, allowed=self.allowed())
        return value  # type: ignore[no-any-return]


def resolve(game: str, specs: tuple[Option, ...], given: dict[str, Any] | None) -> dict[str, Any]:
    """The full option set: defaults, overridden by ``given`` after checking each."""
    by_name = {o.name: o for o in specs}
    out: dict[str, Any] = {o.name: o.default for o in specs}
    for key, value in (given or {}).items():
        spec = by_name.get(key)
        if spec is None:
            raise InvalidGame("unknown_option", option=key, game=game, allowed=", ".join(by_name) or "none")
        out[key] = spec.check(value)
    return out
