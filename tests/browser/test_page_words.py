"""What the page says, read as a newcomer reads it, in English and Japanese: the catalogue's texts written for
Discord show their bold as bold, never as ``**``; a Ninety-Nine bid card reads ``10♠ = 1``; once the three
bid cards are picked the page says to check and confirm; a full lobby offers no seat and no computer, and a
refusal said in the lobby goes once the match starts; on a phone 360 to 390 px wide no header button runs off
the screen; no page load asks the server for a ``/favicon.ico``; a Just Make card tapped to bid says it bids, and
what it counts."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from bot.catalogues import translate

from .conftest import LocalBot
from .steps import new_table, no_computer_pace, start_and_see_the_hand
from .test_local_match import HOLD_SECONDS, Player

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
NARROW = (360, 375, 390)  # the phones' widths the header must fit


async def icon_inline(page: Page) -> None:
    """The page names its icon inline, a picture that draws: the browser asks no ``/favicon.ico`` (which it
    would, and log its 404, without one; it asks outside the page, so no request event shows it)."""
    href = await page.get_attribute("link[rel=icon]", "href")
    assert href and href.startswith("data:image/svg+xml,"), href
    drawn = await page.evaluate(
        """(href) => new Promise((done) => {
          const image = new Image();
          image.onload = () => done(image.naturalWidth > 0);
          image.onerror = () => done(false);
          image.src = href;
        })""",
        href,
    )
    assert drawn, href


async def open_page(
    bot: LocalBot, browser: Browser, name: str, language: str, viewport: dict[str, int], room: int
) -> Player:
    context = await browser.new_context(viewport=viewport, locale=language)
    player = Player(name, await context.new_page())
    player.listen()
    await player.page.goto(f"{bot.base}/?room={room}&lang={language}")
    await icon_inline(player.page)
    await player.page.fill("#name", name)
    await player.page.click("button[type=submit]")
    return player


def joining(player: Player) -> list[dict[str, Any]]:
    """The Join presses the page has sent to the server."""
    return [frame for frame in player.sent if frame.get("op") == "join"]


def bold_of(language: str, key: str) -> str:
    """The words a catalogue text puts in bold (``**Pass**: …`` → ``Pass``)."""
    found = re.search(r"\*\*(.+?)\*\*", translate(language, key))
    assert found, key
    return found.group(1)


async def says_no_markdown(page: Page) -> None:
    """The whole page shows no Discord markdown, no escape of a name and no ``10♠: = 1``."""
    text = await page.inner_text("body")
    assert "**" not in text and "\\*" not in text and ": =" not in text, text


async def header_fits(page: Page, where: str) -> None:
    """Every header button lies wholly on the screen, nothing is wider than the screen, no seat name is cut."""
    found: dict[str, Any] = await page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          const nav = document.querySelector("header.top nav");
          const buttons = [...document.querySelectorAll("header.top .btn")].map((button) => {
            const box = button.getBoundingClientRect();
            const inner = button.scrollWidth <= button.clientWidth;  // its words not cut inside it either
            return { text: button.textContent, left: box.left, right: box.right, inner };
          });
          const page = document.documentElement.scrollWidth;
          return { width, buttons, page, nav: nav ? nav.scrollWidth - nav.clientWidth : 0 };
        }"""
    )
    width = found["width"]
    assert len(found["buttons"]) >= 2, (where, found)
    for button in found["buttons"]:
        assert button["left"] >= 0 and button["right"] <= width and button["inner"], (where, button, width)
    assert found["nav"] <= 0 and found["page"] <= width, (where, found)
    # and every seat's name whole on its plate (these are short: a computer's, a newcomer's)
    cut = await page.eval_on_selector_all(
        ".plate .name", "names => names.filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent)"
    )
    assert cut == [], (where, cut)


