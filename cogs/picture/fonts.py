"""The fonts the pictures are drawn in: the machine's best, then the Japanese font the install brings.

Each text is drawn by a chain of fonts. First the machine's own: Noto Sans
CJK (Debian's ``fonts-noto-cjk``) where it is installed, else DejaVu Sans,
which most Linux machines have. Then Noto Sans JP, which the install brings
(the PyPI package ``pylopdf-fonts-jp``: SIL Open Font License 1.1, a 4.5 MB
OpenType file): Japanese text, and a name in kana or kanji on an English
server, are drawn in it even where the machine has no CJK font. Then
Pillow's own font, for Latin letters on a machine with neither.

A text one font draws whole is drawn in that font (a Japanese line in Noto
Sans JP, digits included); otherwise each character in the first font that
has it. Noto Sans JP comes in one weight, so its bold is drawn with a
one-pixel outline (in large letters only). Suits never need a font
(:mod:`.faces` draws them), and emoji are left out of the picture (the text
beside it still has them). A character that no font here has is left out
too: it is logged once, and :func:`undrawn` tells the picture, which says so.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from functools import lru_cache, partial
from importlib import resources
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageDraw, ImageFont

log = logging.getLogger(__name__)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

SYSTEM: dict[bool, tuple[str, ...]] = {
    True: (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
        "/Library/Fonts/Arial Unicode.ttf",
    ),
    False: (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/Library/Fonts/Arial Unicode.ttf",
    ),
}
SHIPPED = ("pylopdf_fonts_jp", "NotoSansJP-Regular.otf")  # the package that carries it, and the file
ASCII = frozenset(range(0x20, 0x7F))  # what Pillow's own font is sure to draw
MIXED = 3  # a text the first font lacks a third of its characters of is drawn in one font that has them all
BOLD_OUTLINE = 18  # from this size up, a one-weight font's bold is drawn with an outline (smaller, it smudges)

# Emoji and pictographs (no font here has them), and the joiners and selectors that build them.
UNDRAWABLE = re.compile("[\U0001f000-\U0001faff\u2600-\u265f\u2668-\u27bf\u2b00-\u2bff\ufe0e\ufe0f\u200d\u20e3]")
# Kept where a font lacks them: suit symbols (drawn as shapes), spaces and the marks a table writes.
SPARED = frozenset("♠♥♦♣ \u00a0")


@lru_cache(maxsize=2)
def system_path(bold: bool) -> str | None:
    """The machine's own font of this weight, if it has one we know."""
    return next((path for path in SYSTEM[bold] if Path(path).is_file()), None)


@lru_cache(maxsize=1)
def shipped_path() -> str | None:
    """Noto Sans JP, as the install brought it (None, logged once, where it is missing)."""
    package, name = SHIPPED
    try:
        path = resources.files(package).joinpath(name)
    except ModuleNotFoundError:
        path = None
    if path is None or not path.is_file():
        log.warning("the Japanese font is missing (pip install pylopdf-fonts-jp): pictures leave Japanese text out")
        return None
    return str(path)


@lru_cache(maxsize=8)
def coverage(path: str) -> frozenset[int]:
    """The code points the font at ``path`` has a glyph for (its first face, in a collection)."""
    with TTFont(path, fontNumber=0, lazy=True) as face:
        return frozenset(face.getBestCmap() or {})


def chain_paths(bold: bool) -> tuple[str, ...]:
    """The font files of a weight, in the order they are tried."""
    paths = [path for path in (system_path(bold) or system_path(not bold), shipped_path()) if path]
    return tuple(dict.fromkeys(paths))


