"""Two-player Ninety-Nine at the local table from a phone's page: the dummy has a plate of its own on the felt, and
when it is the player's to play for the dummy, the dummy's cards are offered beside the hand, tapped as the hand's
are (chosen, then played), and the card lands in the trick as the dummy's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from bot.catalogues import translate

from .conftest import LocalBot
from .steps import new_table, no_computer_pace, sign_in_at, start_and_see_the_hand
from .test_local_match import Player

DUMMY = 2  # the dummy's seat: after the two players


def dummy_played(states: list[dict[str, Any]], card: str) -> bool:
    """Whether a state shows ``card`` played by the dummy (in the trick, or the trick just taken)."""
    for state in states:
        tricks = [state.get("trick") or [], (state.get("last_trick") or {}).get("cards") or []]
        if any(played == {"seat": DUMMY, "card": card} for trick in tricks for played in trick):
            return True
    return False


async def test_the_player_plays_for_the_dummy_from_the_page(
    local_bot: LocalBot, browser: Browser, tmp_path: Path
) -> None:
    await no_computer_pace(local_bot)
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    player = Player("Nina", await context.new_page())
    player.listen()
    page = player.page
    await sign_in_at(page, local_bot.base, "Nina", 81)
    await new_table(page, "ninety-nine", 2, 1)
    await start_and_see_the_hand(page)
    await page.locator(f'.plate[data-seat="{DUMMY}"]').wait_for(timeout=30_000)  # the dummy's own plate
    played = None
    for _ in range(900):
        apart = page.locator(".controls .hand.apart .card:not(.dim)")
        if await apart.count():
            # (``take_any`` below taps any card offered, the dummy's too: its move may land between two looks here,
            # the page then drawn again on the seat's own turn; then look again)
            label = page.locator(".controls p.muted", has_text=translate("en", "screen.dummy_cards"))
            try:
                card = await apart.first.get_attribute("data-card", timeout=2000)
                if card is None or await label.count() != 1:
                    continue
                assert card not in await page.eval_on_selector_all(
                    "main > .hand .card", "cards => cards.map(c => c.dataset.card)"
                )
                await apart.first.click(timeout=3000)
                await page.locator(f'.controls .hand.apart .card.chosen[data-card="{card}"]').click(timeout=3000)
            except PlaywrightError:
                continue
            played = card
            break
        states = player.states()
        if states and states[-1]["status"] != "playing":
            break
        if not await player.take_any():
            await page.wait_for_timeout(200)
    if played is None:
        await page.screenshot(path=str(tmp_path / "never-the-dummy.png"))
        raise AssertionError("the page never offered the dummy's cards to play")
    for _ in range(300):
        if dummy_played(player.states(), played):
            break
        await page.wait_for_timeout(100)
    else:
        raise AssertionError(f"{played} was not played as the dummy's")
    names = [s["name"] for s in player.states()[-1]["seats"]]
    assert names[DUMMY] == translate("en", "seat.dummy") and len(names) == 3
