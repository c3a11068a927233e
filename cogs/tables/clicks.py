"""What a click on a table's control needs: the custom_id's prefix, the interface of the cog that
handles the click (:class:`TableClicks`), and finding that cog by its name, so no control module
imports the cog (which imports them)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast, runtime_checkable

import discord

from ..client import table_bot
from ..replies import arrived

PREFIX = "tt"
CUSTOM_ID_MAX = 100
ACTION = r"[A-Za-z0-9 -]{1,70}"
HANDLER = "Tables"  # the name of the cog that handles these clicks


@runtime_checkable
class TableClicks(Protocol):
    """What a click on a table's control asks of its handler (the tables cog): each control's callback
    calls one of these, so this module needs nothing of the cog but its name."""

    async def belongs_here(self, interaction: discord.Interaction[Any], table_id: int) -> bool: ...

    async def on_lobby(self, interaction: discord.Interaction[Any], table_id: int, op: str) -> None: ...

    async def on_add_computer(self, interaction: discord.Interaction[Any], table_id: int, level: str) -> None: ...

    async def on_remove_computer(self, interaction: discord.Interaction[Any], table_id: int, key: int) -> None: ...

    async def on_hint(self, interaction: discord.Interaction[Any], table_id: int, turn: int) -> None: ...

    async def on_launch(self, interaction: discord.Interaction[Any], table_id: int) -> None: ...

    async def on_hand(self, interaction: discord.Interaction[Any], table_id: int, *, refresh: bool) -> None: ...

    async def on_act(self, interaction: discord.Interaction[Any], table_id: int, turn: int, action: str) -> None: ...

    async def on_choose(
        self, interaction: discord.Interaction[Any], table_id: int, turn: int, values: list[str], *, step: bool = False
    ) -> None: ...

    async def on_cards(
        self, interaction: discord.Interaction[Any], table_id: int, turn: int, cards: list[str]
    ) -> None: ...

    async def on_rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None: ...

    async def on_review(self, interaction: discord.Interaction[Any], table_id: int) -> None: ...


def data_of(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The component data of a click (custom_id, values) as a plain dict."""
    return cast(dict[str, Any], interaction.data or {})


async def on_table(
    interaction: discord.Interaction[Any], table_id: int, work: Callable[[TableClicks], Awaitable[None]]
) -> None:
    """A click on a table's control, handled only where that table is (see ``Tables.belongs_here``)."""
    arrived(interaction)  # the clock of its answer starts now, before the table is read
    cog = _handler(interaction)
    if await cog.belongs_here(interaction, table_id):
        await work(cog)


def _handler(interaction: discord.Interaction[Any]) -> TableClicks:
    cog = table_bot(interaction.client).get_cog(HANDLER)
    assert isinstance(cog, TableClicks), f"the {HANDLER} cog is not loaded"
    return cog
