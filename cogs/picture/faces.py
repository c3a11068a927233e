"""Card faces and suit signs, drawn by the project with Pillow (no font needed for a suit).

Every shape is drawn four times too large and scaled down, so its edges are
smooth, and kept in a cache: a table picture pastes ready-made faces.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from .fonts import font

SUPERSAMPLE = 4
RED, BLACK, JOKER = (206, 32, 41), (24, 26, 30), (126, 63, 181)
FACE, EDGE = (252, 252, 250), (96, 100, 108)
SUITS = "SHDC"


def suit_colour(suit: str) -> tuple[int, int, int]:
    return RED if suit in "HD" else BLACK


def _suit_shape(
    draw: ImageDraw.ImageDraw, suit: str, box: tuple[float, float, float, float], fill: tuple[int, ...]
) -> None:
    """A suit sign filling ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    middle = left + width / 2
    if suit == "D":
        draw.polygon(
            [
                (middle, top),
                (right - width * 0.1, top + height / 2),
                (middle, bottom),
                (left + width * 0.1, top + height / 2),
            ],
            fill=fill,
        )
        return
    radius = width * 0.27
    if suit == "H":
        for cx in (left + radius, right - radius):
            draw.ellipse([cx - radius, top, cx + radius, top + 2 * radius], fill=fill)
        draw.polygon(
            [
                (left + width * 0.005, top + radius * 1.25),
                (right - width * 0.005, top + radius * 1.25),
                (middle, bottom),
            ],
            fill=fill,
        )
        return
    stem = [(middle, top + height * 0.55), (middle + width * 0.2, bottom), (middle - width * 0.2, bottom)]
    if suit == "S":
        lobes = top + height * 0.78 - radius  # the lobes' centre height
        for cx in (left + radius, right - radius):
            draw.ellipse([cx - radius, lobes - radius, cx + radius, lobes + radius], fill=fill)
        draw.polygon(
            [
                (left + width * 0.005, lobes + radius * 0.2),
                (right - width * 0.005, lobes + radius * 0.2),
                (middle, top),
            ],
            fill=fill,
        )
    else:  # clubs: three leaves
        leaf = width * 0.25
        for cx, cy in ((middle, top + leaf), (left + leaf, top + height * 0.56), (right - leaf, top + height * 0.56)):
            draw.ellipse([cx - leaf, cy - leaf, cx + leaf, cy + leaf], fill=fill)
        draw.rectangle([middle - width * 0.07, top + leaf, middle + width * 0.07, top + height * 0.7], fill=fill)
    draw.polygon(stem, fill=fill)


@lru_cache(maxsize=256)
def suit_sign(suit: str, size: int, colour: tuple[int, int, int]) -> Image.Image:
    """A suit sign ``size`` pixels high (and wide), transparent around it."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    _suit_shape(ImageDraw.Draw(image), suit, (0, 0, big - 1, big - 1), (*colour, 255))
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, fill: tuple[int, ...]) -> None:
    import math

    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        angle = math.pi / 2 + k * math.pi / 5
        points.append((centre[0] + r * math.cos(angle), centre[1] - r * math.sin(angle)))
    draw.polygon(points, fill=fill)


def rank_of(card: str) -> str:
    return "★" if card.startswith("JK") else card[:-1]


@lru_cache(maxsize=512)
def card_face(card: str, width: int) -> Image.Image:
    """A card face ``width`` wide (and 1.4 times as high): rank and suit in two corners, a large
    suit in the middle; a joker is a purple star (the second joker's star is hollow)."""
    height = round(width * 1.4)
    scale = SUPERSAMPLE
    big_w, big_h = width * scale, height * scale
    image = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        [0, 0, big_w - 1, big_h - 1], radius=big_w * 0.1, fill=(*FACE, 255), outline=(*EDGE, 255), width=scale * 2
    )
    joker = card.startswith("JK")
    suit = "" if joker else card[-1]
    colour = JOKER if joker else suit_colour(suit)
    rank = "JK" if joker else card[:-1]
    corner = font(round(big_w * (0.30 if len(rank) < 2 else 0.26)), bold=True)
    pad = big_w * 0.08
    corner.draw(draw, (pad, pad * 0.6), rank, (*colour, 255))
    pip = big_w * 0.22
    if joker:
        _star(draw, (pad + pip / 2, pad * 0.8 + big_w * 0.42), pip / 2, (*colour, 255))
        _star(draw, (big_w / 2, big_h * 0.58), big_w * 0.3, (*colour, 255))
        if card == "JK2":
            _star(draw, (big_w / 2, big_h * 0.58), big_w * 0.13, (*FACE, 255))
    else:
        top = pad * 0.8 + big_w * 0.34
        _suit_shape(draw, suit, (pad, top, pad + pip, top + pip), (*colour, 255))
        size = big_w * 0.5
        cx, cy = big_w / 2 + big_w * 0.08, big_h * 0.6
        _suit_shape(draw, suit, (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2), (*colour, 255))
    return image.resize((width, height), Image.Resampling.LANCZOS)
