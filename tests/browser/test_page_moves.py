"""A move on the page, as a hurried player makes it: a bid tapped twice is one bid, "Open the table" clicked twice
opens one table, and a card the rules refuse leaves no card drawn raised (the next tap chooses, as it shows)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from playwright.async_api import Browser, Page, expect

from .conftest import LocalBot
from .steps import bid_until_a_card_is_to_play, no_computer_pace, open_oh_hell, sign_in_at
from .test_page_connection import Network


class Frames:
    """Every frame the page sends and receives, on every socket it opens."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.got: list[dict[str, Any]] = []
        page.on("websocket", self.opened)

    def opened(self, socket: Any) -> None:
        socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: self.got.append(json.loads(payload)))

    def ops(self, op: str) -> list[dict[str, Any]]:
        return [frame for frame in self.sent if frame.get("op") == op]

    def errors(self) -> list[str]:
        return [frame["key"] for frame in self.got if frame.get("type") == "error"]


async def watched(bot: LocalBot, browser: Browser, name: str, room: int) -> tuple[Page, Frames]:
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = await context.new_page()
    frames = Frames(page)
    await sign_in_at(page, bot.base, name, room)
    return page, frames


async def test_a_bid_tapped_twice_is_one_bid(local_bot: LocalBot, browser: Browser) -> None:
    await no_computer_pace(local_bot)
    page, frames = await watched(local_bot, browser, "Dee", 51)
    await open_oh_hell(page)
    bids = page.locator(".controls .btn.number")
    await bids.first.wait_for(timeout=30_000)
    await bids.first.dblclick()
    await bids.first.wait_for(state="detached", timeout=20_000)  # the bid made: the numbers go
    assert len(frames.ops("act")) == 1, frames.ops("act")
    assert "error.stale_hand" not in frames.errors()


# A tap as the browser makes it, in one task: press (the page holds its drawing still), release, click.
PRESS = "el => el.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}))"
RELEASE_AND_CLICK = "el => { el.dispatchEvent(new PointerEvent('pointerup', {bubbles: true})); el.click(); }"


async def answered_while_held(
    page: Page, frames: Frames, since: int, check: Callable[[dict[str, Any] | None], bool]
) -> None:
    """Wait until a state that passes ``check`` (its table, or None) came after the first ``since`` frames, the
    press on ``window.held`` kept down meanwhile: a press holds the drawing still for a second and a half at most
    (a finger resting), and a busy machine may answer later than that, so the press is made again as it rests."""
    for step in range(400):
        if any(frame.get("type") == "state" and check(frame.get("table")) for frame in frames.got[since:]):
            return
        if step % 10 == 9:
            await page.evaluate(f"({PRESS})(window.held)")
        await asyncio.sleep(0.05)
    raise AssertionError(f"no answer came: {frames.got[since:]}, sent: {frames.sent}")


# The control pressed is found in the page as the press is made, in the same task: a handle found before (a
# locator's) may be of a drawing that a state coming meanwhile (the first, after the hello) has replaced.


async def test_a_second_tap_held_over_the_answer_to_the_first_is_no_second_bid(
    local_bot: LocalBot, browser: Browser
) -> None:
    """The first tap's bid answered while the second tap is pressed (a press holds the drawing still, so the
    numbers are still there under the finger): its release sends nothing, and the table is drawn as it now is."""
    await no_computer_pace(local_bot)
    page, frames = await watched(local_bot, browser, "Ida", 54)
    await open_oh_hell(page)
    bid = page.locator(".controls .btn.number").first
    await bid.wait_for(timeout=30_000)
    before = len(frames.got)
    # The first tap, then the second's press on the number drawn in its place, in one task: no answer can come
    # between them. The pressed number is kept (window.held) to be released once the answer came.
    await page.evaluate(
        f"""() => {{ const el = document.querySelector(".controls .btn.number");
        ({PRESS})(el); ({RELEASE_AND_CLICK})(el);
        window.held = document.querySelector(".controls .btn.number"); ({PRESS})(window.held); }}"""
    )
    await answered_while_held(page, frames, before, lambda table: table is not None and table["turn"] > 0)
    assert await page.evaluate("window.held.isConnected"), "the press held the numbers on the screen"
    await page.evaluate(f"({RELEASE_AND_CLICK})(window.held)")
    await page.locator(".controls .btn.number").first.wait_for(state="detached", timeout=20_000)
    assert len(frames.ops("act")) == 1, frames.ops("act")
    assert frames.errors() == []


