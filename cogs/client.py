"""The bot every cog is handed (the RoboDanny pattern): typed, with the table service and the servers' languages.

The launcher's bot is a :class:`TableBot`; each cog's ``setup`` checks it is
given one and passes it on, so no cog reaches the service or another cog
through ``Any``.
"""

from __future__ import annotations

from typing import Any, TypeVar

import discord
from discord.ext import commands

from bot.rest_budget import RestBudget
from bot.tables import TableService

from .i18n import ServerLanguages
from .unreachable import Unreachable

CogT = TypeVar("CogT", bound=commands.Cog)


class TableBot(commands.AutoShardedBot):
    """A bot with a table service (``service``) and each server's language (``languages``); sharded
    (RoboDanny's ``AutoShardedBot``): every shard of the bot, or this process's range of them."""

    service: TableService
    languages: ServerLanguages
    budget: RestBudget | None = None  # the REST budget every counted call takes a token from (see cogs/rest.py)
    activity_served: bool = False  # the Activity is served: the table message offers to open it (LAUNCH_ACTIVITY)
    unreachable: Unreachable  # servers the bot left, channels deleted, tables refused: nothing is sent there

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unreachable = Unreachable()

    def on_screen(self, table_id: int, user_id: int) -> bool:
        """Whether the person has the table open on a screen of the Activity served by this process (their
        turn shows there as it comes: no ping in chat). Never, where no Activity is served."""
        return False

    def cog_of(self, kind: type[CogT]) -> CogT:
        """The loaded cog of this class (a cog is loaded before any click can reach it)."""
        cog = self.get_cog(kind.__cog_name__)
        assert isinstance(cog, kind), f"{kind.__name__} is not loaded"
        return cog


def table_bot(client: discord.Client | commands.Bot) -> TableBot:
    """``client`` as the bot it is: every cog runs in a :class:`TableBot`."""
    assert isinstance(client, TableBot), "the cogs run in a TableBot"
    return client
