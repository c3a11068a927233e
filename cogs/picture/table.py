"""The public table as a picture: seats around a felt table, the trick in front of who played it.

:class:`TablePicture` is everything the picture shows, as words and card
names already made public (the cogs build it from ``view(None)`` alone); the
drawing adds nothing. The same inputs are written into the PNG as a text
chunk (``trick-table``), so a test can check what a picture shows without
reading its pixels.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import asdict, dataclass, field

from PIL import Image, ImageDraw, PngImagePlugin

from .faces import card_face, suit_sign
from .fonts import Face, drawable, fit, fit_apart, font, undrawn

FILENAME = "table.png"
WIDTH = 960
ROOM, FELT, RIM = (35, 39, 42), (29, 107, 69), (20, 74, 48)
PLATE, PLATE_ON, GOLD = (47, 49, 54), (64, 66, 72), (240, 178, 50)
INK, MUTED, LIGHT_RED = (242, 243, 245), (185, 187, 190), (255, 122, 122)
CARD, SMALL = 66, 44  # card widths: the trick, and the last trick or a hand face up
TRICK_REACH = (0.5, 0.52)  # where a played card lies, from the middle towards its player's seat
PLATE_W, PLATE_H = 224, 90


@dataclass(frozen=True)
class SeatPlate:
    """A seat as its plate shows it: the name, what the table says of it, and its marks."""

    name: str
    lines: tuple[str, ...]
    dealer: bool = False
    acting: bool = False


@dataclass(frozen=True)
class CardRow:
    """A titled row of face-up cards: the last trick, a revealed hand."""

    title: str
    cards: tuple[str, ...]
    under: tuple[str, ...] = ()  # a word under each card: who played it


@dataclass(frozen=True)
class TablePicture:
    header: tuple[str, ...]
    seats: tuple[SeatPlate, ...]
    trick: tuple[tuple[int, str], ...]  # (seat, card) in the order played
    trump: str | None = None  # a suit letter, drawn large on the felt
    rows: tuple[CardRow, ...] = field(default_factory=tuple)
    alt: str = ""  # the picture described in words, for screen readers
    undrawn_note: str = ""  # said below the picture where no font here draws some letters ({letters}: which)

    def texts(self) -> list[str]:
        """Every text the picture draws."""
        seats = [text for seat in self.seats for text in (seat.name, *seat.lines)]
        rows = [text for row in self.rows for text in (row.title, *row.under)]
        return [*self.header, *seats, *rows]

    def inputs(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)


def _ink_of(suit: str) -> tuple[int, int, int]:
    return LIGHT_RED if suit in "♥♦" else INK


SIGN = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def rich_text(
    image: Image.Image, xy: tuple[float, float], text: str, face: Face, colour: tuple[int, int, int]
) -> float:
    """Draw ``text`` with its suit symbols as drawn signs (red ones light red); return where it ends."""
    draw = ImageDraw.Draw(image)
    x, y = xy
    _, cap_top, _, baseline = face.getbbox("A")  # a sign stands as high as a capital letter
    run = ""
    for char in text + "\0":
        if char in SIGN or char == "\0":
            if run:
                face.draw(draw, (x, y), run, colour)
                x += face.getlength(run)
                run = ""
            if char in SIGN:
                side = max(6, round(baseline - cap_top))
                sign = suit_sign(SIGN[char], side, _ink_of(char))
                image.paste(sign, (round(x + 1), round(y + cap_top)), sign)
                x += side + 3
        else:
            run += char
    return x


def _plate(image: Image.Image, centre: tuple[float, float], seat: SeatPlate, name: str) -> None:
    draw = ImageDraw.Draw(image)
    left, top = centre[0] - PLATE_W / 2, centre[1] - PLATE_H / 2
    box = [left, top, left + PLATE_W, top + PLATE_H]
    draw.rounded_rectangle(
        box,
        radius=12,
        fill=PLATE_ON if seat.acting else PLATE,
        outline=GOLD if seat.acting else RIM,
        width=4 if seat.acting else 2,
    )
    name_font, line_font = font(24, bold=True), font(19)
    name_font.draw(draw, (left + 12, top + 8), name, GOLD if seat.acting else INK)
    if seat.dealer:  # the dealer button
        cx, cy = left + PLATE_W - 22, top + 22
        draw.ellipse([cx - 13, cy - 13, cx + 13, cy + 13], fill=INK, outline=RIM, width=2)
        font(16, bold=True).draw(draw, (cx, cy), "D", ROOM, anchor="mm")
    parts = [drawable(line) for line in seat.lines if drawable(line)]
    for index, part in enumerate(_wrap(parts, line_font, PLATE_W - 24)):
        rich_text(image, (left + 12, top + 40 + index * 22), part, line_font, MUTED)


def _wrap(parts: list[str], face: Face, width: float, most: int = 2) -> list[str]:
    """Parts joined by `` · `` on at most ``most`` lines of ``width`` (a part never split; the last
    line cut with … if need be)."""
    lines: list[str] = []
    for part in parts:
        if lines and face.getlength(lines[-1] + " · " + part) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    if len(lines) > most:
        lines = [*lines[: most - 1], " · ".join(lines[most - 1 :])]
    return [fit(line, face, width) for line in lines]


def _seat_centres(count: int, centre: tuple[float, float], radii: tuple[float, float]) -> list[tuple[float, float]]:
    """Seats around the table, the first at the bottom, in the order of play (clockwise on screen)."""
    return [
        (
            centre[0] + radii[0] * math.cos(math.pi / 2 + 2 * math.pi * k / count),
            centre[1] + radii[1] * math.sin(math.pi / 2 + 2 * math.pi * k / count),
        )
        for k in range(count)
    ]


def draw_table(picture: TablePicture) -> bytes:
    """The PNG of ``picture``."""
    header_font, row_font = font(24, bold=True), font(20, bold=True)
    header_h = 16 + 31 * len(picture.header)
    felt_h = 480 if len(picture.seats) <= 6 else 530
    rows_h = sum(SMALL * 1.4 + (62 if row.under else 42) for row in picture.rows)
    letters = undrawn(picture.texts())  # logged once; the picture says so at its foot
    note = picture.undrawn_note.format(letters=" ".join(f"U+{ord(c):04X}" for c in letters)) if letters else ""
    height = round(header_h + felt_h + rows_h + 16 + (30 if note else 0))
    image = Image.new("RGB", (WIDTH, height), ROOM)
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(picture.header):
        rich_text(image, (20, 10 + 31 * index), fit(drawable(line), header_font, WIDTH - 40), header_font, INK)

    top = header_h
    felt = [30, top + 40, WIDTH - 30, top + felt_h - 40]
    draw.rounded_rectangle(felt, radius=150, fill=FELT, outline=RIM, width=10)
    centre = (WIDTH / 2, top + felt_h / 2)
    if picture.trump in SIGN.values():  # trumps, large and faint in the middle of the felt
        sign = suit_sign(picture.trump, 120, (44, 128, 86))
        image.paste(sign, (round(centre[0] - 60), round(centre[1] - 60)), sign)

    radii = (WIDTH / 2 - PLATE_W / 2 - 12, felt_h / 2 - PLATE_H / 2 - 6)
    places = _seat_centres(len(picture.seats), centre, radii)
    for seat, card in picture.trick:  # in front of whoever played it, later cards on top
        if 0 <= seat < len(places):
            x, y = places[seat]
            face = card_face(card, CARD)
            cx, cy = centre[0] + (x - centre[0]) * TRICK_REACH[0], centre[1] + (y - centre[1]) * TRICK_REACH[1]
            image.paste(face, (round(cx - face.width / 2), round(cy - face.height / 2)), face)
    names = fit_apart(
        [drawable(plate.name) or f"#{number + 1}" for number, plate in enumerate(picture.seats)],
        font(24, bold=True),
        [PLATE_W - (58 if plate.dealer else 24) for plate in picture.seats],
    )
    for plate, place, name in zip(picture.seats, places, names, strict=True):
        _plate(image, place, plate, name)

    y = top + felt_h
    for row in picture.rows:
        rich_text(image, (20, y), fit(drawable(row.title), row_font, WIDTH - 40), row_font, INK)
        x, step = 20, SMALL + (40 if row.under else 4)
        under_font = font(15)
        under = fit_apart([drawable(word) for word in row.under], under_font, step - 6)
        for index, card in enumerate(row.cards):
            face = card_face(card, SMALL)
            if x + face.width > WIDTH - 10:
                break
            image.paste(face, (x, round(y + 28)), face)
            if index < len(under):
                under_font.draw(draw, (x + face.width / 2, y + 32 + face.height), under[index], MUTED, anchor="mt")
            x += step
        y += round(SMALL * 1.4 + (62 if row.under else 42))
    if note:
        font(17).draw(draw, (20, y + 2), fit(drawable(note), font(17), WIDTH - 40), LIGHT_RED)

    info = PngImagePlugin.PngInfo()
    info.add_itxt("trick-table", picture.inputs())
    out = io.BytesIO()
    # 128 colours are plenty for flat shapes and smooth text, and make the file a third and the encoding twice as fast.
    flat = image.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat.save(out, format="PNG", pnginfo=info, compress_level=3)
    return out.getvalue()


def picture_inputs(png: bytes) -> dict[str, object]:
    """What a picture was drawn from (its ``trick-table`` text chunk)."""
    with Image.open(io.BytesIO(png)) as image:
        text = image.info.get("trick-table") if hasattr(image, "info") else None
    return dict(json.loads(text)) if isinstance(text, str) else {}
