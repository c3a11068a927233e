"""/settings: a server's turn timer, threads, language and default table options, changed with selects.

Only people who can manage the server may open or change them; every change
is saved through the service at once and the message shows the saved state.
The panel is in the language the server chose for its tables (so a change
of language shows at once), else the reader's; a refusal is in the reader's.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES, Option
from bot.games.options import whole_number
from bot.tables import (
    DEFAULT_GRACE_SECONDS,
    DEFAULT_TURN_SECONDS,
    MIN_ABSENT_TURN_SECONDS,
    GuildSettings,
    TableError,
    TableStatus,
)
from bot.words import listed, option_text

from ..client import TableBot, table_bot
from ..i18n import duration, error_text, languages, reader, server_reader, t, text
from ..replies import click_values, safely, send, update
from ..tables.render import COLOUR, clip, game_name
from ..tables.working import SHUTDOWN_GRACE, Work, answering

TURN_TIMES = (0, 30, 60, 120, 300, 600, 1800, 3600, 86_400)
GRACE_TIMES = (0, 15, 30, 60, 120, 300)
PACES = {0: "instant", 500: "quick", 1000: "normal", 2000: "relaxed"}  # ms between a computer's moves
MANY = 25  # a select's most options
# The limits against abuse: each setting, what it is called in custom_ids, and the values offered.
LIMITS = {
    "tables": ("max_open_tables", (5, 10, 25, 50, 100, 200)),
    "lobbies": ("max_lobbies_per_host", (1, 2, 3, 5, 10)),
    "cooldown": ("play_cooldown_seconds", (0, 5, 10, 30, 60, 300)),
}
LIMIT_NAMES = {
    "tables": "settings.limit_tables",
    "lobbies": "settings.limit_lobbies",
    "cooldown": "settings.limit_cooldown",
}
COUNTED = {"tables": "settings.limit_tables_value", "lobbies": "settings.limit_lobbies_value"}


def pace_text(pace_ms: int, locale: Any) -> str:
    """``Normal: 1 s between a computer's moves``, ``Instant: …``, or the seconds of a pace without a name."""
    seconds = f"{pace_ms / 1000:g}"
    name = PACES.get(pace_ms)
    if pace_ms == 0:
        return t(locale, "settings.pace_instant")
    if name is None:
        return t(locale, "settings.pace_other", seconds=seconds)
    return t(locale, "settings.pace_value", pace=t(locale, f"pace.{name}"), seconds=seconds)


def pace_button_label(pace_ms: int, locale: Any) -> str:
    """``Quick · 0.5 s``; just ``Instant`` for no wait."""
    name = t(locale, f"pace.{PACES[pace_ms]}")
    return name if pace_ms == 0 else t(locale, "settings.pace_button", pace=name, seconds=f"{pace_ms / 1000:g}")


def values_of(option: Option) -> list[bool | int | str]:
    """What a select offers for one option: every choice, or up to 25 round numbers in its range."""
    if isinstance(option.default, bool):
        return [True, False]
    if isinstance(option.default, str):
        return list(option.choices)
    if option.values:
        return list(option.values)
    span = option.high - option.low
    step = 1
    while span // step + 1 > MANY - 1:
        step = {1: 5, 5: 10, 10: 25, 25: 50}.get(step, step * 2)
    found = set(range(option.low, option.high + 1, step)) | {option.default, option.high}
    return sorted(found)


def shown_value(value: Any, locale: Any) -> str:
    if isinstance(value, bool):
        return t(locale, "option.on") if value else t(locale, "option.off")
    if isinstance(value, str):
        return t(locale, f"choice.{value}")
    return str(value)


def encode(value: bool | int | str) -> str:
    """A value as a select option's value, keeping its type (``b:1``, ``i:200``, ``s:oxford``)."""
    if isinstance(value, bool):
        return f"b:{int(value)}"
    return f"i:{value}" if isinstance(value, int) else f"s:{value}"


