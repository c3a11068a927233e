"""Whole matches of every game through the Discord double, and no hidden card ever in a public message."""

from __future__ import annotations

from typing import Any

import pytest

from tests.double import BotProcess, DiscordDouble, User

from .conftest import people
from .driver import WAIT, TableDriver, control, set_computer_pace
from .leaks import check_public_messages

NOBODY: tuple[str, ...] = ()
MATCHES = [
    ("ninety-nine", 3, {"format": "target", "target": 50}, NOBODY),
    ("ninety-nine", 2, {"format": "target", "target": 50}, NOBODY),
    ("five-hundred", 4, {}, NOBODY),
    ("five-hundred", 5, {}, NOBODY),
    ("just-make", 4, {"target": 3}, NOBODY),
    ("just-make", 7, {"target": 3}, NOBODY),
    ("five-hundred", 4, {}, ("easy", "strong")),  # computers move by themselves
    ("just-make", 6, {"target": 3}, ("easy", "strong", "easy")),
    ("oh-hell", 4, {"start_cards": 3}, NOBODY),
    ("oh-hell", 7, {"start_cards": 2, "sequence": "up-down", "scoring": "penalty"}, ("strong", "easy")),
]


@pytest.mark.parametrize(
    ("game", "players", "options", "computers"),
    MATCHES,
    ids=[f"{g}-{n}" + "".join(f"-{level}" for level in c) for g, n, _, c in MATCHES],
)
async def test_a_whole_match(
    double: DiscordDouble,
    bot: BotProcess,
    database_url: str,
    game: str,
    players: int,
    options: dict[str, Any],
    computers: tuple[str, ...],
) -> None:
    if computers:
        await set_computer_pace(double, 0)
    table = TableDriver(double, people(players - len(computers)), seed=players)
    await table.open(game, players=players, **options)
    await table.seat_everyone(computers)
    await table.start()
    await table.play()
    await table.wait_finished()
    assert table.table is not None
    final = table.table.text()
    assert "Final standings" in final and "🏆" in final
    if options.get("format") == "target":  # a text option arrives through the command's choices
        assert "Format: to a target · Target: 50" in final
    assert control(table.table, "tt:rematch:") is not None
    assert double.problems == [], double.problems

    # Edits are coalesced to one a second, so a quick match shows few states: at least its start and its end.
    assert len(await check_public_messages(double, database_url, table.table_id)) >= 2


async def test_rematch_and_hand_command(double: DiscordDouble, bot: BotProcess) -> None:
    players = people(4)
    table = TableDriver(double, players, seed=5)
    await table.open("just-make", players=4, target=3, lone_loser_minus_one=True)
    await table.seat_everyone()
    await table.start()
    assert table.table is not None and table.table.thread_id is not None
    answer = await double.command(players[2], "hand", channel_id=table.table.thread_id)  # /hand in the table's thread
    assert answer.original is not None and answer.original.ephemeral_for == players[2].id
    assert "Your hand" in answer.original.text()
    await table.play()
    await table.wait_finished()
    old_id = table.table_id
    rematch = control(table.table, "tt:rematch:")
    assert rematch is not None
    watcher = User(4300, "Walter")  # never sat at the table: the rematch is not theirs to start
    refused = await double.click(watcher, table.table, rematch["custom_id"])
    assert refused.original is not None and "Only the players" in refused.original.text()
    assert not any("Walter" in m.text() or "<@4300>" in m.text() for m in double.public_messages())
    again = await double.click(players[1], table.table, rematch["custom_id"])
    lobby = again.original
    assert lobby is not None and lobby.ephemeral_for is None and lobby.id != table.table.id
    text = lobby.text()
    assert "Seated (4)" in text and "Lone loser −1: on" in text and "Target: 3" in text
    assert all(f"<@{p.id}>" in text for p in players)
    assert f":{old_id}" not in str(lobby.components)
    await double.wait_for(lambda: lobby.thread_id, timeout=WAIT)  # the new table's own thread
    second = await double.click(players[3], table.table, rematch["custom_id"])  # another player, a moment later
    assert second.original is not None and second.original.ephemeral_for == players[3].id
    assert "already open" in second.original.text()
    assert len([m for m in double.public_messages() if "Seated (4)" in m.text()]) == 1  # one rematch, not two
    assert double.problems == []


async def test_the_turn_clock_counts_down_on_the_table_and_the_hand_on_turn(
    double: DiscordDouble, bot: BotProcess
) -> None:
    table = TableDriver(double, people(4), seed=9)
    await table.open("oh-hell", players=4, start_cards=2, turn_seconds=120)
    await table.seat_everyone()
    await table.start()
    assert table.table is not None
    await double.wait_for(lambda: "⏰ Time to act runs out <t:" in table.table.text(), timeout=WAIT)  # type: ignore[union-attr]
    for player in table.players:
        await table.show_hand(player)
    await double.wait_for(table.someone_can_act, timeout=WAIT)
    for player in table.players:
        assert player.hand is not None
        on_turn = bool(table.choices(player.hand))
        assert ("⏰ Time to act runs out <t:" in player.hand.text()) == on_turn
    assert double.problems == []


async def test_a_quick_match_says_how_long_it_takes_before_anyone_starts(
    double: DiscordDouble, bot: BotProcess
) -> None:
    host = people(1)[0]
    whole = (await double.command(host, "play-ninety-nine")).original
    assert whole is not None and "About 1 h 45 min to play (about 36 deals)" in whole.text()
    await double.click(host, whole, control(whole, ":leave:")["custom_id"])  # type: ignore[index]
    quick = (await double.command(User(1777, "Quinn"), "play-ninety-nine", length="quick")).original
    assert quick is not None and "about 9 deals" in quick.text() and "Format: nine deals" in quick.text()
    chosen = (await double.command(User(1778, "Rae"), "play-just-make", length="quick", target=9)).original
    assert chosen is not None and "Target: 9" in chosen.text(), "an option chosen with it wins over the quick one"
    forged = await double.command(User(1779, "Sid"), "play-oh-hell", length="forever")
    assert forged.original is not None and "Quick match" in forged.original.text()
    assert double.problems == []
