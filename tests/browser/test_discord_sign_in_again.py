"""Inside "Discord" (the real bot against the double, the SDK's DiscordSDKMock for the client), the bot restarts
under an open page and forgets its sessions: the page signs in again by itself, as Discord's sign-in asks the
player nothing, and is back at its table, its controls working. Where that sign-in fails the page stops for good,
saying so in the reader's language with every control disabled, rather than look alive and drop every press."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, Route, expect

from bot.catalogues import translate
from tests.double import DiscordDouble, User
from tests.e2e.conftest import people

from .steps import new_table
from .test_discord_match import MOCK_INSTANCE, double, start_bot  # noqa: F401 (the double is a fixture)
from .test_local_match import PHONE


async def open_lobby(page: Page) -> None:
    """A lobby opened on the page: Oh Hell for four, the page's player and one computer seated."""
    await new_table(page, "oh-hell", 4, 1, level=None)
    await page.locator("[data-key=easy]").wait_for(timeout=20_000)


async def test_a_page_signs_in_again_after_the_bot_restarts_and_is_back_at_its_table(
    double: DiscordDouble,  # noqa: F811
    browser: Browser,
    tmp_path: Path,
) -> None:
    bot, _database_url, port = await start_bot(double, tmp_path)
    try:
        (alice,) = people(1)
        double.activity.launch([alice], double.channel_id, double.guild_id, instance_id=MOCK_INSTANCE)
        context = await browser.new_context(viewport=PHONE, locale="en")
        page = await context.new_page()
        sign_ins: list[dict[str, Any]] = []

        async def token(route: Route) -> None:
            """Discord's client gives each authorize a new code: the mock gives the one it was loaded with."""
            body = json.loads(route.request.post_data or "{}")
            if sign_ins:
                body["code"] = double.activity.authorize(alice)
            sign_ins.append(body)
            await route.continue_(post_data=json.dumps(body))

        await page.route("**/api/token", token)
        await page.goto(f"http://127.0.0.1:{port}/?lang=en&mock_code={double.activity.authorize(alice)}")
        await open_lobby(page)
        await page.locator("text=Seated: 2").wait_for()
        table_seen = await page.text_content("h1")

        await bot.stop()  # the bot restarts: every session it held is gone
        await page.locator(".banner", has_text=translate("en", "screen.reconnecting")).wait_for(timeout=10_000)
        await bot.start()
        await page.locator(".banner").wait_for(state="detached", timeout=60_000)
        await page.locator("text=Seated: 2").wait_for(timeout=20_000)
        assert await page.text_content("h1") == table_seen  # the same table
        await page.click("[data-key=easy]")  # and its controls work: a computer seated from the page
        await page.locator("text=Seated: 3").wait_for(timeout=20_000)
        assert translate("en", "activity.signed_out") not in (await page.inner_text("body"))
        assert len(sign_ins) == 2 and double.problems == [], double.problems
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()[-5000:]


async def test_a_page_that_cannot_sign_in_again_stops_saying_so_with_its_controls_disabled(
    double: DiscordDouble,  # noqa: F811
    browser: Browser,
    tmp_path: Path,
) -> None:
    bot, _database_url, port = await start_bot(double, tmp_path)
    try:
        alice: User = people(1)[0]
        double.activity.launch([alice], double.channel_id, double.guild_id, instance_id=MOCK_INSTANCE)
        context = await browser.new_context(viewport=PHONE, locale="ja")
        page = await context.new_page()
        await page.clock.install()  # time runs as ever, until the test moves it on
        sign_ins: list[str] = []
        page.on("request", lambda request: sign_ins.append(request.url) if "/api/token" in request.url else None)
        # the mock's authorize gives its one code again: Discord refuses a code used once, and the sign-in fails
        await page.goto(f"http://127.0.0.1:{port}/?lang=ja&mock_code={double.activity.authorize(alice)}")
        await open_lobby(page)

        await bot.stop()
        await page.locator(".banner", has_text=translate("ja", "screen.reconnecting")).wait_for(timeout=10_000)
        await bot.start()
        stopped = page.locator(".banner[role=alert]")
        await expect(stopped).to_contain_text(translate("ja", "screen.stopped"), timeout=60_000)
        await expect(stopped).to_contain_text(translate("ja", "activity.bad_code"))
        await page.clock.run_for(120_000)  # two minutes on: still said, every control still disabled
        await expect(stopped).to_contain_text(translate("ja", "screen.stopped"))
        for key in ("easy", "strong", "start", "leave"):
            await expect(page.locator(f"[data-key={key}]")).to_be_disabled()
        # the language button draws the stopped page in the other language, and signs nobody in again
        await page.click("[data-key=language]")
        await expect(stopped).to_have_text(translate("en", "screen.stopped"))
        await expect(page.locator("[data-key=easy]")).to_be_disabled()
        assert len(sign_ins) == 2, sign_ins
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()[-5000:]


