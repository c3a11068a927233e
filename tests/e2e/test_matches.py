"""Whole matches of every game through the Discord double, and no hidden card ever in a public message."""

from __future__ import annotations

from typing import Any

import pytest

from tests.double import BotProcess, DiscordDouble

from .conftest import people
from .driver import MOVE, TableDriver, cards_named, control, public_versions
from .leaks import hidden_by_move

MATCHES = [
    ("ninety-nine", 3, {"format": "target", "target": 50}),
    ("ninety-nine", 2, {"format": "target", "target": 50}),
    ("five-hundred", 4, {}),
    ("five-hundred", 5, {}),
    ("just-make", 4, {"target": 3}),
    ("just-make", 7, {"target": 3}),
]


@pytest.mark.parametrize(("game", "players", "options"), MATCHES, ids=[f"{g}-{n}" for g, n, _ in MATCHES])
async def test_a_whole_match(
    double: DiscordDouble, bot: BotProcess, database_url: str, game: str, players: int, options: dict[str, Any]
) -> None:
    table = TableDriver(double, people(players), seed=players)
    await table.open(game, players=players, **options)
    await table.seat_everyone()
    await table.start()
    await table.play()
    await table.wait_finished()
    assert table.table is not None
    final = table.table.text()
    assert "Final standings" in final and "🏆" in final
    assert control(table.table, "tt:rematch:") is not None
    assert double.problems == [], double.problems

    hidden, public = await hidden_by_move(database_url, table.table_id)
    checked = 0
    for message, _version, text in public_versions(double):
        found = MOVE.search(text)
        if found is None:
            assert not cards_named(text), f"a card in a message that is not the table: {text}"
            continue
        move = int(found.group(1))
        leaked = cards_named(text) & hidden[move]
        assert not leaked, f"message {message.id} at move {move} shows hidden {leaked}:\n{text}"
        assert cards_named(text) <= public[move], text
        checked += 1
    assert checked >= 3
