"""The Activity beside the chat table, against the Discord double: the table's button launches it (callback type
12), the Entry Point command is registered, a player signs in through Discord, and one table moves in both: a
card played on the screen edits the channel's table, a click in chat reaches the screen. Launched in a channel
with no table, a screen opens one: its lobby is posted in the channel as /play's is, and a seat taken on either
side shows on the other."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.double import BotProcess, DiscordDouble, Message, User
from tests.double.activity import SECRET

from .conftest import people
from .driver import TableDriver, control, version_text


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def served(double: DiscordDouble, database_url: str, tmp_path: Path) -> AsyncIterator[tuple[BotProcess, str]]:
    port = free_port()
    env = {"ACTIVITY_PORT": str(port), "ACTIVITY_CLIENT_ID": str(double.app_id), "ACTIVITY_CLIENT_SECRET": SECRET}
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="100", **env)
    await process.start()
    yield process, f"http://127.0.0.1:{port}"
    await process.stop()
    log = process.log()
    assert "Traceback" not in log, log[-5000:]


async def latest_state(socket: aiohttp.ClientWebSocketResponse, test: Any, timeout: float = 20.0) -> dict[str, Any]:
    while True:
        message = await socket.receive(timeout=timeout)
        frame = json.loads(message.data)
        if frame["type"] == "state" and frame["table"] and test(frame["table"]):
            return dict(frame["table"])


async def settled(socket: aiohttp.ClientWebSocketResponse, state: dict[str, Any]) -> dict[str, Any]:
    """The screen's latest state once no new one has come for a moment."""
    while True:
        try:
            message = await socket.receive(timeout=1.5)
        except TimeoutError:
            return state
        frame = json.loads(message.data)
        if frame["type"] == "state" and frame["table"]:
            state = frame["table"]


async def test_the_activity_and_the_chat_table_are_one_table(
    double: DiscordDouble, served: tuple[BotProcess, str]
) -> None:
    _, base = served
    entry = [c for c in double.commands if c.get("type") == 4]
    assert [c["name"] for c in entry] == ["launch"] and entry[0]["handler"] == 2  # Discord launches it
    alice, bob, carol = people(3)
    table = TableDriver(double, [alice, bob, carol], seed=3)
    await table.open("oh-hell", start_cards=3)
    await table.seat_everyone()
    await table.start()
    assert table.table is not None
    launch = control(table.table, "tt:launch:")
    assert launch is not None
    answer = await double.click(alice, table.table, launch["custom_id"])
    assert answer.answered is not None and answer.answered.result() == 12  # LAUNCH_ACTIVITY
    instance = double.activity.launched[-1]
    assert instance.channel_id == double.channel_id and alice.id in instance.users

    async with aiohttp.ClientSession() as client:
        code = double.activity.authorize(alice)
        async with client.post(f"{base}/api/token", json={"code": code, "instance_id": instance.instance_id}) as reply:
            assert reply.status == 200, await reply.text()
            session = (await reply.json())["session"]
        screen = await client.ws_connect(f"{base}/ws")
        await screen.send_str(json.dumps({"op": "hello", "session": session}))
        state = await latest_state(screen, lambda t: t["status"] == "playing")
        for _ in range(60):  # Alice plays on her screen; Bob and Carol in chat
            if state["choices"]:
                shown = table.table.text()
                action = state["choices"][0]["actions"][0]["action"]
                await screen.send_str(
                    json.dumps({"op": "act", "table": state["id"], "action": action, "turn": state["turn"]})
                )
                # The channel's table message is edited for a move made on the screen (coalesced, within seconds).
                await double.wait_for(lambda s=shown: table.table.text() != s, timeout=15)  # type: ignore[union-attr]
                break
            for player in table.players[1:]:
                before = table.actions
                await table.take_turn(player)
                if table.actions > before:  # a move in chat: the screen shows it
                    state = await latest_state(screen, lambda t, n=state["actions"]: t["actions"] > n)
            state = await settled(screen, state)
        else:
            raise AssertionError("Alice never had a choice on her screen")
        await screen.close()
    assert double.problems == [], double.problems


