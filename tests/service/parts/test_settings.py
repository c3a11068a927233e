"""The settings part alone, on a store: typed settings, refusals, and open tables following them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage.database import Database
from bot.tables import BadOptions
from bot.tables.settings import Settings
from bot.tables.store import TableStore

from ..helpers import GUILD
from .helpers import lobby_of


async def test_settings_are_checked_stored_and_followed_by_open_tables(database: Database) -> None:
    store = TableStore(database)
    settings = Settings(store)
    default = await settings.guild_settings(GUILD)
    assert default.turn_pings and default.thread_per_table
    table_id = await lobby_of(store, 1)
    changed = await settings.update_guild_settings(GUILD, turn_seconds=90, computer_pace_ms=0, language="ja")
    assert (changed.turn_seconds, changed.computer_pace_ms, changed.language) == (90, 0, "ja")
    assert await settings.guild_settings(GUILD) == changed
    live = store.peek(table_id)
    assert live is not None and live.guild_turn == 90 and live.guild_pace_ms == 0
    refused: list[dict[str, Any]] = [
        {"turn_seconds": -1},
        {"turn_pings": "yes"},
        {"nonsense": 1},
        {"default_options": {"nope": {}}},
    ]
    for bad in refused:
        with pytest.raises(BadOptions):
            await settings.update_guild_settings(GUILD, **bad)
    assert await settings.guild_settings(GUILD) == changed  # nothing written
