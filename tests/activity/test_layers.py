"""The Activity is a presentation beside the cogs: neither imports the other, and it never touches the database."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.source_trees import parsed

ROOT = Path(__file__).resolve().parents[2]


def imported(folder: str, *, but: tuple[str, ...] = ()) -> set[str]:
    names: set[str] = set()
    for path in ROOT.joinpath(folder).rglob("*.py"):
        if "node_modules" in path.parts or path.name in but:
            continue
        for node in ast.walk(parsed(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
    return names


def test_the_activity_and_the_cogs_do_not_import_each_other() -> None:
    assert not {name for name in imported("activity") if name.split(".")[0] in ("cogs", "discord")}
    assert not {name for name in imported("cogs") if name.split(".")[0] == "activity"}
    # Only the launcher, which puts the bot together, starts the Activity.
    assert not {name for name in imported("bot", but=("launcher.py",)) if name.split(".")[0] == "activity"}


def test_the_activity_reads_no_database() -> None:
    # (its benchmark, which makes fresh databases to measure on, is a tool from above)
    names = imported("activity", but=("bench.py",))
    assert not {name for name in names if name.startswith(("bot.storage", "sqlalchemy"))}
