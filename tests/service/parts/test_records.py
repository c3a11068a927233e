"""The records part alone, on a store: what a finished match leaves to read."""

from __future__ import annotations

from bot.storage.database import Database
from bot.tables.lobby import Lobby
from bot.tables.play import Play
from bot.tables.record_reads import Records
from bot.tables.store import TableStore
from bot.tables.thinking import InProcessThinker

from ..helpers import GUILD, HOST, LOBBY_MESSAGE, SAMPLES, no_pause
from .helpers import lobby_of


async def test_a_finished_match_is_on_the_records(database: Database) -> None:
    store = TableStore(database)
    records = Records(store)
    assert await records.leaderboard(GUILD, "oh-hell") == []
    assert await records.match_count(GUILD) == 0
    assert await records.score_sheet(0) is None and await records.table_result(2**70) is None

    table_id = await lobby_of(store, 3, "oh-hell")
    await Lobby(store).start(table_id, HOST, message_id=LOBBY_MESSAGE)
    play = Play(store, thinker=InProcessThinker(samples=SAMPLES), sleep=no_pause)
    await play.resign(table_id, HOST + 1)
    await play.resign(table_id, HOST + 2)  # one person is left: the match ends
    await play.close()

    assert await records.match_count(GUILD) == 1
    (summary,) = await records.recent_matches(GUILD)
    sheet = await records.table_result(table_id)
    assert sheet is not None and await records.match_table(summary["match_id"]) == table_id
    board = await records.leaderboard(GUILD, "oh-hell")
    assert [row["user_id"] for row in board][:1] == [HOST]  # the one who did not resign leads
    assert await records.rank_of(GUILD, "oh-hell", HOST) == 1
    assert await records.games_played(GUILD, HOST) == ["oh-hell"]
