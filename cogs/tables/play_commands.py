"""``/play-<game>``: one slash command per game of the registry, its parameters from the game's option specs.

Discord shows a command's options from its signature, so each game's command
gets one made for it: the player count the engine allows, every option of the
game as a typed parameter (a switch; a choice among its texts, named from the
catalogue, or among its exact numbers; a number within its range), the turn
time and hints. A new game in ``bot.games.GAMES`` gets its ``/play-<game>``
with nothing written here.

One command per game, not one ``/play`` with a subcommand per game: Discord
counts every name, description and choice of a command, subcommands and all,
toward 4,000 characters (the longest localisation of each), and ``/play`` with
four games was already at 3,693. Each game's command now has that room to
itself, and a new game adds a command (Discord allows 100). Typing ``/play``
still lists every game. ``tests/cogs/test_command_size.py`` checks the room
for twice today's games and options.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, Optional, Protocol

import discord
from discord import app_commands

from bot.games import GAMES, Option

from ..i18n import echoed, t, text

MOST_TURN_SECONDS = 86_400
LENGTHS = ("quick", "full")  # /play's match length: the game's quick match, or the rules' own
KEYWORD = inspect.Parameter.KEYWORD_ONLY
POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


def choices_of(game: str) -> dict[str, list[app_commands.Choice[Any]]]:
    """The choices of a game's parameters that allow only some values, from the engine's own specs:
    text options named from the catalogue, whole numbers (500 or 520, a player count) as themselves."""
    out: dict[str, list[app_commands.Choice[Any]]] = {}
    if GAMES[game].quick:
        out["length"] = [app_commands.Choice(name=text(f"choice.length_{v}"), value=v) for v in LENGTHS]
    counts = GAMES[game].players
    if not _contiguous(counts):
        out["players"] = [app_commands.Choice(name=str(n), value=n) for n in counts]
    for option in GAMES[game].options:
        if option.choices:
            out[option.name] = [app_commands.Choice(name=text(f"choice.{v}"), value=v) for v in option.choices]
        elif option.values:
            out[option.name] = [app_commands.Choice(name=str(v), value=v) for v in option.values]
    return out


def _contiguous(counts: tuple[int, ...]) -> bool:
    return list(counts) == list(range(min(counts), max(counts) + 1))


def _number(low: int, high: int) -> Any:
    """An optional whole number from ``low`` to ``high``, as Discord asks for it."""
    return Optional[app_commands.Range[int, low, high]]  # noqa: UP045 (a Range is no type for ``|``)


def option_annotation(option: Option) -> Any:
    """The type of an option's /play parameter (every one may be left out: the table's defaults apply)."""
    if isinstance(option.default, bool):
        return Optional[bool]  # noqa: UP045
    if option.choices:
        return Optional[app_commands.Choice[str]]  # noqa: UP045
    if option.values:
        return Optional[app_commands.Choice[int]]  # noqa: UP045
    return _number(option.low, option.high)


def parameters_of(game: str) -> list[inspect.Parameter]:
    """The parameters of a game's /play after the interaction: players, its options, then the table's."""
    info = GAMES[game]
    counts = info.players
    players = (
        _number(min(counts), max(counts)) if _contiguous(counts) else Optional[app_commands.Choice[int]]  # noqa: UP045
    )
    out = []
    if info.quick:  # the match's length first: a quick match or the rules' whole one
        out.append(inspect.Parameter("length", KEYWORD, annotation=Optional[app_commands.Choice[str]], default=None))  # noqa: UP045
    out.append(inspect.Parameter("players", KEYWORD, annotation=players, default=None))
    out += [inspect.Parameter(o.name, KEYWORD, annotation=option_annotation(o), default=None) for o in info.options]
    out.append(inspect.Parameter("turn_seconds", KEYWORD, annotation=_number(0, MOST_TURN_SECONDS), default=None))
    out.append(inspect.Parameter("hints", KEYWORD, annotation=bool, default=False))
    return out


class TableOpener(Protocol):
    """The cog ``/play`` is a command of: it opens the table."""

    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        players: int | None,
        chosen: dict[str, Any],
        turn_seconds: int | None,
        *,
        hints: bool,
    ) -> None: ...


def _value(given: Any) -> Any:
    return given.value if isinstance(given, app_commands.Choice) else given


def play_callback(game: str) -> Callable[..., Coroutine[Any, Any, None]]:
    """The callback of ``/play <game>``, a method of the cog that opens tables, with the game's signature."""

    async def play(cog: TableOpener, interaction: discord.Interaction[Any], **given: Any) -> None:
        players = _value(given.pop("players", None))
        turn_seconds = given.pop("turn_seconds", None)
        hints = bool(given.pop("hints", False))
        length = _value(given.pop("length", None))
        options = {name: _value(value) for name, value in given.items()}
        if length == "quick":  # the quick match's options, unless chosen otherwise in the same command
            options = {**GAMES[game].quick, **{k: v for k, v in options.items() if v is not None}}
        await cog.open_table(interaction, game, players, options, turn_seconds, hints=hints)

    name = "play_" + game.replace("-", "_")
    play.__name__ = name
    play.__qualname__ = "Tables." + name  # a method: discord.py passes it the cog
    fixed = [inspect.Parameter("cog", POSITIONAL), inspect.Parameter("interaction", POSITIONAL)]
    play.__signature__ = inspect.Signature([*fixed, *parameters_of(game)])  # type: ignore[attr-defined]
    return play


