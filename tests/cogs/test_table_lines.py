"""A table's short lines (turn pings, reminders) where its thread refuses the bot: a public table's go to its
channel for a while, a private table's are not said (never in its channel) and cost one refusal a while, not one a
line."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.tables.pings import say_at_table
from cogs.unreachable import Unreachable

GUILD, CHANNEL, THREAD = 1, 2, 3


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def missing_permissions() -> discord.Forbidden:
    return discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), {"code": 50013, "message": "Missing"})


def fake_bot(calls: list[int]) -> Any:
    def messageable(channel_id: int, guild_id: int | None = None) -> Any:
        async def send(content: str, **kwargs: Any) -> Any:
            calls.append(channel_id)
            if channel_id == THREAD:
                raise missing_permissions()
            return SimpleNamespace(id=len(calls))

        return SimpleNamespace(send=send)

    return SimpleNamespace(get_partial_messageable=messageable)


def table(private: bool) -> Any:
    return SimpleNamespace(id=7, guild_id=GUILD, channel_id=CHANNEL, thread_id=THREAD, private=private)


async def test_a_public_tables_lines_go_to_its_channel_while_its_thread_refuses_them() -> None:
    calls: list[int] = []
    clock = Clock()
    unreachable = Unreachable(clock=clock, back_off=300)
    public = table(private=False)
    for _ in range(3):
        said = await say_at_table(fake_bot(calls), unreachable, public, unreachable.where(public) or 0, "🔔", [5])
        assert said is not None and said[1] == CHANNEL
    assert calls == [THREAD, CHANNEL, CHANNEL, CHANNEL]  # the thread tried once
    clock.now += 300
    await say_at_table(fake_bot(calls), unreachable, public, unreachable.where(public) or 0, "🔔", [5])
    assert calls[4:] == [THREAD, CHANNEL]  # tried again once the back-off is over


async def test_a_private_tables_lines_never_go_to_its_channel_and_wait_out_a_refusal() -> None:
    calls: list[int] = []
    clock = Clock()
    unreachable = Unreachable(clock=clock, back_off=300)
    private = table(private=True)
    with pytest.raises(discord.Forbidden):
        await say_at_table(fake_bot(calls), unreachable, private, unreachable.where(private) or 0, "🔔", [5])
    for _ in range(3):
        assert await say_at_table(fake_bot(calls), unreachable, private, THREAD, "🔔", [5]) is None
    assert calls == [THREAD] and unreachable.where(private) == THREAD and not unreachable.between_threads(private)
    clock.now += 300
    with pytest.raises(discord.Forbidden):
        await say_at_table(fake_bot(calls), unreachable, private, THREAD, "🔔", [5])
    assert calls == [THREAD, THREAD] and CHANNEL not in calls
