"""What a hand tells before the click: Declare, Reveal and Pass explained, and Reveal asked again."""

from __future__ import annotations

from tests.double import BotProcess, DiscordDouble

from .conftest import people
from .driver import Player, TableDriver, control
from .leaks import logged_actions


async def bid_until_premium(table: TableDriver) -> Player:
    """Everyone bids at random; the first person asked about a premium bid."""
    for _ in range(40):
        await table.refresh_all()
        for player in table.players:
            assert player.hand is not None
            if control(player.hand, ":reveal") is not None:
                return player
        mover = next(p for p in table.players if p.hand is not None and table.choices(p.hand))
        await table.take_turn(mover)
        if mover.hand is not None and control(mover.hand, "tt:act:") and "=" in mover.hand.text():
            confirm = next(c for c in mover.hand.controls() if c.get("custom_id", "").startswith("tt:act:"))
            await table.double.click(mover.user, mover.hand, confirm["custom_id"])  # a bid's Confirm
    raise AssertionError("nobody was asked to declare, reveal or pass")


async def test_reveal_explains_itself_and_asks_again(double: DiscordDouble, bot: BotProcess, database_url: str) -> None:
    table = TableDriver(double, people(3), seed=4)
    await table.open("ninety-nine", players=3, format="target", target=50)
    await table.seat_everyone()
    await table.start()
    asked = await bid_until_premium(table)
    assert asked.hand is not None
    text = asked.hand.text()
    assert "**Declare**" in text and "+30 for you" in text and "**Reveal**" in text and "+60" in text
    assert "**Pass**: nothing is shown" in text
    reveal = control(asked.hand, ":reveal")
    assert reveal is not None and reveal["custom_id"].startswith("tt:more:"), "Reveal is a next step, not the act"
    before = await logged_actions(database_url, table.table_id)
    await double.click(asked.user, asked.hand, reveal["custom_id"])
    assert "Press Reveal again to confirm" in asked.hand.text()
    assert await logged_actions(database_url, table.table_id) == before, "nothing is done before the confirmation"
    back = next(c for c in asked.hand.controls() if c.get("custom_id", "").startswith("tt:hand:"))
    confirm = next(c for c in asked.hand.controls() if c.get("custom_id", "").startswith("tt:act:"))
    assert confirm["custom_id"].endswith(":reveal") and back is not None
    await double.click(asked.user, asked.hand, confirm["custom_id"])
    after = await logged_actions(database_url, table.table_id)
    assert after[len(before) :] == ["reveal"]
    assert double.problems == []


async def test_the_hand_shows_what_the_bid_needs(double: DiscordDouble, bot: BotProcess) -> None:
    """Just Make bids in order: the next bidder sees the bids already made, with each card's value on
    its button; Five Hundred's bidder sees the highest bid so far."""
    table = TableDriver(double, people(4), seed=5)
    await table.open("just-make", players=4)
    await table.seat_everyone()
    await table.start()
    await table.refresh_all()
    first = next(p for p in table.players if p.hand is not None and table.choices(p.hand))
    assert first.hand is not None
    assert all(" = " in c["label"] for c in table.choices(first.hand)), "each bid card says its number"
    await table.take_turn(first)
    await table.refresh_all()
    second = next(p for p in table.players if p.hand is not None and table.choices(p.hand))
    assert second.hand is not None and f"Bids so far: {first.user.name}: " in second.hand.text()

    auction = TableDriver(double, people(4)[::-1], seed=6)
    await auction.open("five-hundred", players=4)
    await auction.seat_everyone()
    await auction.start()
    await auction.refresh_all()
    bidder = next(p for p in auction.players if p.hand is not None and auction.choices(p.hand))
    assert bidder.hand is not None and "No bid yet" in bidder.hand.text()
    assert double.problems == []
