"""The table as a picture: attached to every edit while the match is played, drawn from the public view
only, text alone where the bot may not attach files (its host told once) or where the server chose text."""

from __future__ import annotations

from pathlib import Path

from cogs.picture import FILENAME, picture_inputs
from tests.double import BotProcess, DiscordDouble, Message, User

from .conftest import people
from .driver import WAIT, TableDriver, control, shown_move
from .leaks import check_public_messages, logged_actions
from .test_flows import seed_matches
from .tournament import entrants, pings, sign_up


def pictures(message: Message) -> list[dict[str, object]]:
    """The inputs of the table pictures attached to each version of ``message`` (None where there was none)."""
    found = []
    for version in message.versions:
        drawn = [a for a in version.get("attachments", []) if a.get("filename") == FILENAME]
        found.append(picture_inputs(drawn[0]["data"]) if drawn else {})
    return found


def shows_picture(version: dict[str, object]) -> bool:
    embeds = version.get("embeds") or []
    assert isinstance(embeds, list)
    return any((embed.get("image") or {}).get("url") == f"attachment://{FILENAME}" for embed in embeds)


async def test_every_edit_of_a_table_in_play_carries_its_picture(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    players = people(4)
    table = TableDriver(double, players, seed=6)
    await table.open("oh-hell", players=4, start_cards=3)
    await table.seat_everyone()
    await table.start()
    await table.play(stop_after=9)  # four bids, then a trick and one card of the next
    assert table.table is not None
    await double.wait_for(lambda: pictures(table.table)[-1].get("trick"), timeout=WAIT)  # type: ignore[union-attr]
    started = next(i for i, v in enumerate(table.table.versions) if "Show my hand" in str(v["components"]))
    drawn = pictures(table.table)[started:]
    assert drawn and all(drawn), "every edit of the table in play has its picture"
    assert all(shows_picture(v) for v in table.table.versions[started:])
    for inputs in drawn:
        seats = inputs["seats"]
        assert isinstance(seats, list) and [seat["name"] for seat in seats] == [p.name for p in players]
        assert sum(1 for seat in seats if seat["acting"]) == 1  # one person at a time plays a card or bids
    # The pictures go through the same leak check as the text: no card that was hidden at its move.
    await table.play()
    await table.wait_finished()
    await check_public_messages(double, database_url, table.table_id)
    final = table.table.versions[-1]
    assert not pictures(table.table)[-1] and not shows_picture(final), "the finished table shows its chart instead"
    assert double.problems == []


async def test_losing_attach_files_mid_match_turns_the_table_to_text_and_its_host_is_told_once(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    players = people(3)
    table = TableDriver(double, players, seed=8)
    await table.open("oh-hell", players=3, start_cards=3)
    await table.seat_everyone()
    await table.start()
    assert table.table is not None and pictures(table.table)[-1]
    double.attachments_forbidden = True  # a manager takes the permission away during the match
    drawn = len(table.table.versions)
    await table.play(stop_after=8)
    moves = len(await logged_actions(database_url, table.table_id))  # the coalesced edits land: the last shows it
    await double.wait_for(lambda: shown_move(table.table) == moves, WAIT, "the table shows the last move")  # type: ignore[arg-type]
    await double.wait_for(lambda: any("Attach Files" in m.text() for m in double.public_messages()), WAIT, "told")
    later = table.table.versions[drawn:]
    assert later and not any(shows_picture(v) for v in later)
    assert "Trumps" in table.table.text()  # the whole table, as text
    # the host is told in the channel (a post, which may wait for the channel's rate limit bucket)
    await double.wait_for(lambda: [m for m in double.public_messages() if "Attach Files" in m.text()], WAIT, "told")
    told = [m for m in double.public_messages() if "Attach Files" in m.text()]
    assert len(told) == 1 and f"<@{players[0].id}>" in told[0].text()
    assert double.problems == []


async def test_a_server_can_choose_text_only(double: DiscordDouble, bot: BotProcess) -> None:
    manager = User(1900, "Manager", manager=True)
    panel = (await double.command(manager, "settings")).original
    assert panel is not None
    await double.choose(manager, panel, "st:game", ["limits"])
    assert "Table picture off" in str(panel.components)
    await double.click(manager, panel, "st:picture")
    assert "Off: the table as text only" in panel.text()
    table = TableDriver(double, people(3), seed=2)
    await table.open("oh-hell", players=3, start_cards=2)
    await table.seat_everyone()
    await table.start()
    await table.play(stop_after=4)
    assert table.table is not None
    assert not any(pictures(table.table))
    assert not [m for m in double.public_messages() if "Attach Files" in m.text()]
    assert double.problems == []


async def test_play_names_the_permissions_a_table_needs_and_opens_nothing_without_them(
    double: DiscordDouble, bot: BotProcess
) -> None:
    host = people(1)[0]
    double.permissions_withheld = (1 << 14) | (1 << 16)  # Embed Links, Read Message History
    answer = await double.command(host, "play-oh-hell")
    assert answer.original is not None and answer.original.ephemeral_for == host.id
    text = answer.original.text()
    assert "Embed Links" in text and "Read Message History" in text and "Send Messages" not in text
    assert not double.public_messages()
    double.permissions_withheld = 1 << 11  # Send Messages: a tournament's rounds could not be posted either
    signup = await double.command(host, "tournament", "create", game="oh-hell")
    assert signup.original is not None and signup.original.ephemeral_for == host.id
    assert "Send Messages" in signup.original.text() and "/tournament create again" in signup.original.text()
    assert not double.public_messages()  # no sign-up for a tournament that could never show its tables
    double.permissions_withheld = 1 << 38  # Send Messages in Threads: the table plays in the channel instead
    double.attachments_forbidden = True
    table = TableDriver(double, [host], seed=1)
    await table.open("oh-hell")
    assert table.table is not None and table.table.thread_id is None
    told = await double.wait_for(
        lambda: next((m for m in double.ephemerals(host) if "Attach Files" in m.text()), None), WAIT, "the host told"
    )
    assert "thread" in told.text()
    await table.seat_everyone()
    double.permissions_withheld = 0
    assert not [m for m in double.public_messages() if "Attach Files" in m.text()], "the host was told already"
    assert double.problems == []


async def test_a_match_over_in_a_channel_without_attach_files_shows_its_end_as_text(
    double: DiscordDouble, bot: BotProcess
) -> None:
    """The chart of a match over is a file too: where the bot may not attach files it is left out, and the table
    shows its final standings and its Rematch button (without that, every edit of the end was refused, and the
    table stayed at a move before it for good)."""
    double.attachments_forbidden = True  # the channel never allowed Attach Files: /play says "shown as text"
    table = TableDriver(double, people(3), seed=8)
    await table.open("oh-hell", players=3, start_cards=2, sequence="down")
    await table.seat_everyone()
    await table.start()
    await table.play()
    assert table.table is not None
    await double.wait_for(lambda: control(table.table, "tt:rematch:") is not None, WAIT, "the end with Rematch")  # type: ignore[arg-type]
    assert not table.table.attachments
    assert double.problems == []


async def test_a_tournaments_round_is_posted_as_text_where_the_bot_may_not_attach_files(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """A round's tables are posted already in play, their picture with them: refused for want of Attach Files,
    each is posted again as text (it was lost, with its Show my hand button)."""
    users = entrants(4)
    double.attachments_forbidden = True  # the channel gives the bot no Attach Files (/tournament create asks not)
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="50")
    await process.start()
    try:
        signup = await sign_up(double, users, rounds=2, options="start_cards=1 sequence=down")
        start = control(signup, ":start:")
        assert start is not None
        await double.click(users[0], signup, start["custom_id"])
        await double.wait_for(lambda: len(pings(double, 1)) == 1, WAIT, "round 1's table, posted and pinged")
        [posted] = [m for m in double.public_messages() if "Show my hand" in str(m.components)]
        assert not posted.attachments
        assert double.problems == []
    finally:
        await process.stop()
    assert "could not show round_opened" not in process.log()


async def test_a_stored_match_opens_without_its_chart_where_the_bot_may_not_attach_files(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    await seed_matches(database_url, double.guild_id)
    process = BotProcess(double, database_url, tmp_path / "bot.log")
    await process.start()
    try:
        regular = User(5800, "Reg")
        double.attachments_forbidden = True  # an answer's files need Attach Files too
        history = (await double.command(regular, "history", user=regular)).original
        assert history is not None
        picker = control(history, "rk:open:")
        assert picker is not None
        opened = (await double.choose(regular, history, picker["custom_id"], [picker["options"][0]["value"]])).original
        assert opened is not None and "match #" in opened.text() and "Final standings" in opened.text()
        assert not opened.attachments and "attachment://" not in str(opened.versions[-1].get("embeds"))
        assert double.problems == []
    finally:
        await process.stop()
