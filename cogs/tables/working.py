"""What every handler at a table shares: refusals in the reader's language, the table of this channel,
answering in time, and the work under way (waited for when the bot stops)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import discord

from bot.tables import TableInfo, TableService

from ..replies import PUBLIC_THINKING, answer_lock, arrived, send, update

DEFER_AFTER = 1.0  # Discord wants an answer within 3 seconds: a busy machine still makes it
SHUTDOWN_GRACE = 10.0  # seconds a click's work under way may take to finish when the bot stops


async def table_here(service: TableService, interaction: discord.Interaction[Any]) -> TableInfo | None:
    """The open table of this channel, or of this thread when the table has one; in a channel with none of its
    own, the one the person is seated at that plays in the channel itself (a tournament's tables, posted in its
    channel where no thread could be made: several share it, none holds the channel's place)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return await service.table_in_channel(channel.parent_id or channel.id, channel.id)
    found = await service.table_in_channel(interaction.channel_id or 0)
    if found is not None:
        return found
    seated = [
        table
        for table in await service.tables_in_channel(interaction.channel_id or 0)
        if table.thread_id is None and table.seat_of(interaction.user.id) is not None
    ]
    return seated[0] if len(seated) == 1 else None


@contextlib.asynccontextmanager
async def answering(
    interaction: discord.Interaction[Any], *, update: bool, public: bool = False
) -> AsyncIterator[None]:
    """Defer the interaction if the work inside has not answered it within ``DEFER_AFTER``: in place (a
    click), or with "is thinking…", seen by the person alone or, for an answer meant for everyone
    (``public``: a lobby), by everyone. The deferral and the handler's own answer take turns
    (``replies.answer_lock``), so the interaction is never acknowledged twice."""

    async def defer_later() -> None:
        # from the click's arrival: what came before the handler (the table read where the click came from,
        # which waits while the tables are read back after a restart) counts towards Discord's 3 seconds
        await asyncio.sleep(max(0.0, DEFER_AFTER - (time.monotonic() - arrived(interaction))))
        async with answer_lock(interaction):
            if interaction.response.is_done():
                return
            with contextlib.suppress(discord.HTTPException):
                if update:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=not public, thinking=True)
                    if public:
                        interaction.extras[PUBLIC_THINKING] = True

    task = asyncio.create_task(defer_later())
    try:
        yield
    finally:
        # a deferral under way is let finish first: cancelled in its call, Discord could have taken it before the
        # interaction knew, and the handler's own answer would be refused as a second acknowledgement (40060)
        async with answer_lock(interaction):
            task.cancel()


async def show_note(interaction: discord.Interaction[Any], note: str) -> None:
    """A short note on the clicker's own ephemeral message (in place), else as a new one."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await update(interaction, content=note)
    else:
        await send(interaction, note)


async def show_in_hand(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """Show a hand where only the clicker sees it: in place on their own ephemeral hand, else as a new one.

    A hand is never written over a public message, whatever the button was on.
    """
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await update(interaction, **kwargs)
    else:
        await send(interaction, **kwargs)


class Work:
    """The handlers of clicks and commands at work, and the background work they started: when the bot
    stops, what is under way may finish (a lobby being posted, a hand being redrawn) while Discord can
    still be reached."""

    def __init__(self) -> None:
        self._background: set[asyncio.Task[None]] = set()
        self._in_flight: set[asyncio.Task[Any]] = set()

    @contextlib.asynccontextmanager
    async def working(
        self, interaction: discord.Interaction[Any], *, update: bool, public: bool = False
    ) -> AsyncIterator[None]:
        """A handler's work: answered in time (see ``answering``), and waited for if the bot stops meanwhile."""
        task = asyncio.current_task()
        assert task is not None  # a handler always runs in a task
        self._in_flight.add(task)
        try:
            async with answering(interaction, update=update, public=public):
                yield
        finally:
            self._in_flight.discard(task)

    def in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def finish(self, timeout: float = SHUTDOWN_GRACE) -> None:
        """Wait (``timeout`` at most) for the work under way."""
        pending = [task for task in (*self._in_flight, *self._background) if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)
