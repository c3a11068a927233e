"""Answering an interaction the same way whether or not it was deferred."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any, cast

import discord

from .i18n import reader, t

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's code: the interaction expired (3 seconds unanswered) or never was


MAX_ID = 2**63 - 1  # Discord's snowflakes and our own ids are signed 64-bit integers


def id_from(digits: str) -> int:
    """An id written in a custom_id (ASCII digits, as the templates ask): itself, or 0 (no such thing,
    answered politely) when it is beyond any id, so no query is ever handed a number it cannot hold."""
    value = int(digits)
    return value if value <= MAX_ID else 0


PUBLIC_THINKING = "public_thinking"  # in Interaction.extras: deferred with a public "is thinking…"
_ANSWERING = "answering"  # in Interaction.extras: the lock of the interaction's first answer
_ARRIVED = "arrived"  # in Interaction.extras: when the bot first saw it (time.monotonic())


def arrived(interaction: discord.Interaction[Any]) -> float:
    """When the bot first saw ``interaction`` (``time.monotonic()``), noted by the first to ask: Discord's
    three seconds to answer run from its arrival, not from when a handler starts to work on it."""
    return cast(float, interaction.extras.setdefault(_ARRIVED, time.monotonic()))


def answer_lock(interaction: discord.Interaction[Any]) -> asyncio.Lock:
    """Held while the first answer of an interaction is sent: a deferral made in the background (see
    ``cogs.tables.cog.answering``) and the handler's own answer never both go (Discord takes one, and
    refuses the other with 40060); whoever comes second sees the first done and follows it up."""
    lock = interaction.extras.get(_ANSWERING)
    if lock is None:
        lock = interaction.extras[_ANSWERING] = asyncio.Lock()
    return cast(asyncio.Lock, lock)


async def send(interaction: discord.Interaction[Any], text: str | None = None, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was deferred."""
    async with answer_lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True, **kwargs)
            return
        if interaction.extras.pop(PUBLIC_THINKING, False):
            # The first follow-up would take the place of the public "is thinking…" and show everyone an
            # answer meant for one person: remove it, and answer that person alone.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(text or discord.utils.MISSING, ephemeral=True, **kwargs)


async def post(interaction: discord.Interaction[Any], **kwargs: Any) -> discord.Message:
    """A public answer that stays (a lobby, a tournament's sign-up): the interaction's first answer, or in the
    place of the public "is thinking…" it was deferred with; the message, to keep its id. It takes turns with a
    deferral made in the background (``answer_lock``), so the two never both acknowledge the interaction."""
    async with answer_lock(interaction):
        if interaction.response.is_done():
            interaction.extras.pop(PUBLIC_THINKING, None)
            return await interaction.edit_original_response(**kwargs)
        await interaction.response.send_message(**kwargs)
    return await interaction.original_response()


async def update(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """Edit the message the component is on (in place), whether or not the interaction was deferred."""
    async with answer_lock(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)


async def safely(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a click's handler; if it fails unexpectedly, say so politely instead of "This interaction failed"."""
    try:
        await work
    except discord.NotFound as error:
        if error.code != UNKNOWN_INTERACTION:
            await _failed(interaction)
        else:  # Discord forgot the click before it was answered (the machine or its database too slow for its
            # 3 seconds): nothing can reach the person now, and nothing failed in the bot
            log.warning("a click was answered too late for Discord: %s", _custom_id(interaction))
    except Exception:
        await _failed(interaction)


def _custom_id(interaction: discord.Interaction[Any]) -> object:
    return cast(dict[str, Any], interaction.data or {}).get("custom_id")


async def _failed(interaction: discord.Interaction[Any]) -> None:
    """Log the failure under way (with its traceback) and tell the clicker politely."""
    log.exception("a click failed: %s", _custom_id(interaction))
    with contextlib.suppress(discord.HTTPException):
        await send(interaction, t(reader(interaction), "error.internal"))


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
