"""A table opened from the Activity inside Discord (against the double, without the chat table): the lobby form
where the channel has none, the choice where it has several, and every refusal said and nothing written."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tables import TableError
from bot.tables.events import Event, LobbyChanged
from tests.double import User

from .conftest import Inside, ScreenClient

ALICE, BOB, MALLORY = User(1000, "Alice", "en-US"), User(1001, "Bob", "en-US"), User(1002, "Mallory", "ja")


async def signed_in(inside: Inside, user: User, *, language: str = "en", channel: int | None = None) -> ScreenClient:
    """``user``'s screen in an instance of ``channel`` (the double's channel unless said), signed in with Discord."""
    double = inside.double
    guild = int(double.channels[channel]["guild_id"]) if channel else double.guild_id
    instance = double.activity.launch([user], channel or double.channel_id, guild)
    status, answer = await inside.token(double.activity.authorize(user), instance, language)
    assert status == 200, answer
    return await inside.screen(answer["session"], language=language)


def heard(inside: Inside) -> list[LobbyChanged]:
    """The lobby changes the service publishes from now on (as the chat table hears them)."""
    events: list[LobbyChanged] = []

    async def hear(event: Event) -> None:
        assert isinstance(event, LobbyChanged)
        events.append(event)

    inside.service.events.subscribe(hear, (LobbyChanged,))
    return events


async def test_a_screen_in_a_channel_without_a_table_opens_one_with_computers(inside: Inside) -> None:
    double = inside.double
    lobbies = heard(inside)
    alice = await signed_in(inside, ALICE)
    empty = await alice.next("state")
    assert empty["table"] is None and empty["tables"] == []  # the lobby form
    options: dict[str, Any] = {"start_cards": 3, "scoring": "penalty"}
    await alice.send(op="open", game="oh-hell", options=options, players=4, computers=["easy", "strong"], hints=False)
    lobby = await alice.state_where(lambda t: t["status"] == "lobby")
    assert [s["name"] for s in lobby["lobby"]["seats"]] == ["Alice", "🤖 Easy 2", "🤖 Strong 3"]
    table = await inside.service.table(lobby["id"])
    assert (table.guild_id, table.channel_id, table.host_id) == (double.guild_id, double.channel_id, ALICE.id)
    assert table.options["start_cards"] == 3 and table.options["scoring"] == "penalty" and table.players == 4
    # One event for the whole lobby, saying that the channel's presentation is to post it.
    assert [(e.table.id, e.announce, len(e.table.seats)) for e in lobbies] == [(table.id, True, 3)]
    await alice.send(op="start", table=table.id)  # not before its lobby is posted in the channel
    assert (await alice.next("error"))["key"] == "error.lobby_not_ready"
    await inside.service.set_location(table.id, message_id=4242)  # as the chat table does when it hears it

    bob = await signed_in(inside, BOB)  # another screen in the channel: the table at once, and its seats filling
    shown = await bob.state_where(lambda t: t["id"] == table.id)
    assert shown["lobby"]["seated"] is False
    await bob.send(op="join", table=table.id)
    await alice.state_where(lambda t: len(t["lobby"]["seats"]) == 4)
    await inside.service.leave(table.id, BOB.id)  # as from chat: the screens follow
    await alice.state_where(lambda t: len(t["lobby"]["seats"]) == 3)
    await inside.service.join(table.id, BOB.id, "Bob")
    await alice.state_where(lambda t: len(t["lobby"]["seats"]) == 4)
    await bob.send(op="start", table=table.id)  # only the host starts
    assert (await bob.next("error"))["key"] == "error.not_host"
    await alice.send(op="start", table=table.id)
    playing = await alice.state_where(lambda t: t["status"] == "playing")
    assert playing["seat"] == 0 and len(playing["hand"]) == 3
    assert [e.announce for e in lobbies].count(True) == 1
    await alice.close()
    await bob.close()


async def test_a_forged_lobby_is_refused_in_the_readers_language_and_writes_nothing(inside: Inside) -> None:
    double = inside.double
    mallory = await signed_in(inside, MALLORY, language="ja")
    await mallory.next("state")
    quick = {"start_cards": 2}
    refusals = [
        ({"game": "chess"}, "error.unknown_game"),
        ({"game": "oh-hell", "options": {"start_cards": 99}}, "error.bad_option_value"),
        ({"game": "oh-hell", "options": {"scoring": "made-up"}}, "error.bad_option_value"),
        ({"game": "oh-hell", "options": {"trumps": True}}, "error.unknown_option"),
        ({"game": "oh-hell", "options": quick, "players": 9}, "error.bad_players"),
        ({"game": "oh-hell", "options": quick, "players": 3, "computers": ["easy"] * 3}, "error.table_full"),
        ({"game": "oh-hell", "options": quick, "computers": ["easy"] * 7}, "error.table_full"),
    ]
    for frame, key in refusals:
        await mallory.send(op="open", **frame)
        error = await mallory.next("error")
        assert error["key"].startswith("error.") and error["message"] and error["message"] != error["key"], error
        assert error["key"] == key, (frame, error)
        assert not error["message"].isascii(), error  # in Mallory's language
    for forged in (
        {"game": "oh-hell", "computers": ["godlike"]},
        {"game": "oh-hell", "players": "4"},
        {"game": "oh-hell", "channel": 123},  # the place is the instance's, never the page's
        {"game": "oh-hell", "guild": double.guild_id + 1},
        {"game": "oh-hell", "computers": ["easy"] * 16},
    ):
        await mallory.send(op="open", **forged)
        assert (await mallory.next("error"))["key"] == "activity.bad_frame", forged
    assert await inside.service.tables_in_channel(double.channel_id) == []  # nothing written


async def test_a_screen_opens_its_own_channel_only(inside: Inside) -> None:
    double = inside.double
    other_guild = 910_000_000_000_000_777
    elsewhere = double.another_server(other_guild, 910_000_000_000_000_778)
    mallory = await signed_in(inside, MALLORY, channel=elsewhere)
    await mallory.next("state")
    await mallory.send(op="open", game="oh-hell", options={"start_cards": 2})
    lobby = await mallory.state_where(lambda t: t["status"] == "lobby")
    table = await inside.service.table(lobby["id"])
    assert (table.guild_id, table.channel_id) == (other_guild, elsewhere)
    assert await inside.service.tables_in_channel(double.channel_id) == []
    alice = await signed_in(inside, ALICE)  # a screen in the first channel sees none of it
    assert (await alice.next("state"))["table"] is None
    await alice.send(op="join", table=table.id)
    assert (await alice.next("error"))["key"] == "activity.not_here"
    await alice.send(op="watch", table=table.id)
    assert (await alice.next("error"))["key"] == "activity.not_here"
    assert (await inside.service.table(table.id)).seat_of(ALICE.id) is None


async def test_several_tables_in_the_channel_are_offered_to_choose_and_a_busy_channel_refuses_one_more(
    inside: Inside,
) -> None:
    double, service = inside.double, inside.service
    here = await service.open_table(double.guild_id, double.channel_id, BOB.id, "Bob", "oh-hell")
    threaded = await service.open_table(
        double.guild_id, double.channel_id, MALLORY.id, "Mallory", "five-hundred", thread_id=double.channel_id + 5
    )
    for table in (here, threaded):
        await service.set_location(table.id, message_id=table.id + 1000)
    alice = await signed_in(inside, ALICE)
    offered = await alice.next("state")
    assert offered["table"] is None and sorted(t["id"] for t in offered["tables"]) == sorted([here.id, threaded.id])
    assert {t["seated"] for t in offered["tables"]} == {"Bob", "Mallory"}
    await alice.send(op="watch", table=threaded.id)
    chosen = await alice.state_where(lambda t: t["id"] == threaded.id)
    assert chosen["lobby"]["seated"] is False
    await alice.send(op="open", game="oh-hell", options={"start_cards": 2})  # the channel's one place is taken
    assert (await alice.next("error"))["key"] == "error.channel_busy"
    assert len(await service.tables_in_channel(double.channel_id)) == 2


async def test_a_screen_in_a_tables_thread_opens_no_table_there(inside: Inside) -> None:
    """An instance launched from a table's message in its own thread (a duplicate night's private table offers
    "Open the table" there) shows that table, and its lobby form opens none in the thread: ``/play`` refuses a
    thread, and so does the service, for both (found by a helper's audit). Said in the reader's language."""
    double = inside.double
    table = await inside.service.open_table(double.guild_id, double.channel_id, ALICE.id, "Alice", "oh-hell",
                                            own_thread=True)  # fmt: skip
    thread = 900_000_000_000_000_555
    await inside.service.set_location(table.id, message_id=4242, thread_id=thread)
    instance = double.activity.launch([ALICE, MALLORY], thread, double.guild_id)
    status, answer = await inside.token(double.activity.authorize(MALLORY), instance, "ja")
    assert status == 200, answer
    mallory = await inside.screen(answer["session"], language="ja")
    assert (await mallory.state_where(lambda t: t["id"] == table.id))["status"] == "lobby"
    await mallory.send(op="open", game="oh-hell", options={"start_cards": 2}, computers=["easy"])
    error = await mallory.next("error")
    assert error["key"] == "error.not_in_thread" and not error["message"].isascii(), error
    assert [t.id for t in await inside.service.tables_in_channel(thread)] == [table.id]  # nothing written
    with pytest.raises(TableError) as refused:  # nor through the service by any other way
        await inside.service.open_table(double.guild_id, thread, BOB.id, "Bob", "oh-hell")
    assert refused.value.key == "not_in_thread"
    await inside.service.abandon(table.id, ALICE.id)  # nor once that table is over: the thread stays its
    with pytest.raises(TableError):
        await inside.service.open_table(double.guild_id, thread, BOB.id, "Bob", "oh-hell")
    await mallory.close()


async def test_a_screen_in_any_thread_opens_no_table_there(inside: Inside) -> None:
    """An instance launched in an ordinary thread of the channel: ``/play`` opens no table in a thread, nor does
    the lobby form (the bot knows the thread as one); said in the reader's language, nothing written."""
    double = inside.double
    thread = 900_000_000_000_000_556
    parent = double.channels[double.channel_id]
    double.channels[thread] = {**parent, "id": str(thread), "type": 11, "parent_id": str(double.channel_id)}
    instance = double.activity.launch([MALLORY], thread, double.guild_id)
    status, answer = await inside.token(double.activity.authorize(MALLORY), instance, "ja")
    assert status == 200, answer
    mallory = await inside.screen(answer["session"], language="ja")
    assert (await mallory.next("state"))["table"] is None  # the lobby form
    await mallory.send(op="open", game="oh-hell", options={"start_cards": 2}, computers=["easy"])
    error = await mallory.next("error")
    assert error["key"] == "error.not_in_thread" and "スレッド" in error["message"], error
    assert await inside.service.tables_in_channel(thread) == []
    assert await inside.service.tables_in_channel(double.channel_id) == []
    await mallory.close()
