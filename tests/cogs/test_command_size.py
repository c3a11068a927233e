"""Every slash command fits Discord's limits, with room for twice today's games and options.

Discord refuses a whole sync when one command's names, descriptions and choices (subcommands and
options included, the longest localisation of each) pass 4,000 characters, or a command has more than
25 options, or there are more than 100 commands. The commands are built here exactly as the bot syncs
them (every cog, the translator, every language), then measured with the Discord double's own rules;
then the registry is doubled (every game twice, each with every option twice) and measured again.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.launcher import EXTENSIONS
from cogs.i18n import Translator
from cogs.tables.play_commands import command_name
from tests.double.limits import COMMAND_SIZE, MOST_COMMANDS, MOST_OPTIONS, command_errors, command_size


def cogs() -> list[type[commands.Cog]]:
    for extension in EXTENSIONS:
        importlib.import_module(extension)

    def every(cls: type[commands.Cog]) -> list[type[commands.Cog]]:
        return [cls, *(sub for child in cls.__subclasses__() for sub in every(child))]

    return [cog for cog in every(commands.Cog) if cog.__module__.startswith("cogs.")]


async def synced_commands() -> list[dict[str, Any]]:
    """What the bot sends Discord when it syncs its commands."""
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    for cog in cogs():
        for command in cog.__cog_app_commands__:
            tree.add_command(command)
    await tree.set_translator(Translator())
    assert tree.translator is not None
    return [await command.get_translated_payload(tree, tree.translator) for command in tree.get_commands()]


def doubled(payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The commands of a registry twice as large: every game twice, each with every option of its own twice
    (the copies named apart, worded as the originals)."""
    out = [p for p in payloads if not p["name"].startswith("play-")]
    for game, info in GAMES.items():
        original = next(p for p in payloads if p["name"] == command_name(game))
        own = {option.name for option in info.options}
        for copy_number in (1, 2):
            command = copy.deepcopy(original)
            command["name"] = f"{original['name']}-{copy_number}"[:32]
            options = []
            for option in command["options"]:
                options.append(option)
                if option["name"] in own:
                    twin = copy.deepcopy(option)
                    twin["name"] = f"{option['name']}_2"[:32]
                    twin["name_localizations"] = {
                        k: f"{v}_2"[:32] for k, v in (option.get("name_localizations") or {}).items()
                    }
                    options.append(twin)
            command["options"] = options
            out.append(command)
    return out


async def test_every_command_fits_discords_limits() -> None:
    payloads = await synced_commands()
    assert {command_name(game) for game in GAMES} <= {p["name"] for p in payloads}
    assert command_errors(payloads) == []


async def test_every_command_is_for_servers_only_by_its_contexts() -> None:
    """``contexts`` says where a command may be used (``dm_permission`` is deprecated): a server's channels only,
    for every command and command group alike."""
    payloads = await synced_commands()
    assert {p["name"]: p.get("contexts") for p in payloads} == {p["name"]: [0] for p in payloads}


async def test_every_name_description_and_choice_is_in_every_language() -> None:
    """A Japanese client shows a command's, a subcommand's, an option's and a choice's own words: each has its
    Japanese name and description (an option without one showed ``compare`` there, and its refusals named it in
    English). Numbers as choices (500, 520) read the same in every language."""
    missing: list[str] = []

    def walk(item: dict[str, Any], path: str) -> None:
        here = f"{path} {item['name']}".strip()
        if "ja" not in (item.get("name_localizations") or {}):
            missing.append(f"{here}: name")
        described = item.get("type", 1) in (1, 2) or "description" in item
        if described and "ja" not in (item.get("description_localizations") or {}):
            missing.append(f"{here}: description")
        for choice in item.get("choices") or []:
            if not str(choice["name"]).isdigit() and "ja" not in (choice.get("name_localizations") or {}):
                missing.append(f"{here}: choice {choice['name']}")
        for option in item.get("options") or []:
            walk(option, here)

    for payload in await synced_commands():
        walk(payload, "")
    assert missing == []


async def test_twice_the_games_and_options_still_fit() -> None:
    payloads = await synced_commands()
    bigger = doubled(payloads)
    assert len([p for p in bigger if p["name"].startswith("play-")]) == 2 * len(GAMES)
    for game, info in GAMES.items():
        grown = next(p for p in bigger if p["name"] == f"{command_name(game)}-1")
        assert len(grown["options"]) == len(
            next(p for p in payloads if p["name"] == command_name(game))["options"]
        ) + len(info.options)
    assert command_errors(bigger) == []
    largest = max(bigger, key=command_size)
    assert command_size(largest) <= COMMAND_SIZE
    assert max(len(p.get("options") or []) for p in bigger) <= MOST_OPTIONS
    assert len(bigger) <= MOST_COMMANDS


def test_the_old_single_play_command_would_not_have_grown() -> None:
    """Why one command per game: all the games as subcommands of one /play are near the limit already,
    and twice the games would be far past it."""
    import asyncio

    payloads = asyncio.run(synced_commands())
    games = [p for p in payloads if p["name"].startswith("play-")]
    one_play = {
        "name": "play",
        "description": "Open a card table in this channel",
        "options": [{**g, "type": 1, "name": g["name"].removeprefix("play-")} for g in games],
    }
    assert command_size(one_play) > COMMAND_SIZE * 0.9
    assert command_size({**one_play, "options": one_play["options"] * 2}) > COMMAND_SIZE


def test_a_tournament_table_can_be_as_large_as_any_game_allows() -> None:
    """/tournament create offered 2 to 7 seats a table: a Just Make night (4 to 9 players) could not choose 8."""
    from bot.games import GAMES
    from cogs.tournaments.cog import Tournaments

    create = Tournaments.tournament.get_command("create")
    assert isinstance(create, app_commands.Command)
    bounds = {p.name: (p.min_value, p.max_value) for p in create.parameters}
    assert bounds["table_size"] == (2, max(GAMES["just-make"].players)) == (2, 9)
    assert bounds["advance"] == (1, 8)