class Face:
    """Text of one size and weight, drawn by the chain of fonts (see the module's docstring)."""

    def __init__(self, size: int, bold: bool) -> None:
        self.size, self.bold = size, bold
        self.paths = chain_paths(bold)
        self.fonts: list[Font] = []
        self.strokes: list[int] = []  # an outline drawn around a one-weight font's letters, for bold
        for path in self.paths:
            self.fonts.append(ImageFont.truetype(path, size))
            self.strokes.append(1 if bold and size >= BOLD_OUTLINE and path not in SYSTEM[True] else 0)
        try:
            default: Font = ImageFont.load_default(size=size)
        except (AttributeError, TypeError, OSError):  # a Pillow without FreeType: the small bitmap font
            default = ImageFont.load_default()
        self.fonts.append(default)
        self.strokes.append(0)

    @property
    def covers(self) -> list[frozenset[int]]:
        """What each font of the chain draws (read from the files the first time a text needs it)."""
        return [*(coverage(path) for path in self.paths), ASCII]

    @staticmethod
    def _of(char: str, covers: list[frozenset[int]]) -> int | None:
        code = ord(char)
        return next((index for index, cover in enumerate(covers) if code in cover), None)

    def runs(self, text: str) -> list[tuple[int, str]]:
        """``text`` as (font, characters) runs: one font for it all where one has every character
        (spaces and suit symbols aside) and the first font lacks many of them (a Japanese line), else
        each character in the first that has it (an English line with a Japanese name). What none
        has is left out."""
        if _latin(text):  # every font here draws Latin-1: no need to ask which
            return [(0, text)] if text else []
        needed = [ord(char) for char in text if char not in SPARED]
        covers = self.covers
        lacking = sum(1 for code in needed if code not in covers[0])
        whole = next((index for index, cover in enumerate(covers) if cover.issuperset(needed)), None)
        if whole is not None and (whole == 0 or lacking * MIXED > len(needed)):
            return [(whole, text)] if text else []
        runs: list[tuple[int, str]] = []
        for char in text:
            index = self._of(char, covers) if char not in SPARED else (runs[-1][0] if runs else 0)
            if index is None:
                continue
            if runs and runs[-1][0] == index:
                runs[-1] = (index, runs[-1][1] + char)
            else:
                runs.append((index, char))
        return runs

    def getlength(self, text: str) -> float:
        return sum(self.fonts[index].getlength(run) + 2 * self.strokes[index] for index, run in self.runs(text))

    def getbbox(self, text: str) -> tuple[float, float, float, float]:
        """The box of ``text`` drawn at (0, 0) with the first font's ascender on top."""
        ascent, descent = self.metrics()
        if len(runs := self.runs(text)) == 1 and runs[0][0] == 0:
            left, top, right, bottom = self.fonts[0].getbbox(text)
            return float(left), float(top), float(right), float(bottom)
        return 0.0, 0.0, self.getlength(text), float(ascent + descent)

    def metrics(self) -> tuple[int, int]:
        """The first font's ascent and descent, in pixels."""
        font = self.fonts[0]
        if isinstance(font, ImageFont.FreeTypeFont):
            return font.getmetrics()
        return self.size, 0

    def draw(
        self,
        draw: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        fill: int | tuple[int, ...] | str,
        anchor: str = "la",
    ) -> None:
        """``text`` at ``xy``, placed as Pillow's ``anchor`` places it (for the first font's height)."""
        runs = self.runs(text)
        if not runs:
            return
        if len(runs) == 1 and runs[0][0] == 0 and not self.strokes[0]:
            draw.text(xy, text, font=self.fonts[0], fill=fill, anchor=anchor)
            return
        width = self.getlength(text)
        x = xy[0] - {"l": 0.0, "m": width / 2, "r": width}.get(anchor[0], 0.0)
        ascent, descent = self.metrics()
        baseline = xy[1] + {
            "a": ascent,
            "t": ascent,
            "m": (ascent - descent) / 2,
            "s": 0,
            "b": -descent,
            "d": -descent,
        }.get(anchor[1], ascent)
        for index, run in runs:
            stroke = self.strokes[index]
            font = self.fonts[index]
            draw.text(
                (x + stroke, baseline), run, font=font, fill=fill, anchor="ls", stroke_width=stroke, stroke_fill=fill
            )
            x += font.getlength(run) + 2 * stroke


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False) -> Face:
    return Face(size, bold)


@lru_cache(maxsize=1)
def drawn_anywhere() -> frozenset[int]:
    """Every code point some font of the pictures draws."""
    covered: set[int] = set(ASCII)
    for bold in (False, True):
        for path in chain_paths(bold):
            covered |= coverage(path)
    return frozenset(covered)


_told: set[str] = set()
LATIN_1 = 0x100  # the machine's fonts and Noto Sans JP all draw every character below this


def _latin(text: str) -> bool:
    return all(ord(char) < LATIN_1 or char in SPARED for char in text)


