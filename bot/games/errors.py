"""Typed errors of the engines.

Each error carries a ``key`` and its ``params`` so a presentation layer can say
it in the reader's language; ``str(error)`` is the English sentence.
"""

from __future__ import annotations

from typing import Any

ENGLISH: dict[str, str] = {
    # IllegalAction
    "game_over": "The match is over; no more actions are possible.",
    "not_your_turn": "It is not seat {seat}'s turn to act.",
    "bad_seat": "There is no seat {seat} at this table (seats are 0 to {last}).",
    "unparseable": "'{action}' is not an action this game understands ({expected}).",
    "wrong_phase": "'{action}' cannot be played now: the table is in the {phase} phase.",
    "unknown_card": "'{card}' is not a card.",
    "card_not_held": "{card} is not in the hand of the seat to act.",
    "must_follow": "You must follow suit: you hold {suit}.",
    "bid_needs_three": "A bid is exactly three different cards from your hand.",
    "already_bid": "Seat {seat} has already bid this deal.",
    "premium_not_allowed": "'{action}' is not allowed now; you may: {allowed}.",
    "not_legal": "'{action}' is not legal now; legal actions include: {allowed}.",
    # InvalidGame
    "unknown_game": "Unknown game '{game}'. Games: {allowed}.",
    "bad_players": "{game} is played by {allowed} players, not {players}.",
    "unknown_option": "Unknown option '{option}' for {game}. Options: {allowed}.",
    "bad_options": "The options of {game} are given as names and values.",
    "bad_option_value": "Option '{option}' cannot be {value!r}. Allowed: {allowed}.",
    "option_needs_players": "Option {option}={value} needs {allowed} players.",
    "bad_decks": "Stacked deck {index} must be the whole {size}-card deck of this game, each card once.",
    "bad_decks_shape": "Stacked decks are given as a list of decks, each a list of cards.",
    "bad_first_dealer": "first_dealer must be one of {allowed}, not {value!r}.",
    "bad_state": "This is not a saved game state: {why}.",
    # GameError
    "not_over": "The match is not over yet.",
}


class GameError(ValueError):
    """Base of the engines' errors: a key, its parameters and an English text."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(ENGLISH[key].format(**params))

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its key and params (the default would pass the English text as the key), so an
        # error raised in a worker process (the computer players' pool) reaches the bot intact.
        return _rebuild, (type(self), self.key, self.params)


def _rebuild(kind: type[GameError], key: str, params: dict[str, Any]) -> GameError:
    return kind(key, **params)


class IllegalAction(GameError):
    """An action that the rules do not allow now; the state is unchanged."""


class InvalidGame(GameError):
    """``new_game`` or ``from_json`` was given something it cannot set up."""