async def pick_bid_cards(player: Player, language: str, shots: Path) -> None:
    """Pick three bid cards one by one: each picked card's tag reads ``10♠ = 1``, and the line beside says to
    pick three until all three are picked, then to check and confirm."""
    page = player.page
    for picked in range(1, 4):
        free = await page.eval_on_selector_all(
            ".hand .card:not(.dim):not(.chosen)", "cards => cards.map(c => c.dataset.card)"
        )
        await page.locator(f'.hand .card[data-card="{free[0]}"]').click()
        await page.locator(".hand .card.chosen").nth(picked - 1).wait_for()
        tags = await page.eval_on_selector_all(".controls .tag", "tags => tags.map(t => t.textContent)")
        assert len(tags) == picked and all(re.fullmatch(r"\S+ = \d\+?", tag) for tag in tags), tags
        line = await page.text_content(".controls .pick")
        # three to pick, until all three are: then check and confirm, as the chat's hand says
        pick, check = translate(language, "screen.pick_cards", count=3), translate(language, "hand.confirm")
        wanted = check if picked == 3 else pick
        assert line == wanted, (picked, line)
        await says_no_markdown(page)
    assert await page.locator('.controls [data-key="confirm"]').is_enabled()
    await page.screenshot(path=str(shots / f"bid-picked-{language}.png"))
    await page.locator('.controls [data-key="confirm"]').click()
    await page.locator(".controls .pick").wait_for(state="detached", timeout=10_000)  # the bid made


async def premium_words(player: Player, language: str, shots: Path) -> None:
    """Asked to declare, reveal or pass: the hand's notes say what each risks, their names in bold."""
    page = player.page
    notes = page.locator(".info .mine")
    await notes.locator("strong").first.wait_for(timeout=10_000)
    bold = await notes.locator("strong").all_text_contents()
    assert bold_of(language, "hand.explain_pass") in bold, bold
    assert set(bold) & {bold_of(language, "hand.explain_declare"), bold_of(language, "hand.explain_reveal")}, bold
    await says_no_markdown(page)
    await page.screenshot(path=str(shots / f"premium-{language}.png"))
    await page.locator('.controls [data-key="a-pass"]').click()
    await page.locator('.controls [data-key="a-pass"]').wait_for(state="detached", timeout=10_000)  # passed


@pytest.mark.parametrize(("language", "viewport"), [("en", DESKTOP), ("ja", PHONE)], ids=["en-desktop", "ja-phone"])
async def test_ninety_nine_reads_plainly_and_the_header_fits_a_phone(
    local_bot: LocalBot, browser: Browser, tmp_path: Path, language: str, viewport: dict[str, int]
) -> None:
    await no_computer_pace(local_bot)
    shots = tmp_path / "screens"
    shots.mkdir()
    name = "A*n*n" if language == "en" else "新人"  # a name with marks in it reads as it is
    player = await open_page(local_bot, browser, name, language, viewport, 4)
    page = player.page
    await new_table(page, "ninety-nine", 3, 2)
    await start_and_see_the_hand(page)
    bid = premium = named = False
    for _ in range(1500):
        # the name read as typed, looked for before the loop may end: the page may become the dealer in the very
        # state that ends it (the next deal's bid asked)
        named = named or "dealer A*n*n" in (await page.text_content(".info") or "")
        header = [await page.locator(f"header.top [data-key={key}]").count() for key in ("sheet", "last", "review")]
        if bid and premium and header == [1, 1, 1] and await page.locator(".controls .your-turn").count():
            break  # a deal scored, a trick of the next played: all the header's buttons, held while the page's turn
        await says_no_markdown(page)
        if await page.locator(".hand .card.blocked").count():
            await asyncio.sleep(0.1)  # the page's move is on its way (its controls held): its answer redraws them
        elif await page.locator(".controls .pick").count() and not await page.locator(".hand .card.chosen").count():
            await pick_bid_cards(player, language, shots)
            bid = True
        elif await page.locator('.controls [data-key="a-pass"]').count():
            await premium_words(player, language, shots)
            premium = True
        elif not await player.take_any():
            await asyncio.sleep(0.1)
    else:
        await page.screenshot(path=str(shots / "stuck.png"))
        raise AssertionError(f"no deal scored with a bid and a premium asked: {bid} {premium}")
    named = named or "dealer A*n*n" in (await page.text_content(".info") or "")  # and as the loop left it
    if any("dealer A\\*n\\*n" in line for state in player.states() for line in state.get("header") or []):
        assert named  # the dealer's name, escaped by the server (A\*n\*n), read on the page as it was typed
    await page.screenshot(path=str(shots / f"scored-{language}.png"))
    other = "ja" if language == "en" else "en"
    for reading in (language, other):
        if reading != language:  # the header's language button: the same table in the other language
            await page.click("[data-key=language]")
            await page.locator("[data-key=language]", has_text=translate(reading, "screen.other_language")).wait_for()
        for width in NARROW:
            await page.set_viewport_size({"width": width, "height": 844})
            # every button the header holds now (four while the table waits for this page's move; a slow machine's
            # turn clock may have moved it on) within the width
            assert await page.locator("header.top .btn").count() >= 3
            await header_fits(page, f"{reading} at {width} px")
            await says_no_markdown(page)
            await page.screenshot(path=str(shots / f"phone-{width}-{reading}.png"))


