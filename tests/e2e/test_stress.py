"""Many people clicking at once, in every game: whatever order the clicks land in, no message, public or
private, ever shows a card its reader may not see, and every click is answered in time."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tests.double import BotProcess, DiscordDouble

from .conftest import people
from .driver import WAIT, MatchOver, Player, TableDriver
from .leaks import check_private_messages, check_public_messages, logged_actions

GAMES = [  # Five Hundred plays to 500 either way: two hands and more are enough here
    ("ninety-nine", 4, {"format": "nine-deals"}),
    ("five-hundred", 6, {}),
    ("just-make", 6, {"target": 3}),
    ("oh-hell", 5, {"start_cards": 3}),
]
MOST_CLICKS = 260  # choices sent before the check, if the match has not ended by then


async def everyone_at_once(table: TableDriver, rng: random.Random) -> None:
    """Each person, all at the same moment: shows their hand again or makes a choice (a stale one too)."""

    async def one(player: Player) -> None:
        try:
            if player.hand is None or rng.random() < 0.3:
                await table.show_hand(player)
            else:
                await table.take_turn(player)
        except MatchOver:  # another person's click in this same moment ended the match
            pass

    await asyncio.gather(*(one(player) for player in table.players))


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g for g, _, _ in GAMES])
async def test_everyone_clicking_at_once_leaks_nothing(
    double: DiscordDouble, bot: BotProcess, database_url: str, game: str, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(players)
    table = TableDriver(double, people(players), seed=players)
    await table.open(game, players=players, **options)
    await table.seat_everyone()
    await table.start()
    for _ in range(3000):
        if table.finished() or table.actions >= MOST_CLICKS:
            break
        await everyone_at_once(table, rng)
    else:
        raise AssertionError("the match did not move on")
    moves = len(await logged_actions(database_url, table.table_id))
    assert moves >= 60 or table.finished()
    assert table.table is not None
    await double.wait_for(lambda: f"move {moves} " in table.table.text(), timeout=WAIT)  # type: ignore[union-attr]
    await check_public_messages(double, database_url, table.table_id)
    for player in table.players:
        assert await check_private_messages(double, database_url, table.table_id, player.user) > 0
    assert double.problems == []
