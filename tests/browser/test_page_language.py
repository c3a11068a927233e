"""A switch of language mid-move: a question the page asks before a move (which suit of a Five Hundred bid) is
asked again in the new language, its answers too, from the table the server sends in it."""

from __future__ import annotations

import asyncio

from playwright.async_api import Browser, expect

from bot.catalogues import translate

from .conftest import LocalBot
from .steps import new_table, no_computer_pace
from .test_page_moves import watched


def plain(text: str) -> str:
    """A catalogue's text as the page shows it: its bold marks drawn, not written."""
    return text.replace("**", "")


async def test_a_step_of_a_bid_is_asked_again_in_the_new_language(local_bot: LocalBot, browser: Browser) -> None:
    await no_computer_pace(local_bot)
    page, frames = await watched(local_bot, browser, "Hal", 71)
    await new_table(page, "five-hundred", 4, 3)
    await page.click("[data-key=start]", timeout=20_000)
    numbers = page.locator(".controls .btn.number")
    await numbers.first.wait_for(timeout=60_000)
    offered = next(frame["table"] for frame in reversed(frames.got) if frame.get("type") == "state")["choices"]
    # a bid of several ways (its suits): the page asks which
    number = next(n["number"] for c in offered for n in c.get("numbers") or [] if len(n["actions"]) > 1)
    await page.click(f'.controls [data-key="n-{number}"]')
    steps = page.locator('.controls [data-key^="step-"]')
    await steps.first.wait_for()
    actions = [(await steps.nth(at).get_attribute("data-key") or "")[5:] for at in range(await steps.count())]

    seen = len(frames.got)
    await page.click("[data-key=language]")
    await page.locator("[data-key=language]", has_text=translate("ja", "screen.other_language")).wait_for()
    # The table as the server says it in Japanese: a round trip, which a loaded machine may take seconds over (only a
    # failure waits the whole 30 s). Past 10 s this went on with the English table, to fail on its labels.
    for _ in range(600):
        if any(frame.get("type") == "state" for frame in frames.got[seen:]):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("no table came in Japanese")
    table = next(frame["table"] for frame in reversed(frames.got) if frame.get("type") == "state")
    choices = table["choices"]
    label = next(n["label"] for c in choices for n in c.get("numbers") or [] if n["number"] == number)
    answers = {a["action"]: a["label"] for c in choices for a in c["actions"]}
    await expect(page.locator(".controls .prompt")).to_have_text(plain(label))
    for action in actions:
        await expect(page.locator(f'.controls [data-key="step-{action}"]')).to_have_text(plain(answers[action]))
    await expect(page.locator('.controls [data-key="back"]')).to_have_text(translate("ja", "screen.back"))
