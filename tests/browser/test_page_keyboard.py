"""The page with the keyboard and a screen reader: after a bid or a card played with Enter the focus stays in the
table (on the card now at the same place, else the first control), never dropped to the page's body; a card the
rules do not let the seat play is said to be disabled (and stays focusable, so a press says the rule); and the
controls are called "Your turn" only when it is."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect

from bot.catalogues import translate

from .conftest import LocalBot
from .steps import bid_until_a_card_is_to_play, no_computer_pace, open_oh_hell
from .test_page_connection import sign_in

FOCUS = """() => {
  const active = document.activeElement;
  const cards = [...document.querySelectorAll(".hand .card")];
  return { inApp: document.getElementById("app").contains(active) && active !== document.body,
           card: cards.indexOf(active), key: active.dataset.key ?? null };
}"""


async def play_with_the_keyboard(page: Page) -> int:
    """Play the first card the seat may play: focus, Enter to choose it, Enter to play it; the card's place."""
    playable = await page.eval_on_selector_all(".hand .card:not(.dim)", "cards => cards.map(c => c.dataset.card)")
    cards = await page.eval_on_selector_all(".hand .card", "cards => cards.map(c => c.dataset.card)")
    card = page.locator(f'.hand .card[data-card="{playable[0]}"]')
    await card.focus()
    await page.keyboard.press("Enter")
    await page.locator(f'.hand .card.chosen[data-card="{playable[0]}"]').wait_for(timeout=5000)
    await page.keyboard.press("Enter")
    await card.wait_for(state="detached", timeout=20_000)
    return int(cards.index(playable[0]))


async def test_the_focus_stays_in_the_table_after_a_bid_and_a_card_played_with_enter(
    local_bot: LocalBot, browser: Browser
) -> None:
    await no_computer_pace(local_bot)
    page = await sign_in(local_bot, browser, "Ivy", 81)
    await open_oh_hell(page)
    bids = page.locator(".controls .btn.number")
    await bids.first.wait_for(timeout=30_000)
    await bids.first.focus()
    await page.keyboard.press("Enter")
    await bids.first.wait_for(state="detached", timeout=20_000)
    focus = await page.evaluate(FOCUS)
    assert focus["inApp"], focus
    await bid_until_a_card_is_to_play(page)  # the seat's turn to play a card (its one bid of the deal made)
    place = await play_with_the_keyboard(page)
    focus = await page.evaluate(FOCUS)
    left = await page.locator(".hand .card").count()
    assert focus["inApp"] and focus["card"] == min(place, left - 1), (focus, place, left)


async def test_cards_that_may_not_be_played_are_disabled_and_the_controls_say_your_turn_only_when_it_is(
    local_bot: LocalBot, browser: Browser
) -> None:
    await no_computer_pace(local_bot)
    page = await sign_in(local_bot, browser, "Jay", 82)
    await open_oh_hell(page)
    await page.locator(".controls .btn.number").first.wait_for(timeout=30_000)  # bidding: no card may be played
    await expect(page.locator(".controls")).to_have_attribute("aria-label", translate("en", "screen.your_turn"))
    cards = page.locator(".hand .card")
    for at in range(await cards.count()):
        await expect(cards.nth(at)).to_have_attribute("aria-disabled", "true")
    refused = cards.first
    await refused.focus()
    await page.keyboard.press("Enter")  # still focusable: pressed, it says why not
    await expect(page.locator("#note")).not_to_have_text("")
    watcher = await sign_in(local_bot, browser, "Kit", 82)  # another in the room: watches, never on turn
    await watcher.locator(".felt").wait_for(timeout=20_000)
    assert await watcher.locator(".controls .your-turn").count() == 0
    await expect(watcher.locator(".controls")).not_to_have_attribute("aria-label", translate("en", "screen.your_turn"))
