"""The Activity's limits (docs/operations.md, "The Activity"): sign-ins, which cost calls to Discord from the bot's
own address; frames and screens per user and session; sockets yet to say hello; a Discord session's place in
its instance, asked again; and the headers every answer carries.

The server's clock here stands still until a test moves it: a limit is never met or missed for want of time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer, make_mocked_request

import activity.server as server_module
from activity.identity import SIGN_IN_BURST, DiscordSignIn
from activity.limits import client_address, networks
from activity.proxy import ANYONE, ProxySignatures
from activity.server import (
    FLOOD_CLOSE,
    GREETING_PER_SIGNER,
    RATE_BURST,
    SCREENS_PER_SESSION,
    SCREENS_PER_USER,
    SIGN_INS_PER_MINUTE,
    ActivityServer,
)
from activity.server import SIGN_IN_BURST as PER_ADDRESS_BURST
from activity.sessions import DISCORD_SECONDS, LOCAL_GUILD
from activity.source import ServiceSource
from bot.tables import TableInfo, TableService
from tests.double import DiscordDouble, User
from tests.double.activity import SECRET
from tests.double.limits import RouteLimit
from tests.service.conftest import fresh_database
from tests.service.helpers import make_service

from .conftest import ScreenClient
from .test_proxy import SOMEONE, signatures, signed

ALICE, BOB, MALLORY = User(1000, "Alice", "en-US"), User(1001, "Bob", "en-US"), User(1002, "Mallory", "ja")
MADE_UP = "made-up-code-of-the-right-shape-{:04d}"


class Ticks:
    """The server's clock: it moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Guarded:
    """The Activity's server (inside Discord, against the double, or alone in local mode) on a clock that stands
    still."""

    def __init__(self, server: ActivityServer, http: TestServer, service: TableService, clock: Ticks) -> None:
        self.server, self.http, self.service, self.clock = server, http, service, clock
        self.client = aiohttp.ClientSession()
        self.double: DiscordDouble | None = None

    def url(self, path: str) -> str:
        return str(self.http.make_url(path))

    def advance(self, seconds: float) -> None:
        """Let time pass for the server and for Discord (the double) alike."""
        self.clock.advance(seconds)
        if self.double is not None:
            self.double.clock.advance(seconds)

    async def token(
        self,
        code: str,
        instance: str,
        language: str = "en",
        forwarded: str | None = None,
        signed: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        body = {"code": code, "instance_id": instance, "language": language}
        headers = {"X-Forwarded-For": forwarded} if forwarded else {}
        headers.update(signed or {})
        async with self.client.post(self.url("/api/token"), json=body, headers=headers) as reply:
            return reply.status, await reply.json(), dict(reply.headers)

    async def signed_in(self, user: User, instance: str) -> str:
        assert self.double is not None
        status, answer, _ = await self.token(self.double.activity.authorize(user), instance)
        assert status == 200, answer
        return str(answer["session"])

    async def local_session(self, name: str, room: int = 1) -> str:
        async with self.client.post(self.url("/api/local/signin"), json={"name": name, "room": room}) as reply:
            assert reply.status == 200
            return str((await reply.json())["session"])

    async def socket(self, session: str, table: int | None = None) -> aiohttp.ClientWebSocketResponse:
        socket = await self.client.ws_connect(self.url("/ws"))
        await socket.send_str(json.dumps({"op": "hello", "session": session, "table": table}))
        return socket

    async def screen(self, session: str, table: int | None = None) -> ScreenClient:
        screen = ScreenClient(await self.socket(session, table))
        screen.session = session
        await screen.next("hello")
        return screen


Make = Callable[..., Awaitable[Guarded]]


@pytest.fixture
async def make(tmp_path: Path, double: DiscordDouble) -> AsyncIterator[Make]:
    """``await make(local=False, trusted=None)``: a server, inside Discord (the double) or in local mode, behind
    the proxies ``trusted`` names (``ACTIVITY_TRUSTED_PROXIES``)."""
    made: list[tuple[Guarded, ServiceSource]] = []
    # Discord's own limit of the token route (the double's five a second) is left out of the way, but where a test
    # sets it: what is tested is the server's.
    double.limits.routes[("POST", "/oauth2/token")] = RouteLimit(1000, 1.0)
    database, _ = await fresh_database("sqlite", tmp_path)
    service = make_service(database)

    async def build(
        local: bool = False,
        trusted: str | None = None,
        page_dir: Path | None = None,
        signatures: ProxySignatures | None = None,
    ) -> Guarded:
        clock = Ticks()
        source = ServiceSource(service, local=local, poll=0.05)
        discord = None if local else DiscordSignIn(double.app_id, SECRET, "double-token", double.base, clock=clock)
        server = ActivityServer(
            source,
            local=local,
            page_dir=page_dir or tmp_path / "no-page",
            discord=discord,
            trusted_proxies=networks(trusted),
            clock=clock,
            signatures=signatures,
        )
        http = TestServer(server.app())
        await http.start_server()
        guarded = Guarded(server, http, service, clock)
        guarded.double = None if local else double
        made.append((guarded, source))
        return guarded

    await service.update_guild_settings(LOCAL_GUILD, max_open_tables=500, play_cooldown_seconds=0)  # as --local
    try:
        yield build
    finally:
        for guarded, source in made:
            await guarded.client.close()
            await guarded.http.close()
            await source.close()
        await service.close()
        await database.close()


def launched(double: DiscordDouble, *users: User) -> str:
    return double.activity.launch(list(users), double.channel_id, double.guild_id)


async def frames_until(screen: ScreenClient, key: str, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Every frame the screen receives up to the first error of ``key`` (included)."""
    got = []
    async with asyncio.timeout(timeout):
        while True:
            frame = await screen._receive(timeout)
            got.append(frame)
            if frame.get("type") == "error" and frame.get("key") == key:
                return got


# ---------------------------------------------------------------------- sign-ins


async def test_one_address_signs_in_a_few_times_a_minute_and_junk_never_reaches_discord(make: Make) -> None:
    here = await make()
    assert here.double is not None
    activity = here.double.activity
    instance = launched(here.double, ALICE)
    for junk in ("x", "made-up", "<script>alert(1)</script>", "a" * 129, "spaces are not in codes"):
        status, answer, _ = await here.token(junk, instance)
        assert status == 400 and answer["key"] == "activity.bad_frame"
    # An instance that a URL would read as this folder or the one above (Discord asked of another route)
    for dots in (".", ".."):
        status, answer, _ = await here.token(MADE_UP.format(0), dots)
        assert status == 400 and answer["key"] == "activity.bad_frame"
    assert activity.exchanges == 0  # refused here: Discord never heard of them
    answers = [await here.token(MADE_UP.format(n), instance, language="ja") for n in range(25)]
    # The seven junk requests were not counted (they cost nothing): the address had its whole burst left.
    assert [status for status, _, _ in answers].count(403) == PER_ADDRESS_BURST
    refused = [(answer, headers) for status, answer, headers in answers if status == 429]
    assert len(refused) == 25 - PER_ADDRESS_BURST
    answer, headers = refused[0]
    wait = round(60 / SIGN_INS_PER_MINUTE)
    assert answer["key"] == "activity.too_many_sign_ins" and answer["retry_after"] == wait
    assert headers["Retry-After"] == str(wait)
    assert answer["error"] == f"サインインが集中しています。{wait}秒後にもう一度お試しください。"
    assert activity.exchanges == PER_ADDRESS_BURST
    here.advance(wait)  # one sign-in's worth later
    status, answer, _ = await here.token(activity.authorize(ALICE), instance)
    assert status == 200
    assert (await here.token(MADE_UP.format(99), instance))[0] == 429


async def test_forwarded_addresses_count_only_behind_a_trusted_proxy(make: Make) -> None:
    bare = await make()
    assert bare.double is not None
    instance = launched(bare.double, ALICE)
    statuses = [(await bare.token(MADE_UP.format(n), instance, forwarded=f"203.0.113.{n}"))[0] for n in range(15)]
    assert statuses.count(429) == 15 - PER_ADDRESS_BURST  # a header anyone can write: all one address
    proxied = await make(trusted="127.0.0.1, 10.0.0.0/8")
    statuses = [
        (await proxied.token(MADE_UP.format(n), instance, forwarded=f"198.51.100.1, 203.0.113.{n}, 10.1.2.3"))[0]
        for n in range(15)
    ]
    assert 429 not in statuses  # each its own address: the nearest one no trusted proxy added


def test_the_client_address_is_the_nearest_untrusted_hop() -> None:
    trusted = networks("127.0.0.1,10.0.0.0/8 ::1")

    def address(peer: str, *forwarded: str) -> str:
        headers = [("X-Forwarded-For", hop) for hop in forwarded]
        return client_address(make_mocked_request("GET", "/", headers=headers).clone(remote=peer), trusted)

    assert address("203.0.113.5", "1.2.3.4") == "203.0.113.5"  # not from a proxy: its header means nothing
    assert address("10.0.0.2", "1.2.3.4, 203.0.113.7") == "203.0.113.7"
    assert address("10.0.0.2", "1.2.3.4", "203.0.113.7, 10.9.9.9") == "203.0.113.7"  # two headers: one list
    assert address("::1", "127.0.0.1") == "::/64"  # only proxies: the peer (an IPv6 address: by its /64)
    assert address("10.0.0.2") == "10.0.0.2"
    # IPv6 clients by their /64 (one machine holds 2^64 of them); an IPv4 peer of a dual-stack socket as IPv4
    assert address("2001:db8:1:2:aaaa::1") == address("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert address("10.0.0.2", "2001:db8:1:2::5, 10.1.1.1") == "2001:db8:1:2::/64"
    assert address("::ffff:203.0.113.9") == "203.0.113.9" != address("::ffff:203.0.113.10")
    with pytest.raises(ValueError):
        networks("10.0.0.0/8, my-proxy")


async def test_sign_ins_reaching_discord_are_paced_for_everyone_together(make: Make) -> None:
    here = await make(trusted="127.0.0.1")
    assert here.double is not None
    instance = launched(here.double, ALICE)
    statuses = [(await here.token(MADE_UP.format(n), instance, forwarded=f"203.0.113.{n}"))[0] for n in range(30)]
    assert statuses.count(403) == SIGN_IN_BURST and statuses.count(429) == 30 - SIGN_IN_BURST
    assert here.double.activity.exchanges == SIGN_IN_BURST
    here.advance(1.0)
    assert (await here.token(MADE_UP.format(31), instance, forwarded="203.0.113.200"))[0] == 403


async def test_local_sign_ins_of_one_address_are_paced(make: Make) -> None:
    """Local mode: a sign-in is a name and nothing else, and each is a session kept for hours: one address signs
    in ``LOCAL_SIGN_IN_BURST`` times at once (a tab per player on one machine), then a few a minute, refused in
    the reader's language with how long to wait; another address is not held back by it."""
    here = await make(local=True, trusted="127.0.0.1")
    url = here.url("/api/local/signin")
    burst = int(server_module.LOCAL_SIGN_IN_BURST)
    for n in range(burst):
        async with here.client.post(url, json={"name": f"Player {n}"}) as reply:
            assert reply.status == 200
    async with here.client.post(url, json={"name": "One more", "language": "ja"}) as reply:
        said = await reply.json()
        assert reply.status == 429 and said["key"] == "activity.too_many_sign_ins"
        assert said["retry_after"] == 2 and reply.headers["Retry-After"] == "2" and "秒" in said["error"]
    elsewhere = {"X-Forwarded-For": "192.168.1.21"}
    async with here.client.post(url, json={"name": "Friend"}, headers=elsewhere) as reply:
        assert reply.status == 200
    here.advance(2.0)
    async with here.client.post(url, json={"name": "One more"}) as reply:
        assert reply.status == 200


async def test_an_ipv6_client_is_paced_by_its_64_not_address_by_address(make: Make) -> None:
    """One machine on IPv6 holds a /64 of addresses: signing in from a new one each time is still one client."""
    here = await make(local=True, trusted="127.0.0.1")
    url = here.url("/api/local/signin")
    burst = int(server_module.LOCAL_SIGN_IN_BURST)
    statuses = []
    for n in range(burst + 3):
        forwarded = {"X-Forwarded-For": f"2001:db8:5:6:{n + 1:x}::{n + 7:x}"}
        async with here.client.post(url, json={"name": f"Guest {n}"}, headers=forwarded) as reply:
            statuses.append(reply.status)
    assert statuses == [200] * burst + [429] * 3
    neighbour = {"X-Forwarded-For": "2001:db8:5:7::1"}  # the next /64: another client
    async with here.client.post(url, json={"name": "Neighbour"}, headers=neighbour) as reply:
        assert reply.status == 200


async def test_after_a_429_no_sign_in_reaches_discord_until_its_wait_is_over(make: Make) -> None:
    here = await make()
    double = here.double
    assert double is not None
    instance = launched(double, ALICE)
    double.limits.routes[("POST", "/oauth2/token")] = RouteLimit(1, 600.0)
    async with here.client.post(double.base + "/api/v10/oauth2/token", data={"code": "x"}) as reply:
        assert reply.status in (400, 401)  # someone else used the window (Discord says nothing of it to us)
    status, answer, headers = await here.token(MADE_UP.format(1), instance)
    assert status == 429 and answer["key"] == "activity.too_many_sign_ins"
    assert 590 <= answer["retry_after"] <= 600 and headers["Retry-After"] == str(answer["retry_after"])
    assert double.limits.limited == ["user: POST /oauth2/token"]
    for _ in range(3):  # refused here, without asking: not one more 429
        status, answer, _ = await here.token(double.activity.authorize(ALICE), instance)
        assert status == 429 and answer["retry_after"] > 500
    assert double.limits.limited == ["user: POST /oauth2/token"]
    here.advance(600.0)
    assert (await here.token(double.activity.authorize(ALICE), instance))[0] == 200


async def test_a_ban_stops_every_call_for_as_long_as_it_lasts(make: Make) -> None:
    here = await make()
    double = here.double
    assert double is not None
    instance = launched(double, ALICE)
    session = await here.signed_in(ALICE, instance)
    double.limits.banned_until = double.clock.now() + 3600  # Cloudflare's page, not Discord's JSON
    double.clock.advance(1.0)  # (the sign-in's windows are over: only the ban answers)
    status, answer, _ = await here.token(double.activity.authorize(ALICE), instance)
    assert status == 429 and answer["retry_after"] == 3599
    here.advance(60.0)
    status, answer, _ = await here.token(double.activity.authorize(ALICE), instance)
    assert status == 429 and answer["retry_after"] == 3539
    assert len(double.limits.limited) == 1
    # A screen of a session signed in before opens: Discord is not asked meanwhile, and the sign-in stands.
    assert here.clock() - 30 > 1000  # (Discord's answer at sign-in is old by now: it would be asked)
    await here.screen(session)
    assert len(double.limits.limited) == 1


async def test_a_flood_of_made_up_codes_never_gets_the_bots_address_banned(make: Make) -> None:
    """The audit's flood: many unauthenticated requests at once, from one address and from many."""
    here = await make(trusted="127.0.0.1")
    double = here.double
    assert double is not None
    double.limits.invalid_limit = 100  # a hundredth of Discord's, to show that hardly anything counts toward it
    instance = launched(double, ALICE)
    for burst in range(6):
        await asyncio.gather(
            *(here.token(MADE_UP.format(burst * 100 + n), instance) for n in range(100)),
            *(here.token(MADE_UP.format(n), instance, forwarded=f"198.51.{burst}.{n}") for n in range(100)),
        )
        here.advance(10.0)
    assert double.limits.banned_until is None and double.limits.invalid_peak < 10
    assert double.activity.exchanges <= SIGN_IN_BURST + 6 * 10 + PER_ADDRESS_BURST
    status, _, _ = await here.token(double.activity.authorize(ALICE), instance, forwarded="192.0.2.1")
    assert status == 200


# ---------------------------------------------------------------------- a Discord session's place, asked again


async def test_a_user_who_left_the_instance_opens_no_more_screens(make: Make) -> None:
    here = await make()
    double = here.double
    assert double is not None
    instance = launched(double, ALICE, MALLORY)
    session = await here.signed_in(MALLORY, instance)
    reads = double.activity.instance_reads
    for _ in range(3):  # Discord's answer at sign-in serves the screens opened soon after
        await here.screen(session)
    assert double.activity.instance_reads == reads
    double.activity.instances[instance].users.remove(MALLORY.id)
    here.advance(31.0)
    socket = await here.socket(session)
    refused = json.loads((await socket.receive(timeout=10)).data)
    assert refused["key"] == "activity.not_in_instance" and refused["message"]
    assert (await socket.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    socket = await here.socket(session)  # the session is gone with it
    assert json.loads((await socket.receive(timeout=10)).data)["key"] == "activity.signed_out"


async def mallory_signed_in_at_alices_lobby(make: Make) -> tuple[Guarded, DiscordDouble, str, TableInfo, str]:
    """Alice's lobby in the activity's channel, and Mallory in the instance, signed in: (the served bot, its
    double, the instance, the table, Mallory's session)."""
    here = await make()
    double = here.double
    assert double is not None
    instance = launched(double, ALICE, MALLORY)
    table = await here.service.open_table(double.guild_id, double.channel_id, ALICE.id, ALICE.name, "oh-hell")
    await here.service.set_location(table.id, message_id=12345)
    return here, double, instance, table, await here.signed_in(MALLORY, instance)


async def test_a_screen_open_when_its_user_left_the_instance_moves_nothing_and_ends(make: Make) -> None:
    """A socket opened while the user was in the instance does not outlive their leaving it: once Discord's
    answer (asked again in the background as frames come, a move never waiting on it) no longer lists them, the
    screen's next frame changes nothing, the page is told why, and every screen of that session ends."""
    here, double, instance, table, session = await mallory_signed_in_at_alices_lobby(make)
    old, other = await here.screen(session, table=table.id), await here.screen(session, table=table.id)
    await old.state_where(lambda shown: shown["id"] == table.id)
    double.activity.instances[instance].users.remove(MALLORY.id)
    here.advance(31.0)
    reads = double.activity.instance_reads
    await old.send(op="watch", table=table.id)  # a frame: Discord's stale answer is asked again meanwhile
    for _ in range(100):
        if double.activity.instance_reads > reads:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)  # its answer heard
    await old.send(op="join", table=table.id)
    ended = await frames_until(old, "activity.not_in_instance")
    assert ended[-1]["message"]
    assert (await old.socket.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert (await here.service.table(table.id)).seat_of(MALLORY.id) is None  # the join changed nothing
    assert (await frames_until(other, "activity.not_in_instance"))[-1]["message"]  # the session's other screen


async def test_a_screen_is_not_ended_on_an_answer_kept_that_discord_no_longer_gives(make: Make) -> None:
    """Discord's answer kept said the user was not in the instance (their client between two connections, say),
    and Discord, asked again, lists them: the screen's frame goes through and the screen plays on."""
    here, double, instance, table, session = await mallory_signed_in_at_alices_lobby(make)
    screen = await here.screen(session, table=table.id)
    await screen.state_where(lambda shown: shown["id"] == table.id)
    double.activity.instances[instance].users.remove(MALLORY.id)
    here.advance(31.0)
    reads = double.activity.instance_reads
    await screen.send(op="watch", table=table.id)  # the answer kept, asked again meanwhile: not listed
    for _ in range(100):
        if double.activity.instance_reads > reads:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)
    double.activity.instances[instance].users.append(MALLORY.id)  # back a moment later
    await screen.send(op="join", table=table.id)
    await screen.state_where(lambda shown: shown["lobby"]["seated"])
    assert (await here.service.table(table.id)).seat_of(MALLORY.id) is not None
    assert not [frame for frame in screen.frames if frame.get("key") == "activity.not_in_instance"]


async def test_a_screen_whose_session_hours_are_up_moves_nothing(make: Make) -> None:
    here, _, _, table, session = await mallory_signed_in_at_alices_lobby(make)
    screen = await here.screen(session, table=table.id)
    await screen.state_where(lambda shown: shown["id"] == table.id)
    here.advance(DISCORD_SECONDS + 60)
    await screen.send(op="join", table=table.id)
    assert (await frames_until(screen, "activity.signed_out"))[-1]["message"]
    assert (await here.service.table(table.id)).seat_of(MALLORY.id) is None


async def test_a_screen_that_sends_nothing_ends_when_its_user_left_the_instance(make: Make) -> None:
    """A watcher's screen sends no frame: the server's sweep of the open screens checks its session all the same
    (Discord's stale answer asked again at one sweep, its no confirmed at the next), and it ends, told why."""
    here, double, instance, table, session = await mallory_signed_in_at_alices_lobby(make)
    screen = await here.screen(session, table=table.id)
    await screen.state_where(lambda shown: shown["id"] == table.id)
    await here.server.sweep()
    assert here.server.sessions.get(session) is not None  # still listed: nothing ends
    double.activity.instances[instance].users.remove(MALLORY.id)
    here.advance(31.0)
    reads = double.activity.instance_reads
    await here.server.sweep()  # the answer kept is stale: asked again meanwhile
    for _ in range(100):
        if double.activity.instance_reads > reads:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)  # its answer heard
    await here.server.sweep()
    ended = await frames_until(screen, "activity.not_in_instance")
    assert [frame.get("key") for frame in ended].count("activity.not_in_instance") == 1 and ended[-1]["message"]
    assert (await screen.socket.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert here.server.sessions.get(session) is None


async def test_a_screen_that_sends_nothing_ends_when_its_sessions_hours_are_up(make: Make) -> None:
    here, _, _, table, session = await mallory_signed_in_at_alices_lobby(make)
    screen = await here.screen(session, table=table.id)
    await screen.state_where(lambda shown: shown["id"] == table.id)
    here.advance(DISCORD_SECONDS + 60)
    await here.server.sweep()
    assert (await frames_until(screen, "activity.signed_out"))[-1]["message"]
    assert (await screen.socket.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)


async def test_an_ended_instance_ends_its_sessions(make: Make) -> None:
    here = await make()
    double = here.double
    assert double is not None
    instance = launched(double, ALICE, BOB)
    alice, bob = await here.signed_in(ALICE, instance), await here.signed_in(BOB, instance)
    del double.activity.instances[instance]
    here.advance(31.0)
    reads = double.activity.instance_reads
    for session in (alice, bob):
        socket = await here.socket(session)
        assert json.loads((await socket.receive(timeout=10)).data)["key"] == "activity.no_instance"
    assert double.activity.instance_reads == reads + 1  # one read of the instance for both


async def test_a_discord_session_lasts_hours_not_half_a_day(make: Make) -> None:
    here = await make()
    assert here.double is not None
    session = await here.signed_in(ALICE, launched(here.double, ALICE))
    here.advance(DISCORD_SECONDS + 1)
    socket = await here.socket(session)
    assert json.loads((await socket.receive(timeout=10)).data)["key"] == "activity.signed_out"


# ---------------------------------------------------------------------- Discord's proxy signature


async def test_with_the_public_key_set_only_requests_discords_proxy_signed_sign_in(
    make: Make,
) -> None:
    """The page's address is public: with ACTIVITY_PUBLIC_KEY set, a sign-in that Discord's proxy did not sign is
    refused before anything is read, in the reader's language, and spends nothing: not a call to Discord, not the
    sign-ins of the address the players behind Discord's proxy share. The socket needs the session it gives."""
    here = await make(signatures=signatures())
    assert here.double is not None
    instance = launched(here.double, ALICE)
    for _ in range(int(PER_ADDRESS_BURST) + 5):
        status, answer, _ = await here.token(here.double.activity.authorize(ALICE), instance, signed={})
        assert status == 401 and answer["key"] == "activity.not_through_discord"
    headers = {**signed(SOMEONE), "Accept-Language": "ja-JP,ja;q=0.9"}
    async with here.client.post(here.url("/api/token"), json={"code": "x"}, headers=headers) as reply:
        said = await reply.json()
        assert reply.status == 401 and "Discord の中" in said["error"]
    assert here.double.activity.exchanges == 0
    status, answer, _ = await here.token(here.double.activity.authorize(ALICE), instance, signed=signed())
    assert status == 200, answer  # the address's sign-ins all there: the refused ones cost nothing
    socket = await here.client.ws_connect(here.url("/ws"))
    await socket.send_str(json.dumps({"op": "hello", "session": answer["session"]}))
    assert json.loads((await socket.receive(timeout=10)).data)["type"] == "hello"
    async with here.client.get(here.url("/api/mode")) as reply:  # what asks nothing of Discord is served
        assert reply.status == 200


# ---------------------------------------------------------------------- frames and screens


async def test_a_users_screens_share_one_rate(make: Make) -> None:
    here = await make(local=True)
    session = await here.local_session("Mallory")
    screens = [await here.screen(session) for _ in range(3)]
    answered = []
    for screen in screens:  # each answered frame is one error: the table is not this screen's
        for _ in range(6):
            await screen.send(op="review", table=999)
        answered.append(await frames_until_count(screen, 6))
    # the rate's 16 at once: the three hellos, then 13 frames answered
    assert [len([f for f in got if f.get("key") == "activity.not_here"]) for got in answered] == [6, 6, 1]
    assert [f.get("key") for f in answered[2]].count("activity.too_fast") == 1  # told once, not per frame
    for screen in screens:
        await screen.close()
    async with asyncio.timeout(10):
        while here.server.screens:
            await asyncio.sleep(0.01)


async def test_a_hello_draws_on_its_users_rate_as_a_frame_does(make: Make) -> None:
    """Sockets opened and greeted in a loop are a flood like any other: each hello costs the server a session, a
    table read and two frames out, so it takes a frame of its user's rate (all their screens together); past it
    the hello is refused, in the screen's language, and the socket closed."""
    here = await make(local=True)
    session = await here.local_session("Mallory")
    for _ in range(int(RATE_BURST)):
        socket = await here.socket(session)
        assert json.loads((await socket.receive(timeout=10)).data)["type"] == "hello"
        await socket.close()
    socket = await here.client.ws_connect(here.url("/ws"))
    await socket.send_str(json.dumps({"op": "hello", "session": session, "language": "ja"}))
    refused = json.loads((await socket.receive(timeout=10)).data)
    assert refused["key"] == "activity.too_fast" and "短時間" in refused["message"], refused
    assert (await socket.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    here.advance(1.0)  # a second later the rate has room again
    assert json.loads((await (await here.socket(session)).receive(timeout=10)).data)["type"] == "hello"


async def frames_until_count(screen: ScreenClient, count: int) -> list[dict[str, Any]]:
    """The screen's errors up to ``count`` answers (not_here or too_fast), then whatever comes in a moment."""
    got: list[dict[str, Any]] = []
    async with asyncio.timeout(10):
        while len([f for f in got if f.get("type") == "error"]) < count:
            frame = await screen._receive(10)
            got.append(frame)
            if frame.get("key") == "activity.too_fast":
                break
    return got


async def test_frames_of_any_kind_draw_on_the_rate_and_a_flood_is_told_once_then_closed(make: Make) -> None:
    here = await make(local=True)
    screen = await here.screen(await here.local_session("Mallory"))
    await screen.next("state")
    for _ in range(int(RATE_BURST) + 1):
        await screen.socket.send_bytes(b"x" * 100)
    got = await frames_until(screen, "activity.too_fast")  # not answered as bad: refused before it is read
    assert [f.get("key") for f in got].count("activity.bad_frame") == RATE_BURST - 1  # (the hello took one)
    here.clock.advance(1.0)  # room for eight more
    await screen.send(op="review", table=999)
    assert (await screen.next("error"))["key"] == "activity.not_here"
    with contextlib.suppress(ConnectionResetError):  # on and on: the socket is closed, not answered frame by frame
        for _ in range(FLOOD_CLOSE + 20):
            await screen.socket.send_str("{}")
    answers = []
    async with asyncio.timeout(10):
        while True:
            message = await screen.socket.receive()
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            answers.append(json.loads(message.data).get("key"))
    assert answers.count("activity.too_fast") == 1 and len(answers) <= RATE_BURST + 1
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert screen.socket.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION


async def test_a_session_keeps_a_few_screens_and_the_newest_always_opens(make: Make) -> None:
    here = await make(local=True)
    session = await here.local_session("Alice")
    screens = [await here.screen(session) for _ in range(SCREENS_PER_SESSION)]
    newest = await here.screen(session)  # a reload, say, while the old socket lingers
    refused = await screens[0].next("error")
    assert refused["key"] == "activity.replaced" and "another window" in refused["message"]
    async with asyncio.timeout(10):
        while (await screens[0].socket.receive()).type == aiohttp.WSMsgType.TEXT:
            pass
    assert screens[0].socket.closed
    assert len(here.server.of_session[session]) == SCREENS_PER_SESSION
    await newest.send(op="review", table=999)
    assert (await newest.next("error"))["key"] == "activity.not_here"  # the newest works
    for screen in [*screens[1:], newest]:
        await screen.close()
    async with asyncio.timeout(10):
        while session in here.server.of_session:
            await asyncio.sleep(0.01)


async def test_one_person_keeps_a_few_screens_however_many_times_they_sign_in(make: Make) -> None:
    """Each sign-in is a new session of up to SCREENS_PER_SESSION screens: one person signing in again and again
    held any number of sockets, each pushed every change of its table. Past SCREENS_PER_USER their oldest goes."""
    here = await make(local=True)
    sessions = [await here.local_session("Alice") for _ in range(3)]
    screens = [await here.screen(session) for session in sessions for _ in range(SCREENS_PER_SESSION)]
    (user_id,) = here.server.of_user  # one person
    assert len(here.server.of_user[user_id]) == SCREENS_PER_USER
    for old in screens[: len(screens) - SCREENS_PER_USER]:  # the oldest, told why
        assert (await old.next("error"))["key"] == "activity.replaced"
    newest = screens[-1]
    await newest.send(op="review", table=999)
    assert (await newest.next("error"))["key"] == "activity.not_here"  # the newest works
    for screen in screens[len(screens) - SCREENS_PER_USER :]:
        await screen.close()
    async with asyncio.timeout(10):
        while user_id in here.server.of_user or any(s in here.server.of_session for s in sessions):
            await asyncio.sleep(0.01)


async def test_screens_waiting_in_one_place_share_one_read_of_its_tables(make: Make) -> None:
    here = await make(local=True)
    reads = 0
    real = here.service.tables_in_channel

    async def counted(channel_id: int) -> list[Any]:
        nonlocal reads
        reads += 1
        return await real(channel_id)

    here.service.tables_in_channel = counted  # type: ignore[method-assign]
    screens = [await here.screen(await here.local_session(f"Player {n}")) for n in range(12)]
    for screen in screens:
        await screen.next("state")
    assert len(here.server.places) == 1
    place = here.server.places.get(LOCAL_GUILD, 1)
    assert place is not None
    seen, _tables = await place.after(place.reads)  # no screen is coming: the place is read once a second now
    before = reads
    for _ in range(3):  # three rounds of waiting: one read each, for all twelve screens
        seen, _tables = await place.after(seen)
    assert reads - before == 3
    for screen in screens:
        await screen.close()
    async with asyncio.timeout(10):
        while len(here.server.places):
            await asyncio.sleep(0.01)


# ---------------------------------------------------------------------- hellos


async def test_a_socket_that_never_says_hello_is_closed_however_often_it_pings(
    make: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "HELLO_SECONDS", 0.5)
    here = await make(local=True)
    socket = await here.client.ws_connect(here.url("/ws"), autoping=False)
    got = []
    async with asyncio.timeout(10):  # with a timeout per receive, each pong would start it again, for ever
        while not got:
            await socket.ping(b"still here")
            with contextlib.suppress(TimeoutError):
                message = await socket.receive(timeout=0.1)
                if message.type != aiohttp.WSMsgType.PONG:
                    got.append(message)
    assert json.loads(got[0].data)["key"] == "activity.hello_timeout"


@pytest.mark.parametrize("first", ["nothing", "binary", "unreadable"])
async def test_a_socket_refused_before_its_hello_is_told_in_the_upgrades_language(
    make: Make, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    """No hello yet says the page's language, so a refusal before it (none in time, a binary frame, one that is
    not JSON) is said in the Accept-Language the browser sent with the upgrade, as every HTTP refusal is (found
    by a helper's audit: it was English)."""
    monkeypatch.setattr(server_module, "HELLO_SECONDS", 0.5)
    here = await make(local=True)
    socket = await here.client.ws_connect(here.url("/ws"), headers={"Accept-Language": "ja,en;q=0.8"})
    if first == "binary":
        await socket.send_bytes(b"\x00hello")
    elif first == "unreadable":
        await socket.send_str("{hello")
    refusal = json.loads((await socket.receive(timeout=10)).data)
    key = "activity.hello_timeout" if first == "nothing" else "activity.bad_frame"
    assert refusal["key"] == key and not refusal["message"].isascii(), refusal


async def test_sockets_yet_to_say_hello_are_few_per_address(make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "GREETING_PER_CLIENT", 3)
    here = await make(local=True)
    silent = [await here.client.ws_connect(here.url("/ws")) for _ in range(3)]
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await here.client.ws_connect(here.url("/ws"))
    assert refused.value.status == 429
    await silent[0].send_str(json.dumps({"op": "hello", "session": await here.local_session("Alice")}))
    assert json.loads((await silent[0].receive(timeout=10)).data)["type"] == "hello"
    await here.screen(await here.local_session("Bob"))  # a place again for a new socket


async def test_unsigned_sockets_yet_to_say_hello_take_no_place_of_the_signed_ones(
    make: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ACTIVITY_PUBLIC_KEY set, anyone can reach the page's address: sockets Discord's proxy did not sign, each
    holding its place for its hello's ten seconds, filled the places of the address every player inside Discord
    shares, and every player's new screen was refused (429). They are counted apart now."""
    monkeypatch.setattr(server_module, "GREETING_PER_CLIENT", 3)
    here = await make(signatures=signatures())
    idle = [await here.client.ws_connect(here.url("/ws")) for _ in range(3)]  # no signature, no hello
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await here.client.ws_connect(here.url("/ws"))
    assert refused.value.status == 429  # the unsigned have their own few places
    signed_sockets = [
        await here.client.ws_connect(here.url("/ws"), headers=signed()) for _ in range(GREETING_PER_SIGNER)
    ]
    with pytest.raises(aiohttp.WSServerHandshakeError) as full:
        await here.client.ws_connect(here.url("/ws"), headers=signed())
    assert full.value.status == 429  # and each signed player theirs
    for socket in [*idle, *signed_sockets]:
        await socket.close()


async def test_signed_sockets_yet_to_say_hello_count_against_their_player_not_the_address_all_share(
    make: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inside Discord every player comes from its proxy's few addresses: one player holding sockets without a hello
    (one signed payload sent again and again) filled the places of that address, and nobody else could open a
    screen. With ACTIVITY_PUBLIC_KEY set, a signed socket counts against the player Discord's proxy signed for."""
    monkeypatch.setattr(server_module, "GREETING_PER_CLIENT", 3)
    here = await make(signatures=signatures())
    mallory = signed(user_id="666")
    held = [await here.client.ws_connect(here.url("/ws"), headers=mallory) for _ in range(GREETING_PER_SIGNER)]
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await here.client.ws_connect(here.url("/ws"), headers=mallory)
    assert refused.value.status == 429
    others = [await here.client.ws_connect(here.url("/ws"), headers=signed(user_id=str(n))) for n in range(5)]
    nested = signed(user_id=None, user={"id": "777"})  # the payload's user, however it names them
    assert here.server.signatures is not None and here.server.signatures.signer(nested) == "user 777"
    assert here.server.signatures.signer(signed(user_id=None)) == ANYONE  # no user named: counted by address
    for socket in [*held, *others]:
        await socket.close()


async def test_a_signed_player_spends_only_their_own_sign_ins(make: Make) -> None:
    here = await make(signatures=signatures())
    assert here.double is not None
    instance = launched(here.double, ALICE)
    mallory = signed(user_id="666")
    answers = [await here.token(MADE_UP.format(n), instance, signed=mallory) for n in range(int(PER_ADDRESS_BURST) + 2)]
    assert [status for status, _, _ in answers].count(429) == 2
    status, _, _ = await here.token(here.double.activity.authorize(ALICE), instance, signed=signed(user_id="1"))
    assert status == 200  # another player, from the same address of Discord's proxy


async def test_a_socket_closed_before_its_hello_is_let_go_quietly(make: Make, caplog: pytest.LogCaptureFixture) -> None:
    here = await make(local=True)
    caplog.set_level(logging.WARNING)
    for _ in range(5):
        socket = await here.client.ws_connect(here.url("/ws"))
        await socket.close()
    async with asyncio.timeout(10):
        while here.server.greeting:
            await asyncio.sleep(0.01)
    await here.screen(await here.local_session("Alice"))
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


# ---------------------------------------------------------------------- headers


async def test_every_answer_says_where_the_page_may_run_and_load_from(make: Make, tmp_path: Path) -> None:
    page = tmp_path / "page"
    (page / "assets").mkdir(parents=True)
    (page / "index.html").write_text("<!doctype html><title>t</title>")
    (page / "assets" / "app.js").write_text("console.log(1)")
    here = await make(page_dir=page)
    for path in ("/", "/assets/app.js", "/api/mode", "/no-such-page"):
        async with here.client.get(here.url(path)) as reply:
            assert reply.headers["X-Content-Type-Options"] == "nosniff"
            assert reply.headers["Referrer-Policy"] == "no-referrer"
            policy = {}
            for directive in reply.headers["Content-Security-Policy"].split(";"):
                name, _, sources = directive.strip().partition(" ")
                policy[name] = sources
            assert policy["default-src"] == "'none'" and policy["script-src"] == "'self'"
            assert "https://discord.com" in policy["frame-ancestors"]
            assert "https://*.discordsays.com" in policy["frame-ancestors"]
            assert "'self'" in policy["connect-src"]
    async with here.client.post(here.url("/api/token"), json={"code": "x"}) as reply:
        assert reply.status == 400 and reply.headers["X-Content-Type-Options"] == "nosniff"


async def test_a_page_not_built_is_said_so(make: Make, tmp_path: Path) -> None:
    """Without the page's build the server still runs, knows it (the launcher says so as it starts) and answers
    the page's address with what to run."""
    here = await make(page_dir=tmp_path / "not-built")
    assert not here.server.page_built
    async with here.client.get(here.url("/")) as reply:
        assert reply.status == 503 and "npm ci && npm run build" in await reply.text()
    built = tmp_path / "built"
    built.mkdir()
    (built / "index.html").write_text("<!doctype html><title>t</title>")
    assert (await make(page_dir=built)).server.page_built


async def test_what_aiohttp_refuses_itself_is_said_in_the_readers_language(make: Make) -> None:
    """A path not served, a socket's request without its upgrade, a local sign-in inside Discord, too many sockets
    yet to say hello: each refusal a key and a word in the reader's language, as every other refusal."""
    here = await make()
    japanese = {"Accept-Language": "ja"}
    async with here.client.get(here.url("/nothing-here"), headers=japanese) as reply:
        said = await reply.json()
        assert reply.status == 404 and said["key"] == "activity.not_found" and "アドレス" in said["error"]
    async with here.client.post(here.url("/api/local/signin"), json={"name": "Ann"}) as reply:
        assert reply.status == 404 and (await reply.json())["key"] == "activity.not_found"
    async with here.client.get(here.url("/ws")) as reply:  # no WebSocket upgrade
        assert reply.status == 400 and (await reply.json())["key"] == "activity.bad_frame"
    async with here.client.delete(here.url("/api/token")) as reply:
        assert (
            reply.status == 405
            and (await reply.json())["key"] == "activity.bad_frame"
            and "POST" in reply.headers["Allow"]
        )
    async with here.client.get(here.url("/assets/"), headers=japanese) as reply:  # a folder, not a file
        assert reply.status in (403, 404) and (await reply.json())["key"] == "activity.not_found"
    here.server.greeting["address 127.0.0.1"] = server_module.GREETING_PER_CLIENT
    async with here.client.get(here.url("/ws"), headers=japanese) as reply:
        said = await reply.json()
        assert reply.status == 429 and said["key"] == "activity.too_fast" and reply.headers["Retry-After"] == "10"
