"""``python -m tests.e2e.transcript <game>``: a whole match through the Discord double, as plain text.

Starts the double and the real bot (a temporary SQLite database), seats simple
automatic players who choose at random among their enabled controls (and, with
``--computers easy,strong``, computer players the host adds from the lobby, at
the server's computer pace set by ``--pace``), plays to the end, and prints what
the channel and each player saw, message by message, every edit included.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.games import GAMES
from tests.double import BotProcess, DiscordDouble, Message, User
from tests.e2e.driver import MANAGER, TableDriver, set_computer_pace

# A short match of each game (every game of the registry; the rest play as their defaults), and its table size.
QUICK: dict[str, dict[str, Any]] = {
    "ninety-nine": {"format": "target", "target": 50},
    "just-make": {"target": 3},
    "oh-hell": {"start_cards": 3},
}
PLAYERS = {"ninety-nine": 3, "just-make": 4}
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan"]


def where(message: Message, users: dict[int, User], double: DiscordDouble) -> str:
    if message.ephemeral_for is not None:
        return f"{users[message.ephemeral_for].name} only"
    channel = double.channels.get(message.channel_id, {})
    return f"#{channel.get('name', message.channel_id)}"


def render(double: DiscordDouble, users: dict[int, User]) -> str:
    out = []
    numbers: dict[int, int] = {}
    for message, version in double.timeline:
        number = numbers.setdefault(message.id, len(numbers) + 1)
        shadow = Message(0, message.channel_id)
        shadow.apply(message.versions[version])
        label = "new" if version == 0 else f"edit {version}"
        out.append(f"── {where(message, users, double)} · message {number} ({label}) ──")
        out.append(shadow.text())
        out.append("")
    return "\n".join(out)


async def play(
    game: str, players: int, seed: int, options: dict[str, Any], computers: list[str], pace_ms: int, hints: bool
) -> str:
    double = DiscordDouble()
    await double.start()
    folder = Path(tempfile.mkdtemp(prefix="transcript-"))
    bot = BotProcess(double, f"sqlite+aiosqlite:///{folder}/bot.db", folder / "bot.log")
    try:
        await bot.start()
        if computers:
            await set_computer_pace(double, pace_ms)
        people = [User(1000 + i, NAMES[i]) for i in range(players - len(computers))]
        table = TableDriver(double, people, seed=seed)
        await table.open(game, players=players, hints=hints, **options)
        await table.seat_everyone(computers)
        await table.start()
        await table.play()
        await table.wait_finished()
        return render(double, {user.id: user for user in [*people, MANAGER]})
    finally:
        await bot.stop()
        await double.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.transcript", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--full", action="store_true", help="the rules' default options (a long match)")
    parser.add_argument("--computers", default="", help="levels of computer players among the players: easy,strong")
    parser.add_argument("--pace", type=int, default=0, choices=[0, 500, 1000, 2000], help="ms between computer moves")
    parser.add_argument("--hints", action="store_true", help="a table with hints (the players do not ask for any)")
    args = parser.parse_args(argv)
    options = {} if args.full else QUICK.get(args.game, {})
    computers = [level for level in args.computers.split(",") if level]
    players = args.players or PLAYERS.get(args.game, GAMES[args.game].default_players)
    if len(computers) >= players:
        parser.error("at least one person plays: fewer computers than players")
    print(asyncio.run(play(args.game, players, args.seed, options, computers, args.pace, args.hints)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
