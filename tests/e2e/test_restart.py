"""The bot process is killed mid-game and started again: old buttons still work and the match goes on."""

from __future__ import annotations

from pathlib import Path

from tests.double import BotProcess, DiscordDouble

from .conftest import people
from .driver import TableDriver, control
from .leaks import logged_actions, stored_location


async def test_a_restart_mid_game_keeps_every_button_working(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    first = BotProcess(double, database_url, tmp_path / "first.log")
    await first.start()
    table = TableDriver(double, people(4), seed=11)
    await table.open("just-make", players=4, target=3)
    await table.seat_everyone()
    await table.start()
    await table.play(stop_after=6)
    before = await logged_actions(database_url, table.table_id)
    assert len(before) >= 6
    await first.stop(kill=True)  # no goodbye: SIGKILL

    second = BotProcess(double, database_url, tmp_path / "second.log")
    await second.start()
    try:
        assert table.table is not None
        show = control(table.table, "tt:hand:")
        assert show is not None
        for player in table.players:  # the table message posted by the first process
            answer = await double.click(player.user, table.table, show["custom_id"])
            assert answer.original is not None and "Your hand" in answer.original.text()
            player.hand = answer.original
        assert await logged_actions(database_url, table.table_id) == before  # looking changes nothing
        await table.play()
        await table.wait_finished()
        assert "Final standings" in table.table.text()
        assert double.problems == []
    finally:
        await second.stop()
    assert "Traceback" not in second.log(), second.log()[-4000:]


async def test_stopping_right_after_a_command_lets_its_work_finish(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """SIGTERM the moment /play is answered: the bot still records where the lobby is, then stops cleanly."""
    process = BotProcess(double, database_url, tmp_path / "bot.log")
    await process.start()
    table = TableDriver(double, people(1))
    await table.open("just-make")
    assert await process.stop() == 0
    assert "Traceback" not in process.log(), process.log()[-4000:]
    assert table.table is not None
    assert await stored_location(database_url, table.table_id) == (table.table.id, table.table.thread_id)
