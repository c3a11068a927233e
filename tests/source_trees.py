"""The project's own source read as syntax trees, for the tests that check what the code names or imports."""

from __future__ import annotations

import ast
import gc


def parsed(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse``, with the garbage collector held off meanwhile. CPython 3.11 compares the interpreter's
    recursion depth before and after building the tree, and a finalizer run by a collection in between (an
    earlier test's object going away) made it raise "SystemError: AST constructor recursion depth mismatch"
    in one CI run; tried once more after a collection, should it happen all the same."""
    for attempt in range(2):
        gc.collect()
        gc.disable()
        try:
            return ast.parse(source, filename)
        except SystemError:
            if attempt:
                raise
        finally:
            gc.enable()
    raise AssertionError("unreachable")
