"""A match's running totals as a line chart (PNG, drawn with Pillow).

The chart holds no words, only numbers, so it reads the same in every
language; who is who comes from the colour squares of ``legend`` in the
message beside it (the squares are Discord's own emoji, in the lines' colours).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from bot.games.views import DealSheet

# One colour per seat, in the order of the emoji squares that name them.
SQUARES = ("🟥", "🟦", "🟩", "🟨", "🟪", "🟧", "🟫", "⬛", "⬜")
COLOURS = ("#dd2e44", "#3b88c3", "#4f9a3b", "#e0a800", "#8e6fc1", "#f4900c", "#a0522d", "#31373d", "#9aa0a6")
BACKGROUND, GRID, AXIS = "#ffffff", "#e3e5e8", "#4e5058"
WIDTH, HEIGHT = 800, 400
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 64, 64, 20, 36
FILENAME = "totals.png"


def running_totals(sheets: Sequence[DealSheet], seats: int) -> list[list[int]]:
    """Each seat's match total after every deal, starting from 0 before the first."""
    lines = [[0] for _ in range(seats)]
    for sheet in sheets:
        totals = {row["seat"]: row["total"] for row in sheet["rows"]}
        for seat, line in enumerate(lines):
            line.append(int(totals.get(seat, line[-1])))
    return lines


def legend(names: Sequence[str]) -> str:
    """``🟥 Alice · 🟦 Bob``: the key to the chart's colours."""
    return " · ".join(f"{SQUARES[index % len(SQUARES)]} {name}" for index, name in enumerate(names))


def _ticks(low: int, high: int, most: int) -> list[int]:
    """Round, evenly spaced values covering low..high, at most ``most`` of them."""
    span = max(high - low, 1)
    step = 1
    while span / step > most:
        for factor in (2, 5, 10):
            if span / (step * factor) <= most:
                step *= factor
                break
        else:
            step *= 10
    first = (low // step) * step
    return list(range(first, high + step, step))


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except (AttributeError, TypeError, OSError):  # a Pillow without FreeType: the small bitmap font
        return ImageFont.load_default()


def totals_chart(lines: Sequence[Sequence[int]]) -> bytes:
    """A PNG of every seat's running total, deal by deal (x: deals, y: points)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = _font(13)
    deals = max(len(line) for line in lines) - 1 if lines else 0
    values = [value for line in lines for value in line] or [0]
    y_ticks = _ticks(min(values), max(values), 6)
    low, high = y_ticks[0], y_ticks[-1] if y_ticks[-1] > y_ticks[0] else y_ticks[0] + 1
    left, right, top, bottom = MARGIN_LEFT, WIDTH - MARGIN_RIGHT, MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    def x_of(deal: float) -> float:
        return left + (right - left) * (deal / max(deals, 1))

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * ((value - low) / (high - low))

    for tick in y_ticks:
        y = y_of(tick)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        draw.text((left - 8, y), str(tick), fill=AXIS, font=font, anchor="rm")
    for deal in _ticks(0, deals, 12):
        if deal <= deals:
            draw.text((x_of(deal), bottom + 8), str(deal), fill=AXIS, font=font, anchor="mt")
    if low < 0 < high:
        draw.line([(left, y_of(0)), (right, y_of(0))], fill=AXIS, width=1)
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=AXIS, width=1)

    spread = 2.5  # lines that run together (a tie, Five Hundred partners) sit side by side, not on top
    ends: dict[int, list[int]] = {}
    for seat, line in enumerate(lines):
        colour = COLOURS[seat % len(COLOURS)]
        shift = (seat - (len(lines) - 1) / 2) * spread
        points = [(x_of(deal), y_of(value) + shift) for deal, value in enumerate(line)]
        if colour == COLOURS[-1]:  # the pale line gets a dark edge so it shows on white
            draw.line(points, fill=AXIS, width=5, joint="curve")
        draw.line(points, fill=colour, width=3, joint="curve")
        end_x, end_y = points[-1]
        draw.ellipse([end_x - 4, end_y - 4, end_x + 4, end_y + 4], fill=colour, outline=AXIS)
        ends.setdefault(line[-1], []).append(seat + 1)
    for value, seats in ends.items():  # one label per final total: "2,9" where two seats finished level
        draw.text((right + 8, y_of(value)), ",".join(map(str, seats)), fill=AXIS, font=font, anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
