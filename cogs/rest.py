"""Every counted REST call the bot makes takes a token from the REST budget first (``bot/rest_budget.py``).

discord.py sends every bot-authenticated call through ``HTTPClient.request``;
the budget is put in front of it. Interaction answers (``/interactions/…/callback``)
and the interaction's webhook (followups, ``@original`` edits: ``/webhooks/{app}/{token}``)
are not counted in Discord's global limit, so they pass at once (discord.py sends
most of them through its webhook adapter, which does not come here at all).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.rest_budget import RestBudget


def counted(route: discord.http.Route) -> bool:
    """Whether Discord counts this call in the bot's global limit."""
    if route.path.startswith("/interactions/"):
        return False
    return not (route.path.startswith("/webhooks/") and route.webhook_token is not None)


def limit_requests(http: discord.http.HTTPClient, budget: RestBudget) -> None:
    """Make ``http`` take a token (at the priority of the caller's context) before each counted call."""
    request = http.request

    async def budgeted(route: discord.http.Route, **kwargs: Any) -> Any:
        if counted(route):
            await budget.spend()
        return await request(route, **kwargs)

    setattr(http, "request", budgeted)  # noqa: B010 - an instance's method, replaced on purpose
