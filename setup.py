"""Compile the rules engines (``bot/games``), and the computer players' inner loops, with mypyc where a C
compiler is present.

Everything else about the package is in pyproject.toml. The pure Python is
always installed and stays the fallback: with ``TRICK_TABLE_PURE_BUILD=1``,
without mypyc or without a working C compiler, the install goes on without
the compiled modules (and says so), and ``TRICK_TABLE_PURE=1`` makes an
installed copy import the pure Python anyway (see ``bot/games/loading.py``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# Every module of the engines but three that stay pure (bot.games.loading.PURE lists them too): views.py
# holds the views' types (and their copy), and a TypedDict compiled by mypyc forgets which keys are NotRequired; the
# package's __init__ and loading.py, which stay pure: loading is what honours TRICK_TABLE_PURE,
# before any compiled module is imported. A new game's engine is compiled by being there
# (bot/games/shown, a folder below, is never compiled).
PURE = ("__init__.py", "loading.py", "views.py")
# Compiled with the engines, in the same group: the computer players' inner loops (their rule-based policy,
# which the searches' rollouts and the reading of the table call thousands of times a decision). They are
# compiled or pure with the engines, never apart (bot.games.loading.COMPILED_WITH lists them too).
PLAYERS = ("bot/players/oh_hell.py",)
COMPILED = sorted(str(path) for path in Path("bot/games").glob("*.py") if path.name not in PURE) + list(PLAYERS)


def _say(text: str) -> None:
    print(f"trick-table: {text}", file=sys.stderr)


def _compiler_present() -> bool:
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(shlex.split(command)[0]) is not None


# The commands that build modules; the build backend also runs this file only
# for metadata (egg_info, dist_info), where compiling would be time lost.
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _extensions() -> list[Any]:
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    if os.environ.get("TRICK_TABLE_PURE_BUILD"):
        _say("TRICK_TABLE_PURE_BUILD is set: installing the pure Python engines")
        return []
    if not _compiler_present():
        _say("no C compiler found: installing the pure Python engines")
        return []
    try:
        from mypyc.build import mypycify

        # The shared library goes inside the package, where an editable install finds it.
        return list(mypycify(COMPILED, opt_level="3", group_name="bot.games._engines"))
    except (Exception, SystemExit) as error:  # no mypyc, or it refused the sources
        _say(f"mypyc could not compile the engines ({error!r}): installing the pure Python engines")
        return []


class OptionalBuildExt(build_ext):
    """Build every compiled module or none: a half-built set would not import."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:
            _say(f"compiling the engines failed ({error!r}): installing the pure Python engines")
            for ext in self.extensions:
                name = self.get_ext_filename(ext.name)
                for folder in (self.build_lib, "."):
                    Path(folder, name).unlink(missing_ok=True)
            self.extensions = []

    def get_outputs(self) -> list[str]:
        return [path for path in super().get_outputs() if os.path.exists(path)] if self.extensions else []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