async def test_a_full_lobby_offers_no_seat_and_a_refusal_goes_once_the_match_starts(
    local_bot: LocalBot, browser: Browser, tmp_path: Path
) -> None:
    await no_computer_pace(local_bot)
    shots = tmp_path / "screens"
    shots.mkdir()
    host = await open_page(local_bot, browser, "Alice", "en", DESKTOP, 5)
    await new_table(host.page, "oh-hell", 4, 2, level=None)
    await host.page.wait_for_selector("text=Seated: 3", timeout=20_000)
    guest = await open_page(local_bot, browser, "久美子", "ja", PHONE, 5)
    await guest.page.locator("[data-key=join]").wait_for(timeout=20_000)
    for level in ("easy", "strong"):
        assert await host.page.locator(f"[data-key={level}]").count() == 1
    full = translate("ja", "error.table_full", players=4)

    # A fourth seat taken: nobody is offered a seat or a computer any more; a seat freed: they are again.
    await host.page.click("[data-key=easy]")
    await host.page.wait_for_selector("text=Seated: 4")
    await guest.page.locator(".lobby p.muted", has_text=full).wait_for()
    assert await guest.page.locator("[data-key=join]").count() == 0
    assert [await host.page.locator(f"[data-key={key}]").count() for key in ("easy", "strong", "start")] == [0, 0, 1]
    await host.page.screenshot(path=str(shots / "full-lobby-host-en.png"))
    await guest.page.screenshot(path=str(shots / "full-lobby-guest-ja.png"))
    await host.page.locator("[data-key^=rm-]").last.click()
    await host.page.wait_for_selector("text=Seated: 3")
    await guest.page.locator("[data-key=join]").wait_for()
    assert await host.page.locator("[data-key=easy]").count() == 1

    # The guest presses Join as the host takes the last seat: the press holds the page still, so the click lands
    # on the Join the page showed, and the service refuses it (full). The refusal is said until the match starts.
    clock = asyncio.get_running_loop().time
    for _ in range(5):
        join = await guest.page.locator("[data-key=join]").bounding_box()
        assert join is not None
        seen, sent = len(guest.states()), len(joining(guest))
        await guest.page.mouse.move(join["x"] + join["width"] / 2, join["y"] + join["height"] / 2)
        pressed = clock()  # before the press is sent: the page's hold starts no earlier than this
        await guest.page.mouse.down()
        await host.page.click("[data-key=easy]")
        for _ in range(400):  # the host's seat reaches the guest's page while the press is held (20 s at most)
            if len(guest.states()) > seen and len(guest.states()[-1]["lobby"]["seats"]) == 4:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the fourth seat never reached the guest's page")
        await guest.page.mouse.up()
        if clock() - pressed < HOLD_SECONDS - 0.1:
            break
        # A slow machine held the press past the page's hold: the page drew the full lobby under the pointer
        # meanwhile, as it should, and the browser may have dropped the click. Not what is tested here: a seat is
        # freed (which also clears any refusal said) and the press made again.
        await host.page.locator("[data-key^=rm-]").last.click()
        await host.page.wait_for_selector("text=Seated: 3")
        await guest.page.locator("[data-key=join]").wait_for()
    else:
        raise AssertionError("every press outlasted the page's hold")
    # the refusal is a round trip to the server, on a machine that may be busy
    await guest.page.locator("#note", has_text=full).wait_for(timeout=20_000)
    assert len(joining(guest)) == sent + 1, guest.sent  # this press's click landed on the Join the held page showed
    assert await guest.page.locator("[data-key=join]").count() == 0
    await host.page.click("[data-key=start]")
    await guest.page.locator(".felt").wait_for(timeout=20_000)
    assert full not in (await guest.page.text_content("#note") or "")
    await guest.page.screenshot(path=str(shots / "started-guest-ja.png"))


