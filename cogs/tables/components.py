"""Buttons and selects that survive restarts: the table id (and the seat's turn) live in the custom_id.

Each item is a :class:`discord.ui.DynamicItem`: after a restart discord.py matches
the custom_id of a click on an old message against these templates, so no view
has to be kept in memory, and no view holds game state. Every callback hands
the click to the cog (through :class:`~cogs.tables.clicks.TableClicks`), which loads
the table from the service. The lobby's and the table's controls are here, a hand's
in ``hand_components``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from ..replies import id_from, safely
from .clicks import PREFIX, on_table
from .hand_components import ActButton, ChooseButton, HandButton, HintButton, PickSelect

log = logging.getLogger(__name__)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:lobby:(?P<op>join|leave|start|cpu|hints-on|hints-off):(?P<table>[0-9]{1,20})",
):
    """The lobby's buttons; ``cpu`` opens the host's choice of level, ``hints-on``/``hints-off`` say what they set."""

    def __init__(
        self, table_id: int, op: str, *, label: str, style: discord.ButtonStyle, emoji: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, emoji=emoji, custom_id=f"{PREFIX}:lobby:{op}:{table_id}")
        )
        self.table_id, self.op = table_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(id_from(match["table"]), match["op"], label="", style=discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction,
            on_table(interaction, self.table_id, lambda cog: cog.on_lobby(interaction, self.table_id, self.op)),
        )


class ComputerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:cpu:(?P<table>[0-9]{1,20}):(?P<level>[a-z]{1,12})",
):
    """Seat a computer player of one level (on the host's own ephemeral choice of levels)."""

    def __init__(self, table_id: int, level: str, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or None,
                emoji="🤖",
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:cpu:{table_id}:{level}",
            )
        )
        self.table_id, self.level = table_id, level

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ComputerButton:
        return cls(id_from(match["table"]), match["level"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction,
            on_table(
                interaction, self.table_id, lambda cog: cog.on_add_computer(interaction, self.table_id, self.level)
            ),
        )


class RemoveComputerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:uncpu:(?P<table>[0-9]{1,20}):(?P<key>[0-9]{1,20})",
):
    """Take one computer player out of the lobby (on the host's own choice of levels); ``key`` is its seat's
    own id, so a click means that computer whatever joined or left meanwhile."""

    def __init__(self, table_id: int, key: int, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or None,
                emoji="✖",
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:uncpu:{table_id}:{key}",
            )
        )
        self.table_id, self.key = table_id, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RemoveComputerButton:
        return cls(id_from(match["table"]), id_from(match["key"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction,
            on_table(
                interaction, self.table_id, lambda cog: cog.on_remove_computer(interaction, self.table_id, self.key)
            ),
        )


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tt:rematch:(?P<table>[0-9]{1,20})"):
    def __init__(self, table_id: int, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "Rematch", style=discord.ButtonStyle.success, custom_id=f"{PREFIX}:rematch:{table_id}"
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(id_from(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction, on_table(interaction, self.table_id, lambda cog: cog.on_rematch(interaction, self.table_id))
        )


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tt:review:(?P<table>[0-9]{1,20})"):
    """The table's Last deal: the deal just scored, trick by trick, for whoever asks."""

    def __init__(self, table_id: int, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "Last deal",
                style=discord.ButtonStyle.secondary,
                emoji="📜",
                custom_id=f"{PREFIX}:review:{table_id}",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        return cls(id_from(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction, on_table(interaction, self.table_id, lambda cog: cog.on_review(interaction, self.table_id))
        )


class LaunchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tt:launch:(?P<table>[0-9]{1,20})"):
    """The table as an Activity in this channel: Discord opens it (the answer is LAUNCH_ACTIVITY, type 12)."""

    def __init__(self, table_id: int, *, label: str = "") -> None:
        custom_id = f"{PREFIX}:launch:{table_id}"
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.success, custom_id=custom_id, emoji="🃏")
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LaunchButton:
        return cls(id_from(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction, on_table(interaction, self.table_id, lambda cog: cog.on_launch(interaction, self.table_id))
        )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    ComputerButton,
    RemoveComputerButton,
    HintButton,
    HandButton,
    ActButton,
    ChooseButton,
    PickSelect,
    RematchButton,
    ReviewButton,
    LaunchButton,
)