async def signed_in(
    client: aiohttp.ClientSession, base: str, double: DiscordDouble, user: User, instance: str
) -> aiohttp.ClientWebSocketResponse:
    code = double.activity.authorize(user)
    async with client.post(f"{base}/api/token", json={"code": code, "instance_id": instance}) as reply:
        assert reply.status == 200, await reply.text()
        session = (await reply.json())["session"]
    screen = await client.ws_connect(f"{base}/ws")
    await screen.send_str(json.dumps({"op": "hello", "session": session}))
    return screen


async def first_state(screen: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        frame = json.loads((await screen.receive(timeout=20)).data)
        if frame["type"] == "state":
            return dict(frame)


async def test_a_table_opened_on_a_screen_is_posted_in_the_channel_and_its_lobby_follows_both_sides(
    double: DiscordDouble, served: tuple[BotProcess, str]
) -> None:
    _, base = served
    alice, bob, carol = people(3)
    instance = double.activity.launch([alice, carol], double.channel_id, double.guild_id)  # from the App Launcher
    async with aiohttp.ClientSession() as client:
        screen = await signed_in(client, base, double, alice, instance)
        assert (await first_state(screen))["table"] is None  # no table here: the lobby form
        opened = {"op": "open", "game": "oh-hell", "options": {"start_cards": 2}, "players": 4, "computers": ["easy"]}
        await screen.send_str(json.dumps(opened))
        lobby = await latest_state(screen, lambda t: t["status"] == "lobby")
        # The chat table posts it in the channel, as /play does: the same lobby, with its controls.
        message: Message = await double.wait_for(
            lambda: next((m for m in double.public_messages() if control(m, f":join:{lobby['id']}")), None),
            timeout=20,
            what="the lobby opened on a screen is posted in the channel",
        )
        assert message.channel_id == double.channel_id and f"<@{alice.id}>" in message.text()
        assert "Easy" in message.text(), message.text()

        # Bob joins in chat: the click redraws the message itself, and nothing else edits it for that.
        join = control(message, ":join:")
        assert join is not None
        edits = len(message.versions)
        await double.click(bob, message, join["custom_id"])
        await latest_state(screen, lambda t: any(s["name"] == "Bob" for s in t["lobby"]["seats"]))
        assert f"<@{bob.id}>" in message.text(), message.text()
        await asyncio.sleep(2.5)  # longer than the publisher's interval: an edit for Bob's seat would be made by now
        assert len(message.versions) == edits + 1, [version_text(message, v) for v in message.versions[edits:]]

        # Carol takes a seat on her own screen: the channel's lobby message shows it (one edit).
        other = await signed_in(client, base, double, carol, instance)
        await latest_state(other, lambda t: t["id"] == lobby["id"])
        await other.send_str(json.dumps({"op": "join", "table": lobby["id"]}))
        await double.wait_for(
            lambda: f"<@{carol.id}>" in message.text(), timeout=15, what="Carol's seat in the channel"
        )
        await asyncio.sleep(2.5)
        assert len(message.versions) == edits + 2

        # Alice starts on her screen: the channel's message becomes the table, and a move on the screen moves it.
        await screen.send_str(json.dumps({"op": "start", "table": lobby["id"]}))
        await latest_state(screen, lambda t: t["status"] == "playing")
        await double.wait_for(lambda: control(message, "tt:hand:"), timeout=20, what="the table in the channel")
        await screen.close()
        await other.close()

        # A channel the bot cannot post in (Discord answers 404): the lobby nobody could see is closed at once.
        nowhere = double.activity.launch([carol], double.channel_id + 999, double.guild_id)
        lost = await signed_in(client, base, double, carol, nowhere)
        assert (await first_state(lost))["table"] is None
        await lost.send_str(json.dumps({**opened, "computers": []}))
        closed = await latest_state(lost, lambda t: t["status"] == "abandoned", timeout=30)
        assert not [m for m in double.public_messages() if control(m, f":join:{closed['id']}")]
        await lost.close()
    assert double.problems == [], double.problems