async def test_cards_picked_for_a_bid_stay_picked_while_another_seat_bids(
    local_bot: LocalBot, browser: Browser, tmp_path: Path
) -> None:
    """Ninety-Nine's bids are made at once: a card picked for a bid stays picked (its tag said) when another
    seat's bid arrives before the other two are picked, and the bid is then made with the three."""
    await no_computer_pace(local_bot)
    shots = tmp_path / "screens"
    shots.mkdir()
    host = await open_page(local_bot, browser, "Alice", "en", DESKTOP, 6)
    await new_table(host.page, "ninety-nine", 3, 1, level=None)
    await host.page.wait_for_selector("text=Seated: 2", timeout=20_000)
    guest = await open_page(local_bot, browser, "久美子", "ja", PHONE, 6)
    await guest.page.click("[data-key=join]", timeout=20_000)
    await host.page.wait_for_selector("text=Seated: 3", timeout=20_000)
    await host.page.click("[data-key=start]")
    for player in (host, guest):
        await player.page.locator(".controls .pick").wait_for(timeout=60_000)

    page = host.page
    free = await page.eval_on_selector_all(
        ".hand .card:not(.dim):not(.chosen)", "cards => cards.map(c => c.dataset.card)"
    )
    await page.locator(f'.hand .card[data-card="{free[0]}"]').click()
    await page.locator(f'.hand .card.chosen[data-card="{free[0]}"]').wait_for()
    moves = host.states()[-1]["actions"]
    await pick_bid_cards(guest, "ja", shots)  # the guest's bid: a new state for the host, its own bid still to make
    for _ in range(300):
        if host.states()[-1]["actions"] > moves:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the guest's bid never reached the host's page")
    await page.wait_for_timeout(200)  # the page has drawn what it received
    assert await page.eval_on_selector_all(".hand .card.chosen", "cards => cards.map(c => c.dataset.card)") == [free[0]]
    assert await page.locator(".controls .tag").count() == 1
    assert await page.text_content(".controls .pick") == translate("en", "screen.pick_cards", count=3)
    for card in free[1:3]:
        await page.locator(f'.hand .card[data-card="{card}"]').click()
    await page.locator(".hand .card.chosen").nth(2).wait_for()
    assert await page.locator('.controls [data-key="confirm"]').is_enabled()
    await page.locator('.controls [data-key="confirm"]').click()
    await page.locator(".controls .pick").wait_for(state="detached", timeout=10_000)  # the bid made with all three


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_a_just_make_card_tapped_to_bid_says_it_bids_and_what_it_counts(
    local_bot: LocalBot, browser: Browser, language: str
) -> None:
    """A Just Make bid is a card: tapped once, the note says a second tap bids with it and what it counts (as the
    chat's button does: ``= 3``), not that it plays it."""
    await no_computer_pace(local_bot)
    player = await open_page(local_bot, browser, "Bea", language, PHONE, 7)
    page = player.page
    await new_table(page, "just-make", 4, 3)
    await start_and_see_the_hand(page)
    for _ in range(600):
        offered = await page.eval_on_selector_all(".hand .card:not(.dim)", "cards => cards.map(c => c.dataset.card)")
        states = player.states()
        bidding = bool(states) and any(
            a["action"].startswith("bid ") for c in states[-1].get("choices") or [] for a in c["actions"]
        )
        if offered and bidding and await page.locator(".controls .your-turn").count():
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the page was never asked for a bid")
    notes = {n["card"]: n["text"] for c in player.states()[-1]["choices"] for n in c["notes"]}
    card = offered[0]
    await page.locator(f'.hand .card[data-card="{card}"]').click()
    await page.locator(f'.hand .card.chosen[data-card="{card}"]').wait_for()
    said = await page.text_content("#note") or ""
    wanted = translate(language, "screen.tap_again_bid", card="\x00", counts=notes[card]).split("\x00")[1]
    assert wanted in said and notes[card] in said, said
    assert translate(language, "screen.tap_again", card="\x00").split("\x00")[1] not in said