async def test_a_second_open_held_over_the_table_opened_opens_none(local_bot: LocalBot, browser: Browser) -> None:
    """The table opened while "Open the table" is pressed a second time: its release opens no second table."""
    page, frames = await watched(local_bot, browser, "Ola", 55)
    create = page.locator("[data-key=create]")
    await create.wait_for(timeout=30_000)
    before = len(frames.got)
    await page.evaluate(
        f"""() => {{ window.held = document.querySelector("[data-key=create]");
        ({PRESS})(window.held); ({RELEASE_AND_CLICK})(window.held); ({PRESS})(window.held); }}"""
    )
    await answered_while_held(page, frames, before, lambda table: table is not None)
    assert await page.evaluate("window.held.isConnected"), "the press held the form on the screen"
    await page.evaluate(f"({RELEASE_AND_CLICK})(window.held)")
    await page.locator("[data-key=start]").wait_for(timeout=20_000)
    assert len(frames.ops("open")) == 1, frames.ops("open")
    assert frames.errors() == []


async def test_open_the_table_clicked_twice_opens_one_table(local_bot: LocalBot, browser: Browser) -> None:
    page, frames = await watched(local_bot, browser, "Ned", 52)
    await page.wait_for_selector("#game")
    await page.dblclick("[data-key=create]")
    await page.locator("[data-key=start]").wait_for(timeout=20_000)  # the lobby of the table opened
    assert len(frames.ops("open")) == 1, frames.ops("open")
    assert frames.errors() == []


async def test_a_card_the_rules_refuse_leaves_no_card_raised(local_bot: LocalBot, browser: Browser) -> None:
    """A card chosen (raised), then one the rules refuse tapped: the server says which rule, and no card stays
    drawn raised; one tap on the first card chooses it again, as the screen shows."""
    await no_computer_pace(local_bot)
    page, frames = await watched(local_bot, browser, "Kim", 53)
    await open_oh_hell(page)
    for _ in range(1200):
        if await page.locator(".controls .btn.number").count():
            await page.locator(".controls .btn.number").first.click()
            await page.locator(".controls .btn.number").first.wait_for(state="detached", timeout=20_000)
            continue
        if await page.locator(".controls .your-turn").count():
            dim = await page.eval_on_selector_all(".hand .card.dim", "cards => cards.map(c => c.dataset.card)")
            ok = await page.eval_on_selector_all(".hand .card:not(.dim)", "cards => cards.map(c => c.dataset.card)")
            if ok and dim:
                break
            if ok:  # every card may be played: play one and wait for a trick that leaves some not
                await page.locator(f'.hand .card[data-card="{ok[0]}"]').click()
                await page.locator(f'.hand .card.chosen[data-card="{ok[0]}"]').click()
                await page.locator(f'.hand .card[data-card="{ok[0]}"]').wait_for(state="detached", timeout=20_000)
                continue
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("no moment with a card that may not be played")
    first = page.locator(f'.hand .card[data-card="{ok[0]}"]')
    await first.click()
    await page.locator(f'.hand .card.chosen[data-card="{ok[0]}"]').wait_for()
    refusals = len(frames.errors())
    await page.locator(f'.hand .card[data-card="{dim[0]}"]').click(force=True)  # refused by the rules
    for _ in range(200):
        if len(frames.errors()) > refusals:
            break
        await asyncio.sleep(0.05)
    assert frames.errors()[refusals:] == ["error.must_follow"], frames.errors()  # the rule said
    await expect(page.locator(".hand .card.chosen")).to_have_count(0)
    await first.click()  # one tap chooses it again
    await expect(page.locator(f'.hand .card.chosen[data-card="{ok[0]}"]')).to_have_count(1)


async def test_a_hint_for_a_moment_gone_is_not_shown(local_bot: LocalBot, browser: Browser) -> None:
    """A hint comes for the table and the seat's turn it was asked at: one that comes after the seat moved (the
    server drops those, but one may be on its way as the move is made) is not shown as advice for now."""
    await no_computer_pace(local_bot)
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = await context.new_page()
    network = Network()
    await network.attach(page)
    await sign_in_at(page, local_bot.base, "Gus", 54)
    await open_oh_hell(page)
    bids = page.locator(".controls .btn.number")
    await bids.first.wait_for(timeout=30_000)
    await page.evaluate(
        """() => {
          window.notesSeen = [];
          new MutationObserver(() => {
            const said = document.querySelector("#note")?.textContent ?? "";
            if (said && window.notesSeen.at(-1) !== said) window.notesSeen.push(said);
          }).observe(document.getElementById("app"), { subtree: true, childList: true, characterData: true });
        }"""
    )
    asked = network.states()[-1]
    await bids.first.click()
    await bids.first.wait_for(state="detached", timeout=20_000)  # the bid made
    now = network.states()[-1]
    assert now["turn"] > asked["turn"]
    network.slip_in({"type": "hint", "table": asked["id"], "turn": asked["turn"], "message": "💡 Bid 9 (stale)"})
    network.slip_in({"type": "hint", "table": now["id"], "turn": now["turn"], "message": "💡 Play A♠ (now)"})
    await page.wait_for_function("() => window.notesSeen.includes('💡 Play A♠ (now)')", timeout=10_000)
    assert "💡 Bid 9 (stale)" not in await page.evaluate("() => window.notesSeen")


