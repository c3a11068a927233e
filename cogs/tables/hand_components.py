"""The controls of a hand and of the table's Show my hand: they survive restarts as the table's other
controls do (see ``clicks``), the seat's turn in their custom_id."""

from __future__ import annotations

import re
from typing import Any

import discord

from ..replies import id_from, safely
from .clicks import ACTION, PREFIX, data_of, on_table


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
            on_table(interaction, self.table_id, lambda cog: cog.on_hint(interaction, self.table_id, self.turn)),
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
            on_table(
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
            on_table(
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
            on_table(
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
                on_table(
                    interaction, self.table_id, lambda cog: cog.on_cards(interaction, self.table_id, self.turn, values)
                ),
            )
        else:
            await safely(
                interaction,
                on_table(
                    interaction, self.table_id, lambda cog: cog.on_choose(interaction, self.table_id, self.turn, values)
                ),
            )
