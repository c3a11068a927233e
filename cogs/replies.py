"""Answering an interaction the same way whether or not it was deferred."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any, cast

import discord

from .i18n import reader, t

log = logging.getLogger(__name__)


MAX_ID = 2**63 - 1  # Discord's snowflakes and our own ids are signed 64-bit integers


def id_from(digits: str) -> int:
    """An id written in a custom_id (ASCII digits, as the templates ask): itself, or 0 (no such thing,
    answered politely) when it is beyond any id, so no query is ever handed a number it cannot hold."""
    value = int(digits)
    return value if value <= MAX_ID else 0


DEFERRING = "deferring"  # interaction.extras: the task deferring the interaction, while it is on its way


async def answered(interaction: discord.Interaction[Any]) -> None:
    """Wait for a deferral on its way (a slow handler's), so ``is_done`` tells how to answer."""
    deferring = interaction.extras.get(DEFERRING)
    if deferring is not None and deferring is not asyncio.current_task() and not deferring.done():
        with contextlib.suppress(Exception):
            await asyncio.shield(deferring)


async def send(interaction: discord.Interaction[Any], text: str | None = None, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was deferred."""
    await answered(interaction)
    if interaction.response.is_done():
        await interaction.followup.send(text or discord.utils.MISSING, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def update(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """Edit the message the component is on (in place), whether or not the interaction was deferred."""
    await answered(interaction)
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def safely(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a click's handler; if it fails unexpectedly, say so politely instead of "This interaction failed"."""
    try:
        await work
    except Exception:
        log.exception("a click failed: %s", cast(dict[str, Any], interaction.data or {}).get("custom_id"))
        text = t(reader(interaction), "error.internal")
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)


# Every DynamicItem the loaded cogs handle; a click on anything else gets a polite "not mine".
DYNAMIC_ITEMS: list[type[discord.ui.DynamicItem[Any]]] = []


def add_dynamic_items(bot: Any, *items: type[discord.ui.DynamicItem[Any]]) -> None:
    bot.add_dynamic_items(*items)
    DYNAMIC_ITEMS.extend(item for item in items if item not in DYNAMIC_ITEMS)


def handled(custom_id: str) -> bool:
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)


def click_values(interaction: discord.Interaction[Any]) -> list[str]:
    """The values a select sent (empty for a button)."""
    data = cast(dict[str, Any], interaction.data or {})
    return [str(value) for value in data.get("values", [])]
