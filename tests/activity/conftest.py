"""A table service on a fresh database and the Activity's server over it, on a real port: in local mode
(``served``), or inside Discord against the double (``inside``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from activity.identity import DiscordSignIn
from activity.server import ActivityServer
from activity.source import ServiceSource
from bot.tables import TableService
from tests.double import DiscordDouble
from tests.double.activity import SECRET
from tests.service.conftest import BACKENDS, drop_schema, fresh_database
from tests.service.helpers import make_service


class Served:
    """The service, the adapter and the server, and a way to open screens on it."""

    def __init__(self, service: TableService, source: ServiceSource, server: ActivityServer, http: TestServer) -> None:
        self.service, self.source, self.server, self.http = service, source, server, http
        self.client = aiohttp.ClientSession()

    def url(self, path: str) -> str:
        return str(self.http.make_url(path))

    async def sign_in(self, name: str, room: int = 1, language: str = "en") -> str:
        async with self.client.post(
            self.url("/api/local/signin"), json={"name": name, "room": room, "language": language}
        ) as reply:
            assert reply.status == 200, await reply.text()
            return str((await reply.json())["session"])

    async def screen(self, name: str, room: int = 1, language: str = "en", table: int | None = None) -> ScreenClient:
        return await self.open_screen(await self.sign_in(name, room, language), language, table)

    async def another_tab(self, screen: ScreenClient, language: str = "en") -> ScreenClient:
        """A second screen of the same person (another tab, signed in once)."""
        return await self.open_screen(screen.session, language, None)

    async def open_screen(self, session: str, language: str, table: int | None) -> ScreenClient:
        socket = await self.client.ws_connect(self.url("/ws"))
        await socket.send_str(json.dumps({"op": "hello", "session": session, "table": table, "language": language}))
        screen = ScreenClient(socket)
        screen.session = session
        hello = await screen.next("hello")
        screen.user_id = int(hello["user"]["id"])
        return screen


class ScreenClient:
    """One screen's socket: every frame it received is kept (the leak checks read them all)."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.frames: list[dict[str, Any]] = []
        self.user_id = 0
        self.session = ""
        self._unread: list[dict[str, Any]] = []

    async def send(self, **frame: Any) -> None:
        await self.socket.send_str(json.dumps(frame))

    async def _receive(self, timeout: float) -> dict[str, Any]:
        message = await self.socket.receive(timeout=timeout)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        frame: dict[str, Any] = json.loads(message.data)
        self.frames.append(frame)
        return frame

    async def next(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame of ``kind`` (frames of other kinds before it are skipped)."""
        return await self.next_of((kind,), timeout)

    async def next_of(self, kinds: tuple[str, ...], timeout: float = 10.0) -> dict[str, Any]:
        """The next frame of one of ``kinds`` (an answer or its refusal, say; other frames before it skipped)."""
        while True:
            frame = self._unread.pop(0) if self._unread else await self._receive(timeout)
            if frame["type"] in kinds:
                return frame

    async def state_where(self, test: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The screen's table once it passes ``test``: as shown now (the last state received), or later."""
        async with asyncio.timeout(timeout):
            while True:
                shown = self.shown()
                if shown is not None and test(shown):
                    return shown
                await self.next("state", timeout)

    def shown(self) -> dict[str, Any] | None:
        states = [frame for frame in self.frames if frame["type"] == "state"]
        return dict(states[-1]["table"]) if states and states[-1]["table"] is not None else None

    async def close(self) -> None:
        await self.socket.close()


@pytest.fixture(params=BACKENDS)
async def served(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Served]:
    database, schema = await fresh_database(request.param, tmp_path)
    service = make_service(database)
    source = ServiceSource(service, local=True, poll=0.05)
    server = ActivityServer(source, local=True, page_dir=tmp_path / "no-page")
    http = TestServer(server.app())
    await http.start_server()
    served = Served(service, source, server, http)
    try:
        yield served
    finally:
        await served.client.close()
        await http.close()
        await source.close()
        await service.close()
        await database.close()
        await drop_schema(schema)


class Inside:
    """The Activity's server inside Discord: sign-in through the double, the screens over the service."""

    def __init__(self, double: DiscordDouble, http: TestServer, service: Any) -> None:
        self.double, self.http, self.service = double, http, service
        self.client = aiohttp.ClientSession()

    async def token(self, code: str, instance: str, language: str = "en") -> tuple[int, dict[str, Any]]:
        body = {"code": code, "instance_id": instance, "language": language}
        async with self.client.post(str(self.http.make_url("/api/token")), json=body) as reply:
            return reply.status, await reply.json()

    async def screen(self, session: str, table: int | None = None, language: str = "en") -> ScreenClient:
        socket = await self.client.ws_connect(str(self.http.make_url("/ws")))
        hello = {"op": "hello", "session": session, "table": table, "language": language}
        await socket.send_str(json.dumps(hello))
        screen = ScreenClient(socket)
        await screen.next("hello")
        return screen


@pytest.fixture
async def inside(double: DiscordDouble, tmp_path: Path) -> AsyncIterator[Inside]:
    database, _ = await fresh_database("sqlite", tmp_path)
    service = make_service(database)
    source = ServiceSource(service, poll=0.05)
    discord = DiscordSignIn(double.app_id, SECRET, "double-token", double.base)

    def in_thread(channel_id: int) -> bool:  # as the bot's cache would know the double's channels
        return int((double.channels.get(channel_id) or {}).get("type", 0)) in (10, 11, 12)

    server = ActivityServer(source, local=False, page_dir=tmp_path / "no-page", discord=discord, in_thread=in_thread)
    http = TestServer(server.app())
    await http.start_server()
    here = Inside(double, http, service)
    try:
        yield here
    finally:
        await here.client.close()
        await http.close()
        await source.close()
        await service.close()
        await database.close()


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    server = DiscordDouble()
    await server.start()
    yield server
    await server.stop()
