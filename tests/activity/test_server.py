"""The Activity's server end to end on real WebSockets: sign-in, lobby, play, pushes, refusals."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest

from activity.sessions import LOCAL_GUILD
from bot.tables import TableStatus
from tests.e2e.leaks import card_codes

from .conftest import ScreenClient, Served
from .leaks import leaks, sight_by_move

QUICK = {"start_cards": 2}


async def open_table(screen: ScreenClient, computers: list[str], **extra: Any) -> dict[str, Any]:
    await screen.next("state")  # no table here yet: the lobby form
    await screen.send(op="open", game="oh-hell", options=QUICK, players=None, computers=computers, **extra)
    return await screen.state_where(lambda t: t["status"] == "lobby" and len(t["lobby"]["seats"]) == 1 + len(computers))


def first_action(table: dict[str, Any]) -> str:
    for choice in table["choices"]:
        for action in choice["actions"]:
            return str(action["action"])
    raise AssertionError("no action offered")


async def test_a_hello_naming_a_table_that_cannot_be_shown_is_told_so_and_shown_the_place(served: Served) -> None:
    """A page that says hello with a table gone (or of another place) is told so in its language, then shown its
    place: the room's open table, else the lobby form. It was told, then sent nothing more: the page kept its
    last drawing until it was reloaded."""
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy", "easy"])
    lost = await served.screen("Ken", language="ja", table=lobby["id"] + 100)
    refused = await lost.next("error")
    assert refused["key"] == "error.table_not_found" and refused["message"] == "そのテーブルはもうありません。"
    assert (await lost.state_where(lambda t: t["id"] == lobby["id"]))["status"] == "lobby"  # the room's table
    elsewhere = await served.screen("Bob", room=2, table=lobby["id"])  # a table of another room
    assert (await elsewhere.next("error"))["key"] == "activity.not_here"
    assert (await elsewhere.next("state"))["table"] is None  # its own room has none: the lobby form


async def test_a_table_is_opened_started_and_played_from_screens(served: Served) -> None:
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy", "easy"])
    table_id = lobby["id"]
    bob = await served.screen("Bob")  # the room's open table is shown to a new screen at once
    shown = await bob.state_where(lambda t: t["id"] == table_id)
    assert shown["lobby"]["seated"] is False and shown["lobby"]["seats"][0]["name"] == "Alice"
    await bob.send(op="join", table=table_id)
    await alice.state_where(lambda t: len(t["lobby"]["seats"]) == 4)
    await alice.send(op="start", table=table_id)
    playing = await alice.state_where(lambda t: t["status"] == "playing")
    assert (
        playing["seat"] == 0
        and len(playing["hand"]) == 2
        and [s["label"] for s in playing["seats"]][:2]
        == [
            "Alice",
            "🤖 Easy 2",
        ]
    )
    info = await served.service.table(table_id)
    assert info.guild_id == LOCAL_GUILD  # local tables are a server of their own: no Discord leaderboard
    # Play to the end: whenever the table waits for a person, their screen offers the choice and they take it.
    for _ in range(200):
        await served.service.settle(table_id)
        table = await served.service.table(table_id)
        if table.status != TableStatus.PLAYING:
            break
        for screen in (alice, bob):
            if table.seat_of(screen.user_id) in table.to_act:
                moves = table.actions
                state = await screen.state_where(lambda t, n=moves: t["actions"] == n and bool(t.get("choices")))
                await screen.send(op="act", table=table_id, action=first_action(state), turn=state["turn"])
                await screen.state_where(lambda t, n=moves: t["actions"] > n)
    final = await alice.state_where(lambda t: t["status"] == "finished")
    standings = final["final"]["standings"]
    assert {row["name"] for row in standings} >= {"Alice", "Bob"}
    # The chart's running totals end at the final scores; people's rating changes show, a computer's none.
    chart = final["final"]["chart"]
    assert [line[-1] for line in chart["lines"]] == final["scores"] and chart["names"][:1] == ["Alice"]
    assert all(line[0] == 0 and len(line) == len(chart["lines"][0]) >= 2 for line in chart["lines"])
    ratings = {row["name"]: row["rating"] for row in standings}
    assert ratings["Alice"].startswith("rating ") and ratings["Bob"] and ratings["🤖 Easy 2"] == ""
    await alice.close()
    await bob.close()


async def test_a_watcher_gets_the_public_view_and_a_seat_only_its_own_cards(served: Served) -> None:
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy", "easy", "easy"])
    await alice.send(op="start", table=lobby["id"])
    mine = await alice.state_where(lambda t: t["status"] == "playing")
    watcher = await served.screen("Carol")
    public = await watcher.state_where(lambda t: t["status"] == "playing")
    assert public["seat"] is None and public["hand"] == [] and public["choices"] == []
    assert not set(mine["hand"]) & card_codes(public)
    for _ in range(3):  # a few moves, Alice's among them
        await served.service.settle(lobby["id"])
        table = await served.service.table(lobby["id"])
        if 0 in table.to_act:
            state = await alice.state_where(lambda t, n=table.actions: t["actions"] == n and bool(t.get("choices")))
            await alice.send(op="act", table=lobby["id"], action=first_action(state), turn=state["turn"])
            await alice.state_where(lambda t, n=table.actions: t["actions"] > n)
    await served.service.settle(lobby["id"])
    moves = (await served.service.table(lobby["id"])).actions
    assert moves >= 4
    await watcher.state_where(lambda t: t["actions"] == moves)
    await alice.state_where(lambda t: t["actions"] == moves)
    # Every frame each screen received names no card its seat (the watcher: the public) could not see then.
    for screen, seat in ((alice, 0), (watcher, None)):
        sight = await sight_by_move(served.service.db, lobby["id"], seat)
        assert leaks(screen.frames, lobby["id"], sight) == []
    planted = [{"type": "state", "table": {**public, "trick": [{"seat": 1, "card": c} for c in mine["hand"]]}}]
    assert leaks(planted, lobby["id"], await sight_by_move(served.service.db, lobby["id"], None))  # it can fail


async def test_bad_frames_are_refused_in_the_readers_language_and_change_nothing(served: Served) -> None:
    alice = await served.screen("アリス", language="ja")
    lobby = await open_table(alice, ["easy", "easy", "easy"])
    table_id = lobby["id"]
    await alice.send(op="start", table=table_id)
    await alice.state_where(lambda t: t["status"] == "playing")
    await served.service.settle(table_id)  # the computers wait for Alice now
    before = (await served.service.table(table_id)).actions
    state = await alice.state_where(lambda t: t["status"] == "playing" and t["actions"] == before)

    for size in (5000, 20_000, 200_000):  # past a frame's longest, past what the page ever sends
        await alice.socket.send_str("x" * size)
        assert (await alice.next("error"))["message"] == "メッセージが長すぎるため、何も変更していません。"
    for bad in (
        "not json",
        "[]",
        '{"op":"act"}',
        '{"op":"act","table":1,"action":"<b>x</b>","turn":0}',
        '{"op":"act","table":1,"action":"bid 1","turn":"0"}',
        '{"op":"drop_tables"}',
    ):
        await alice.socket.send_str(bad)
        assert (await alice.next("error"))["key"] == "activity.bad_frame"
    await alice.send(op="act", table=table_id + 1, action="bid 0", turn=state["turn"])  # another table
    assert (await alice.next("error"))["key"] == "activity.not_here"
    await alice.send(op="act", table=table_id, action="bid 99", turn=state["turn"])  # no such bid
    refused = await alice.next("error")
    assert refused["key"].startswith("error.") and refused["message"]
    await alice.send(op="act", table=table_id, action="play 2C", turn=state["turn"] + 5)  # a forged turn
    assert (await alice.next("error"))["key"] == "error.stale_hand"
    assert (await served.service.table(table_id)).actions == before


async def test_frames_beyond_the_rate_are_refused(served: Served) -> None:
    alice = await served.screen("Alice")
    await alice.next("state")
    for _ in range(40):
        await alice.send(op="watch", table=None)
    errors = []
    async with asyncio.timeout(10):
        while len(errors) < 1:
            frame = await alice.next("error")
            errors.append(frame)
    assert errors[0]["key"] == "activity.too_fast"


async def test_a_move_made_elsewhere_reaches_the_screens(served: Served) -> None:
    """A click in chat goes to the service directly: the screens see it too."""
    alice = await served.screen("Alice")
    lobby = await open_table(alice, [])
    table_id = lobby["id"]
    bob = await served.screen("Bob")
    await bob.state_where(lambda t: t["id"] == table_id)
    await served.service.join(table_id, 424242, "Dave")  # as the chat lobby's Join button does
    seen = await bob.state_where(lambda t: len(t["lobby"]["seats"]) == 2)
    assert [s["name"] for s in seen["lobby"]["seats"]] == ["Alice", "Dave"]


async def test_a_screen_only_sees_tables_of_its_own_room(served: Served) -> None:
    alice = await served.screen("Alice", room=1)
    lobby = await open_table(alice, [])
    eve = await served.screen("Eve", room=2, table=lobby["id"])
    assert (await eve.next("error"))["key"] == "activity.not_here"
    await eve.send(op="join", table=lobby["id"])
    assert (await eve.next("error"))["key"] == "activity.not_here"
    assert len((await served.service.table(lobby["id"])).seats) == 1


async def test_a_socket_without_a_session_is_refused(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    socket = await served.client.ws_connect(served.url("/ws"))
    await socket.send_str(json.dumps({"op": "hello", "session": "x" * 32}))
    reply = json.loads((await socket.receive(timeout=10)).data)
    assert reply["key"] == "activity.signed_out"
    socket = await served.client.ws_connect(served.url("/ws"))  # a Japanese screen after a restart of the bot
    await socket.send_str(json.dumps({"op": "hello", "session": "x" * 32, "language": "ja"}))
    reply = json.loads((await socket.receive(timeout=10)).data)
    assert reply["key"] == "activity.signed_out" and "サインイン" in reply["message"]
    async with served.client.post(served.url("/api/local/signin"), json={"name": "\u200b\n", "room": 1}) as answer:
        assert answer.status == 400
    lone = '{"name": "Al\\ud800ice", "room": 1}'  # half of a surrogate pair, alone: left out of the name
    async with served.client.post(served.url("/api/local/signin"), data=lone) as answer:
        assert answer.status == 200 and (await answer.json())["user"]["name"] == "Alice"
    async with served.client.post(served.url("/api/local/signin"), data='{"name": "\\udfff", "room": 1}') as answer:
        assert answer.status == 400 and (await answer.json())["key"] == "activity.bad_name"
    for raw, key in (("[" * 5000 + "]" * 5000, "activity.bad_frame"), ("x" * 20_000, "activity.too_long")):
        async with served.client.post(served.url("/api/local/signin"), data=raw) as answer:
            assert answer.status == 400 and (await answer.json())["key"] == key
    # a body that says it is compressed and is not: refused as unreadable, not a server error
    body, headers = b'{"name": "Ann", "room": 1}', {"Content-Encoding": "gzip", "Content-Type": "application/json"}
    with caplog.at_level(logging.ERROR):
        async with served.client.post(served.url("/api/local/signin"), data=body, headers=headers) as answer:
            assert answer.status == 400 and (await answer.json())["key"] == "activity.bad_frame"
            assert answer.headers["Server"] == "card-table"  # (no versions of ours to look up)
    assert not caplog.records, caplog.text  # (aiohttp read the rest of it again, and logged its failure each time)
    async with asyncio.timeout(10), served.client.get(served.url("/api/mode")) as answer:
        assert answer.status == 200  # the next request is answered (its connection was left hanging once)


async def test_a_hint_for_the_seat_on_turn_where_the_table_allows_them(served: Served) -> None:
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy", "easy", "easy"], hints=True)
    await alice.send(op="start", table=lobby["id"])
    await alice.state_where(lambda t: t["status"] == "playing")
    await served.service.settle(lobby["id"])
    moves = (await served.service.table(lobby["id"])).actions
    state = await alice.state_where(lambda t: t["actions"] == moves and bool(t.get("choices")))
    assert state["hints"] is True
    await alice.send(op="hint", table=lobby["id"])
    hint = await alice.next("hint", timeout=30)
    offered = {a["label"] for c in state["choices"] for a in c["actions"]}
    assert hint["message"].startswith("💡 ") and any(label in hint["message"] for label in offered), hint
    assert (await served.service.table(lobby["id"])).actions == moves  # a hint changes nothing
    assert (hint["table"], hint["turn"]) == (lobby["id"], state["turn"])  # the moment it was asked at


async def test_a_hint_for_a_moment_gone_is_not_sent(served: Served, monkeypatch: Any) -> None:
    """The seat moves while its hint is still being worked out: the advice (or a refusal that it is no longer on
    turn) is not sent, as it would be read as advice for the table as it is now."""
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy", "easy", "easy"], hints=True)
    await alice.send(op="start", table=lobby["id"])
    await alice.state_where(lambda t: t["status"] == "playing")
    await served.service.settle(lobby["id"])
    moves = (await served.service.table(lobby["id"])).actions
    state = await alice.state_where(lambda t: t["actions"] == moves and bool(t.get("choices")))
    asked, answer = asyncio.Event(), asyncio.Event()
    search = served.source.hint

    async def slow_search(table_id: int, user_id: int) -> Any:
        asked.set()
        await answer.wait()  # the search goes on until the seat has moved
        return await search(table_id, user_id)

    monkeypatch.setattr(served.source, "hint", slow_search)
    await alice.send(op="hint", table=lobby["id"])
    await asyncio.wait_for(asked.wait(), 10)
    await alice.send(op="act", table=lobby["id"], action=first_action(state), turn=state["turn"])
    await alice.state_where(lambda t: t["turn"] > state["turn"])
    answer.set()
    screen = next(s for s in served.server.screens if s.session.key == alice.session)
    assert screen._hinting is not None
    await asyncio.wait_for(screen._hinting, 30)  # the hint is done with: whatever it sent is on its way
    await alice.send(op="review", table=lobby["id"])  # a frame answered after it
    assert (await alice.next("error"))["key"] == "review.none"
    assert [f for f in alice.frames if f["type"] == "hint" or f.get("key") == "error.not_your_turn"] == []


async def test_no_hint_where_the_table_does_not_allow_them(served: Served) -> None:
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy", "easy", "easy"])
    await alice.send(op="start", table=lobby["id"])
    await alice.state_where(lambda t: t["status"] == "playing")
    await alice.send(op="hint", table=lobby["id"])
    assert (await alice.next("error"))["key"] == "error.hints_off"


async def test_a_local_player_who_closed_the_tab_comes_back_to_the_seat_by_name(served: Served) -> None:
    """In local mode the name is the seat: a host who closed the tab of a full lobby signs in again with the
    same name (in any case or width) and is back in it, host and seated, not locked out of the room; another
    name is another player."""
    alice = await served.screen("Alice", room=7)
    lobby = await open_table(alice, ["easy", "easy", "easy"])  # four seats, all taken
    await alice.socket.close()
    again = await served.screen("ａｌｉｃｅ", room=7)
    assert again.user_id == alice.user_id
    state = await again.state_where(lambda t: t["id"] == lobby["id"])
    assert state["lobby"]["seated"] and state["lobby"]["host"]
    bob = await served.screen("Bob", room=7)
    assert bob.user_id != alice.user_id
    await bob.state_where(lambda t: t["id"] == lobby["id"] and not t["lobby"]["seated"])


async def test_refusals_say_what_was_wrong(served: Served) -> None:
    """A hint asked in a lobby is refused as before the match (the host is seated, with no hand yet), a sign-in
    to a room that cannot be says so of the room (not of the name), each in the reader's language."""
    alice = await served.screen("Alice", language="ja")
    lobby = await open_table(alice, ["easy"], hints=True)
    await alice.send(op="hint", table=lobby["id"])
    refused = await alice.next("error")
    assert refused["key"] == "error.not_in_play" and refused["message"]
    for room in (0, 1_000_001, 1.5, True, "2"):
        asked = {"name": "Ann", "room": room, "language": "ja"}
        async with served.client.post(served.url("/api/local/signin"), json=asked) as answer:
            said = await answer.json()
            assert answer.status == 400 and said["key"] == "activity.bad_room" and "ルーム" in said["error"], room
    async with served.client.post(served.url("/api/local/signin"), json={"name": " ", "room": 1}) as answer:
        assert answer.status == 400 and (await answer.json())["key"] == "activity.bad_name"
    headers = {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}  # a body that names no language: the browser's
    async with served.client.post(served.url("/api/local/signin"), data="not json", headers=headers) as answer:
        said = await answer.json()
        assert answer.status == 400 and said["key"] == "activity.bad_frame" and "メッセージ" in said["error"]


