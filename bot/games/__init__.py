"""Pure rules engines for trick-taking games, standard library only.

    from bot.games import new_game, IllegalAction
    state = new_game("ninety-nine", players=3, options={}, seed=7)
    state.to_act(); state.legal(seat); state.act(seat, "play AS"); state.view(seat)

See docs/engines.md for the whole contract.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any


class _SourcesOnly(importlib.abc.MetaPathFinder):
    """Imports this package's modules from their ``.py`` files, never a compiled module beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(__name__ + ".") or not path:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        return importlib.machinery.FileFinder(path[0], loader).find_spec(fullname, target)


# Modules never compiled (see setup.py): this one, and the views' types.
PURE = ("__init__", "views")


def _compiled_copy_is_stale(folder: str) -> bool:
    """True if the compiled modules no longer match the sources: a source changed after its
    module was built, or a source with no compiled module beside the others (a new engine added
    since the build; a pure class cannot subclass a compiled one). Either way: re-run ``pip install -e .``."""
    sources: set[str] = set()
    built: dict[str, float] = {}
    for entry in os.scandir(folder):
        stem, dot, suffix = entry.name.partition(".")
        if suffix == "py" and stem not in PURE:
            sources.add(stem)
        elif dot and suffix.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            built[stem] = entry.stat().st_mtime
    modules = {stem: mtime for stem, mtime in built.items() if stem in sources}
    if not modules:
        return False  # the pure Python build
    for stem in sources:
        if stem not in modules or os.stat(os.path.join(folder, stem + ".py")).st_mtime > modules[stem]:
            return True
    return False


# Where a C compiler was present at install time, the engines are compiled by
# mypyc (see setup.py). TRICK_TABLE_PURE=1 runs the pure Python instead, and so
# does a source changed since (the compiled modules are all used, or none).
if os.environ.get("TRICK_TABLE_PURE") or _compiled_copy_is_stale(os.path.dirname(__file__)):
    sys.meta_path.insert(0, _SourcesOnly())

from . import five_hundred, just_make, ninety_nine, oh_hell  # noqa: E402
from .base import GameState  # noqa: E402
from .errors import GameError, IllegalAction, InvalidGame  # noqa: E402
from .lengths import Length  # noqa: E402
from .options import Option, OptionValue, resolve  # noqa: E402

__all__ = [
    "GAMES",
    "GameError",
    "GameInfo",
    "GameState",
    "IllegalAction",
    "InvalidGame",
    "Length",
    "Option",
    "compiled",
    "from_json",
    "new_game",
]


@dataclass(frozen=True)
class GameInfo:
    """What a table needs to offer a game: its name, player counts and options, its short match (the
    options of a quick one; none if the rules have no shorter match) and how long a match lasts."""

    name: str
    players: tuple[int, ...]
    default_players: int
    options: tuple[Option, ...]
    state: type[GameState]
    quick: dict[str, OptionValue] = field(default_factory=dict)
    length: Callable[[int, dict[str, Any]], Length] | None = None

    def expected_length(self, players: int, options: dict[str, Any]) -> Length:
        """The expected length of a match with these options (the rules' defaults filled in)."""
        resolved = resolve(self.name, self.options, options)
        return self.length(players, resolved) if self.length is not None else Length(10, 10)


GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo(
            "ninety-nine",
            ninety_nine.PLAYERS,
            ninety_nine.DEFAULT_PLAYERS,
            ninety_nine.OPTIONS,
            ninety_nine.NinetyNine,
            ninety_nine.QUICK,
            ninety_nine.expected_length,
        ),
        GameInfo(
            "five-hundred",
            five_hundred.PLAYERS,
            five_hundred.DEFAULT_PLAYERS,
            five_hundred.OPTIONS,
            five_hundred.FiveHundred,
            five_hundred.QUICK,
            five_hundred.expected_length,
        ),
        GameInfo(
            "just-make",
            just_make.PLAYERS,
            just_make.DEFAULT_PLAYERS,
            just_make.OPTIONS,
            just_make.JustMake,
            just_make.QUICK,
            just_make.expected_length,
        ),
        GameInfo(
            "oh-hell",
            oh_hell.PLAYERS,
            oh_hell.DEFAULT_PLAYERS,
            oh_hell.OPTIONS,
            oh_hell.OhHell,
            oh_hell.QUICK,
            oh_hell.expected_length,
        ),
    )
}


def new_game(
    name: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    decks: list[list[str]] | None = None,
    first_dealer: int | None = None,
) -> GameState:
    """A new match of ``name``; every shuffle and random choice comes from ``seed``."""
    info = GAMES.get(name)
    if info is None:
        raise InvalidGame("unknown_game", game=name, allowed=", ".join(GAMES))
    if players is None:
        players = info.default_players
    if not isinstance(players, int) or players not in info.players:
        allowed = ", ".join(map(str, info.players))
        raise InvalidGame("bad_players", game=name, players=players, allowed=allowed)
    if not isinstance(seed, int):
        raise InvalidGame("bad_option_value", option="seed", value=seed, allowed="a whole number")
    return info.state.new(players, options or {}, seed, decks, first_dealer)


def from_json(text: str) -> GameState:
    """The state that ``to_json`` wrote, exactly."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise InvalidGame("bad_state", why=str(error)) from None
    if not isinstance(data, dict) or data.get("game") not in GAMES:
        raise InvalidGame("bad_state", why="no known game named")
    return GAMES[data["game"]].state.restore(data)


def compiled() -> bool:
    """True when the engines run as modules compiled by mypyc, False for the pure Python."""
    return not ninety_nine.__file__.endswith(".py")
