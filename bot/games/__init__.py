"""Pure rules engines for trick-taking games, standard library only.

    from bot.games import new_game, IllegalAction
    state = new_game("ninety-nine", players=3, options={}, seed=7)
    state.to_act(); state.legal(seat); state.act(seat, "play AS"); state.view(seat)

Each game is one entry of :data:`GAMES` (its rules, how it is shown, its computer players); the
choice between the compiled engines and their sources is :mod:`bot.games.loading`'s.

See docs/engines.md for the whole contract.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from . import loading  # noqa: F401  (first: it chooses between the compiled engines and their sources)

# isort: split
from . import five_hundred, just_make, ninety_nine, oh_hell
from .base import GameState
from .errors import GameError, IllegalAction, InvalidGame
from .lengths import Length
from .options import Option, OptionValue, resolve
from .shown import Presentation
from .shown import five_hundred as shown_five_hundred
from .shown import just_make as shown_just_make
from .shown import ninety_nine as shown_ninety_nine
from .shown import oh_hell as shown_oh_hell
from .views import DealSheet, View

__all__ = [
    "GAMES",
    "Game",
    "GameError",
    "GameState",
    "IllegalAction",
    "InvalidGame",
    "Length",
    "Option",
    "compiled",
    "from_json",
    "game_of",
    "new_game",
    "presentation_of",
]


@dataclass(frozen=True)
class Game:
    """One game, everything every caller needs to find of it, found in one place: ``GAMES[name]``.

    - the rules: ``state`` (the engine's class), the player counts, the ``options``, the short match
      (``quick``: the options of a quick one; none if the rules have no shorter match) and how long a
      match lasts (``length``);
    - ``shown``: how a table shows it (:mod:`bot.games.shown`), read by the service and the cogs;
    - ``computer``: the module of its computer players' knowledge, named and not imported: the
      computer players (``bot.players``) sit above the engines, which never import them, so this is
      the one place they are named and ``bot.players.knowledge_of`` the one place that imports them.

    The catalogues hold a game's texts under its ``name`` (``game.<name>``, ``command.<name>``,
    ``describe.<name>.<option>``). A new game is one more entry here, beside its engine, its
    ``shown`` module and its computer players.
    """

    name: str
    players: tuple[int, ...]
    default_players: int
    options: tuple[Option, ...]
    state: type[GameState]
    shown: Presentation[View, DealSheet]
    computer: str
    quick: dict[str, OptionValue] = field(default_factory=dict)
    length: Callable[[int, Mapping[str, OptionValue]], Length] | None = None

    @property
    def option_names(self) -> str:
        """The names its options are typed by (``name=value`` in ``/tournament create`` and ``/gamenight
        schedule``), English in every language (the labels ``/rules`` shows are translated): for the refusal of
        options that are not the game's, ``start_cards, sequence, hook, scoring``."""
        return ", ".join(option.name for option in self.options)

    def options_in_play(self, players: int | None, options: Mapping[str, OptionValue]) -> dict[str, Any]:
        """The options a match plays with: ``options`` checked, the rules' defaults filled in, and where a
        default depends on the player count (Oh Hell's ``start_cards``: 8 with six players, 7 with seven)
        the default for ``players``, when it is known."""
        if players is not None and players in self.players:
            try:
                return self.state()._options_for(players, dict(options))
            except InvalidGame:
                pass  # the count does not fit the options (a lobby changing size): the plain defaults
        return resolve(self.name, self.options, options)

    def options_that_count(self, players: int | None, options: Mapping[str, OptionValue]) -> dict[str, Any]:
        """:meth:`options_in_play` less those that change nothing here: at another player count (Five Hundred's
        six-player sides), or beside the other options' values (Ninety-Nine's target with another format): what
        a table shows of its options."""
        played = self.options_in_play(players, options)
        counting = {spec.name for spec in self.options if spec.applies(players) and spec.counts_with(played)}
        return {name: value for name, value in played.items() if name in counting}

    def expected_length(self, players: int, options: Mapping[str, OptionValue]) -> Length:
        """The expected length of a match with these options (the rules' defaults filled in)."""
        resolved = self.options_in_play(players, options)
        return self.length(players, resolved) if self.length is not None else Length(10, 10)


def _shown(presentation: object) -> Presentation[View, DealSheet]:
    """A game's presentation reads that game's own views and sheets, which extend the core ones: what
    the service and the cogs hold for any game is the same data, typed by its core."""
    return cast(Presentation[View, DealSheet], presentation)


GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game(
            "ninety-nine",
            ninety_nine.PLAYERS,
            ninety_nine.DEFAULT_PLAYERS,
            ninety_nine.OPTIONS,
            ninety_nine.NinetyNine,
            _shown(shown_ninety_nine.PRESENTATION),
            "bot.players.ninety_nine",
            ninety_nine.QUICK,
            ninety_nine.expected_length,
        ),
        Game(
            "five-hundred",
            five_hundred.PLAYERS,
            five_hundred.DEFAULT_PLAYERS,
            five_hundred.OPTIONS,
            five_hundred.FiveHundred,
            _shown(shown_five_hundred.PRESENTATION),
            "bot.players.five_hundred",
            five_hundred.QUICK,
            five_hundred.expected_length,
        ),
        Game(
            "just-make",
            just_make.PLAYERS,
            just_make.DEFAULT_PLAYERS,
            just_make.OPTIONS,
            just_make.JustMake,
            _shown(shown_just_make.PRESENTATION),
            "bot.players.just_make",
            just_make.QUICK,
            just_make.expected_length,
        ),
        Game(
            "oh-hell",
            oh_hell.PLAYERS,
            oh_hell.DEFAULT_PLAYERS,
            oh_hell.OPTIONS,
            oh_hell.OhHell,
            _shown(shown_oh_hell.PRESENTATION),
            "bot.players.oh_hell",
            oh_hell.QUICK,
            oh_hell.expected_length,
        ),
    )
}


def game_of(name: str) -> Game:
    """The entry of ``name``; InvalidGame (with the names there are) if there is no such game."""
    game = GAMES.get(name)
    if game is None:
        raise InvalidGame("unknown_game", game=name, allowed=", ".join(GAMES))
    return game


def presentation_of(name: str) -> Presentation[View, DealSheet]:
    """How a table shows the game ``name`` (its entry's ``shown``)."""
    return game_of(name).shown


def new_game(
    name: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    decks: list[list[str]] | None = None,
    first_dealer: int | None = None,
) -> GameState:
    """A new match of ``name``; every shuffle and random choice comes from ``seed``."""
    info = game_of(name)
    if players is None:
        players = info.default_players
    # ``type(...) is int``: a bool is an int to isinstance, and True is no seat, count or seed.
    if type(players) is not int or players not in info.players:
        allowed = ", ".join(map(str, info.players))
        raise InvalidGame("bad_players", game=name, players=players, allowed=allowed)
    if type(seed) is not int:
        raise InvalidGame("bad_option_value", option="seed", value=seed, allowed="a whole number")
    if first_dealer is not None and (type(first_dealer) is not int or not 0 <= first_dealer < players):
        allowed = ", ".join(map(str, range(players)))
        raise InvalidGame("bad_first_dealer", allowed=allowed, value=first_dealer)
    if options is not None and not isinstance(options, dict):
        raise InvalidGame("bad_options", game=name)
    if decks is not None and not isinstance(decks, list):
        raise InvalidGame("bad_decks_shape")
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