async def test_a_private_table_is_shown_only_on_its_own_players_screens(served: Served) -> None:
    """A duplicate night's table is private: the other tables of its round hold the same cards, so a screen of
    someone not seated there neither finds it among the place's tables nor is shown it when it names it (told
    so in its language); its own players' screens show it as any table."""
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy", "easy", "easy"])
    table_id = lobby["id"]
    await alice.send(op="start", table=table_id)
    await alice.state_where(lambda t: t["status"] == "playing")
    watcher = await served.screen("Bob")  # not private yet: the place's one table, shown at once
    assert (await watcher.state_where(lambda t: t["status"] == "playing"))["id"] == table_id
    await served.service.set_location(table_id, private=True)
    assert (await served.service.table(table_id)).private

    ken = await served.screen("Ken", language="ja")  # the place's tables: none he may see
    listed = await ken.next("state")
    assert listed["table"] is None and listed.get("tables", []) == []
    named = await served.screen("Erin", language="ja", table=table_id)  # named outright: refused
    refused = await named.next("error")
    assert refused["key"] == "error.private_table" and f"テーブル{table_id}" in refused["message"]
    assert "何も変更していません" in refused["message"]
    await named.send(op="watch", table=table_id)  # asked again from the screen: the same
    assert (await named.next("error"))["key"] == "error.private_table"
    assert all(frame.get("table") is None for frame in named.frames if frame.get("type") == "state")
    assert all(frame.get("table") is None for frame in ken.frames if frame.get("type") == "state")

    again = await served.another_tab(alice)  # its own player's screen: the place's table, as before
    mine = await again.state_where(lambda t: t["status"] == "playing")
    assert mine["id"] == table_id and mine["hand"]
