"""The REST budget in front of discord.py's HTTP client (``cogs/rest.py``): counted calls take a token at their
caller's priority, interaction answers pass at once, and a token taken ahead pays for the edit it was taken for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
from discord.http import Route

from bot.rest_budget import Priority, RestBudget, rest_priority
from cogs.rest import counted, limit_requests


class FakeHTTP:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def request(self, route: Route, **kwargs: Any) -> Any:
        self.sent.append(f"{route.method} {route.path}")
        return {"ok": True}


EDIT = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2)
POST = Route("POST", "/channels/{channel_id}/messages", channel_id=1)
THREAD = Route("POST", "/channels/{channel_id}/messages/{message_id}/threads", channel_id=1, message_id=2)
CALLBACK = Route(
    "POST", "/interactions/{interaction_id}/{interaction_token}/callback", interaction_id=3, interaction_token="t"
)
FOLLOWUP = Route("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=4, webhook_token="t")
ORIGINAL = Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", webhook_id=4, webhook_token="t")
WEBHOOK_INFO = Route("GET", "/webhooks/{webhook_id}", webhook_id=4)  # the bot's own call, with its token


def test_what_discord_counts_in_the_global_limit() -> None:
    assert counted(EDIT) and counted(POST) and counted(THREAD) and counted(WEBHOOK_INFO)
    assert not counted(CALLBACK) and not counted(FOLLOWUP) and not counted(ORIGINAL)


async def test_counted_calls_take_a_token_at_their_callers_priority() -> None:
    http, budget = FakeHTTP(), RestBudget(50)
    limit_requests(http, budget)  # type: ignore[arg-type]
    await http.request(CALLBACK, json={})
    await http.request(FOLLOWUP, json={})
    assert budget.taken == {}  # answers are not counted
    await http.request(THREAD)  # nobody marked it: a person is waiting on it
    with rest_priority(Priority.PING):
        await http.request(POST)
    with rest_priority(Priority.EDIT):
        await http.request(EDIT)
    assert budget.taken == {Priority.URGENT: 1, Priority.PING: 1, Priority.EDIT: 1}
    assert len(http.sent) == 5
    await budget.close()


async def test_an_edit_paid_ahead_is_not_charged_twice() -> None:
    http, budget = FakeHTTP(), RestBudget(50)
    limit_requests(http, budget)  # type: ignore[arg-type]
    async with budget.reserved(Priority.EDIT):
        await http.request(EDIT)
    assert budget.taken == {Priority.EDIT: 1}
    await budget.close()


def test_the_bot_client_is_limited(tmp_path: Path) -> None:
    """The launcher puts the budget in front of the bot's own HTTP client."""
    from bot.config import Settings
    from bot.launcher import TrickBot

    bot = TrickBot(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/bot.db", rest_per_second=7))
    assert bot.budget is not None and bot.budget.shape.per_second == 7 and bot.budget.shared is None
    assert bot.http.request.__name__ == "budgeted"
    assert isinstance(bot.http, discord.http.HTTPClient)