def decode(raw: str) -> bool | int | str:
    kind, _, value = raw.partition(":")
    if kind == "b":
        return value == "1"
    if kind == "i" and (number := whole_number(value)) is not None:
        return number
    return value  # anything else is checked, and refused politely, by the service


class SettingsControl(
    discord.ui.DynamicItem[discord.ui.Item[Any]],
    template=(
        r"st:(?P<what>turn|grace|lang|game|thread|home|pings|picture|pace:[0-9]{1,5}"
        r"|opt:[a-z-]{1,20}|val:[a-z-]{1,20}:[a-z_]{1,40}|reset:[a-z-]{1,20}|limit:(?:tables|lobbies|cooldown))"
    ),
):
    """Every control of the settings message: what it changes is in its custom_id."""

    def __init__(self, item: discord.ui.Item[Any], what: str) -> None:
        super().__init__(item)
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SettingsControl:
        return cls(item, match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = table_bot(interaction.client).cog_of(Settings)
        values = click_values(interaction)
        await safely(interaction, cog.on_control(interaction, self.what, values))


def select(what: str, options: list[discord.SelectOption], placeholder: str) -> SettingsControl:
    return SettingsControl(
        discord.ui.Select(custom_id=f"st:{what}", options=options[:MANY], placeholder=clip(placeholder, 150)), what
    )


def button(
    what: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    emoji: str | None = None,
    disabled: bool = False,
) -> SettingsControl:
    item: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=f"st:{what}", label=clip(label, 80), style=style, emoji=emoji, disabled=disabled
    )
    return SettingsControl(item, what)


# What someone whose time ran out is given on later turns, by the rule that gives it (GuildSettings.absent_basis).
ABSENT_WORDS = {
    "grace": "settings.turn_absent_grace",
    "least": "settings.turn_absent_least",
    "turn": "settings.turn_absent_turn",
}


def turn_text(settings: GuildSettings, locale: Any) -> str:
    """The server's turn timer, and the time someone away is given, in words true of that setting (a timer under
    the floor for the absent, or a grace of 0, is not said to give 15 s; a timer off gives nobody any)."""
    basis = settings.absent_basis
    if basis == "off":
        return t(locale, "settings.turn_off")
    turn, grace = duration(settings.turn_seconds, locale), duration(settings.grace_seconds, locale)
    absent = t(
        locale,
        ABSENT_WORDS[basis],
        absent=duration(settings.absent_seconds, locale),
        least=duration(MIN_ABSENT_TURN_SECONDS, locale),
    )
    return t(locale, "settings.turn_value", turn=turn, grace=grace) + "\n" + absent


