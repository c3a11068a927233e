"""The documentation is a door that opens: every internal link resolves, the README stays short, and
nothing points outside the repository (a clone has no ``../shared``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def prose(path: Path) -> list[str]:
    """The lines of a page outside fenced code blocks."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\*|_(?=\w)|(?<=\w)_", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose(path):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    out = []
    for line in prose(path):
        line = re.sub(r"`[^`]*`", "", line)  # code spans hold no links
        for match in LINK.finditer(line):
            out.append(match.group(1) or match.group(2))
    return out


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_internal_link_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        destination = (page.parent / file_part).resolve() if file_part else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
            continue
        if anchor and (destination.is_dir() or anchor not in anchors(destination)):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, broken


def test_the_readme_is_a_door_not_the_manual() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 300, len(lines)


def test_nothing_points_outside_the_repository() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offenders = []
    for name in tracked:
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".toml", ".po", ".txt", ".cfg", ".ini", ".example", ".ts", ".json"}:
            continue
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "../shared" in text and path != Path(__file__):
            offenders.append(name)
    assert not offenders, offenders


def test_every_readme_section_the_code_names_exists() -> None:
    """What the bot says to read (``README.md ("Run it in your server")``) is a heading of the README."""
    headings = {m[2] for line in prose(ROOT / "README.md") if (m := HEADING.match(line))}
    named = {
        (path.relative_to(ROOT).as_posix(), section)
        for path in [*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/**/*.py"), *ROOT.glob("activity/*.py")]
        for section in re.findall(r'README\.md \("([^"]+)"\)', path.read_text(encoding="utf-8"))
    }
    assert named, "the launcher names a section of the README"
    assert {(where, section) for where, section in named if section not in headings} == set()
