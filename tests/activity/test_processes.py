"""Several processes on one database: a screen connected to one process sees the moves another makes, whichever
process owns the table (the owner hears of others' writes through PostgreSQL's NOTIFY; a screen's process reads
the version of a table it does not own)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from activity.server import ActivityServer
from activity.sessions import Session
from activity.source import ServiceSource
from bot.shards import Shards, shard_of
from tests.service.conftest import POSTGRES_URL, drop_schema, fresh_database
from tests.service.helpers import make_service, seated

from .conftest import ScreenClient

GUILD = 1 << 22  # shard 1 of 2


@pytest.mark.parametrize("screen_on_owner", [True, False])
async def test_a_screen_on_one_process_sees_moves_made_on_another(tmp_path: Path, screen_on_owner: bool) -> None:
    if POSTGRES_URL is None:
        pytest.skip("PostgreSQL: TEST_POSTGRES_URL is not set (SQLite serves one process)")
    database, schema = await fresh_database("postgresql", tmp_path)
    assert shard_of(GUILD, 2) == 1
    owner = make_service(database, shards=Shards.of(2, [1]))
    other = make_service(database, shards=Shards.of(2, [0]))
    await owner.follow_others(_ignore)
    await other.follow_others(_ignore)
    watched, mover = (owner, other) if screen_on_owner else (other, owner)
    source = ServiceSource(watched, poll=0.05)
    server = ActivityServer(source, local=False, page_dir=tmp_path / "no-page")
    http = TestServer(server.app())
    await http.start_server()
    client = aiohttp.ClientSession()
    try:
        info = await seated(mover, "oh-hell", players=3, options={"start_cards": 2}, guild=GUILD, channel=555)
        info = (await mover.start(info.id, info.host_id, message_id=1)).table
        user = info.seats[0].user_id
        assert user is not None
        session: Session = server.sessions.make(user, "Host", GUILD, 555, local=False)
        socket = await client.ws_connect(str(http.make_url("/ws")))
        await socket.send_str(json.dumps({"op": "hello", "session": session.key, "table": info.id}))
        screen = ScreenClient(socket)
        await screen.next("hello")
        await screen.state_where(lambda t: t["status"] == "playing")
        rng = random.Random(2)
        for _ in range(4):  # moves made by the other process, each seen on this one's screen
            info = await mover.table(info.id)
            who = info.seats[info.to_act[0]].user_id
            assert who is not None
            outcome = await mover.act(info.id, who, rng.choice(await mover.legal(info.id, who)))
            moves = outcome.table.actions
            await screen.state_where(lambda t, n=moves: t["actions"] == n, timeout=30)
    finally:
        await client.close()
        await http.close()
        await source.close()
        await owner.close()
        await other.close()
        await database.close()
        await drop_schema(schema)


async def _ignore(settings: object) -> None:
    return None