def home_message(settings: GuildSettings, locale: Any) -> dict[str, Any]:
    """The server's settings and a control for each."""
    embed = discord.Embed(title=t(locale, "settings.title"), colour=COLOUR[TableStatus.LOBBY])
    embed.description = t(locale, "settings.intro")
    embed.add_field(
        name=t(locale, "settings.turn"),
        value=turn_text(settings, locale)
        + "\n"
        + t(
            locale,
            "settings.turn_default",
            turn=duration(DEFAULT_TURN_SECONDS, locale),
            grace=duration(DEFAULT_GRACE_SECONDS, locale),
        ),
        inline=False,
    )
    thread = t(locale, "option.on") if settings.thread_per_table else t(locale, "option.off")
    embed.add_field(name=t(locale, "settings.thread"), value=thread, inline=True)
    language = settings.language or "en"
    embed.add_field(name=t(locale, "settings.language"), value=t(locale, f"language.{language}"), inline=True)
    embed.add_field(name=t(locale, "settings.pace"), value=pace_text(settings.computer_pace_ms, locale), inline=False)
    defaults = []
    for game, options in settings.default_options.items():
        if options and game in GAMES:
            shown = listed((option_text(game, name, value, locale) for name, value in options.items()), locale)
            defaults.append(f"**{game_name(game, locale)}**: {shown}")
    embed.add_field(
        name=t(locale, "settings.defaults"),
        value=clip("\n".join(defaults) or t(locale, "settings.no_defaults"), 1024),
        inline=False,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        select(
            "turn",
            [
                discord.SelectOption(label=duration(s, locale), value=str(s), default=s == settings.turn_seconds)
                for s in sorted({*TURN_TIMES, settings.turn_seconds})
            ],
            t(locale, "settings.pick_turn"),
        )
    )
    view.add_item(
        select(
            "grace",
            [
                discord.SelectOption(
                    label=t(locale, "settings.grace_option", grace=duration(s, locale)),
                    value=str(s),
                    default=s == settings.grace_seconds,
                )
                for s in sorted({*GRACE_TIMES, settings.grace_seconds})
            ],
            t(locale, "settings.pick_grace"),
        )
    )
    view.add_item(
        select(
            "lang",
            [
                discord.SelectOption(label=t(locale, f"language.{code}"), value=code, default=code == language)
                for code in languages()
            ],
            t(locale, "settings.pick_language"),
        )
    )
    view.add_item(
        select(
            "game",
            [discord.SelectOption(label=game_name(game, locale), value=game) for game in GAMES]
            + [discord.SelectOption(label=t(locale, "settings.limits"), value="limits", emoji="🛡")],
            t(locale, "settings.pick_game"),
        )
    )
    label = "settings.thread_off" if settings.thread_per_table else "settings.thread_on"
    view.add_item(button("thread", t(locale, label)))
    for pace in PACES:  # with the thread button, the last row: the server's pace marked, not clickable
        chosen = pace == settings.computer_pace_ms
        style = discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary
        view.add_item(button(f"pace:{pace}", pace_button_label(pace, locale), style, emoji="🤖", disabled=chosen))
    return {"embed": embed, "view": view}


def limit_text(kind: str, value: int, locale: Any) -> str:
    return t(locale, COUNTED[kind], count=value) if kind in COUNTED else duration(value, locale)


def limits_message(settings: GuildSettings, locale: Any) -> dict[str, Any]:
    """The limits against abuse: the server's open tables, one host's lobbies, the pause between /play."""
    embed = discord.Embed(title=t(locale, "settings.limits"), colour=COLOUR[TableStatus.LOBBY])
    embed.description = t(locale, "settings.limits_intro")
    pings = t(locale, "settings.pings_on") if settings.turn_pings else t(locale, "settings.pings_off")
    picture = t(locale, "settings.picture_on") if settings.table_picture else t(locale, "settings.picture_off")
    embed.add_field(name=t(locale, "settings.picture"), value=picture, inline=False)
    embed.add_field(name=t(locale, "settings.pings"), value=pings, inline=False)
    view = discord.ui.View(timeout=None)
    for kind, (field, offered) in LIMITS.items():
        current = int(getattr(settings, field))
        embed.add_field(name=t(locale, LIMIT_NAMES[kind]), value=limit_text(kind, current, locale), inline=False)
        options = [
            discord.SelectOption(
                label=clip(limit_text(kind, value, locale), 100), value=str(value), default=value == current
            )
            for value in sorted({*offered, current})
        ]
        view.add_item(select(f"limit:{kind}", options, t(locale, LIMIT_NAMES[kind])))
    toggle = "settings.pings_turn_off" if settings.turn_pings else "settings.pings_turn_on"
    drawn = "settings.picture_turn_off" if settings.table_picture else "settings.picture_turn_on"
    view.add_item(button("picture", t(locale, drawn), emoji="🖼️"))
    view.add_item(button("pings", t(locale, toggle), emoji="🔔"))
    view.add_item(button("home", t(locale, "settings.back")))
    return {"embed": embed, "view": view}


