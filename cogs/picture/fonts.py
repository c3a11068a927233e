"""The fonts the pictures are drawn in: the best one the machine has, else Pillow's own.

Noto Sans CJK (Debian's ``fonts-noto-cjk``) draws every name, Japanese ones
included; DejaVu Sans draws Latin, Greek and Cyrillic names; Pillow's built-in
font draws Latin. Suits never need a font (:mod:`.faces` draws them), and what
no font here can draw (emoji) is left out of the picture: the text below it
still says everything.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

CANDIDATES: dict[bool, tuple[str, ...]] = {
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

# Emoji and pictographs (no font here has them), and the joiners and selectors that build them.
UNDRAWABLE = re.compile("[\U0001f000-\U0001faff\u2600-\u265f\u2668-\u27bf\u2b00-\u2bff\ufe0e\ufe0f\u200d\u20e3]")


@lru_cache(maxsize=2)
def font_path(bold: bool) -> str | None:
    return next((path for path in CANDIDATES[bold] if Path(path).is_file()), None)


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False) -> Font:
    path = font_path(bold) or font_path(not bold)
    if path is not None:
        return ImageFont.truetype(path, size)
    try:
        return ImageFont.load_default(size=size)
    except (AttributeError, TypeError, OSError):  # a Pillow without FreeType: the small bitmap font
        return ImageFont.load_default()


@lru_cache(maxsize=1)
def draws_wide() -> bool:
    """Whether the font found draws Chinese and Japanese characters."""
    path = font_path(True) or font_path(False) or ""
    return "CJK" in path or "Unicode" in path


WIDE_LANGUAGES = ("ja", "zh", "ko")


def draws_language(locale: str) -> bool:
    """Whether the fonts found can draw a table in ``locale`` (Japanese needs a CJK font)."""
    return draws_wide() or not str(locale).startswith(WIDE_LANGUAGES)


def drawable(text: str) -> str:
    """``text`` without what the font cannot draw (emoji; Japanese and Chinese without a CJK font),
    and without doubled spaces left behind."""
    text = UNDRAWABLE.sub("", text)
    if not draws_wide():
        text = "".join(char for char in text if unicodedata.east_asian_width(char) not in "WF")
    return " ".join(text.split()).replace("( ", "(")


def fit(text: str, face: Font, width: float) -> str:
    """``text`` cut (with …) to at most ``width`` pixels in ``face``."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"
