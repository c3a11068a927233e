"""A match's running totals as a line chart (PNG, drawn with Pillow).

Each line is named at its end with its final total (the names spaced so they
never overlap, cut to fit), the axes are titled in the reader's language, and
the colours are ones colour-blind players tell apart. Small totals (Just Make
plays to a few points) are drawn as steps with a dot at each deal.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.tables import running_totals

from .picture.fonts import drawable, fit, fit_apart, font, undrawn

# One colour per seat: the Okabe-Ito palette, which people with the common colour blindnesses tell apart,
# then brown, black and grey; each line is also named at its end, so no colour has to be matched to a key.
# Nine seats at most, nine colours, each with its own coloured square for the key in text.
COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#8a7a00", "#7b4a12", "#000000", "#999999")
SQUARES = ("🟦", "🟧", "🟩", "🟪", "🟥", "🟨", "🟫", "⬛", "⬜")  # the nearest emoji, for a key in text
BACKGROUND, GRID, AXIS, INK = "#ffffff", "#e3e5e8", "#4e5058", "#1e1f22"
WIDTH, HEIGHT = 900, 440
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 78, 190, 20, 58
LABEL_GAP = 17  # the least distance between two names at the line ends, in pixels
SMALL_SCORES = 20  # at most this far from 0, totals are drawn as steps with a dot at every deal
FILENAME = "totals.png"

__all__ = ["COLOURS", "FILENAME", "SQUARES", "legend", "running_totals", "totals_chart"]


def legend(names: Sequence[str]) -> str:
    """``🟦 Alice · 🟧 Bob``: who is who, in colours close to the chart's lines."""
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


def _spread(wanted: list[float], low: float, high: float, gap: float) -> list[float]:
    """Positions as near ``wanted`` (sorted) as they can be, at least ``gap`` apart, within low..high."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, placed[-1] + gap) if placed else max(y, low))
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:  # pushed past the bottom: shift everything up, then keep the gaps from the top
        placed = [y - overflow for y in placed]
        for index in range(len(placed) - 2, -1, -1):
            placed[index] = min(placed[index], placed[index + 1] - gap)
    return placed


def totals_chart(
    lines: Sequence[Sequence[int]],
    names: Sequence[str] = (),
    x_title: str = "",
    y_title: str = "",
    undrawn_note: str = "",
) -> bytes:
    """A PNG of every seat's running total, deal by deal, each line named at its end (x: deals, y: points).

    Small scores (Just Make's, to a target of a few points) are drawn as steps with a dot at every deal,
    since a total there moves by one or two at a time. Where no font here draws some letters of the
    names or titles, ``undrawn_note`` (``{letters}``: which) is written in the top left corner."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, label_font, title_font = font(15), font(15, bold=True), font(15)
    deals = max(len(line) for line in lines) - 1 if lines else 0
    values = [value for line in lines for value in line] or [0]
    steps = max(abs(v) for v in values) <= SMALL_SCORES
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
        small.draw(draw, (left - 8, y), str(tick), AXIS, anchor="rm")
    for deal in _ticks(0, deals, 12):
        if deal <= deals:
            small.draw(draw, (x_of(deal), bottom + 8), str(deal), AXIS, anchor="mt")
    if low < 0 < high:
        draw.line([(left, y_of(0)), (right, y_of(0))], fill=AXIS, width=1)
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=AXIS, width=1)
    if x_title:
        title_font.draw(draw, ((left + right) / 2, HEIGHT - 8), drawable(x_title), AXIS, anchor="md")
    if y_title:  # written upwards beside the axis
        text = drawable(y_title)
        ascent, descent = title_font.metrics()
        label = Image.new("RGBA", (round(title_font.getlength(text)) + 6, ascent + descent + 6), (255, 255, 255, 0))
        title_font.draw(ImageDraw.Draw(label), (3, 3), text, AXIS)
        turned = label.rotate(90, expand=True)
        image.paste(turned, (6, round((top + bottom) / 2 - turned.height / 2)), turned)

    spread = 2.5  # lines that run together (a tie, Five Hundred partners) sit side by side, not on top
    ends: list[tuple[float, int]] = []
    for seat, line in enumerate(lines):
        colour = COLOURS[seat % len(COLOURS)]
        shift = (seat - (len(lines) - 1) / 2) * spread
        points = [(x_of(deal), y_of(value) + shift) for deal, value in enumerate(line)]
        if steps:  # flat between deals, a step at each: a total of a few points reads exactly
            stepped = [points[0]]
            for x, y in points[1:]:
                stepped += [(x, stepped[-1][1]), (x, y)]
            points_drawn = stepped
        else:
            points_drawn = points
        draw.line(points_drawn, fill=colour, width=3, joint="curve")
        if steps:
            for x, y in points:
                draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
        end_x, end_y = points[-1]
        draw.ellipse([end_x - 5, end_y - 5, end_x + 5, end_y + 5], fill=colour, outline=AXIS)
        ends.append((end_y, seat))
    ends.sort()
    placed = _spread([y for y, _ in ends], top + 8, bottom - 8, LABEL_GAP)
    # The final total always shows; a long name gives way to it, and names cut alike keep their ends.
    totals = [f" {line[-1]}" for line in lines]
    labels = fit_apart(
        [drawable(names[seat]) if seat < len(names) else str(seat + 1) for seat in range(len(lines))],
        label_font,
        [MARGIN_RIGHT - 30 - label_font.getlength(total) for total in totals],
    )
    for (end_y, seat), y in zip(ends, placed, strict=True):
        colour = COLOURS[seat % len(COLOURS)]
        draw.line([(right + 6, end_y), (right + 14, y)], fill=colour, width=2)
        ink = colour if colour != COLOURS[-1] else INK
        label_font.draw(draw, (right + 18, y), labels[seat] + totals[seat], ink, anchor="lm")
    letters = undrawn([*names, x_title, y_title])  # logged once; said in the corner
    if letters and undrawn_note:
        note = undrawn_note.format(letters=" ".join(f"U+{ord(c):04X}" for c in letters))
        small.draw(draw, (left + 6, 4), fit(drawable(note), small, right - left - 12), "#c03030")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
