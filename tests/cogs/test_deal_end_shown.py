"""The chat table at a new deal, before its first card: the deal just scored's last trick is shown whole, in the
embed's text (text only) or on the picture, with who took it, in English and Japanese; and never once a card of
the new deal is down."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import new_game
from bot.games.base import GameState
from bot.tables import TableInfo, TrickReview
from cogs.i18n import t
from cogs.tables.picture import table_picture
from cogs.tables.publisher import Publisher
from cogs.tables.render import table_embed

from .test_pictures_and_words import ENGLISH, JAPANESE, table_of


def new_deal(seed: int) -> tuple[GameState, TrickReview]:
    """Three-player Oh Hell played at random until its first deal is scored: the state, and that deal's last trick
    (the trick under way before its last card, and that card; its winner from the sheet's tricks)."""
    rng = random.Random(seed)
    state = new_game("oh-hell", players=3, options={"start_cards": 3}, seed=seed)
    taken = [0, 0, 0]
    while True:
        seat = state.to_act()[0]
        action = rng.choice(state.legal(seat))
        before = state.view(None)
        state.act(seat, action)
        after = state.view(None)
        if after["last_trick"] and after["tricks_played"] > before["tricks_played"]:
            winner = after["last_trick"]["winner"]
            assert winner is not None
            taken[winner] += 1
        if after["last_deal"] is not None:
            cards = (*((p["seat"], p["card"]) for p in before["trick"]), (seat, action.split()[1]))
            won = [row["tricks"] for row in sorted(after["last_deal"]["rows"], key=lambda row: row["seat"])]
            winner = next(s for s in range(3) if won[s] > taken[s])  # the one trick not yet in the view
            return state, TrickReview(cards, winner)


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_the_text_table_shows_the_deals_last_trick_until_the_new_deals_first_card(locale: str) -> None:
    state, end = new_deal(4)
    names = ENGLISH if locale == "en-US" else JAPANESE
    table = table_of("oh-hell", names[:3], start_cards=3)
    public = state.view(None)
    assert public["last_trick"] is None and public["trick"] == []
    embed = table_embed(table, public, locale, deal_end=end)
    field = next(f for f in embed.fields if f.name == t(locale, "table.last_trick"))
    assert names[end.winner or 0] in (field.value or "")
    assert (field.value or "").count(names[end.cards[0][0]]) >= 1 and len(end.cards) == 3
    assert t(locale, "table.last_trick") not in [f.name for f in table_embed(table, public, locale).fields]
    # a card of the new deal down: the view's own trick, not the deal's end
    while not state.view(None)["trick"]:
        seat = state.to_act()[0]
        state.act(seat, state.legal(seat)[0])
    fields = table_embed(table, state.view(None), locale, deal_end=end).fields
    assert t(locale, "table.last_trick") not in [f.name for f in fields]


def test_the_picture_draws_the_deals_last_trick_and_who_took_it() -> None:
    state, end = new_deal(6)
    table = table_of("oh-hell", ENGLISH[:3], start_cards=3)
    drawn = table_picture(table, state.view(None), "en-US", end)
    row = drawn.rows[0]
    assert row.cards == tuple(card for _, card in end.cards)
    assert row.title == "Last trick · " + t("en-US", "table.won_by", name=ENGLISH[end.winner or 0])
    assert table_picture(table, state.view(None), "en-US").rows == ()


async def test_the_published_table_asks_the_service_for_the_deals_end() -> None:
    state, end = new_deal(8)
    table = table_of("oh-hell", ENGLISH[:3], start_cards=3)
    asked: list[int] = []

    class Service:
        async def snapshot(self, table_id: int) -> tuple[TableInfo, Any]:
            return table, state.view(None)

        async def deal_end(self, info: TableInfo, public: Any) -> TrickReview:
            asked.append(info.id)
            return end

    async def english(guild_id: int) -> str:
        return "en-US"

    publisher = Publisher(None, Service(), english)  # type: ignore[arg-type]
    text_only = await publisher.message(table.id, can_attach=False)
    assert "Last trick" in [f.name for f in text_only["embed"].fields] and asked == [table.id]