async def test_the_card_chosen_goes_with_the_seats_own_move_and_a_note_keeps_its_lines(
    local_bot: LocalBot, browser: Browser
) -> None:
    """A card chosen (raised, "tap again to play") is forgotten once the seat's own turn moves on, even where the
    same card may be played again at the next turn; and a note of two lines (a hint with its reading) shows two."""
    await no_computer_pace(local_bot)
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = await context.new_page()
    network = Network()
    await network.attach(page)
    await sign_in_at(page, local_bot.base, "Lou", 55)
    await open_oh_hell(page)
    await bid_until_a_card_is_to_play(page)
    now = network.states()[-1]
    network.slip_in({"type": "hint", "table": now["id"], "turn": now["turn"], "message": "💡 Play low\nThey hold ♠"})
    await expect(page.locator("#note")).to_contain_text("They hold ♠")
    lines = await page.evaluate(
        """() => {
          const range = document.createRange();
          range.selectNodeContents(document.querySelector("#note"));
          return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
        }"""
    )
    assert lines == 2, lines
    card = (await page.eval_on_selector_all(".hand .card:not(.dim)", "cards => cards.map(c => c.dataset.card)"))[0]
    await page.locator(f'.hand .card[data-card="{card}"]').click()
    await page.locator(f'.hand .card.chosen[data-card="{card}"]').wait_for()
    # the seat's turn moves on (its clock ran out, say) and the card may be played again: no longer chosen
    network.slip_in({"type": "state", "table": {**now, "turn": now["turn"] + 1, "actions": now["actions"] + 1}})
    await expect(page.locator(".hand .card.chosen")).to_have_count(0)


async def test_another_seats_move_does_not_free_the_controls_while_the_seats_own_move_is_unanswered(
    local_bot: LocalBot, browser: Browser
) -> None:
    """A bid sent and not yet answered, another seat's move comes (Ninety-Nine's bids are made at once, a
    computer's among them): the controls stay held, as the bid is still on its way; a tap meanwhile sends nothing,
    and once the bid's answer comes (the seat's own turn moved on) the bid is made, once, and nothing is stale."""
    await no_computer_pace(local_bot)
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = await context.new_page()
    network = Network()
    await network.attach(page)
    await sign_in_at(page, local_bot.base, "Ida", 56)
    await open_oh_hell(page)
    bids = page.locator(".controls .btn.number")
    await bids.first.wait_for(timeout=30_000)
    await expect(bids.first).to_be_enabled()
    network.holding.add("act")  # the bid is on its way, for as long as the test says
    asked = network.states()[-1]
    await bids.first.click()
    await expect(bids.first).to_be_disabled()
    # another seat moves meanwhile: the table's moves go on, this seat's turn does not
    network.slip_in({"type": "state", "table": {**asked, "actions": asked["actions"] + 1}})
    await page.wait_for_timeout(300)
    await expect(bids.first).to_be_disabled()
    await bids.last.click(force=True)  # pressed all the same: nothing more is sent
    assert len(network.acts()) == 1, network.acts()
    network.release()  # the bid reaches the server: its answer frees the controls, the bid made
    await bids.first.wait_for(state="detached", timeout=20_000)
    assert len(network.acts()) == 1, network.acts()
    assert not [frame for frame in network.got if frame.get("type") == "error"], network.got


async def test_a_rooms_new_list_of_tables_does_not_free_open_the_table(local_bot: LocalBot, browser: Browser) -> None:
    """ "Open the table" pressed, and the room's list of tables changes before the new table comes (a state with no
    table, which is no answer to it): the button stays held, and a second press opens no second table."""
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = await context.new_page()
    network = Network()
    await network.attach(page)
    await sign_in_at(page, local_bot.base, "Ora", 57)
    await page.wait_for_selector("#game", timeout=30_000)
    network.holding.add("open")
    await page.click("[data-key=create]")
    await expect(page.locator("[data-key=create]")).to_have_attribute("aria-disabled", "true")
    network.slip_in({"type": "state", "table": None, "tables": []})  # the room's tables, as they are now
    await page.wait_for_timeout(300)
    await expect(page.locator("[data-key=create]")).to_have_attribute("aria-disabled", "true")
    await page.click("[data-key=create]", force=True)
    network.release()
    await page.locator("[data-key=start]").wait_for(timeout=20_000)  # the lobby of the table opened
    assert len([frame for frame in network.sent if frame.get("op") == "open"]) == 1, network.sent
