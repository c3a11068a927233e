"""Buttons and selects that survive restarts: the table id (and the seat's turn) live in the custom_id.

Each item is a :class:`discord.ui.DynamicItem`: after a restart discord.py matches
the custom_id of a click on an old message against these templates, so no view
has to be kept in memory, and no view holds game state. Every callback hands
the click to the cog, which loads the table from the service.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord

from ..client import table_bot
from ..replies import id_from, safely

log = logging.getLogger(__name__)

PREFIX = "tt"
CUSTOM_ID_MAX = 100
ACTION = r"[A-Za-z0-9 -]{1,70}"

if TYPE_CHECKING:
    from .cog import Tables


def data_of(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The component data of a click (custom_id, values) as a plain dict."""
    return cast(dict[str, Any], interaction.data or {})


async def _on_table(
    interaction: discord.Interaction[Any], table_id: int, work: Callable[[Tables], Awaitable[None]]
) -> None:
    """A click on a table's control, handled only where that table is (see ``Tables.belongs_here``)."""
    cog = _handler(interaction)
    if await cog.belongs_here(interaction, table_id):
        await work(cog)


def _handler(interaction: discord.Interaction[Any]) -> Tables:
    from .cog import Tables  # the cog imports these components: a late import breaks the cycle

    return table_bot(interaction.client).cog_of(Tables)


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
            _on_table(interaction, self.table_id, lambda cog: cog.on_lobby(interaction, self.table_id, self.op)),
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
            _on_table(
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
            _on_table(
                interaction, self.table_id, lambda cog: cog.on_remove_computer(interaction, self.table_id, self.key)
            ),
        )


class HintButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:hint:(?P<table>[0-9]{1,20}):(?P<turn>[0-9]{1,6})",
):
    """💡 on the hand of the player on turn, at a table with hints: what the strong computer would do."""

    def __init__(self, table_id: int, turn: int, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or None,
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:hint:{table_id}:{turn}",
            )
        )
        self.table_id, self.turn = table_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HintButton:
        return cls(id_from(match["table"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction,
            _on_table(interaction, self.table_id, lambda cog: cog.on_hint(interaction, self.table_id, self.turn)),
        )


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tt:hand:(?P<table>[0-9]{1,20})(?P<refresh>:r)?"
):
    """ "Show my hand" on the table (a new ephemeral message), or "Refresh"/"Back" on the hand (in place)."""

    def __init__(self, table_id: int, *, refresh: bool = False, label: str = "", emoji: str | None = None) -> None:
        custom_id = f"{PREFIX}:hand:{table_id}" + (":r" if refresh else "")
        style = discord.ButtonStyle.secondary if refresh else discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id, emoji=emoji))
        self.table_id, self.refresh = table_id, refresh

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        return cls(id_from(match["table"]), refresh=bool(match["refresh"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction,
            _on_table(
                interaction, self.table_id, lambda cog: cog.on_hand(interaction, self.table_id, refresh=self.refresh)
            ),
        )


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"tt:act:(?P<table>[0-9]{{1,20}}):(?P<turn>[0-9]{{1,6}}):(?P<action>{ACTION})",
):
    """One legal action (``play QH``, ``pass``, ``bid 9D 10S AC``), valid while the seat has not acted since."""

    def __init__(
        self,
        table_id: int,
        turn: int,
        action: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=style,
                custom_id=f"{PREFIX}:act:{table_id}:{turn}:{action}",
                disabled=disabled,
                row=row,
            )
        )
        self.table_id, self.turn, self.action = table_id, turn, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        return cls(id_from(match["table"]), int(match["turn"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction,
            _on_table(
                interaction, self.table_id, lambda cog: cog.on_act(interaction, self.table_id, self.turn, self.action)
            ),
        )


class ChooseButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"tt:more:(?P<table>[0-9]{{1,20}}):(?P<turn>[0-9]{{1,6}}):(?P<prefix>{ACTION})",
):
    """A card or bid with several actions (the joker's suit, a doubled bid): shows them as a next step."""

    def __init__(
        self,
        table_id: int,
        turn: int,
        prefix: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or prefix, style=style, custom_id=f"{PREFIX}:more:{table_id}:{turn}:{prefix}", row=row
            )
        )
        self.table_id, self.turn, self.prefix = table_id, turn, prefix

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChooseButton:
        return cls(id_from(match["table"]), int(match["turn"]), match["prefix"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction,
            _on_table(
                interaction,
                self.table_id,
                lambda cog: cog.on_choose(interaction, self.table_id, self.turn, [self.prefix], step=True),
            ),
        )


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tt:pick:(?P<table>[0-9]{1,20}):(?P<turn>[0-9]{1,6}):(?P<kind>cards|action):(?P<part>[0-9])",
):
    """A select of cards (a Ninety-Nine bid, a discard: confirmed as a next step) or of actions."""

    def __init__(
        self,
        table_id: int,
        turn: int,
        kind: str,
        part: int = 0,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        count: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:pick:{table_id}:{turn}:{kind}:{part}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                min_values=count,
                max_values=count,
                row=row,
            )
        )
        self.table_id, self.turn, self.kind = table_id, turn, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        return cls(id_from(match["table"]), int(match["turn"]), match["kind"], int(match["part"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = [str(value) for value in data_of(interaction).get("values", [])]
        if self.kind == "cards":
            await safely(
                interaction,
                _on_table(
                    interaction, self.table_id, lambda cog: cog.on_cards(interaction, self.table_id, self.turn, values)
                ),
            )
        else:
            await safely(
                interaction,
                _on_table(
                    interaction, self.table_id, lambda cog: cog.on_choose(interaction, self.table_id, self.turn, values)
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
            interaction, _on_table(interaction, self.table_id, lambda cog: cog.on_rematch(interaction, self.table_id))
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
            interaction, _on_table(interaction, self.table_id, lambda cog: cog.on_review(interaction, self.table_id))
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
        await safely(interaction, _launch(interaction))


async def _launch(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.launch_activity()


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
