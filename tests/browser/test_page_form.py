"""The new-table form keeps what the player chose, and the focus, when the page is drawn again: after the
connection drops and comes back, and after a switch of language."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect

from bot.catalogues import translate

from .conftest import LocalBot
from .steps import sign_in_at
from .test_local_match import PHONE
from .test_page_connection import Network


async def form_values(page: Page) -> tuple[str, str, str, str, bool, bool, str | None]:
    return (
        await page.input_value("#game"),
        await page.input_value("#players"),
        await page.input_value("#computers"),
        await page.input_value("#level"),
        await page.is_checked("#quick"),
        await page.is_checked("#hints"),
        await page.evaluate("document.querySelector('#option-all_pass')?.value ?? null"),  # a Five Hundred option
    )


async def test_the_new_table_form_keeps_its_values_and_focus_when_drawn_again(
    local_bot: LocalBot, browser: Browser
) -> None:
    context = await browser.new_context(viewport=PHONE, locale="en")
    page = await context.new_page()
    network = Network()
    await network.attach(page)
    await sign_in_at(page, local_bot.base, "Mo", 61)
    await page.wait_for_selector("#game")
    await page.select_option("#game", "five-hundred")
    await page.select_option("#players", "5")
    await page.select_option("#computers", "1")
    await page.select_option("#level", "strong")
    await page.uncheck("#quick")
    await page.check("#hints")
    await page.click("details summary")
    await page.select_option("#option-all_pass", "play-no-trumps")
    chosen = await form_values(page)
    await page.focus("#computers")

    await network.cut()  # the connection drops and comes back: the page is drawn again twice
    await page.locator(".banner", has_text=translate("en", "screen.reconnecting")).wait_for(timeout=10_000)
    await network.restore()
    await page.locator(".banner").wait_for(state="detached", timeout=20_000)
    assert await form_values(page) == chosen
    assert await page.evaluate("document.activeElement.id") == "computers"
    await expect(page.locator("#option-all_pass")).to_be_visible()  # the options still shown

    await page.click("[data-key=language]")  # in Japanese: the same choices
    await page.locator("[data-key=language]", has_text=translate("ja", "screen.other_language")).wait_for()
    await page.locator("label[for=game]", has_text=translate("ja", "screen.game")).wait_for()
    assert await form_values(page) == chosen


async def test_the_forms_labels_keep_to_one_line_in_japanese_on_a_phone(local_bot: LocalBot, browser: Browser) -> None:
    """A short label beside a wide select ("形式", "切り札") is not broken onto two lines on a phone."""
    context = await browser.new_context(viewport=PHONE, locale="ja")
    page = await context.new_page()
    await sign_in_at(page, local_bot.base, "たろう", 62, "ja")
    await page.wait_for_selector("#game")
    for game in ("ninety-nine", "five-hundred", "oh-hell", "just-make"):
        await page.select_option("#game", game)
        if not await page.locator("details[open]").count():
            await page.click("details summary")
        lines = await page.eval_on_selector_all(
            ".form label:not(.check) > span:first-child",
            """spans => spans.filter(span => !span.parentElement.hidden).map(span => {
                const range = document.createRange();
                range.selectNodeContents(span);
                return [span.textContent, new Set([...range.getClientRects()].map(box => Math.round(box.top))).size];
            })""",
        )
        short = [(text, count) for text, count in lines if len(text) <= 4]
        assert short and all(count == 1 for _, count in short), (game, lines)


async def test_the_form_shows_an_option_only_where_it_changes_the_game(local_bot: LocalBot, browser: Browser) -> None:
    """Ninety-Nine's target shows only with the format played to a target (the quick match's nine deals has
    none); Oxford's format hides the trumps' rule and the premium bids, which it has of its own."""
    context = await browser.new_context(viewport=PHONE, locale="en")
    page = await context.new_page()
    await sign_in_at(page, local_bot.base, "Ona", 63)
    await page.wait_for_selector("#game")
    await page.select_option("#game", "ninety-nine")
    await page.click("details summary")
    target, trumps = page.locator("label[for=option-target]"), page.locator("label[for=option-trump_style]")
    await expect(target).to_be_hidden()  # the quick match: nine deals
    await page.select_option("#option-format", "target")
    await expect(target).to_be_visible()
    await page.select_option("#option-format", "oxford")
    await expect(target).to_be_hidden()
    await expect(trumps).to_be_hidden()
    await expect(page.locator("label[for=option-premium_bids]")).to_be_hidden()
    await page.uncheck("#quick")  # back to the rules' defaults: three bonuses
    await expect(trumps).to_be_visible()
    await expect(target).to_be_hidden()