def game_message(settings: GuildSettings, game: str, locale: Any, option: str | None = None) -> dict[str, Any]:
    """One game's default options: pick an option, then its value."""
    specs = {spec.name: spec for spec in GAMES[game].options}
    chosen = settings.default_options.get(game, {})
    title = t(locale, "settings.game_title", game=game_name(game, locale))
    embed = discord.Embed(title=title, colour=COLOUR[TableStatus.LOBBY])
    lines = []
    for name, spec in specs.items():
        value = chosen.get(name, spec.default)
        mark = "✎ " if name in chosen else ""
        lines.append(mark + option_text(game, name, value, locale))
    embed.description = t(locale, "settings.game_intro") + "\n\n" + "\n".join(lines)
    view = discord.ui.View(timeout=None)
    view.add_item(
        select(
            f"opt:{game}",
            [
                discord.SelectOption(
                    label=clip(t(locale, f"option.{name}"), 100),
                    value=name,
                    description=clip(shown_value(chosen.get(name, spec.default), locale), 100),
                    default=name == option,
                )
                for name, spec in specs.items()
            ],
            t(locale, "settings.pick_option"),
        )
    )
    if option is not None and option in specs:
        spec = specs[option]
        current = chosen.get(option, spec.default)
        view.add_item(
            select(
                f"val:{game}:{option}",
                [
                    discord.SelectOption(
                        label=clip(shown_value(value, locale), 100),
                        value=encode(value),
                        default=value == current and type(value) is type(current),
                        description=t(locale, "settings.rules_default") if value == spec.default else None,
                    )
                    for value in values_of(spec)
                ],
                t(locale, "settings.pick_value", option=t(locale, f"option.{option}")),
            )
        )
    view.add_item(button(f"reset:{game}", t(locale, "settings.reset"), discord.ButtonStyle.danger))
    view.add_item(button("home", t(locale, "settings.back")))
    return {"embed": embed, "view": view}


def offered(settings: GuildSettings, kind: str, rest: str, value: str) -> bool:
    """Whether the panel offers this value for this control (the values it shows, and the server's own): the
    service takes any value within its limits, and a select's value made by hand is not the manager's choice."""
    if kind == "turn":
        return value in {str(s) for s in (*TURN_TIMES, settings.turn_seconds)}
    if kind == "grace":
        return value in {str(s) for s in (*GRACE_TIMES, settings.grace_seconds)}
    if kind == "pace":
        return rest in {str(pace) for pace in PACES}
    if kind == "limit" and rest in LIMITS:
        field, choices = LIMITS[rest]
        return value in {str(s) for s in (*choices, getattr(settings, field))}
    if kind == "val":
        game, _, option = rest.partition(":")
        spec = next((s for s in GAMES[game].options if s.name == option), None) if game in GAMES else None
        if spec is None:
            return True  # the service names the unknown option
        current = settings.default_options.get(game, {}).get(option, spec.default)
        return value in {encode(v) for v in (*values_of(spec), current)}
    return True


