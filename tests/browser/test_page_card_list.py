"""A long list of cards to name on the page (Five Hundred's called card, forty-odd cards): laid out a row a suit
of small buttons, high cards first, each said whole to a screen reader, and a tap names that card. It was a row
of forty-odd "Call …" buttons that ran under the hand on a phone."""

from __future__ import annotations

import copy
import os
import shutil
from pathlib import Path

import pytest
from playwright.async_api import Browser

from activity.screen import choices_screen
from tests.activity.test_screen_words import a_table, calling_state

from .conftest import LocalBot
from .steps import new_table, no_computer_pace, sign_in_at, start_and_see_the_hand
from .test_local_match import PHONE
from .test_page_connection import Network


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_a_long_list_of_cards_to_call_is_laid_out_by_suit(
    local_bot: LocalBot, browser: Browser, tmp_path: Path, language: str
) -> None:
    await no_computer_pace(local_bot)
    context = await browser.new_context(viewport=PHONE, locale=language)
    page = await context.new_page()
    network = Network()
    await network.attach(page)
    await sign_in_at(page, local_bot.base, "Cal", 61 if language == "en" else 62, language)
    await new_table(page, "five-hundred", 5, 4)
    await start_and_see_the_hand(page)
    await page.locator(".controls .your-turn").wait_for(timeout=60_000)  # the page's bid: the table waits for it
    # The contractor's call, as the server gives it for a real five-player deal, slipped into this table's frame.
    state, seat = calling_state()
    table = a_table("five-hundred", 5, ["Cal", None, None, None, None])
    choices = choices_screen(table, state.view(seat), state.legal(seat), language)
    calls = [entry for choice in choices for entry in choice.get("list_cards", [])]
    assert len(calls) > 12
    said = {a["action"]: a["label"] for choice in choices for a in choice["actions"]}
    frame = copy.deepcopy(next(f for f in reversed(network.got) if f.get("type") == "state" and f.get("table")))
    frame["table"]["choices"] = choices
    network.slip_in(frame)
    chips = page.locator(".controls .card-list .btn.chip")
    await chips.first.wait_for(timeout=10_000)
    assert await chips.count() == len(calls)
    rows = page.locator(".controls .card-list .suit-row")
    suits = {entry["card"][-1] if not entry["card"].startswith("JK") else "J" for entry in calls}
    assert await rows.count() == len(suits)
    assert await page.locator('.controls [data-key="a-alone"]').count() == 1  # going alone: still a button
    first = chips.first
    action = (await first.get_attribute("data-key") or "").removeprefix("a-")
    assert await first.get_attribute("aria-label") == said[action]  # "Call A♠" whole, as the list said it
    # the whole list fits the phone's width: no chip runs off the screen
    for at in range(await chips.count()):
        box = await chips.nth(at).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    await page.locator(".controls .card-list").scroll_into_view_if_needed()
    await page.screenshot(path=str(tmp_path / f"activity-call-list-phone-{language}.png"))
    wanted = os.environ.get("ACTIVITY_SCREENSHOTS")
    if wanted:
        shutil.copy(tmp_path / f"activity-call-list-phone-{language}.png", Path(wanted))
    await first.click()
    assert network.acts() and network.acts()[-1]["action"] == action
    await context.close()
