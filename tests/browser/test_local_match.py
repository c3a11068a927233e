"""Four browser pages play a whole match of Oh Hell at the local table, as four people would: the bids and cards
they tap are the only way the match moves on. A page reloaded mid-deal comes back to the same seat and hand; no
WebSocket frame any page received names a card its seat could not see; screenshots are saved on the way."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from activity.sessions import LOCAL_GUILD
from bot.storage.database import Database
from bot.tables import TableService, TableStatus
from tests.activity.leaks import leaks, sight_by_move

from .conftest import LocalBot
from .steps import sign_in_at

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PEOPLE = [("Alice", "en", PHONE), ("Bob", "en", DESKTOP), ("久美子", "ja", PHONE), ("Dan <b>", "ja", DESKTOP)]
ROOM = 7
HOLD_SECONDS = 1.5  # the longest a press holds the page's drawing still (HOLD_MS in view.ts)
# the pictures the README (the first two) and docs/playing.md show, of the eleven saved
DOCS_PICTURES = {
    "activity-phone-en.png",
    "activity-desktop-ja.png",
    "activity-review-phone-ja.png",
    "activity-final-desktop-en.png",
}


class Player:
    def __init__(self, name: str, page: Page, *, keyboard: bool = False) -> None:
        self.name, self.page = name, page
        self.keyboard = keyboard  # plays with the keyboard alone: Tab/arrows to a control, Enter to press it
        self.frames: list[dict[str, Any]] = []  # received, on every socket the page opened
        self.sent: list[dict[str, Any]] = []  # sent, likewise

    def listen(self) -> None:
        def opened(socket: Any) -> None:
            socket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))
            socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

        self.page.on("websocket", opened)

    def states(self) -> list[dict[str, Any]]:
        return [f["table"] for f in self.frames if f.get("type") == "state" and f.get("table")]

    async def hand(self) -> list[str]:
        return await self.page.eval_on_selector_all(".hand .card", "cards => cards.map(c => c.dataset.card)")

    async def take_any(self) -> bool:
        """Whatever the screen offers, by kind of control: a next step, a number, a word or list, cards to pick
        and confirm, or a card to tap twice; False if it offers nothing now."""
        page = self.page
        try:
            step = page.locator('.controls [data-key^="step-"]')  # a next step: the suit of a bid, say
            if await step.count():
                await step.first.click(timeout=3000)
                return True
            if await page.locator(".controls .your-turn").count() == 0:
                return False
            for selector in (".controls .btn.number", '.controls [data-key^="a-"]'):
                found = page.locator(selector)
                if await found.count():
                    await found.first.click(timeout=3000)
                    return True
            confirm = page.locator('.controls [data-key="confirm"]')
            if await confirm.count():
                picked = await page.locator(".hand .card.chosen").count()
                if await confirm.is_enabled():
                    await confirm.click(timeout=3000)
                    return True
                playable = await page.eval_on_selector_all(
                    ".hand .card:not(.dim):not(.chosen)", "cards => cards.map(c => c.dataset.card)"
                )
                if playable and picked < 8:
                    await page.locator(f'.hand .card[data-card="{playable[0]}"]').click(timeout=3000)
                    return True
                return False
            return await self.take_turn()
        except PlaywrightError:
            return False

    async def take_turn(self) -> bool:
        """Bid the first number offered, or play a card the hand offers (tap, tap again); False if nothing to do."""
        page = self.page
        try:
            if await page.locator(".controls .your-turn").count() == 0:
                return False
            bids = page.locator(".controls .btn.number")
            if await bids.count():
                if self.keyboard:
                    await bids.first.focus(timeout=3000)
                    await page.keyboard.press("Enter")
                else:
                    await bids.first.click(timeout=3000)
                return True
            playable = await page.eval_on_selector_all(
                ".hand .card:not(.dim)", "cards => cards.map(c => c.dataset.card)"
            )
            if not playable:
                return False
            if self.keyboard:  # the first card has the focus; the arrows walk the hand to the one wanted
                cards = await self.hand()
                await page.locator(".hand .card").first.focus(timeout=3000)
                for _ in range(cards.index(playable[0])):
                    await page.keyboard.press("ArrowRight")
                await page.keyboard.press("Enter")  # chosen
                await page.locator(f'.hand .card.chosen[data-card="{playable[0]}"]').wait_for(timeout=3000)
                await page.keyboard.press("Enter")  # played (the focus stays on the card as the hand is drawn again)
                return True
            card = page.locator(f'.hand .card[data-card="{playable[0]}"]')
            await card.click(timeout=3000)
            await page.locator(f'.hand .card.chosen[data-card="{playable[0]}"]').click(timeout=3000)
            return True
        except (PlaywrightError, ValueError):
            return False  # the table moved on under the click (a re-render, a card gone): look again


async def seat_everyone(bot: LocalBot, browser: Browser) -> list[Player]:
    players = []
    for name, language, viewport in PEOPLE:
        context = await browser.new_context(viewport=viewport, locale=language)
        player = Player(name, await context.new_page(), keyboard=name.startswith("Dan"))
        player.listen()
        await sign_in_at(player.page, bot.base, name, ROOM, language)
        players.append(player)
    host = players[0].page
    await host.wait_for_selector("#game")
    await host.select_option("#game", "oh-hell")
    await host.select_option("#players", "4")
    await host.select_option("#computers", "0")
    await host.click("details summary")
    await host.select_option("#option-start_cards", "3")  # deals of 3, 2 and 1 cards: a whole match, briefly
    await host.click("[data-key=create]")
    for player in players[1:]:
        await player.page.click("[data-key=join]", timeout=20_000)
    await host.wait_for_selector("text=Seated: 4", timeout=20_000)
    await host.click("[data-key=start]")
    for player in players:
        await player.page.wait_for_selector(".hand .card", timeout=60_000)
    return players


async def shoot(players: list[Player], folder: Path, what: str = "") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for player, (_, language, viewport) in zip(players, PEOPLE, strict=True):
        kind = "phone" if viewport == PHONE else "desktop"
        await player.page.screenshot(path=str(folder / f"activity-{what}{kind}-{language}.png"))


async def no_stale_note(player: Player) -> None:
    """The note "Tap 10♦ again to play it." shows only while that card is chosen in the hand."""
    note = await player.page.text_content("#note") or ""
    chosen = await player.page.eval_on_selector_all(".hand .card.chosen", "cards => cards.map(c => c.dataset.card)")
    if "again" in note or "もう一度" in note:
        assert len(chosen) == 1, (player.name, note)


async def review_last_deal(player: Player, folder: Path, name: str, tricks: int, hands: int) -> None:
    """The player opens "Last deal": its tricks in order with who took each, the sheet, and the hands only
    once the match is over; a picture is saved; Close puts the table back."""
    page = player.page
    await page.click("[data-key=review]", timeout=10_000)
    dialog = page.locator("dialog.review")
    await dialog.wait_for(timeout=10_000)
    assert await dialog.locator(".review-tricks li").count() == tricks
    assert await dialog.locator(".review-tricks figure.won").count() <= tricks
    assert await dialog.locator(".deal-sheet tbody tr").count() == 4
    assert await dialog.locator(".review-hand").count() == hands
    await page.screenshot(path=str(folder / name))
    await dialog.locator("[data-key=close]").click()
    await dialog.wait_for(state="detached", timeout=5000)


async def press_through_a_move(players: list[Player]) -> bool:
    """A press on "Last deal" held while another seat's move arrives and would redraw the table: the release
    still opens the review (a redraw between press and release would have put a new button under the pointer,
    and the browser drops such a click), and the move is drawn once the press is let go. False if no move came
    while pressed (the pressed page's own turn, say): tried again later."""
    waiting = [p for p in players if not await p.page.locator(".controls .your-turn").count()]
    reviewers = [p for p in waiting if await p.page.locator("[data-key=review]").count()]
    if not reviewers:
        return False
    reviewer = reviewers[0]
    page = reviewer.page
    box = await page.locator("[data-key=review]").bounding_box()
    if box is None:  # gone since counted (the match's last deal ended, say): tried again later
        return False
    seen = len(reviewer.states())
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    clock = asyncio.get_running_loop().time
    # Timed from before the press is sent: the page's hold starts when its pointerdown arrives, which may be well
    # before mouse.down() returns on a busy machine; timed from after, a press the page had already let go of
    # (and so a click the browser dropped) could pass below HOLD_SECONDS here.
    down = clock()
    await page.mouse.down()
    while clock() - down < 0.8 and len(reviewer.states()) == seen:
        for mover in players:  # whoever is on turn moves (a page may redraw under its own click: tried again)
            if mover is not reviewer:
                await mover.take_turn()
        await asyncio.sleep(0.05)
    moved = len(reviewer.states()) > seen
    await asyncio.sleep(0.3)  # time enough for the page to have drawn the move, had it not held still
    await page.mouse.up()
    dialog = page.locator("dialog.review")
    if clock() - down >= HOLD_SECONDS - 0.1:
        # a slow machine held the press past the page's hold (1.5 s): the page drew meanwhile, as it should, and
        # the browser may have dropped the click; nothing is shown by this try, tried again later
        if await dialog.count():
            await dialog.locator("[data-key=close]").click()
        return False
    await dialog.wait_for(timeout=10_000)
    await dialog.locator("[data-key=close]").click()
    await dialog.wait_for(state="detached", timeout=5000)
    for _ in range(100):  # the move, drawn once the press was let go
        line = reviewer.states()[-1].get("turn_line") or ""
        shown = await page.text_content(".turn-line") if await page.locator(".turn-line").count() else None
        if (line and line in (shown or "")) or (not line and shown is None):
            return moved
        await asyncio.sleep(0.1)
    raise AssertionError(f"the pressed page did not draw the last state: {line!r}")


async def shoot_a_trick_of_three(players: list[Player], screens: Path) -> bool:
    """If the table (as the page furthest on has it) shows a trick of three cards, from the first deal's third
    trick on: the pictures taken, and what every page says checked; whether they were."""
    latest = max((p.states()[-1] for p in players if p.states()), key=lambda state: int(state["actions"]))
    if len(latest.get("trick") or []) < 3 or latest["actions"] < 12:
        return False
    await asyncio.sleep(1.0)  # every page has drawn it, and the cards have arrived on the felt
    await shoot(players, screens)
    for player in players:
        await no_stale_note(player)
        # the clock as people read time: 4:59 left / 42 s left, 残り4:59 / 残り42秒
        clock = await player.page.text_content(".turn-line .clock") or ""
        assert re.fullmatch(r"\d+:\d\d left|\d+ s left|残り\d+:\d\d|残り\d+秒", clock), clock
        info = await player.page.eval_on_selector_all(".info p", "lines => lines.map(p => p.textContent)")
        assert len(info) == len(set(info)), info  # no line twice (the trumps were)
    return True


async def test_four_pages_play_a_whole_match_of_oh_hell(local_bot: LocalBot, browser: Browser, tmp_path: Path) -> None:
    players = await seat_everyone(local_bot, browser)
    table_id = players[0].states()[-1]["id"]
    reloaded = shot = reviewed = pressed = False
    screens = tmp_path / "screens"
    for _ in range(1500):
        if all([await p.page.locator(".final-panel").count() for p in players]):
            break
        moved = False
        for player in players:
            # A trick of three cards lasts only until the fourth is played, by one of these pages: looked for before
            # each move as well as after it, in the latest state any page has (the one about to move may have its
            # state before the first page does), so that the pictures are not missed at every trick.
            shot = shot or await shoot_a_trick_of_three(players, screens)
            moved = await player.take_turn() or moved
            shot = shot or await shoot_a_trick_of_three(players, screens)
            scored = players[0].states()[-1].get("sheet")
            if not reviewed and scored and players[0].states()[-1]["status"] == "playing":
                reviewed = True  # the first deal (3 cards) is scored: its review, on two phones
                await review_last_deal(players[0], screens, "activity-review-phone-en.png", 3, 0)
                await review_last_deal(players[2], screens, "activity-review-phone-ja.png", 3, 0)
            elif reviewed and not pressed and players[0].states()[-1]["status"] == "playing":
                pressed = await press_through_a_move(players)
        moves = max(s["actions"] for p in players for s in p.states())
        if not reloaded and moves >= 6 and await players[1].hand():
            player = players[1]
            seen = player.states()[-1]["actions"]
            before = await player.hand()
            header = await player.page.text_content(".info")
            shown = len(player.states())
            await player.page.reload()
            for _ in range(400):  # the reloaded page's first state
                if len(player.states()) > shown:
                    break
                await asyncio.sleep(0.05)
            await player.page.wait_for_selector(".info", timeout=20_000)
            after = (await player.hand(), await player.page.text_content(".info"))
            assert await player.page.locator("#name").count() == 0  # the same seat, not a new sign-in
            # The same hand and table, unless a move (this page's own, still on its way) landed meanwhile:
            # then the check is made again at a later move.
            if player.states()[-1]["actions"] == seen and player.states()[-2]["actions"] == seen:
                assert after == (before, header), (before, header, after)
                reloaded = True
        if not moved:
            await asyncio.sleep(0.2)
    else:
        raise AssertionError("the match did not end")
    assert reloaded and shot and reviewed and pressed
    # The end of the match: standings, and the running totals drawn as a line a seat (SVG, no picture)
    for player in players:
        await player.page.locator(".final-panel svg.chart polyline").nth(3).wait_for(state="attached", timeout=10_000)
        assert await player.page.locator(".final-panel svg.chart polyline").count() == 4
        assert await player.page.locator(".final-panel .chart-key li").count() == 4
        await no_stale_note(player)
    await asyncio.sleep(0.5)
    await shoot(players, screens, "final-")
    await review_last_deal(players[0], screens, "activity-final-review-phone-en.png", 1, 4)  # the last deal: 1 card
    finals = [await p.page.text_content(".final-panel") for p in players]
    assert all("Alice" in text and "久美子" in text and "Dan <b>" in text for text in finals if text)
    # A name is text on the page, never HTML: "<b>" is shown as it was typed.
    assert await players[0].page.locator(".final-panel b").count() == 0

    database = Database(local_bot.database_url)
    try:
        service = TableService(database)
        table = await service.table(table_id)
        assert table.status == TableStatus.FINISHED and table.guild_id == LOCAL_GUILD
        for player in players:
            seat = next(s["seat"] for s in player.states() if s.get("seat") is not None)
            sight = await sight_by_move(database, table_id, seat)
            assert len(player.states()) > 10 and leaks(player.frames, table_id, sight) == []
        await service.close()
    finally:
        await database.close()
    wanted = os.environ.get("ACTIVITY_SCREENSHOTS")  # e.g. docs: the pictures the README and docs show
    pictures = sorted((tmp_path / "screens").glob("*.png"))
    assert len(pictures) == 11
    for picture in pictures:
        assert picture.stat().st_size > 10_000
        if wanted and picture.name in DOCS_PICTURES:
            shutil.copy(picture, Path(wanted) / picture.name)
