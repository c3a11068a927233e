"""The bot lives within Discord's rules as the double enforces them: interaction tokens that die after
15 minutes, and the per-route rate limit buckets Discord announces in its headers.

(Each refusal of the double is tested on its own in ``tests/double/test_rules.py``; the fixture of every
end-to-end test checks every request against Discord's spec.)
"""

from __future__ import annotations

from tests.double import BotProcess, DiscordDouble
from tests.double.limits import TOKEN_LIFETIME, RouteLimit

from .conftest import people
from .driver import WAIT, TableDriver, control
from .test_rest_budget import shown_move


async def test_hands_past_fifteen_minutes_are_offered_afresh_without_an_error(
    double: DiscordDouble, bot: BotProcess
) -> None:
    players = people(3)
    table = TableDriver(double, players, seed=3)
    await table.open("oh-hell", players=3, start_cards=3)
    await table.seat_everyone()
    await table.start()
    old = [await table.show_hand(player) for player in table.players]
    assert all("Show my hand" in hand.text() for hand in old)  # each hand says how to get a fresh one
    double.clock.advance(TOKEN_LIFETIME + 1)  # every hand's token is dead: Discord no longer lets it be edited
    # The match goes on: a move's own click answers at once, and a hand the bot could not update is
    # brought up to date by its Refresh button (a new interaction) or a fresh "Show my hand".
    await table.play(stop_after=4, patience=2.0)
    refused = [problem for problem in double.problems if "Invalid Webhook Token" in problem]
    assert refused, "the bot never tried a hand's dead token: this test did not test it"
    assert refused == double.problems  # nothing else went wrong
    fresh = await table.show_hand(table.players[0])
    assert fresh.id not in {hand.id for hand in old}
    assert control(fresh, "tt:hand:") is not None  # it refreshes, like any hand
    assert "Traceback" not in bot.log()


async def test_the_bot_waits_on_the_buckets_it_is_given(double: DiscordDouble, bot: BotProcess) -> None:
    """Tight buckets for posting and editing in a channel: the bot reads X-RateLimit-Remaining and
    X-RateLimit-Reset-After and waits, so it never runs into a 429 of its own."""
    double.limits.routes[("PATCH", "/channels/{channel_id}/messages/{message_id}")] = RouteLimit(2, 1.0)
    double.limits.routes[("POST", "/channels/{channel_id}/messages")] = RouteLimit(2, 1.0)
    table = TableDriver(double, people(3), seed=5)
    await table.open("oh-hell", players=3, start_cards=2)
    await table.seat_everyone()
    await table.start()
    await table.play(stop_after=8)
    shown = table.table
    assert shown is not None
    # the table still comes to show the latest move (its edits waited on the bucket, none was lost)
    await double.wait_for(lambda: (shown_move(shown) or 0) >= table.actions, WAIT, "the table shows the latest move")
    assert [refusal for refusal in double.limits.limited if refusal.startswith("user:")] == []
    assert double.problems == []
