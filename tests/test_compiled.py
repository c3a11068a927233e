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

ROOT = Path(__file__).resolve().parent.parent
ENGINE_SOURCES = sorted(p for p in (ROOT / "bot" / "games").glob("*.py") if p.stem not in loading.PURE)
# Each game's rule tests and property tests (tests/test_<game>.py, tests/test_<game>_properties.py).
ENGINE_TESTS = sorted(
    str(test.relative_to(ROOT))
    for source in ENGINE_SOURCES
    for test in (ROOT / "tests").glob(f"test_{source.stem}*.py")
)


def test_every_engine_module_is_compiled_or_none_is() -> None:
    modules = [importlib.import_module(f"bot.games.{source.stem}") for source in ENGINE_SOURCES]
    kinds = {m.__name__: str(m.__file__).endswith(".py") for m in modules}
    assert len(set(kinds.values())) == 1, kinds
    assert len(ENGINE_TESTS) >= 2 * 3, ENGINE_TESTS  # every game's rules and properties


@pytest.mark.skipif(not os.environ.get("TRICK_TABLE_EXPECT_COMPILED"), reason="only where a compiled build is expected")
def test_the_engines_are_compiled_where_expected() -> None:
    assert bot.games.compiled(), "the install fell back to the pure Python engines"


def test_trick_table_pure_imports_the_pure_python() -> None:
    code = "import bot.games as g; print(g.compiled(), g.ninety_nine.__file__)"
    env = {**os.environ, "TRICK_TABLE_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.startswith("False ") and out.stdout.strip().endswith("ninety_nine.py")


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