def command_name(game: str) -> str:
    """The slash command that opens a table of ``game``."""
    return f"play-{game}"


def game_of(name: str) -> str | None:
    """The game a slash command's name opens a table of, if it is one of those."""
    game = name.removeprefix("play-")
    return game if name.startswith("play-") and game in GAMES else None


def refused_choice(data: dict[str, Any], locale: Any) -> str | None:
    """Why a ``/play-<game>`` call was refused before it ran, when one of its values is not among those
    its option allows (a client may send anything): which option, and what it may be. None otherwise."""
    game = game_of(str(data.get("name", "")))
    if game is not None:
        specs = {spec.name: spec for spec in GAMES[game].options}
        for given in data.get("options", ()):
            spec = specs.get(str(given.get("name")))
            value = given.get("value")
            if given.get("name") == "length" and value not in LENGTHS:
                lengths = " · ".join(t(locale, f"choice.length_{v}") for v in LENGTHS)
                option = t(locale, "option.length")
                return t(locale, "error.bad_choice", option=option, value=echoed(value), allowed=lengths)
            if spec is None or not (spec.choices or spec.values) or spec.permits(value):
                continue
            allowed = [t(locale, f"choice.{c}") for c in spec.choices] or [str(v) for v in spec.values]
            return t(
                locale,
                "error.bad_choice",
                option=t(locale, f"option.{spec.name}"),
                value=echoed(value),
                allowed=" · ".join(allowed),
            )
    return None


def play_commands() -> list[app_commands.Command[Any, ..., None]]:
    """A ``/play-<game>`` command for every game of the registry (server-only: a table lives in a channel).
    Its name in another language is that language's "play" and the game's name, joined the same way."""
    out = []
    for game in GAMES:
        callback: Any = play_callback(game)
        names = [p.name for p in parameters_of(game)]
        callback = app_commands.describe(**{n: text(f"describe.{game}.{n}") for n in names})(callback)
        callback = app_commands.choices(**choices_of(game))(callback)
        name = app_commands.locale_str(command_name(game), joined=("play", game))
        command: app_commands.Command[Any, ..., None] = app_commands.command(
            name=name, description=text(f"command.{game}")
        )(callback)
        out.append(app_commands.guild_only()(command))
    return out


def add_play_commands(cog: type[Any]) -> None:
    """Make every ``/play-<game>`` a command of ``cog`` (a Cog class: each instance binds its own copies)."""
    cog.__cog_app_commands__.extend(play_commands())
