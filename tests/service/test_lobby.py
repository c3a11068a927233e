"""The lobby: opening, joining, leaving, options, computers and starting."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.tables import BadOptions, ChannelBusy, NotAllowed, TableError, TableService, WrongStatus, readable_name

from .helpers import CHANNEL, GUILD, HOST, LOBBY_MESSAGE, heard, seated


async def test_open_seats_the_host_and_shows_a_lobby(service: TableService) -> None:
    info = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "five-hundred", {})
    assert info.status == "lobby" and info.host_id == HOST and info.game == "five-hundred"
    assert [(s.index, s.user_id, s.name) for s in info.seats] == [(0, HOST, "Ann")]
    assert info.version == 0
    assert (await service.table_in_channel(CHANNEL)) == info


async def test_one_open_table_per_channel_unless_it_has_a_thread(service: TableService) -> None:
    await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine")
    with pytest.raises(ChannelBusy) as refused:
        await service.open_table(GUILD, CHANNEL, HOST + 1, "Bob", "just-make")
    assert refused.value.key == "channel_busy"
    in_thread = await service.open_table(GUILD, CHANNEL, HOST + 1, "Bob", "just-make", thread_id=9001)
    assert in_thread.thread_id == 9001
    assert (await service.table_in_channel(CHANNEL, 9001)) == in_thread


@pytest.mark.parametrize(
    ("game", "options", "players", "key"),
    [
        ("bridge", {}, None, "unknown_game"),
        ("ninety-nine", {"colour": "red"}, None, "unknown_option"),
        ("ninety-nine", {"target": 7}, None, "bad_option_value"),
        ("five-hundred", {}, 7, "bad_players"),
    ],
)
async def test_bad_options_are_refused_with_the_engines_key(
    service: TableService, database: Database, game: str, options: dict[str, object], players: int | None, key: str
) -> None:
    with pytest.raises(BadOptions) as refused:
        await service.open_table(GUILD, CHANNEL, HOST, "Ann", game, options, players)
    assert refused.value.key == key
    assert refused.value.params  # the presentation can say it in any language
    async with database.engine.connect() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM tables"))).scalar() == 0


async def test_join_leave_and_the_rules_of_the_lobby(service: TableService) -> None:
    info = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine", players=3)
    info = await service.join(info.id, HOST + 1, "Bob")
    with pytest.raises(NotAllowed, match="already seated"):
        await service.join(info.id, HOST + 1, "Bob")
    info = await service.join(info.id, HOST + 2, "Cy")
    with pytest.raises(NotAllowed) as full:
        await service.join(info.id, HOST + 3, "Di")
    assert full.value.key == "table_full" and full.value.params == {"players": 3}
    info = await service.leave(info.id, HOST + 1)
    assert [s.user_id for s in info.seats] == [HOST, HOST + 2]
    with pytest.raises(NotAllowed, match="not seated"):
        await service.leave(info.id, HOST + 1)
    with pytest.raises(NotAllowed) as not_host:
        await service.start(info.id, HOST + 2, message_id=LOBBY_MESSAGE)
    assert not_host.value.key == "not_host"
    with pytest.raises(BadOptions) as count:
        await service.start(info.id, HOST, message_id=LOBBY_MESSAGE)
    assert count.value.key == "bad_player_count"


async def test_the_host_who_leaves_hands_over_and_the_last_one_closes_the_lobby(service: TableService) -> None:
    info = await seated(service, players=2)
    info = await service.leave(info.id, HOST)
    assert info.host_id == HOST + 1 and info.status == "lobby"
    info = await service.leave(info.id, HOST + 1)
    assert info.status == "abandoned"
    assert await service.table_in_channel(CHANNEL) is None
    await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine")  # the channel is free again


async def test_the_host_changes_options_and_removes_seats(service: TableService) -> None:
    info = await seated(service, "just-make", players=5)
    with pytest.raises(NotAllowed):
        await service.set_options(info.id, HOST + 1, {"target": 15})
    info = await service.set_options(info.id, HOST, {"target": 15})
    assert info.options == {"target": 15}
    with pytest.raises(BadOptions):
        await service.set_options(info.id, HOST, {"target": "fifteen"})
    with pytest.raises(NotAllowed) as full:
        await service.set_options(info.id, HOST, players=4)
    assert full.value.key == "table_full"
    with pytest.raises(NotAllowed) as host:
        await service.remove_seat(info.id, HOST, 0)
    assert host.value.key == "host_stays"
    info = await service.remove_seat(info.id, HOST, 4)
    info = await service.set_options(info.id, HOST, players=4)
    assert info.players == 4 and len(info.seats) == 4 and info.options == {"target": 15}


async def test_start_deals_and_refuses_a_second_start(service: TableService) -> None:
    info = await seated(service, players=3)
    with pytest.raises(WrongStatus) as unshown:  # nobody has seen the lobby's message yet: no match starts
        await service.start(info.id, HOST)
    assert unshown.value.key == "lobby_not_ready" and (await service.table(info.id)).status == "lobby"
    outcome = await service.start(info.id, HOST, message_id=LOBBY_MESSAGE)
    assert outcome.table.status == "playing" and outcome.kinds() == ["started"]
    assert outcome.public["phase"] == "bidding" and set(outcome.table.to_act) == {0, 1, 2}
    assert set(outcome.views) == {0, 1, 2} and all(len(v["hand"]) == 12 for v in outcome.views.values())
    assert outcome.table.message_id == LOBBY_MESSAGE  # the message Start was pressed on, kept with the start
    with pytest.raises(WrongStatus):
        await service.start(info.id, HOST, message_id=LOBBY_MESSAGE)
    with pytest.raises(WrongStatus):
        await service.join(info.id, HOST + 5, "Late")


async def test_computer_players_fill_seats_and_play_by_themselves(service: TableService) -> None:
    info = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "ninety-nine", {"format": "nine-deals"})
    with pytest.raises(NotAllowed):
        await service.add_computer(info.id, HOST + 1)
    await service.add_computer(info.id, HOST)
    info = await service.add_computer(info.id, HOST)
    assert [s.computer for s in info.seats] == [False, True, True]
    outcome = await service.start(info.id, HOST, message_id=LOBBY_MESSAGE)
    assert outcome.kinds() == ["started"]  # start returns at once; the computers bid afterwards
    await service.settle(info.id)
    assert (await service.table(info.id)).to_act == (0,)  # both computers have bid
    moves = heard(service).events("action")
    assert sorted(e["seat"] for e in moves) == [1, 2] and {e["source"] for e in moves} == {"computer"}


async def test_the_host_takes_a_computer_out_by_its_seat_whatever_moved_meanwhile(service: TableService) -> None:
    info = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "just-make", {})
    await service.add_computer(info.id, HOST, "easy")
    info = await service.join(info.id, HOST + 1, "Bea")
    info = await service.add_computer(info.id, HOST, "strong")
    easy, bea, strong = info.seats[1], info.seats[2], info.seats[3]
    assert len({seat.key for seat in info.seats}) == 4  # every seat its own key
    with pytest.raises(NotAllowed, match="Only the host"):
        await service.remove_computer(info.id, HOST + 1, easy.key)
    with pytest.raises(NotAllowed) as refused:
        await service.remove_computer(info.id, HOST, bea.key)  # a person is not a computer
    assert refused.value.key == "not_a_computer"
    await service.leave(info.id, HOST + 1)  # the order shifts: the strong computer's key still names it
    info = await service.remove_computer(info.id, HOST, strong.key)
    assert [(s.computer, s.level) for s in info.seats] == [(False, None), (True, "easy")]
    with pytest.raises(NotAllowed) as again:
        await service.remove_computer(info.id, HOST, strong.key)  # a second click on the same button
    assert again.value.key == "not_a_computer"
    await service.join(info.id, HOST + 2, "Cy")
    await service.join(info.id, HOST + 3, "Di")
    await service.start(info.id, HOST, message_id=LOBBY_MESSAGE)
    with pytest.raises(WrongStatus):
        await service.remove_computer(info.id, HOST, easy.key)


async def test_where_the_table_lives_is_remembered(service: TableService, database: Database) -> None:
    info = await seated(service, players=2)
    await service.set_location(info.id, message_id=777, thread_id=888)
    fresh = await TableService(database).table(info.id)  # read back from the database by another process
    assert (fresh.message_id, fresh.thread_id) == (777, 888)
    assert fresh.version == info.version + 1


async def test_a_table_id_no_row_can_have_is_no_such_table_for_every_lobby_call(service: TableService) -> None:
    """A forged custom_id names a table beyond any id (PostgreSQL's ids are 32-bit): refused as not found,
    never a query PostgreSQL refuses, even on the way that reads a table again when a call is refused."""
    for call in (
        lambda: service.add_computer(313_924_779_213_413, HOST),
        lambda: service.add_computer(313_924_779_213_413, HOST, level="forged"),  # refused before the lookup
        lambda: service.join(313_924_779_213_413, HOST, "Host"),
        lambda: service.start(313_924_779_213_413, HOST),
    ):
        with pytest.raises(TableError):
            await call()


@pytest.mark.parametrize("table_id", [2**31, 2**48, 0, -1])
async def test_a_refused_call_on_an_id_no_row_can_have_is_only_refused(service: TableService, table_id: int) -> None:
    """A refusal reads the table again when this process may be behind: never for an id no row can have
    (PostgreSQL would refuse the number itself, and the click would fail instead of being refused)."""
    with pytest.raises(TableError):
        await service.add_computer(table_id, HOST, level="grandmaster")
    with pytest.raises(TableError):
        await service.join(table_id, HOST + 1, "Bea")


async def test_a_finished_table_has_one_open_rematch_at_a_time(service: TableService) -> None:
    """Two players press Rematch on the same finished table (in threads of their own, so the channel does not
    stop the second): one rematch opens, the other is told one is open; once that rematch is over, the old
    table may be played again. Two presses at the same moment open one table."""
    await service.update_guild_settings(GUILD, max_open_tables=50, max_lobbies_per_host=25, play_cooldown_seconds=0)
    old = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "oh-hell")
    await service.abandon(old.id, HOST)
    first = await service.open_table(GUILD, CHANNEL, HOST, "Ann", "oh-hell", own_thread=True, rematch_of=old.id)
    with pytest.raises(NotAllowed) as refused:
        await service.open_table(GUILD, CHANNEL, HOST + 1, "Bob", "oh-hell", own_thread=True, rematch_of=old.id)
    assert refused.value.key == "rematch_taken"
    other = await service.open_table(GUILD, CHANNEL, HOST + 1, "Bob", "oh-hell", own_thread=True)  # not a rematch
    await service.abandon(first.id, HOST)
    again = await service.open_table(GUILD, CHANNEL, HOST + 1, "Bob", "oh-hell", own_thread=True, rematch_of=old.id)
    assert again.id not in (first.id, other.id)
    await service.abandon(again.id, HOST + 1)
    results = await asyncio.gather(
        *(
            service.open_table(GUILD, CHANNEL, HOST + n, f"P{n}", "oh-hell", own_thread=True, rematch_of=old.id)
            for n in (2, 3)
        ),
        return_exceptions=True,
    )
    opened = [r for r in results if not isinstance(r, BaseException)]
    assert len(opened) == 1, results
    assert all(isinstance(r, NotAllowed) and r.key == "rematch_taken" for r in results if r not in opened)


async def test_a_name_is_kept_without_what_would_change_how_the_text_around_it_reads(service: TableService) -> None:
    """A right-to-left override (which turns a score line round), zero-width spaces (two names alike), a line
    break: left out or made a space when the name is kept, for every presentation; the letters stay, emoji
    joined by a zero-width joiner too; a name of nothing but such characters is shown by the person's id."""
    info = await service.open_table(GUILD, CHANNEL, HOST, "Ann\u202e 7 :stnioP", "oh-hell", players=4)
    info = await service.join(info.id, HOST + 1, "Bo\u200bb\n\tthe\u2066 Builder\u2069 👨\u200d👩\u200d👧")
    info = await service.join(info.id, HOST + 2, "\u202e\u200b\ufeff\ud800")  # (a lone surrogate cannot be written)
    info = await service.join(info.id, HOST + 3, "  山田\u3000太\udc00郎  ")
    assert [seat.name for seat in info.seats] == [
        "Ann 7 :stnioP",
        "Bob the Builder 👨\u200d👩\u200d👧",
        "",
        "山田 太郎",
    ]
    assert all(seat.name.encode() is not None for seat in info.seats)
    # a joiner that joins nothing drawn (at an end, beside a space): a name like another, or a blank one
    assert readable_name("alice\u200d") == "alice" and readable_name("\u200d al\u200c ice") == "al ice"
    assert readable_name("\u200b\u200c\u200d\ufeff") == "" and readable_name("a\u200d\u200db") == "ab"
    assert readable_name("क्\u200dष") == "क्\u200dष"  # (one that shapes a script's letters stays)
    assert readable_name("ali\u200dce") == "alice" and readable_name("al\u200cice") == "alice"  # between plain letters
    assert readable_name("a" * 99 + "\u200d👩") == "a" * 99  # cut first: no joiner left at the end


async def test_a_game_nights_lobby_is_not_held_back_by_its_hosts_own_pace(service: TableService) -> None:
    """A host's cooldown and lobby count are for what they open themselves: two nights of theirs at one time
    (or a /play of theirs a moment before) all open; the server's limit of open tables still holds, and the
    name the night kept for its host does not replace the one they go by now."""
    await service.update_guild_settings(GUILD, max_lobbies_per_host=1, play_cooldown_seconds=600, max_open_tables=3)
    await service.open_table(GUILD, CHANNEL, HOST, "Ann now", "oh-hell")
    with pytest.raises(TableError) as paced:
        await service.open_table(GUILD, CHANNEL + 1, HOST, "Ann now", "oh-hell")
    assert paced.value.key == "host_lobbies_full"
    for channel in (CHANNEL + 1, CHANNEL + 2):
        night = await service.open_table(GUILD, channel, HOST, "Ann when scheduled", "oh-hell", scheduled=True)
        assert night.seats[0].name == "Ann now"
    with pytest.raises(TableError) as full:
        await service.open_table(GUILD, CHANNEL + 3, HOST, "Ann when scheduled", "oh-hell", scheduled=True)
    assert full.value.key == "server_tables_full"
