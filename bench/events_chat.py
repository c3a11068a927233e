"""The tournaments' chat presentation in a benchmark: the bot's own ``/tournament`` cog, hearing the service's
tournament events as in the bot, with Discord's REST API stood in for by a counter (``python -m bench events``).

What a round change costs in chat is what the cog sends when it hears ``round_done`` and ``round_opened``:
the standings, the sign-up message's edit, and for each table of the new round its message (drawn by the
tables' publisher), a thread on it and the ping of its people in the thread. Each call is counted by its
route and answered as Discord would answer it; the bot's REST budget (45 calls a second) stands in front of
the counter, as in the bot, so the time the calls take is the time they would take at most in production
(Discord's own answer time aside).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, cast

import discord

from bench.discord_calls import CountedCalls
from bot.rest_budget import DEFAULT_PER_SECOND, RestBudget
from bot.tables import TableService
from cogs.client import TableBot
from cogs.rest import limit_requests
from cogs.tables.publisher import Publisher
from cogs.tournaments.cog import Tournaments
from cogs.unreachable import Unreachable


class ThreadsToo(CountedCalls):
    """The counter, also answering a new thread with a thread (the cog's ``create_thread``) and noting when
    each call was made."""

    def __init__(self, guild_id: int, latency: float = 0.0) -> None:
        super().__init__()
        self.guild_id = guild_id
        self.latency = latency  # seconds Discord takes to answer a call
        self.stamps: list[float] = []

    async def request(self, route: discord.http.Route, **kwargs: Any) -> Any:
        if self.latency:
            await asyncio.sleep(self.latency)
        self.stamps.append(time.perf_counter())  # when the answer came
        answer = await super().request(route, **kwargs)
        if route.method == "POST" and route.path.endswith("/threads"):
            return {
                "id": str(next(self._ids)),
                "type": 11,
                "guild_id": str(self.guild_id),
                "parent_id": str(route.channel_id),
                "owner_id": "1",
                "name": "table",
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": datetime.now(UTC).isoformat(),
                    "locked": False,
                },
                "message_count": 0,
                "member_count": 0,
            }
        if isinstance(answer, dict):
            answer.setdefault("guild_id", str(self.guild_id))
        return answer


class ChatTournaments:
    """The ``/tournament`` cog over counted calls; ``calls`` and ``last_call`` say what it sent and when."""

    def __init__(self, service: TableService, guild_id: int, latency: float = 0.0) -> None:
        self.counted = ThreadsToo(guild_id, latency)
        self.client = discord.Client(intents=discord.Intents.none())
        self.counted.attach(self.client)
        self.budget = RestBudget(DEFAULT_PER_SECOND)
        limit_requests(self.client.http, self.budget)  # the bot's budget in front of the counter, as in the bot

        async def english(guild_id: int) -> str:
            return "en"

        async def undrawn(guild_id: int) -> bool:
            return False  # the table's picture is the tables' cost, not the round change's

        self.publisher = Publisher(self.client, service, english, pictures_wanted=undrawn, budget=self.budget)
        tables = SimpleNamespace(publisher=self.publisher)
        bot = SimpleNamespace(
            service=service,
            languages=SimpleNamespace(of=lambda guild_id: "en"),
            get_partial_messageable=self.client.get_partial_messageable,
            http=self.client.http,
            cog_of=lambda kind: tables,
            unreachable=Unreachable(),  # nothing taken away by Discord here
        )
        self.cog = Tournaments(cast(TableBot, bot))
        service.tournaments.events.subscribe(self.cog.on_event)

    async def take(self) -> tuple[Counter[str], float | None]:
        """The calls since the last take, by route, and when the last of them was made (once the table
        messages' edits the publisher has coming are sent too)."""
        await self.publisher.flush(30.0)
        calls, last = Counter(self.counted.calls), max(self.counted.stamps, default=None)
        self.counted.calls.clear()
        self.counted.stamps.clear()
        return calls, last

    async def close(self) -> None:
        await self.publisher.flush(30.0)
        await self.budget.close()
        await self.client.close()
