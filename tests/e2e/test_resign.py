"""/resign as the people at a table see it: a player gives up the match, the channel is told, the computer plays
the seat on; a second /resign, or one by someone not seated, is refused to them alone in their language and
changes nothing; the resignation that leaves one person playing ends the match, with that person the winner and
no trophy beside a seat that resigned."""

from __future__ import annotations

from tests.double import BotProcess, DiscordDouble, User

from .driver import WAIT, TableDriver


async def test_a_player_resigns_the_computer_plays_on_and_the_last_resignation_ends_the_match(
    double: DiscordDouble, bot: BotProcess
) -> None:
    users = [User(1000, "Alice"), User(1001, "Ken", locale="ja"), User(1002, "Carol")]
    table = TableDriver(double, users, seed=5)
    await table.open("oh-hell", players=3)
    await table.seat_everyone()
    await table.start()
    assert table.table is not None and table.table.thread_id is not None
    thread = table.table.thread_id

    outsider = User(1003, "Dave")
    refused = (await double.command(outsider, "resign", channel_id=thread)).original
    assert refused is not None and refused.ephemeral_for == outsider.id
    assert "You are not seated at this table." in refused.text(), refused.text()

    said = (await double.command(users[0], "resign", channel_id=thread)).original
    assert said is not None and said.ephemeral_for is None, "said in the thread for all"
    assert "<@1000> resigned: a loss. The computer plays their seat on." in said.text(), said.text()
    versions = len(table.table.versions)
    repeated = (await double.command(users[0], "resign", channel_id=thread)).original
    assert repeated is not None and repeated.ephemeral_for == users[0].id, "refused to Alice alone"
    assert "You have resigned from this match." in repeated.text(), repeated.text()
    assert len(table.table.versions) == versions, "nothing changed"
    again = (await double.command(users[1], "resign", channel_id=thread)).original
    assert again is not None and again.ephemeral_for is None
    assert "<@1001> resigned: a loss. The match is over." in again.text(), "in the server's language"
    await double.wait_for(lambda: "🏆" in table.table.text(), WAIT, "the final standings")  # type: ignore[union-attr]
    final = table.table.text()
    assert "🏆 1. **Carol**" in final, final
    assert final.count("🏆") == 1, "no trophy beside a seat that resigned"
    assert len(table.table.versions) > versions

    twice = (await double.command(users[1], "resign", channel_id=thread)).original
    assert twice is not None and twice.ephemeral_for == users[1].id, "refused to Ken alone"
    assert "ここには開いているテーブルがありません" in twice.text(), "the match is over: in Ken's language"
    assert double.problems == []