class Settings(commands.Cog):
    """A server's settings, for those who can manage it."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.work = Work()

    async def cog_unload(self) -> None:
        """When the bot stops: a change under way (its tables being re-timed) may finish and be shown."""
        await self.work.finish(SHUTDOWN_GRACE)

    @app_commands.command(name="settings", description=text("command.settings"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(self, interaction: discord.Interaction[Any]) -> None:
        if not await self._allowed(interaction):
            return
        async with answering(interaction, update=False):  # (the server's settings read: the database may be slow)
            settings = await self.service.guild_settings(interaction.guild_id or 0)
            await send(interaction, **home_message(settings, server_reader(interaction)))

    @staticmethod
    async def _allowed(interaction: discord.Interaction[Any]) -> bool:
        """Discord hides the command from others, but a server can override that: check every time."""
        if interaction.permissions.manage_guild:
            return True
        await send(interaction, t(reader(interaction), "settings.refused"))
        return False

    async def on_control(self, interaction: discord.Interaction[Any], what: str, values: list[str]) -> None:
        """A change from the settings message, answered in time: a change of the turn timer re-times every
        table of the server in play before the panel shows it (hundreds of tables may take seconds), so the click
        is deferred meanwhile (``Work.working``) and the panel edited in place when it is done."""
        async with self.work.working(interaction, update=True):
            await self._on_control(interaction, what, values)

    async def _on_control(self, interaction: discord.Interaction[Any], what: str, values: list[str]) -> None:
        if not await self._allowed(interaction):
            return
        if interaction.message is not None and not interaction.message.flags.ephemeral:
            # the panel is only ever /settings' answer, its manager's alone: a control on a public message was made
            # by hand, and the panel is never drawn over that message
            await send(interaction, t(reader(interaction), "error.unknown_button"))
            return
        guild_id = interaction.guild_id or 0
        settings = await self.service.guild_settings(guild_id)
        panel = server_reader(interaction)  # the home panel below reads it again: the language may change
        kind, _, rest = what.partition(":")
        value = values[0] if values else ""
        if not offered(settings, kind, rest, value):  # made by hand: within the limits, never offered
            await send(interaction, t(reader(interaction), "settings.not_offered"))
            return
        try:
            if kind in ("turn", "grace") and value.isascii() and value.isdigit() and len(value) < 10:
                key = "turn_seconds" if kind == "turn" else "grace_seconds"
                settings = await self.service.update_guild_settings(guild_id, **{key: int(value)})
            elif kind == "lang" and value in languages():
                earlier = self.bot.languages.chosen(guild_id)
                self.bot.languages.choose(guild_id, value)  # first: the open tables drawn again speak it
                try:
                    settings = await self.service.update_guild_settings(guild_id, language=value)
                except Exception:  # not saved (the redraws after the save do not raise): the language as it was
                    self.bot.languages.choose(guild_id, earlier)
                    raise
            elif kind == "pace" and rest.isascii() and rest.isdigit() and len(rest) < 10:
                settings = await self.service.update_guild_settings(guild_id, computer_pace_ms=int(rest))
            elif kind == "thread":
                settings = await self.service.update_guild_settings(
                    guild_id, thread_per_table=not settings.thread_per_table
                )
            elif kind == "picture":
                settings = await self.service.update_guild_settings(guild_id, table_picture=not settings.table_picture)
                await update(interaction, **limits_message(settings, panel))
                return
            elif kind == "pings":
                settings = await self.service.update_guild_settings(guild_id, turn_pings=not settings.turn_pings)
                await update(interaction, **limits_message(settings, panel))
                return
            elif kind == "game" and value == "limits":
                await update(interaction, **limits_message(settings, panel))
                return
            elif kind == "limit" and rest in LIMITS and value.isascii() and value.isdigit() and len(value) < 10:
                field = LIMITS[rest][0]
                settings = await self.service.update_guild_settings(guild_id, **{field: int(value)})
                await update(interaction, **limits_message(settings, panel))
                return
            elif kind == "game" and value in GAMES:
                await update(interaction, **game_message(settings, value, panel))
                return
            elif kind == "opt" and rest in GAMES:
                await update(interaction, **game_message(settings, rest, panel, value))
                return
            elif kind == "val" and rest.partition(":")[0] in GAMES and value:
                game, _, option = rest.partition(":")
                settings = await self._set_default(settings, game, option, decode(value))
                await update(interaction, **game_message(settings, game, panel, option))
                return
            elif kind == "reset" and rest in GAMES:
                defaults = {g: o for g, o in settings.default_options.items() if g != rest}
                settings = await self.service.update_guild_settings(guild_id, default_options=defaults)
                await update(interaction, **game_message(settings, rest, panel))
                return
            elif kind != "home":
                await send(interaction, t(reader(interaction), "error.unknown_button"))
                return
        except TableError as error:
            await send(interaction, error_text(error, reader(interaction)))
            return
        await update(interaction, **home_message(settings, server_reader(interaction)))

    async def _set_default(self, settings: GuildSettings, game: str, option: str, value: Any) -> GuildSettings:
        """Save one game's default for one option (the rules' own default is simply forgotten)."""
        spec = next((s for s in GAMES[game].options if s.name == option), None)
        defaults = {g: dict(o) for g, o in settings.default_options.items()}
        mine = defaults.setdefault(game, {})
        if spec is not None and value == spec.default and type(value) is type(spec.default):
            mine.pop(option, None)
        else:
            mine[option] = value  # the service checks it against the engine's rules
        return await self.service.update_guild_settings(settings.guild_id, default_options=defaults)
