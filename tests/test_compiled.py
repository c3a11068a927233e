"""The engines compiled by mypyc (where the install had a C compiler) and their pure Python fallback."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot.games
from bot.games import loading
from tests.source_trees import parsed

ROOT = Path(__file__).resolve().parent.parent
ENGINE_SOURCES = sorted(p for p in (ROOT / "bot" / "games").glob("*.py") if p.stem not in loading.PURE)
# The computer players' inner loops, compiled with the engines (setup.py).
COMPILED_WITH = sorted(
    ROOT / "bot" / folder / f"{stem}.py" for folder, stems in loading.COMPILED_WITH.items() for stem in stems
)
# Each game's rule tests and property tests (tests/test_<game>.py, tests/test_<game>_properties.py).
ENGINE_TESTS = sorted(
    str(test.relative_to(ROOT))
    for source in ENGINE_SOURCES
    for test in (ROOT / "tests").glob(f"test_{source.stem}*.py")
) + sorted(
    str(test.relative_to(ROOT))
    for source in COMPILED_WITH
    for test in (ROOT / "tests" / source.parent.name).glob(f"test_{source.stem}*.py")
)


def test_every_engine_module_is_compiled_or_none_is() -> None:
    names = [f"bot.games.{source.stem}" for source in ENGINE_SOURCES]
    names += [f"bot.{source.parent.name}.{source.stem}" for source in COMPILED_WITH]
    modules = [importlib.import_module(name) for name in names]
    kinds = {m.__name__: str(m.__file__).endswith(".py") for m in modules}
    assert len(set(kinds.values())) == 1, kinds
    assert len(ENGINE_TESTS) >= 2 * 3 + 1, ENGINE_TESTS  # every game's rules and properties, the players' loops


@pytest.mark.skipif(not os.environ.get("TRICK_TABLE_EXPECT_COMPILED"), reason="only where a compiled build is expected")
def test_the_engines_are_compiled_where_expected() -> None:
    assert bot.games.compiled(), "the install fell back to the pure Python engines"


def test_trick_table_pure_imports_the_pure_python() -> None:
    code = "import bot.games as g, bot.players.oh_hell as p; print(g.compiled(), g.ninety_nine.__file__, p.__file__)"
    env = {**os.environ, "TRICK_TABLE_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    compiled, engine, player = out.stdout.split()
    assert compiled == "False" and engine.endswith("ninety_nine.py") and player.endswith("oh_hell.py")


def test_a_compiled_player_loop_changed_since_the_build_makes_the_copy_stale(tmp_path: Path) -> None:
    """Only the modules named are compiled in a folder of COMPILED_WITH: the others' sources never count."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in ("oh_hell", "search"):
        (tmp_path / f"{name}.py").write_text("")
        os.utime(tmp_path / f"{name}.py", (1_000, 1_000))
    (tmp_path / f"oh_hell{suffix}").write_text("")
    assert not loading.compiled_copy_is_stale(str(tmp_path), ("oh_hell",))
    assert loading.compiled_copy_is_stale(str(tmp_path))  # read as an engines' folder, search.py is not built
    os.utime(tmp_path / "oh_hell.py", (2_000_000_000, 2_000_000_000))
    assert loading.compiled_copy_is_stale(str(tmp_path), ("oh_hell",))


@pytest.mark.skipif(not bot.games.compiled(), reason="the suite itself runs the pure Python")
@pytest.mark.parametrize("engine_tests", ENGINE_TESTS)  # a file each: the workers share them out
def test_the_pure_python_fallback_passes_the_engine_tests(engine_tests: str) -> None:
    env = {**os.environ, "TRICK_TABLE_PURE": "1", "PROPERTY_MATCHES": "20"}
    command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", engine_tests]
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_a_source_changed_since_the_build_makes_the_compiled_copy_stale(tmp_path: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / "cards.py").write_text("")
    (tmp_path / f"cards{suffix}").write_text("")
    (tmp_path / f"_engines__mypyc{suffix}").write_text("")  # the shared library has no source
    os.utime(tmp_path / "cards.py", (1_000, 1_000))
    assert not loading.compiled_copy_is_stale(str(tmp_path))
    os.utime(tmp_path / "cards.py", (2_000_000_000, 2_000_000_000))
    assert loading.compiled_copy_is_stale(str(tmp_path))


def test_a_new_engine_not_yet_compiled_makes_the_compiled_copy_stale(tmp_path: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in ("cards", "base"):
        (tmp_path / f"{name}.py").write_text("")
        (tmp_path / f"{name}{suffix}").write_text("")
        os.utime(tmp_path / f"{name}.py", (1_000, 1_000))
    (tmp_path / "__init__.py").write_text("")  # never compiled
    assert not loading.compiled_copy_is_stale(str(tmp_path))
    (tmp_path / "oh_hell.py").write_text("")
    assert loading.compiled_copy_is_stale(str(tmp_path))


def test_a_pure_build_is_never_stale(tmp_path: Path) -> None:
    (tmp_path / "cards.py").write_text("")
    assert not loading.compiled_copy_is_stale(str(tmp_path))


def test_engine_errors_cross_process_boundaries() -> None:
    """A worker process's error (the computer players think in a pool) reaches the bot with its key."""
    import pickle

    from bot.games import IllegalAction

    error = IllegalAction("not_your_turn", seat=2)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is IllegalAction and copy.key == "not_your_turn" and copy.params == {"seat": 2}
    assert str(copy) == str(error)


def test_the_build_and_the_loader_name_the_same_player_modules() -> None:
    """setup.py compiles ``PLAYERS`` with the engines; loading.COMPILED_WITH must name the same modules, or a
    compiled one would escape the all-or-none choice (TRICK_TABLE_PURE, a stale copy)."""
    import ast

    tree = parsed((ROOT / "setup.py").read_text())
    built = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "PLAYERS" for t in node.targets)
    )
    assert sorted(built) == sorted(str(path.relative_to(ROOT)) for path in COMPILED_WITH)
