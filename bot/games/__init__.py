"""Pure rules engines for trick-taking games, standard library only.

    from bot.games import new_game, IllegalAction
    state = new_game("ninety-nine", players=3, options={}, seed=7)
    state.to_act(); state.legal(seat); state.act(seat, "play AS"); state.view(seat)

See ../shared/design.md for the whole contract.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import five_hundred, just_make, ninety_nine
from .base import GameState
from .errors import GameError, IllegalAction, InvalidGame
from .options import Option

__all__ = [
    "GAMES",
    "GameError",
    "GameInfo",
    "GameState",
    "IllegalAction",
    "InvalidGame",
    "Option",
    "from_json",
    "new_game",
]


@dataclass(frozen=True)
class GameInfo:
    """What a table needs to offer a game: its name, player counts and options."""

    name: str
    players: tuple[int, ...]
    default_players: int
    options: tuple[Option, ...]
    state: type[GameState]


GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo(
            "ninety-nine", ninety_nine.PLAYERS, ninety_nine.DEFAULT_PLAYERS, ninety_nine.OPTIONS, ninety_nine.NinetyNine
        ),
        GameInfo(
            "five-hundred",
            five_hundred.PLAYERS,
            five_hundred.DEFAULT_PLAYERS,
            five_hundred.OPTIONS,
            five_hundred.FiveHundred,
        ),
        GameInfo("just-make", just_make.PLAYERS, just_make.DEFAULT_PLAYERS, just_make.OPTIONS, just_make.JustMake),
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
