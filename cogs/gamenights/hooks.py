"""What a game night asks of the other parts when it begins: a lobby (the tables cog), or a tournament's
sign-up (the tournaments' cog, when there is one). Narrow doors, so this package imports neither."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import discord

from bot.tables import TableInfo
from bot.tables.game_nights import NightInfo

TABLES = "Tables"  # the cog that opens lobbies (cogs/tables)
GAME_NIGHTS = "GameNights"  # the game nights' cog (cogs/gamenights), where a sign-up hook registers


@runtime_checkable
class LobbyOpener(Protocol):
    """Opens a lobby by itself in a channel, its host seated (``cogs.tables.cog.Tables.open_scheduled``)."""

    async def open_scheduled(
        self,
        channel: discord.abc.Messageable,
        guild_id: int,
        channel_id: int,
        host: tuple[int, str],
        game: str,
        options: dict[str, Any],
        players: int | None,
        intro: str,
    ) -> TableInfo: ...


@runtime_checkable
class TournamentSignUps(Protocol):
    """The hook for a night of ``kind`` "tournament": at its start, open the tournament's sign-up in
    ``channel`` for ``night`` (its game, options, players, host and ``tournament_format``). True once the
    sign-up is open; False once a refusal is said in ``channel``. Implemented by the tournaments' cog
    (``cogs.tournaments.cog.Tournaments.open_sign_up``), registered with ``GameNights.register_sign_ups``;
    until one is, a tournament night says so in its channel."""

    async def open_sign_up(self, night: NightInfo, channel: discord.abc.Messageable) -> bool: ...


@runtime_checkable
class SignUpsRegistry(Protocol):
    """Where a ``TournamentSignUps`` hook registers (``GameNights.register_sign_ups``): the tournaments' cog,
    loaded after the game nights' cog, registers itself through this door; loaded before, the game nights'
    cog finds it among the cogs loaded."""

    def register_sign_ups(self, hook: TournamentSignUps) -> None: ...