def warm() -> None:
    """Read the fonts and what they draw before the first picture needs them (it takes a moment)."""
    drawn_anywhere()
    for size, bold in ((24, True), (20, True), (19, False), (16, True), (15, False), (15, True), (17, False)):
        font(size, bold=bold).getlength("あ")


def undrawn(texts: Iterable[str]) -> str:
    """The characters of ``texts`` that no font here draws (emoji aside: they are left out on purpose),
    each once; each is logged the first time it is met."""
    rare = [char for text in texts if not _latin(text) for char in UNDRAWABLE.sub("", text) if ord(char) >= LATIN_1]
    covered = drawn_anywhere() if rare else frozenset()
    missing = dict.fromkeys(
        char for char in rare if ord(char) not in covered and char not in SPARED and char.isprintable()
    )
    new = [char for char in missing if char not in _told]
    if new:
        _told.update(new)
        log.warning("no font here draws %s: left out of the pictures", " ".join(f"{c!r} (U+{ord(c):04X})" for c in new))
    return "".join(missing)


def drawable(text: str) -> str:
    """``text`` without what no font here draws (emoji, and letters no font has), and without doubled
    spaces left behind."""
    text = UNDRAWABLE.sub("", text)
    if not _latin(text):
        covered = drawn_anywhere()
        text = "".join(char for char in text if ord(char) in covered or char in SPARED)
    return " ".join(text.split()).replace("( ", "(")


def fit(text: str, face: Face, width: float) -> str:
    """``text`` cut (with …) to at most ``width`` pixels in ``face``."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def fit_apart(texts: list[str], face: Face, widths: float | list[float]) -> list[str]:
    """Each of ``texts`` cut to its width in pixels like :func:`fit`, and still told apart: texts that
    would be cut to the same words keep their ends instead (``Str…7``), and texts that are the same
    are numbered by their place (``Alex 3``)."""
    room = widths if isinstance(widths, list) else [widths] * len(texts)
    return distinct(texts, lambda index, text: face.getlength(text) <= room[index])


def distinct(texts: list[str], fits: Callable[[int, str], bool]) -> list[str]:
    """``texts`` each made to ``fits`` (given its place and a cut): cut at the end (…), or in the
    middle where cutting at the end would make two alike (keeping the end that tells them apart),
    or numbered by place (1-based) where they are alike in full."""
    ends = [_cut(text, partial(fits, index), keep=_number_end(text)) for index, text in enumerate(texts)]
    shown = list(ends)
    for index, text in enumerate(texts):
        alike = [other for other, cut in zip(texts, ends, strict=True) if cut == ends[index]]
        if len(alike) < 2:
            continue
        if alike.count(text) > 1:  # the same name twice: each gets its place
            shown[index] = _cut(text, partial(fits, index), suffix=f" {index + 1}")
        else:
            shown[index] = _cut(text, partial(fits, index), keep=_telling_end(text, alike))
    for index, cut in enumerate(list(shown)):  # still alike: number them
        if shown.count(cut) > 1:
            shown[index] = _cut(texts[index], partial(fits, index), suffix=f" {index + 1}")
    return shown


def _number_end(text: str) -> int:
    """How many digits ``text`` ends with (a seat's number: kept when the rest is cut)."""
    return len(text) - len(text.rstrip("0123456789"))


def _telling_end(text: str, alike: list[str]) -> int:
    """How many last characters of ``text`` tell it from the others: its last word at least, where it
    has more than one."""
    keep = len(text.rsplit(" ", 1)[-1]) if " " in text.strip() else 1
    while keep < len(text) and any(other != text and other.endswith(text[-keep:]) for other in alike):
        keep += 1
    return keep


def _cut(text: str, fits: Callable[[str], bool], *, keep: int = 0, suffix: str = "") -> str:
    """``text`` + ``suffix`` made to ``fits``: cut at its end, or before its last ``keep`` characters."""
    if fits(text + suffix):
        return text + suffix
    head, tail = len(text) - keep, text[len(text) - keep :] if keep else ""
    while head > 0 and not fits(text[:head] + "…" + tail + suffix):
        head -= 1
    while tail and not fits(text[:head] + "…" + tail + suffix):  # nothing left to cut before it
        tail = tail[1:]
    return text[:head] + "…" + tail + suffix
