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
from .replies import UNKNOWN_INTERACTION, send
from .tables.clicks import data_of
from .tables.play_commands import refused_choice

log = logging.getLogger(__name__)

OUTDATED = (app_commands.TransformerError, app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
SUBCOMMAND_TYPES = (1, 2)  # an option that is a subcommand or a group of them: its options are the command's


class PoliteTree(app_commands.CommandTree[Any]):
    """The bot's command tree: a failed command is answered (see the module), and one whose values are not of its
    options' types is refused before it runs."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /) -> None:
        await answer_command_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """A command from a server the bot was removed from is refused (it could show nothing there). A command
        whose values are not of its options' types (a string for a number: a client whose commands
        are not up to date, or a payload made by hand) is refused before it runs: discord.py passes such a value
        on as it came, and the command failed on it ("something went wrong")."""
        data = data_of(interaction)
        unreachable = getattr(interaction.client, "unreachable", None)
        if interaction.guild_id is not None and unreachable is not None and interaction.guild_id in unreachable.servers:
            # a server the bot was removed from (its commands may stay): nothing it could post there, nothing written
            if interaction.type is discord.InteractionType.application_command:  # (an autocomplete offers nothing)
                with contextlib.suppress(discord.HTTPException):
                    await send(interaction, t(reader(interaction), "error.not_in_server"))
            return False
        if interaction.type is not discord.InteractionType.application_command or data.get("type", 1) != 1:
            return True
        try:
            command, options = self._get_app_command_options(data)  # type: ignore[arg-type]
        except app_commands.AppCommandError:  # a name it does not know: answered by ``on_error``
            return True
        if not mistyped(command, options):
            return True
        log.info("a command with values not of its options' types: /%s", command.qualified_name)
        with contextlib.suppress(discord.HTTPException):
            await send(interaction, t(reader(interaction), "error.command_outdated"))
        return False


# the Python types an option's value may have, by its type (Discord's application command option types)
VALUE_TYPES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
    discord.AppCommandOptionType.user: (str, int),
    discord.AppCommandOptionType.channel: (str, int),
    discord.AppCommandOptionType.role: (str, int),
    discord.AppCommandOptionType.mentionable: (str, int),
    discord.AppCommandOptionType.attachment: (str, int),
}


def mistyped(command: app_commands.Command[Any, ..., Any], options: list[Any]) -> bool:
    """Whether a value given is not of its option's type, or names no option of the command."""
    parameters = {parameter.display_name: parameter for parameter in command.parameters}
    for option in options:
        if not isinstance(option, dict):
            return True
        parameter = parameters.get(str(option.get("name")))
        if parameter is None:
            return True
        value, allowed = option.get("value"), VALUE_TYPES.get(parameter.type, (object,))
        if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
            return True
    return False


async def answer_command_error(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
    """Tell the person why their command did nothing: a value no choice offers, or our own failure."""
    locale = reader(interaction)
    refusal = None
    if isinstance(error, app_commands.TransformerError):
        refusal = refused_choice(data_of(interaction), locale) or refused_value(interaction, locale)
    if refusal is None and isinstance(error, OUTDATED):
        # a command of a shape this bot does not have (a client that has not updated its commands yet, or a
        # payload made by hand): a value of the wrong type, a channel of the wrong kind, a name it does not know
        log.info("a command not as registered: %s", error)
        refusal = t(locale, "error.command_outdated")
    if refusal is not None:
        with contextlib.suppress(discord.HTTPException):
            await send(interaction, refusal)
        return
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(cause, discord.NotFound) and cause.code == UNKNOWN_INTERACTION:  # answered too late for Discord:
        log.warning("a command was answered too late for Discord: /%s", getattr(interaction.command, "name", "?"))
        return  # nobody can be told anything now (see replies.safely)
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
