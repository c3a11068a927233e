"""The last deal trick by trick on a screen (the chat's "Last deal"): asked for, never more than chat shows."""

from __future__ import annotations

from typing import Any

from bot.tables import TableStatus

from .conftest import Served
from .leaks import played_cards, review_leaks
from .test_server import first_action, open_table


async def test_the_last_deal_is_reviewed_trick_by_trick_and_hands_only_once_the_match_is_over(served: Served) -> None:
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy", "easy", "easy"])
    table_id = lobby["id"]
    await alice.send(op="review", table=table_id)  # nothing is scored in a lobby
    refused = await alice.next("error")
    assert refused["key"] == "error.not_in_play"
    await alice.send(op="start", table=table_id)
    watcher = await served.screen("Carol")
    reviews: list[dict[str, Any]] = []
    for _ in range(200):
        await served.service.settle(table_id)
        table = await served.service.table(table_id)
        if table.status != TableStatus.PLAYING:
            break
        shown = await alice.state_where(lambda t, n=table.actions: t["actions"] == n and "sheet" in t)
        if shown["sheet"] is not None and not reviews:  # a deal was scored: a seat and a watcher ask for it
            new_deal = shown
            for screen in (alice, watcher):
                await screen.send(op="review", table=table_id)
                answer = await screen.next_of(("review", "error"), timeout=30)  # (the review is read off the loop)
                assert answer["type"] == "review", answer
                reviews.append(answer["review"])
        assert not set(shown["hand_notes"]) & set(shown["header"])  # a line once (the trumps were shown twice)
        if shown["choices"]:
            await alice.send(op="act", table=table_id, action=first_action(shown), turn=shown["turn"])
            await alice.state_where(lambda t, n=table.actions: t["actions"] > n)
    assert reviews and reviews[0] == reviews[1]  # the seat sees no more of a past deal than a watcher
    review = reviews[0]
    assert review["deal"] == 1 and review["hands"] == [] and review["tricks"]
    assert all(len(trick["cards"]) == 4 for trick in review["tricks"])
    winners = [trick["winner"] for trick in review["tricks"]]
    taken = {row["seat"]: row for row in review["sheet"]["rows"]}
    assert len(taken) == 4 and review["sheet"]["columns"] == ["bid", "won", "", "+/-", "total"]
    assert {seat: winners.count(seat) for seat in taken} == {s: int(row["cells"][1]) for s, row in taken.items()}
    assert review["tricks"][0]["text"].startswith("won by ")
    # the new deal's screen, before its first card, shows the deal's last trick whole (its last card is in no view)
    last_trick = review["tricks"][-1]
    assert new_deal["trick"] == [] and new_deal["last_trick"] is not None
    assert new_deal["last_trick"]["cards"] == last_trick["cards"] and len(last_trick["cards"]) == 4
    assert new_deal["last_trick"]["winner"] == last_trick["winner"]
    database = served.service.store.db
    assert review_leaks(alice.frames + watcher.frames, await played_cards(database, table_id)) == []

    # Once the match is over, the last deal comes with every hand as dealt, as in chat.
    await alice.state_where(lambda t: t["status"] == "finished")
    await alice.send(op="review", table=table_id)
    last = (await alice.next("review"))["review"]
    assert len(last["hands"]) == 4 and last["hands"][0]["title"] == "Alice's hand as dealt"
    await alice.close()
    await watcher.close()


async def test_a_review_of_another_table_is_refused(served: Served) -> None:
    alice = await served.screen("Alice")
    lobby = await open_table(alice, ["easy"])
    await alice.send(op="review", table=lobby["id"] + 1)
    assert (await alice.next("error"))["key"] == "activity.not_here"
    await alice.send(op="review", table=lobby["id"], extra=1)
    assert (await alice.next("error"))["key"] == "activity.bad_frame"
    await alice.close()


def test_the_review_leak_check_can_fail() -> None:
    """A review naming a card never played, or carrying a hand, is caught."""
    trick = {"number": 1, "cards": [{"seat": 0, "card": "AS"}], "winner": 0, "text": ""}
    clean = {"type": "review", "review": {"tricks": [trick], "hands": [], "sheet": None}}
    assert review_leaks([clean], {"AS"}) == []
    assert review_leaks([clean], {"KS"}) == [{"AS"}]
    hand = {"seat": 1, "title": "", "cards": ["QH"]}
    dealt = {"type": "review", "review": {"tricks": [trick], "hands": [hand], "sheet": None}}
    assert review_leaks([dealt], {"AS"}) == [{"QH"}]
