"""Every slash command's failure answered once, politely, in the reader's language: the tree's ``on_error``.

discord.py turns an option's value that no choice offers (a client may send
anything) into a ``TransformerError`` before the command runs, and an error
nothing answers leaves the person with "This interaction failed". The bot's
command tree (:class:`PoliteTree`, handed to the bot as its ``tree_cls``, the
RoboDanny way) answers every such failure of every command, in one place: a
value no choice offers, with the option and what it may be; anything else with
an apology, logged.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands

from .i18n import catalogue, echoed, language_of, reader, t
from .replies import send
from .tables.clicks import data_of
from .tables.play_commands import refused_choice

log = logging.getLogger(__name__)

SUBCOMMAND_TYPES = (1, 2)  # an option that is a subcommand or a group of them: its options are the command's


class PoliteTree(app_commands.CommandTree[Any]):
    """The bot's command tree: a failed command is answered (see the module)."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /) -> None:
        await answer_command_error(interaction, error)


async def answer_command_error(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
    """Tell the person why their command did nothing: a value no choice offers, or our own failure."""
    locale = reader(interaction)
    if isinstance(error, app_commands.TransformerError):
        refusal = refused_choice(data_of(interaction), locale) or refused_value(interaction, locale)
        if refusal is not None:
            with contextlib.suppress(discord.HTTPException):
                await send(interaction, refusal)
            return
    log.exception("command failed", exc_info=error)
    with contextlib.suppress(discord.HTTPException):
        await send(interaction, t(locale, "error.internal"))


def given_options(data: dict[str, Any]) -> dict[str, Any]:
    """The values a command was called with, by option name, below any subcommand and group."""
    options = data.get("options") or []
    while len(options) == 1 and options[0].get("type") in SUBCOMMAND_TYPES:
        options = options[0].get("options") or []
    return {str(o.get("name")): o.get("value") for o in options if isinstance(o, dict)}


def refused_value(interaction: discord.Interaction[Any], locale: str) -> str | None:
    """Which option of the command was given a value none of its choices offers, and what it may be (None if
    every value given is one of its choices)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    given = given_options(data_of(interaction))
    for parameter in command.parameters:
        if not parameter.choices or parameter.display_name not in given:
            continue
        value = given[parameter.display_name]
        if any(choice.value == value for choice in parameter.choices):
            continue
        option = catalogue(language_of(locale)).get(f"name.{parameter.name}") or parameter.display_name
        option = option[:1].upper() + option[1:]  # it opens the sentence
        allowed = " · ".join(_choice_label(choice, locale) for choice in parameter.choices)
        return t(locale, "error.bad_choice", option=option, value=echoed(value), allowed=allowed)
    return None


def _choice_label(choice: app_commands.Choice[Any], locale: str) -> str:
    """A choice's name in the reader's language (its catalogue key, where it has one)."""
    key = choice._locale_name.extras.get("key") if choice._locale_name is not None else None
    return t(locale, key) if isinstance(key, str) else choice.name
