"""The chat table beside the Activity in a benchmark: the bot's own presenter, with Discord's REST API stood in
for by a counter (``python -m bench activity --discord``).

The presenter (``cogs/tables/presenting.py``: the table message through the coalescing publisher, turn
pings, hands) hears the service's events exactly as in the bot, so every move made on a screen causes the
calls it causes in production; each call discord.py would send is counted by its route instead and
answered with what Discord would answer (a message for a post or an edit, nothing for a delete). By default
no REST budget is put in front: what is counted is what the chat table asks for, before Discord's global
limit (50 calls a second) would space it out; ``--budget`` puts the bot's own in front, as in the bot.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import discord

from bot.rest_budget import RestBudget
from bot.tables import TableService
from bot.tables.events import Subscription
from cogs.rest import limit_requests
from cogs.tables.hand_messages import Hands
from cogs.tables.pings import TurnPings
from cogs.tables.presenting import HEARD, Presenter
from cogs.tables.publisher import Publisher
from cogs.tables.working import Work

BOT_USER = {"id": "1", "username": "bench", "discriminator": "0", "global_name": None, "avatar": None, "bot": True}


class CountedCalls:
    """Stands in for ``HTTPClient.request``: counts each call by method and route, answers as Discord would."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.times: dict[int, list[float]] = {}  # channel -> when each call to it was made (monotonic)
        self._ids = itertools.count(10**17)

    def attach(self, client: discord.Client) -> None:
        setattr(client.http, "request", self.request)  # noqa: B010 - an instance's method, replaced on purpose

    def total(self) -> int:
        return sum(self.calls.values())

    def most_in_a_second(self, since: float) -> int:
        """The most calls about one channel (one table's, here) made within any one second since ``since``."""
        most = 0
        for times in self.times.values():
            kept = [t for t in times if t >= since]
            start = 0
            for end, at in enumerate(kept):
                while at - kept[start] >= 1.0:
                    start += 1
                most = max(most, end - start + 1)
        return most

    async def request(self, route: discord.http.Route, **kwargs: Any) -> Any:
        self.calls[f"{route.method} {route.path}"] += 1
        if route.channel_id is not None:
            self.times.setdefault(int(route.channel_id), []).append(time.monotonic())
        if route.method in ("POST", "PATCH") and route.path.startswith("/channels/") and "/messages" in route.path:
            message_id = getattr(route, "message_id", None) or next(self._ids)
            return {
                "id": str(message_id),
                "channel_id": str(route.channel_id),
                "type": 0,
                "content": "",
                "author": BOT_USER,
                "attachments": [],
                "embeds": [],
                "mentions": [],
                "mention_roles": [],
                "pinned": False,
                "mention_everyone": False,
                "tts": False,
                "timestamp": datetime.now(UTC).isoformat(),
                "edited_timestamp": None,
                "flags": 0,
                "components": [],
            }
        return None


class ChatTable:
    """The bot's chat presentation of every table, subscribed to the service's events, over counted calls."""

    def __init__(
        self, service: TableService, *, pictures: bool, on_screen: Any = None, budget: RestBudget | None = None
    ) -> None:
        self.counted = CountedCalls()
        self.client = discord.Client(intents=discord.Intents.none())
        self.counted.attach(self.client)
        self.budget = budget  # the bot's REST budget in front of the calls, as in the bot (None: every call asked)
        if budget is not None:
            limit_requests(self.client.http, budget)
        self.work = Work()

        async def english(guild_id: int) -> str:
            return "en"

        async def wanted(guild_id: int) -> bool:
            return True

        async def drawn(guild_id: int) -> bool:
            return pictures

        self.publisher = Publisher(self.client, service, english, pictures_wanted=drawn, activity=True, budget=budget)
        pings = TurnPings(self.client, wanted, budget=budget, on_screen=on_screen)
        hands = Hands(service, self.work)
        self.presenter = Presenter(self.client, self.publisher, pings, hands, self.work, english)
        self.subscription: Subscription = service.events.subscribe(self.presenter.on_event, HEARD)

    async def settle(self) -> None:
        """Wait until every event heard so far is shown (its edits sent)."""
        await self.subscription.drain()
        await self.work.finish(30.0)
        await self.publisher.flush(30.0)

    async def close(self) -> None:
        await self.settle()
        await self.subscription.close()
        await self.client.close()
        if self.budget is not None:
            await self.budget.close()
