"""Building one part of the service on a store and nothing else, and hearing the store's events."""

from __future__ import annotations

from bot.storage.database import Database
from bot.tables.events import Event
from bot.tables.lobby import Lobby
from bot.tables.settings import Settings
from bot.tables.store import TableStore

from ..helpers import CHANNEL, GUILD, HOST, LOBBY_MESSAGE


class Events:
    """Every event the store's bus hands its subscribers, in order."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.seen: list[Event] = []
        store.events.subscribe(self.heard)

    async def heard(self, event: Event) -> None:
        self.seen.append(event)

    async def take(self) -> list[Event]:
        await self.store.events.drain()
        taken, self.seen = self.seen, []
        return taken


async def lobby_of(
    store: TableStore, players: int, game: str = "ninety-nine", channel: int = CHANNEL, **options: object
) -> int:
    """A lobby of ``players`` people (users HOST, HOST+1, …) opened through a Lobby on ``store``;
    the server's limits lifted (through a Settings on the same store)."""
    await Settings(store).update_guild_settings(GUILD, max_open_tables=500, play_cooldown_seconds=0)
    lobby = Lobby(store)
    info = await lobby.open_table(GUILD, channel, HOST, "Host", game, dict(options) or None)
    for n in range(1, players):
        await lobby.join(info.id, HOST + n, f"Player {n}")
    return info.id


async def started_table(store: TableStore, players: int = 3, game: str = "ninety-nine") -> int:
    table_id = await lobby_of(store, players, game)
    await Lobby(store).start(table_id, HOST, message_id=LOBBY_MESSAGE)
    return table_id


def fresh_store(database: Database) -> TableStore:
    return TableStore(database)
