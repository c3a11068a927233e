"""A game's described texts in words, options, lengths of time, computers' names and the service's refusals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.catalogues import translate
from bot.games import GAMES
from bot.games.shown import Card, Cards, Cell, Joined, Param, Seat, Suit, SuitSymbol, Text
from bot.tables import TableError

from .cards import SUIT_SYMBOL, card_label, cards_label, hand_lines, suit_label

SeatNamer = Callable[[int], str]  # a seat's name as the presentation shows it (each cuts and marks names its way)


def _number(seat: int) -> str:
    return str(seat + 1)


def said(text: Text, locale: Any, seat_name: SeatNamer = _number) -> str:
    """A game's words (:mod:`bot.games.shown`) in the reader's language: a seat by ``seat_name`` (its number
    when none is given), cards and suits as people read them."""
    params = {name: _param(value, locale, seat_name) for name, value in text.params.items()}
    return translate(locale, text.key, **params)


def _param(value: Param, locale: Any, seat_name: SeatNamer) -> str | int:
    if isinstance(value, Text):
        return said(value, locale, seat_name)
    if isinstance(value, Seat):
        return seat_name(value.index)
    if isinstance(value, Card):
        return card_label(value.name, locale)
    if isinstance(value, Cards):
        return said_cards(value, locale)
    if isinstance(value, Suit):
        return suit_label(value.letter, locale)
    if isinstance(value, SuitSymbol):
        return SUIT_SYMBOL[value.letter]
    if isinstance(value, Joined):
        return translate(locale, "list.separator").join(said(item, locale, seat_name) for item in value.items)
    return value


def listed(items: Iterable[object], locale: Any) -> str:
    """Names or numbers in a row as the reader's language lists them: ``Ann, Bob, 🤖 Strong 3``, ``たろう、はなこ``
    (the same words in chat and on the Activity)."""
    return translate(locale, "permission.separator").join(map(str, items))


def said_cards(cards: Cards, locale: Any) -> str:
    """Cards in a line, or a whole hand a line per suit."""
    return hand_lines(cards.names, locale) if cards.by_suit else cards_label(cards.names, locale)


def computer_name(number: int, level: str | None, locale: Any) -> str:
    """``🤖 Strong 2``: a computer by its level and seat number, short and told apart from the others
    (``🤖 Computer 2`` where its level is not known: a stored match keeps none)."""
    if level is None:
        return translate(locale, "seat.computer", number=number)
    return translate(locale, f"seat.computer.{level}", number=number)


def option_text(game: str, name: str, value: Any, locale: Any) -> str:
    """``Cards in the first deal: 7``, ``Hints: on``: an option of a game and its value."""
    if isinstance(value, bool):
        shown = translate(locale, "option.on") if value else translate(locale, "option.off")
    elif isinstance(value, str):
        shown = translate(locale, f"choice.{value}")
    else:
        shown = str(value)
    return f"{translate(locale, f'option.{name}')}: {shown}"


def duration(seconds: int, locale: Any) -> str:
    """A length of time as people say it, the same everywhere (lobby, /settings, refusals): ``45 s``,
    ``5 min``, ``1 min 30 s``, ``2 h``, ``1 h 30 min``, ``1 d`` (Japanese ``1分30秒``); two units at most,
    the smaller one dropped past a day. ``off`` for none."""
    if seconds <= 0:
        return translate(locale, "duration.off")
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return translate(locale, "duration.days", count=days)
    if hours:
        if minutes:
            return translate(locale, "duration.hours_minutes", hours=hours, minutes=minutes)
        return translate(locale, "duration.hours", count=hours)
    if minutes:
        if secs:
            return translate(locale, "duration.minutes_seconds", minutes=minutes, seconds=secs)
        return translate(locale, "duration.minutes", count=minutes)
    return translate(locale, "duration.seconds", count=secs)


TYPED = ("value", "name")  # a refusal's parameters that say back what someone typed


def error_text(error: TableError, locale: Any, typed: Callable[[str], str] | None = None) -> str:
    """A service refusal in the reader's language (engine reasons included): a game by its name, a wait
    as every length of time is said; what someone typed (``TYPED``), through ``typed`` where the presentation
    must make it harmless (Discord's markdown and mentions)."""
    params = dict(error.params)
    if typed is not None:
        params.update({key: typed(params[key]) for key in TYPED if isinstance(params.get(key), str)})
    if "game" in params and params["game"] in GAMES:
        params["game"] = translate(locale, f"game.{params['game']}")
    if isinstance(params.get("seconds"), int):
        params["seconds"] = duration(params["seconds"], locale)
    if params.get("allowed_keys"):  # what is allowed, as the catalogue names each
        separator = translate(locale, "permission.separator")
        params["allowed"] = separator.join(translate(locale, key) for key in params["allowed_keys"])
    if params.get("counts"):  # numbers of players, listed as the reader's language lists
        params["players"] = listed(params["counts"], locale)
    if params.get("allowed_counts"):  # the numbers of players allowed, likewise
        params["allowed"] = listed(params["allowed_counts"], locale)
    if error.key == "bad_setting" and {"low", "high", "unit"} <= params.keys():
        params["allowed"] = translate(locale, f"error.range_{params['unit']}", low=params["low"], high=params["high"])
    if error.key == "bad_option_value":
        params["allowed"] = allowed_text(params, locale)
        label = translate(locale, f"option.{params.get('option')}")
        params["option"] = label if label != f"option.{params.get('option')}" else params.get("option")
    text = translate(locale, f"error.{error.key}", **params)
    return text if text != f"error.{error.key}" else str(error)


def allowed_text(params: dict[str, Any], locale: Any) -> str:
    """An option's allowed values (an engine's ``bad_option_value``) in the reader's language: its choices by
    their names, a range of whole numbers, on or off; the engine's English where it gave nothing else."""
    separator = translate(locale, "permission.separator")
    if params.get("kind") == "bool":  # each with the word typed for it (a tournament's or a night's options)
        return separator.join(_typed(locale, translate(locale, f"option.{word}"), word) for word in ("on", "off"))
    if params.get("kind") == "choices":
        choices = params.get("choices", ())
        return separator.join(_typed(locale, translate(locale, f"choice.{choice}"), choice) for choice in choices)
    if params.get("kind") == "values":
        return separator.join(str(value) for value in params.get("values", ()))
    if "low" in params and "high" in params:
        shown = translate(locale, "error.allowed_range", low=params["low"], high=params["high"])
        if "players" in params:
            shown = translate(locale, "error.allowed_with_players", allowed=shown, players=params["players"])
        return shown
    return str(params.get("allowed", ""))


def _typed(locale: Any, label: str, value: str) -> str:
    """A value's label with what is typed for it, ``Down to 1 (down)``; the label alone where it is that word."""
    return label if label == value else translate(locale, "error.allowed_typed", label=label, value=value)


def rating_text(before: float | None, after: float | None, locale: Any) -> str:
    """``rating 24.1 → 26.3 (+2.2)`` for a rated seat; nothing for a computer (or before the match is stored)."""
    if before is None or after is None:
        return ""
    shown_before, shown_after = f"{before:.1f}", f"{after:.1f}"
    change = float(shown_after) - float(shown_before)  # the figures shown add up (24.14 → 26.26 was "+2.1")
    return translate(locale, "table.rating_change", before=shown_before, after=shown_after, change=f"{change:+.1f}")


def cell_text(cell: Cell) -> str:
    """A score-sheet figure in its column: a number (signed where it says so), made ✓ or missed ✗ (✗! past
    the target)."""
    if isinstance(cell.value, bool):
        mark = "✓" if cell.value else ("✗!" if cell.bust else "✗")
        return f"{mark:<{cell.width}}"
    return f"{cell.value:>+{cell.width}}" if cell.signed else f"{cell.value:>{cell.width}}"