async def test_a_page_whose_sign_in_again_is_refused_only_for_now_tries_again_and_is_back_at_its_table(
    double: DiscordDouble,  # noqa: F811
    browser: Browser,
    tmp_path: Path,
) -> None:
    """A restarted bot has every open page sign in again at once, past the sign-ins it takes at a time (inside
    Discord the pages share the address of Discord's proxy). A sign-in again that is only a matter of waiting is
    tried again, later, until it goes through: one that never answers (the SDK's authorize, say), one refused as
    too many (429, with the wait), Discord unreachable (502), and a session gone again before its socket said hello
    (the bot restarted once more); the page stays "reconnecting" all along and is back at its table."""
    bot, _database_url, port = await start_bot(double, tmp_path)
    try:
        (alice,) = people(1)
        double.activity.launch([alice], double.channel_id, double.guild_id, instance_id=MOCK_INSTANCE)
        context = await browser.new_context(viewport=PHONE, locale="en")
        page = await context.new_page()
        await page.clock.install()  # time runs as ever, until the test moves it on
        sign_ins: list[str] = []
        hanging: list[Route] = []
        asked = asyncio.Event()

        async def token(route: Route) -> None:
            body = json.loads(route.request.post_data or "{}")
            sign_ins.append(body["code"])
            asked.set()
            if len(sign_ins) > 1:
                body["code"] = double.activity.authorize(alice)  # Discord's client gives a new code each time
            if len(sign_ins) == 2:  # no answer, ever
                hanging.append(route)
            elif len(sign_ins) == 3:  # too many sign-ins just now
                words = translate("en", "activity.too_many_sign_ins", seconds=1)
                await route.fulfill(
                    status=429,
                    headers={"Retry-After": "1"},
                    json={"error": words, "key": "activity.too_many_sign_ins", "retry_after": 1},
                )
            elif len(sign_ins) == 4:  # Discord's proxy, the bot away (no JSON)
                await route.fulfill(status=502, body="<html>Bad gateway</html>", content_type="text/html")
            elif len(sign_ins) == 5:  # signed in, and the session gone before its socket says hello
                reply = await route.fetch(post_data=json.dumps(body))
                signed = await reply.json()
                await route.fulfill(response=reply, json={**signed, "session": "gone" * 8})
            else:
                await route.continue_(post_data=json.dumps(body))

        await page.route("**/api/token", token)
        await page.goto(f"http://127.0.0.1:{port}/?lang=en&mock_code={double.activity.authorize(alice)}")
        await open_lobby(page)
        await page.locator("text=Seated: 2").wait_for()
        table_seen = await page.text_content("h1")

        asked.clear()
        await bot.stop()
        await page.locator(".banner", has_text=translate("en", "screen.reconnecting")).wait_for(timeout=10_000)
        await bot.start()
        await asyncio.wait_for(asked.wait(), 60)  # the sign-in again that never answers...
        await page.clock.fast_forward(25_000)  # ...is given up on, and tried again
        await page.locator(".banner").wait_for(state="detached", timeout=60_000)
        await page.locator("text=Seated: 2").wait_for(timeout=20_000)
        assert await page.text_content("h1") == table_seen
        await page.click("[data-key=easy]")  # its controls work
        await page.locator("text=Seated: 3").wait_for(timeout=20_000)
        assert len(sign_ins) == 6, sign_ins
        assert translate("en", "screen.stopped") not in await page.inner_text("body")
        for route in hanging:
            await route.abort()
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()[-5000:]


