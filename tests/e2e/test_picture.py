"""The table as a picture: attached to every edit while the match is played, drawn from the public view
only, text alone where the bot may not attach files (its host told once) or where the server chose text."""

from __future__ import annotations

from cogs.picture import FILENAME, picture_inputs
from tests.double import BotProcess, DiscordDouble, Message, User

from .conftest import people
from .driver import WAIT, TableDriver, shown_move
from .leaks import check_public_messages, logged_actions


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
