"""The host's ephemeral choice of a computer player's level, opened by the lobby's Add computer."""

from __future__ import annotations

from typing import Any

import discord

from bot.players import LEVELS
from bot.tables import TableInfo, TableStatus

from ..i18n import t
from .components import ComputerButton, RemoveComputerButton
from .render import COLOUR, clip, game_name, seat_name

ROW = 5  # buttons a row holds


def computer_choice(table: TableInfo, locale: Any, note: str | None = None) -> dict[str, Any]:
    """Each level with what it is like, a button for each; it stays open to seat several."""
    lines = [t(locale, "lobby.pick_level")]
    lines += [
        t(locale, "lobby.level_line", level=t(locale, f"level.{level}"), about=t(locale, f"level.about.{level}"))
        for level in LEVELS
    ]
    if note:
        lines += ["", note]
    embed = discord.Embed(
        title=clip(t(locale, "lobby.title", game=game_name(table.game, locale), table=table.id), 256),
        description="\n".join(lines),
        colour=COLOUR[TableStatus.LOBBY],
    )
    view = discord.ui.View(timeout=None)
    for level in LEVELS:
        view.add_item(ComputerButton(table.id, level, label=t(locale, f"level.{level}")))
    seated = [seat for seat in table.seats if seat.computer]  # each can be taken out again, a row of its own
    for row, seat in enumerate(seated[: ROW * 4]):
        label = clip(t(locale, "lobby.remove_computer", name=seat_name(table, seat.index, locale, marked=False)), 80)
        button = RemoveComputerButton(table.id, seat.key, label=label)
        button.row = 1 + row // ROW
        view.add_item(button)
    return {"embed": embed, "view": view}
