"""Local mode serves its own page only: not a rebound host name, not another site's script (activity/origins.py)."""

from __future__ import annotations

import json

import aiohttp
import pytest

from activity.origins import LocalHosts, machine_names, same_origin

from .conftest import Inside, Served

EVIL = "rebound.example.com"


def sessions_made(served: Served) -> int:
    return len(served.server.sessions._by_key)


async def test_a_rebound_host_name_is_refused_before_anything_is_made(served: Served) -> None:
    """DNS rebinding: another site's name pointed at 127.0.0.1 is that site's page, in the tab's language."""
    port = served.http.port
    headers = {"Host": f"{EVIL}:{port}", "Accept-Language": "ja-JP,ja;q=0.9"}
    body = {"name": "Mallory", "room": 1}
    async with served.client.post(served.url("/api/local/signin"), json=body, headers=headers) as answer:
        said = await answer.json()
        assert answer.status == 403 and said["key"] == "activity.wrong_host" and "アドレス" in said["error"]
    assert sessions_made(served) == 0
    for path in ("/", "/api/mode"):
        async with served.client.get(served.url(path), headers={"Host": EVIL}) as answer:
            said = await answer.json()
            assert answer.status == 403 and said["key"] == "activity.wrong_host" and "its own page" in said["error"]
    session = await served.sign_in("Alice")  # a real tab's session, and a socket under the rebound name
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await served.client.ws_connect(served.url("/ws"), headers={"Host": f"{EVIL}:{port}"})
    assert refused.value.status == 403
    assert not served.server.screens
    screen = await served.open_screen(session, "en", None)  # the same session from its own page still opens
    await screen.close()


async def test_another_sites_page_cannot_sign_in_or_open_a_socket(served: Served) -> None:
    """A form posted from another site, or a WebSocket opened by its script (no same-origin rule holds for those)."""
    await served.sign_in("Alice")  # a real player is signed in meanwhile
    for origin in ("http://evil.example", "null", f"http://localhost:{served.http.port + 1}", "file://"):
        headers = {"Origin": origin, "Content-Type": "text/plain"}
        body = json.dumps({"name": "Mallory", "room": 1, "language": "en"})
        async with served.client.post(served.url("/api/local/signin"), data=body, headers=headers) as answer:
            said = await answer.json()
            assert answer.status == 403 and said["key"] == "activity.wrong_origin", origin
            assert "another site" in said["error"]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await served.client.ws_connect(served.url("/ws"), origin=origin)
        assert refused.value.status == 403, origin
    assert sessions_made(served) == 1 and not served.server.screens


async def test_the_tables_own_page_and_other_clients_are_served(served: Served) -> None:
    """Its own page's origin, the same table by its LAN address or as localhost, and a client that names no origin."""
    port = served.http.port
    own = f"http://127.0.0.1:{port}"
    async with served.client.post(
        served.url("/api/local/signin"), json={"name": "Ann", "room": 1}, headers={"Origin": own}
    ) as answer:
        assert answer.status == 200
        session = (await answer.json())["session"]
    socket = await served.client.ws_connect(served.url("/ws"), origin=own)
    await socket.send_str(json.dumps({"op": "hello", "session": session, "table": None, "language": "en"}))
    hello = json.loads((await socket.receive(timeout=10)).data)
    assert hello["type"] == "hello" and hello["user"]["name"] == "Ann"
    await socket.close()
    for host in (f"localhost:{port}", f"192.168.1.20:{port}", f"[::1]:{port}"):
        origin = f"http://{host}"
        async with served.client.get(served.url("/api/mode"), headers={"Host": host, "Origin": origin}) as answer:
            assert answer.status == 200 and (await answer.json())["local"] is True, host


async def test_inside_discord_the_guard_does_not_apply(inside: Inside) -> None:
    """Through Discord's proxy the page is https://<app>.discordsays.com: its sessions come from Discord's sign-in."""
    origin = "https://123.discordsays.com"
    url = str(inside.http.make_url("/api/mode"))
    async with inside.client.get(url, headers={"Host": "123.discordsays.com", "Origin": origin}) as answer:
        assert answer.status == 200 and (await answer.json())["local"] is False


def test_the_hosts_local_mode_answers_to() -> None:
    hosts = LocalHosts(["gamebox.lan", "0.0.0.0"])  # ACTIVITY_HOST: a name is served, an address always is
    assert hosts.allows("gamebox.lan:8080") and hosts.allows("GameBox.LAN.") and hosts.allows("10.0.0.7:8080")
    assert hosts.allows("127.0.0.1") and hosts.allows("tables.localhost:8080") and hosts.allows("[::1]:80")
    assert all(hosts.allows(name) for name in machine_names())
    for header in (None, "", "evil.com", "evil.com:8080", "127.0.0.1.evil.com", "evil.com@127.0.0.1", "[::1", "a b"):
        assert not hosts.allows(header), header
    assert not LocalHosts().allows("gamebox.lan")


def test_an_origin_is_its_own_page_only_with_the_same_host_and_port() -> None:
    assert same_origin(None, "127.0.0.1:8080")  # no Origin: not a page of another site
    assert same_origin("http://127.0.0.1:8080", "127.0.0.1:8080") and same_origin("http://tables:80", "tables")
    assert same_origin("https://tables.example", "tables.example:443")
    for origin, host in (
        ("http://127.0.0.1:8081", "127.0.0.1:8080"),
        ("http://localhost:8080", "127.0.0.1:8080"),
        ("null", "127.0.0.1:8080"),
        ("http://127.0.0.1:8080", None),
        ("ftp://127.0.0.1:8080", "127.0.0.1:8080"),
        ("http://127.0.0.1:x", "127.0.0.1:x"),
    ):
        assert not same_origin(origin, host), (origin, host)
