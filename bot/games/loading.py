"""Which copy of the engines is imported: the modules compiled by mypyc, or their pure Python sources.

Where a C compiler was present at install time, the engines are compiled by mypyc (see setup.py) and
their compiled modules sit beside the sources. Importing this module (``bot.games`` does so before any
engine) decides once for the process: ``TRICK_TABLE_PURE=1`` runs the pure Python, and so does a
compiled copy that no longer matches the sources (the compiled modules are all used, or none).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

PACKAGE = __name__.rpartition(".")[0]

# Modules never compiled (see setup.py): the package's __init__, this module (it runs before any
# compiled one could), and the views' types (a TypedDict compiled by mypyc forgets which keys are
# NotRequired).
PURE = ("__init__", "loading", "views")
# Modules of other packages compiled in the same group as the engines (setup.py): the computer players' inner
# loops, ``bot/players/oh_hell.py``. A compiled one needs the compiled engines (it reads their classes
# natively), so the choice below covers them too: TRICK_TABLE_PURE or a stale copy imports them as sources.
COMPILED_WITH = {"players": ("oh_hell",)}
PACKAGES = (PACKAGE, *(f"{PACKAGE.rpartition('.')[0]}.{folder}" for folder in COMPILED_WITH))


class SourcesOnly(importlib.abc.MetaPathFinder):
    """Imports the packages' modules from their ``.py`` files, never a compiled module beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(tuple(package + "." for package in PACKAGES)) or not path:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        return importlib.machinery.FileFinder(path[0], loader).find_spec(fullname, target)


def compiled_copy_is_stale(folder: str, only: tuple[str, ...] | None = None) -> bool:
    """True if the compiled modules no longer match the sources: a source changed after its
    module was built, or a source with no compiled module beside the others (a new engine added
    since the build; a pure class cannot subclass a compiled one). Either way: re-run ``pip install -e .``.
    ``only``: the modules of ``folder`` that are compiled (by default every one but PURE)."""
    sources: set[str] = set()
    built: dict[str, float] = {}
    for entry in os.scandir(folder):
        stem, dot, suffix = entry.name.partition(".")
        if suffix == "py" and (stem in only if only is not None else stem not in PURE):
            sources.add(stem)
        elif dot and suffix.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            built[stem] = entry.stat().st_mtime
    modules = {stem: mtime for stem, mtime in built.items() if stem in sources}
    if not modules:
        return False  # the pure Python build
    for stem in sources:
        if stem not in modules or os.stat(os.path.join(folder, stem + ".py")).st_mtime > modules[stem]:
            return True
    return False


def choose_copy() -> None:
    """Import the pure Python from now on if asked to or if the compiled copy is stale."""
    here = os.path.dirname(__file__)
    others = [(os.path.join(os.path.dirname(here), folder), stems) for folder, stems in COMPILED_WITH.items()]
    stale = compiled_copy_is_stale(here) or any(compiled_copy_is_stale(folder, stems) for folder, stems in others)
    if os.environ.get("TRICK_TABLE_PURE") or stale:
        sys.meta_path.insert(0, SourcesOnly())


choose_copy()
