"""``python -m bot``: run the bot, or a tool (``bench``)."""

from __future__ import annotations

import sys

USAGE = """usage:
  python -m bot bench engine [--game NAME] [--seconds N]   speed of the rules engines

The Discord bot itself (slash commands, tables, the database) is not built yet:
see "Where the project stands" in README.md."""


def main(argv: list[str]) -> int:
    if argv and argv[0] == "bench":
        from bot.bench import main as bench

        return bench(argv[1:])
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
