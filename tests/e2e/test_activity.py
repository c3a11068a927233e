"""The Activity beside the chat table, against the Discord double: the table's button launches it (callback type
12), the Entry Point command is registered, a player signs in through Discord, and one table moves in both: a
card played on the screen edits the channel's table, a click in chat reaches the screen."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.double import BotProcess, DiscordDouble
from tests.double.activity import SECRET

from .conftest import people
from .driver import TableDriver, control


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