async def test_a_page_whose_hello_discord_no_longer_vouches_for_stops_saying_why(
    double: DiscordDouble,  # noqa: F811
    browser: Browser,
    tmp_path: Path,
) -> None:
    """A socket's hello refused because Discord no longer lists the player in the activity: the page stops,
    saying so, rather than pass the reason by in a moment and stop later as merely "signed out"."""
    bot, _database_url, port = await start_bot(double, tmp_path)
    try:
        (alice,) = people(1)
        double.activity.launch([alice], double.channel_id, double.guild_id, instance_id=MOCK_INSTANCE)
        context = await browser.new_context(viewport=PHONE, locale="ja")
        page = await context.new_page()
        sockets: list[Any] = []
        closing: list[asyncio.Future[None]] = []

        def opened(socket: Any) -> None:
            sockets.append(socket)
            if len(sockets) > 1:
                socket.connect_to_server()
                return

            def refuse(message: str | bytes) -> None:  # the server's answer when Discord no longer lists them
                words = translate("ja", "activity.not_in_instance")
                socket.send(json.dumps({"type": "error", "key": "activity.not_in_instance", "message": words}))
                closing.append(asyncio.ensure_future(socket.close()))

            socket.on_message(refuse)

        await page.route_web_socket("**/ws", opened)
        await page.goto(f"http://127.0.0.1:{port}/?lang=ja&mock_code={double.activity.authorize(alice)}")
        stopped = page.locator(".banner[role=alert]")
        await expect(stopped).to_contain_text(translate("ja", "activity.not_in_instance"), timeout=30_000)
        await expect(stopped).to_contain_text(translate("ja", "screen.stopped"))
        await page.wait_for_timeout(2000)
        await expect(stopped).to_contain_text(translate("ja", "activity.not_in_instance"))
        assert len(sockets) == 1
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()[-5000:]


async def test_a_first_sign_in_refused_only_for_now_is_tried_again(
    double: DiscordDouble,  # noqa: F811
    browser: Browser,
    tmp_path: Path,
) -> None:
    """Friends opening the activity together may come past the sign-ins the bot takes at a time (inside Discord
    they share the address of Discord's proxy): the page's first sign-in, refused as too many (429, with the
    wait) and then as Discord unreachable (502), is tried again until it goes through, and the page opens; a
    first sign-in refused for good (a code Discord does not know) still says so at once."""
    bot, _database_url, port = await start_bot(double, tmp_path)
    try:
        (alice, bob) = people(2)
        double.activity.launch([alice, bob], double.channel_id, double.guild_id, instance_id=MOCK_INSTANCE)
        context = await browser.new_context(viewport=PHONE, locale="en")
        page = await context.new_page()
        await page.clock.install()
        sign_ins: list[int] = []

        async def token(route: Route) -> None:
            sign_ins.append(len(sign_ins) + 1)
            if len(sign_ins) == 1:
                words = translate("en", "activity.too_many_sign_ins", seconds=2)
                await route.fulfill(
                    status=429,
                    headers={"Retry-After": "2"},
                    json={"error": words, "key": "activity.too_many_sign_ins", "retry_after": 2},
                )
            elif len(sign_ins) == 2:
                await route.fulfill(status=502, body="<html>Bad gateway</html>", content_type="text/html")
            else:
                await route.continue_()

        await page.route("**/api/token", token)
        await page.goto(f"http://127.0.0.1:{port}/?lang=en&mock_code={double.activity.authorize(alice)}")
        for _ in range(200):  # each wait moved on as soon as the page is waiting it out
            if len(sign_ins) >= 3:
                break
            await page.clock.fast_forward(2_000)
            await asyncio.sleep(0.05)
        await page.wait_for_selector("#game", timeout=30_000)  # signed in: the new-table form
        assert len(sign_ins) == 3, sign_ins

        other = await (await browser.new_context(viewport=PHONE, locale="ja")).new_page()
        await other.goto(f"http://127.0.0.1:{port}/?lang=ja&mock_code=not-a-code-discord-gave")
        await other.locator("[role=alert]").wait_for(timeout=20_000)  # refused for good: said at once
        assert await other.locator("#game").count() == 0
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()[-5000:]
