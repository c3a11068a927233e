"""The page and its connection: while the socket is down (the "reconnecting" banner) the table's controls are drawn
disabled and a press says it was not sent, keeping what the player was doing; once it is back they work again."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
from playwright.async_api import Browser, Page, expect

from activity.server import SCREENS_PER_SESSION
from bot.catalogues import translate

from .conftest import LocalBot
from .steps import no_computer_pace, open_oh_hell, sign_in_at
from .test_local_match import PHONE

# The network as the page's sockets find it: while "down", every new socket of the page fails to connect (it asks
# the server for a path with no socket behind it: refused, as a socket is when the network is gone).
NETWORK_SWITCH = """(() => {
  const Real = window.WebSocket;
  window.networkDown = false;
  window.WebSocket = class extends Real {
    constructor(url, protocols) { super(window.networkDown ? `${url}-down` : url, protocols); }
  };
})();"""


class Network:
    """The page's WebSocket through the test: every frame it sends and receives is kept, the network can be cut
    (the page's socket closed, and every new one failing) and brought back, and a frame can be slipped in."""

    def __init__(self) -> None:
        self.routes: list[Any] = []
        self.sent: list[dict[str, Any]] = []
        self.got: list[dict[str, Any]] = []
        self.page: Page | None = None
        self.holding: set[str] = set()  # the operations the page sends that the server does not get yet...
        self.held: list[tuple[Any, str | bytes]] = []  # ...kept here until released
        self.muted = False  # the server's frames kept from the page (one slipped in stays what the page shows)

    async def attach(self, page: Page) -> None:
        self.page = page
        await page.add_init_script(NETWORK_SWITCH)
        await page.route_web_socket("**/ws", self.opened)

    def opened(self, socket: Any) -> None:
        server = socket.connect_to_server()

        def up(message: str | bytes) -> None:
            frame = json.loads(message)
            self.sent.append(frame)
            if frame.get("op") in self.holding:
                self.held.append((server, message))
            else:
                server.send(message)

        def down(message: str | bytes) -> None:
            self.got.append(json.loads(message))
            if not self.muted:
                socket.send(message)

        socket.on_message(up)
        server.on_message(down)
        self.routes.append(socket)

    async def cut(self) -> None:
        assert self.page is not None
        await self.page.evaluate("window.networkDown = true")
        await self.routes[-1].close()

    async def restore(self) -> None:
        assert self.page is not None
        await self.page.evaluate("window.networkDown = false")

    def states(self) -> list[dict[str, Any]]:
        return [frame["table"] for frame in self.got if frame.get("type") == "state" and frame.get("table")]

    def slip_in(self, frame: dict[str, Any]) -> None:
        """A frame to the page as if from the server, after every one the server sent before."""
        self.routes[-1].send(json.dumps(frame))

    def release(self) -> None:
        """The frames held back go to the server now, and the next are sent as they come."""
        self.holding.clear()
        for server, message in self.held:
            server.send(message)
        self.held.clear()

    def acts(self) -> list[dict[str, Any]]:
        return [frame for frame in self.sent if frame.get("op") == "act"]


async def sign_in(bot: LocalBot, browser: Browser, name: str, room: int, language: str = "en") -> Page:
    context = await browser.new_context(viewport=PHONE, locale=language)
    page = await context.new_page()
    await sign_in_at(page, bot.base, name, room, language)
    return page


async def test_while_the_connection_is_down_the_controls_are_disabled_and_a_press_is_not_lost(
    local_bot: LocalBot, browser: Browser
) -> None:
    await no_computer_pace(local_bot)
    context = await browser.new_context(viewport=PHONE, locale="en")
    page = await context.new_page()
    network = Network()
    await network.attach(page)
    await sign_in_at(page, local_bot.base, "Fay", 41)
    await open_oh_hell(page)
    bids = page.locator(".controls .btn.number")
    await bids.first.wait_for(timeout=30_000)
    await expect(bids.first).to_be_enabled()

    await network.cut()  # the network drops while the page offers its bids
    await page.locator(".banner", has_text=translate("en", "screen.reconnecting")).wait_for(timeout=10_000)
    for at in range(await bids.count()):
        await expect(bids.nth(at)).to_be_disabled()
    for at in range(await page.locator(".hand .card").count()):
        await expect(page.locator(".hand .card").nth(at)).to_have_attribute("aria-disabled", "true")
    # Pressed all the same, where the first bid is (the page may be drawing its controls again as it retries,
    # so the press goes to the screen's place, as a finger's does): said not sent, and nothing is lost.
    box = await bids.first.bounding_box()
    assert box is not None
    await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await expect(page.locator("#note")).to_have_text(translate("en", "screen.not_sent"))
    assert network.acts() == []
    assert await bids.count() > 0

    await network.restore()  # the network is back: the page reconnects by itself and its bids work again
    await page.locator(".banner").wait_for(state="detached", timeout=20_000)
    await expect(bids.first).to_be_enabled(timeout=10_000)
    await bids.first.click()
    await page.locator(".controls .btn.number").first.wait_for(state="detached", timeout=20_000)
    assert len(network.acts()) == 1, network.acts()


async def test_a_page_whose_table_another_window_took_stops_and_says_so_whatever_is_pressed(
    local_bot: LocalBot, browser: Browser
) -> None:
    """The server keeps a few screens per session: one more pushes out the oldest, which is told "another window"
    and stops. The page says so until reloaded; a card tapped then neither moves anything nor wipes it out."""
    await no_computer_pace(local_bot)
    page = await sign_in(local_bot, browser, "Gil", 42)
    await open_oh_hell(page)
    session = json.loads(await page.evaluate("sessionStorage.getItem('session:42')"))["session"]
    async with aiohttp.ClientSession() as client:
        others = []
        for _ in range(SCREENS_PER_SESSION):  # the same session's other windows: the page's is the oldest
            socket = await client.ws_connect(f"{local_bot.base}/ws")
            await socket.send_str(json.dumps({"op": "hello", "session": session, "language": "en"}))
            others.append(socket)
        stopped = page.locator(".banner[role=alert]")
        await expect(stopped).to_contain_text(translate("en", "activity.replaced"), timeout=20_000)
        await expect(stopped).to_contain_text(translate("en", "screen.stopped"))
        for at in range(await page.locator(".hand .card").count()):
            await page.locator(".hand .card").nth(at).click(force=True)
            await expect(stopped).to_contain_text(translate("en", "activity.replaced"))
        assert await page.locator(".hand .card.chosen").count() == 0
        for socket in others:
            await socket.close()


async def test_sit_down_clicked_twice_signs_in_once_on_one_socket(local_bot: LocalBot, browser: Browser) -> None:
    context = await browser.new_context(viewport=PHONE, locale="en")
    page = await context.new_page()
    sign_ins: list[str] = []
    sockets: list[Any] = []
    page.on("request", lambda request: sign_ins.append(request.url) if "/api/local/signin" in request.url else None)
    page.on("websocket", lambda socket: sockets.append(socket))
    await page.goto(f"{local_bot.base}/?room=43&lang=en")
    await page.fill("#name", "Eve")
    await page.dblclick("button[type=submit]")
    await page.wait_for_selector("#game", timeout=20_000)
    await page.click("[data-key=create]")  # a round trip on the socket: both clicks' sign-ins long since asked
    await page.locator("[data-key=start]").wait_for(timeout=20_000)
    assert len(sign_ins) == 1, sign_ins
    assert len(sockets) == 1, [socket.url for socket in sockets]


async def test_a_sign_in_that_reaches_no_server_says_so_in_the_pages_language(
    local_bot: LocalBot, browser: Browser
) -> None:
    """ "Sit down" while the server cannot be reached (no answer at all, so no words of the server's): the form
    says so in the page's language (it said nothing), and once the server answers again the same form signs in."""
    context = await browser.new_context(viewport=PHONE, locale="ja")
    page = await context.new_page()
    await page.route("**/api/local/signin", lambda route: route.abort("connectionrefused"))
    await page.goto(f"{local_bot.base}/?room=44&lang=ja")
    await page.fill("#name", "Rin")
    await page.click("button[type=submit]")
    await expect(page.locator("#note")).to_have_text(translate("ja", "screen.unreachable"), timeout=10_000)
    await page.unroute("**/api/local/signin")
    await page.click("button[type=submit]")
    await page.wait_for_selector("#game", timeout=20_000)


async def test_a_local_page_signed_out_with_a_move_unanswered_keeps_its_name_form_and_goes_back_to_its_table(
    local_bot: LocalBot, browser: Browser
) -> None:
    """Local mode, a bid sent and not yet answered when the server says it no longer knows the session: the page
    asks for the name again, and the bid given up on later draws no table over that form (with controls that
    would send nothing). Signed in again, the page asks for its own table back (in a room with several, it would
    otherwise be shown the list to choose from)."""
    await no_computer_pace(local_bot)
    context = await browser.new_context(viewport=PHONE, locale="en")
    page = await context.new_page()
    await page.clock.install()  # time runs as ever, until the test moves it on
    network = Network()
    await network.attach(page)
    await sign_in_at(page, local_bot.base, "Uma", 58)
    await open_oh_hell(page)
    title = await page.text_content("h1")
    table = network.states()[-1]["id"]
    bids = page.locator(".controls .btn.number")
    await bids.first.wait_for(timeout=30_000)
    network.holding.add("act")  # the bid is on its way...
    await bids.first.click()
    # ...when the server says it no longer knows the session
    network.slip_in({"type": "error", "key": "activity.signed_out", "message": translate("en", "activity.signed_out")})
    await page.locator("#name").wait_for(timeout=10_000)
    await page.clock.fast_forward(15_000)  # past the time a move holds the controls: the form stays
    await page.wait_for_timeout(300)
    await expect(page.locator("#name")).to_be_visible()
    await expect(page.locator(".hand .card")).to_have_count(0)

    network.holding.clear()
    await page.fill("#name", "Uma")  # signed in again: back at the same table
    await page.click("button[type=submit]")
    await page.locator(".hand .card").first.wait_for(timeout=20_000)
    assert await page.text_content("h1") == title
    hellos = [frame for frame in network.sent if frame.get("op") == "hello"]
    assert len(hellos) == 2 and hellos[-1]["table"] == table, hellos
