"""Understanding what happened: the table's Last deal, trick by trick, and /history's replay of a
finished match with every hand as dealt, deal after deal; each only in its own server."""

from __future__ import annotations

from tests.double import BotProcess, DiscordDouble, Message, User

from .conftest import people
from .driver import WAIT, TableDriver, cards_named, control
from .leaks import logged_actions


def review_of(double: DiscordDouble, user: User) -> Message:
    found = double.latest_ephemeral(user)
    assert found is not None
    return found


async def test_last_deal_and_history_replay(double: DiscordDouble, bot: BotProcess, database_url: str) -> None:
    players = people(3)
    table = TableDriver(double, players, seed=12)
    await table.open("oh-hell", players=3, start_cards=3)  # deals of 3, 2 and 1 cards
    await table.seat_everyone()
    await table.start()
    assert table.table is not None
    assert control(table.table, "tt:review:") is None, "nothing to review before a deal is scored"
    await table.play(stop_after=3 + 9)  # the three bids and the three tricks of the first deal
    button = await double.wait_for(lambda: control(table.table, "tt:review:"), timeout=WAIT)  # type: ignore[arg-type]

    watcher = User(4400, "Wanda")  # anyone at the table may look back; only what the table showed
    await double.click(watcher, table.table, button["custom_id"])
    review = review_of(double, watcher)
    text = review.text()
    assert "deal 1, trick by trick" in text and text.count(" · won by ") == 3, text
    assert "hand as dealt" not in text, "no hand is shown while the match goes on"
    first_deal_plays = {
        a.split()[1] for a in (await logged_actions(database_url, table.table_id))[:12] if a.startswith("play ")
    }
    assert cards_named(text) >= first_deal_plays and len(first_deal_plays) == 9
    for line in text.splitlines():
        if line[:2] in ("1.", "2.", "3."):
            assert cards_named(line) <= first_deal_plays, line

    await table.play()
    await table.wait_finished()
    history = (await double.command(players[1], "history")).original
    assert history is not None
    picker = control(history, "rk:open:")
    assert picker is not None
    opened = (await double.choose(players[1], history, picker["custom_id"], [picker["options"][0]["value"]])).original
    assert opened is not None
    replay = control(opened, "rk:deal:")
    assert replay is not None and [o["label"] for o in replay["options"]] == ["Deal 1", "Deal 2", "Deal 3"]
    shown = (await double.choose(players[1], opened, replay["custom_id"], ["1"])).original
    assert shown is not None and shown.ephemeral_for == players[1].id
    text = shown.text()
    assert "deal 1, trick by trick" in text and all(f"{p.name}'s hand as dealt" in text for p in players)
    assert len(cards_named(text)) == 9  # the hands as dealt hold every card the deal played
    after = control(shown, "rk:replay:")
    assert after is not None and after["label"] == "Deal 2"
    await double.click(players[1], shown, after["custom_id"])
    assert "deal 2, trick by trick" in shown.text(), "the next deal, in place"

    other_guild, other_channel = 910_000_000_000_000_711, 910_000_000_000_000_712
    elsewhere = double.another_server(other_guild, other_channel)
    forged = double.plant_select(replay["custom_id"], ["1"], channel_id=elsewhere)
    stranger = User(4500, "Sly")
    await double.choose(stranger, forged, replay["custom_id"], ["1"])
    assert "not one of this server's" in review_of(double, stranger).text()
    assert double.problems == []
