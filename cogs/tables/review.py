"""A deal replayed trick by trick: who led, what each played, who took it, the score sheet, and (once
the match is over) every hand as it was dealt."""

from __future__ import annotations

from typing import Any

import discord

from bot.tables import DealReview, TableError, TableInfo, TableService, TableStatus
from bot.words import card_label, hand_lines

from ..i18n import error_text, reader, t
from ..replies import send
from .render import COLOUR, DESCRIPTION_MAX, FIELD_VALUE_MAX, FIELDS_MAX, _fit, clip, game_name, seat_name, sheet_text
from .render import sheet_title as deal_sheet_title
from .working import Work

HANDS_SHOWN = 9  # the most seats, each a field of its hand as dealt


def trick_line(
    table: TableInfo, number: int, cards: tuple[tuple[int, str], ...], winner: int | None, locale: Any
) -> str:
    played = " → ".join(f"{seat_name(table, seat, locale)} {card_label(card, locale)}" for seat, card in cards)
    if winner is None:
        return t(locale, "review.trick_nobody", number=number, trick=played)
    return t(locale, "review.trick", number=number, trick=played, name=seat_name(table, winner, locale))


def review_embed(
    table: TableInfo, review: DealReview, locale: Any, *, title_key: str = "review.title"
) -> discord.Embed:
    """One deal: its tricks in order, its score sheet, and the hands as dealt when they may be shown."""
    embed = discord.Embed(
        title=clip(t(locale, title_key, game=game_name(table.game, locale), table=table.id, deal=review.deal), 256),
        colour=COLOUR.get(table.status, COLOUR[TableStatus.PLAYING]),
    )
    lines = [
        trick_line(table, number, trick.cards, trick.winner, locale)
        for number, trick in enumerate(review.tricks, start=1)
    ]
    embed.description = clip("\n".join(lines) or t(locale, "review.no_tricks"), DESCRIPTION_MAX)
    for seat, cards in enumerate(review.hands[:HANDS_SHOWN]):
        if len(embed.fields) >= FIELDS_MAX - 1:
            break
        name = t(locale, "review.dealt", name=seat_name(table, seat, locale))
        embed.add_field(name=clip(name, 256), value=clip(hand_lines(cards, locale), FIELD_VALUE_MAX), inline=True)
    if review.sheet is not None:
        embed.add_field(
            name=clip(deal_sheet_title(table, review.sheet, locale), 256),
            value=clip(sheet_text(table, review.sheet, locale), FIELD_VALUE_MAX),
            inline=False,
        )
    return _fit(embed)


async def show_review(service: TableService, work: Work, interaction: discord.Interaction[Any], table_id: int) -> None:
    """The deal just scored, trick by trick, for whoever asks (only what the table showed)."""
    locale = reader(interaction)
    async with work.working(interaction, update=False):
        try:
            table, deals = await service.deal_reviews(table_id)
        except TableError as error:
            await send(interaction, error_text(error, locale))
            return
        if not deals:
            await send(interaction, t(locale, "review.none"))
            return
        await send(interaction, embed=review_embed(table, deals[-1], locale))
