"""A duplicate night's tables are private: every table of a round holds the same cards, so each is played in a
private thread of its own that only its people are in. What happens where the bot may not open one, and when
someone deletes one mid-match."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.double import BotProcess, DiscordDouble, Message, User
from tests.double.server import CREATE_PRIVATE_THREADS, PRIVATE_THREAD, SEND_MESSAGES_IN_THREADS

from .driver import WAIT, control
from .tournament import entrants, pings, round_tables, sign_up, start

QUICK = "start_cards=2 sequence=down"


def table_messages(double: DiscordDouble) -> list[Message]:
    return [m for m in double.public_messages() if control(m, "tt:hand:") is not None]


async def test_a_duplicate_night_needs_private_threads_where_it_is_created(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """Without Create Private Threads in the channel, /tournament create of a duplicate night is refused, in the
    reader's language, naming what to grant, and nothing is posted; a Swiss tournament there is not."""
    process = BotProcess(double, database_url, tmp_path / "bot.log")
    await process.start()
    try:
        double.permissions_withheld = CREATE_PRIVATE_THREADS
        hanako = User(2999, "Hanako", "ja")
        answer = await double.command(hanako, "tournament", "create", game="oh-hell", format="duplicate")
        assert answer.original is not None and answer.original.ephemeral_for == hanako.id
        assert "「プライベートスレッドの作成」" in answer.original.text(), answer.original.text()
        assert not [m for m in double.public_messages() if control(m, ":join:")]
        swiss = await double.command(hanako, "tournament", "create", game="oh-hell")
        assert swiss.original is not None and swiss.original.ephemeral_for is None
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]


async def test_a_duplicate_night_is_refused_in_an_announcement_channel(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """An announcement channel has no private threads (only announcement threads, which everyone sees): a
    duplicate night is refused there, in the reader's language, and nothing is posted."""
    double.channels[double.channel_id]["type"] = 5  # as the server shows it to the bot from the start
    process = BotProcess(double, database_url, tmp_path / "bot.log")
    await process.start()
    try:
        hanako = User(2999, "Hanako", "ja")
        news = await double.command(hanako, "tournament", "create", game="oh-hell", format="duplicate")
        assert news.original is not None and news.original.ephemeral_for == hanako.id
        assert "アナウンスチャンネル" in news.original.text() and "何も作成していません" in news.original.text()
        assert not [m for m in double.public_messages() if control(m, ":join:")]
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]


@pytest.mark.parametrize("withheld", [CREATE_PRIVATE_THREADS, SEND_MESSAGES_IN_THREADS])
async def test_tables_go_in_the_channel_where_private_threads_cannot_be_made_and_the_channel_is_told_once(
    double: DiscordDouble, database_url: str, tmp_path: Path, withheld: int
) -> None:
    """A permission taken away between the sign-up and the start (the thread cannot be made, or the table
    cannot be posted in it): the tables are shown in the channel as a Swiss tournament's are (a night that
    stalls helps nobody), their people pinged, and the channel is told once what to grant."""
    users = entrants(8)
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="50")
    await process.start()
    try:
        signup = await sign_up(double, users, format="duplicate", rounds=1, options=QUICK)
        double.permissions_withheld = withheld
        await start(double, users[0], signup)
        drivers = await round_tables(double, users, 1, 2, seed=4)
        for driver in drivers:
            assert driver.table is not None and driver.table.channel_id == double.channel_id
            assert double.channels[driver.table.thread_id or 0]["type"] == 11  # its public thread, as before

        def told() -> list[Message]:
            return [m for m in double.public_messages() if "could not open a private thread" in m.text()]

        await double.wait_for(told, WAIT, "the channel told why")
        assert len(told()) == 1 and "Create Private Threads" in told()[0].text()
        if withheld == CREATE_PRIVATE_THREADS:
            assert not [c for c in double.channels.values() if c.get("type") == PRIVATE_THREAD]
        for driver in drivers:
            await driver.play()
            await driver.wait_finished()
        assert len(told()) == 1
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]


@pytest.mark.parametrize("heard", [True, False])
async def test_a_deleted_private_thread_is_made_again_never_the_channel(
    double: DiscordDouble, database_url: str, tmp_path: Path, heard: bool
) -> None:
    """Someone deletes a table's private thread mid-match (its message goes with it), the bot hearing it or not
    (away, or the event lost): the table's next change posts it in a new private thread with the same people,
    who are told there; nothing of it (not a turn ping) is said in the channel meanwhile; they go on there."""
    users = entrants(8)
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="50")
    await process.start()
    try:
        signup = await sign_up(double, users, format="duplicate", rounds=1, options=QUICK)
        await start(double, users[0], signup)
        first, second = await round_tables(double, users, 1, 2, seed=6)
        assert first.table is not None and second.table is not None
        gone, other = first.table, second.table
        members = double.thread_members[gone.channel_id]
        assert members == {double.app_id, *(user.id for user in first.users)}
        await first.play(stop_after=1)
        assert len(pings(double, 1)) == 2
        before = len(double.timeline)
        if heard:
            await double.delete_thread(gone.channel_id)
        else:  # while the bot was away: no THREAD_DELETE reaches it
            await process.stop()
            double.channels_deleted.add(gone.channel_id)
        for message in [m for m in double.messages.values() if m.channel_id == gone.channel_id]:
            double.messages.pop(message.id)  # the thread's messages go with it
        if not heard:
            await process.start()

        def posted_again() -> Message | None:
            return next((m for m in table_messages(double) if m.id > gone.id and m.id != other.id), None)

        # at once, without a move: nobody could make one (their hands went with the thread)
        again = await double.wait_for(posted_again, WAIT, "the table posted again")
        thread = double.channels[again.channel_id]
        assert again.channel_id != gone.channel_id and thread["type"] == PRIVATE_THREAD
        told = await double.wait_for(
            lambda: next((m for m in double.public_messages() if "private thread was deleted" in m.text()), None),
            WAIT,
            "its people told where it went on",
        )
        assert told.channel_id == again.channel_id and all(f"<@{user.id}>" in told.content for user in first.users)
        first.table = again
        for player in first.players:  # their hands went with the thread: each opened again from the new message
            player.hand = None
        for driver in (first, second):
            await driver.play()
            await driver.wait_finished()
        said = [m for m, _ in double.timeline[before:] if m.ephemeral_for is None]
        in_channel = [m for m in said if m.channel_id == double.channel_id]
        assert not [m for m in in_channel if "your turn" in m.text() or control(m, "tt:hand:")], in_channel
        assert double.thread_members[again.channel_id] == members  # nobody else mentioned into it, to the end
        assert all(not double.sees(user.id, again) for user in second.users)
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]
