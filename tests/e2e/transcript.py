"""``python -m tests.e2e.transcript <game>``: a whole match through the Discord double, as plain text.

Starts the double and the real bot (a temporary SQLite database), seats simple
automatic players who choose at random among their enabled controls (and, with
``--computers easy,strong``, computer players the host adds from the lobby, at
the server's computer pace set by ``--pace``), plays to the end, and prints what
the channel and each player saw, message by message, every edit included, with
the files attached to each (``--pictures DIR`` writes them there to look at).
``--locale ja`` plays it in Japanese: the players' Discord language and the
server's language for the public messages.

A table the bot refuses (``--players 9`` of a game for 2 to 4, say) prints the
bot's own answer and exits with 2, as a bad argument does.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.players import LEVELS
from tests.double import BotProcess, DiscordDouble, Message, User
from tests.e2e.driver import MANAGER, Refused, TableDriver, set_computer_pace

# A short match of each game (every game of the registry; the rest play as their defaults), and its table size.
QUICK: dict[str, dict[str, Any]] = {
    "ninety-nine": {"format": "target", "target": 50},
    "just-make": {"target": 3},
    "oh-hell": {"start_cards": 3},
}
PLAYERS = {"ninety-nine": 3, "just-make": 4}
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan"]
NAMES_JA = ["たろう", "はなこ", "けんじ", "ゆき", "さくら", "ひろし", "みどり", "あきら", "なおみ"]


def where(message: Message, users: dict[int, User], double: DiscordDouble) -> str:
    if message.ephemeral_for is not None:
        return f"{users[message.ephemeral_for].name} only"
    channel = double.channels.get(message.channel_id, {})
    return f"#{channel.get('name', message.channel_id)}"


def render(double: DiscordDouble, users: dict[int, User], pictures: Path | None = None) -> str:
    out = []
    numbers: dict[int, int] = {}
    for message, version in double.timeline:
        number = numbers.setdefault(message.id, len(numbers) + 1)
        state = message.versions[version]
        shadow = Message(0, message.channel_id)
        shadow.apply(state)
        label = "new" if version == 0 else f"edit {version}"
        out.append(f"── {where(message, users, double)} · message {number} ({label}) ──")
        out.append(shadow.text())
        for attachment in state.get("attachments", []):
            data: bytes = attachment["data"]
            line = f"📎 {attachment['filename']} ({len(data) / 1024:.0f} kB)"
            if pictures is not None:
                path = pictures / f"message{number:03}-{version:03}-{attachment['filename']}"
                path.write_bytes(data)
                line += f" → {path}"
            out.append(line)
        out.append("")
    return "\n".join(out)


async def play(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    computers: list[str],
    pace_ms: int,
    hints: bool,
    locale: str = "en-US",
    pictures: Path | None = None,
) -> str:
    double = DiscordDouble()
    await double.start()
    folder = Path(tempfile.mkdtemp(prefix="transcript-"))
    bot = BotProcess(double, f"sqlite+aiosqlite:///{folder}/bot.db", folder / "bot.log")
    try:
        await bot.start()
        if computers:
            await set_computer_pace(double, pace_ms)
        if locale != "en-US":  # the server's public messages in that language too
            panel = (await double.command(MANAGER, "settings")).original
            assert panel is not None
            await double.choose(MANAGER, panel, "st:lang", [locale])
        names = NAMES_JA if locale == "ja" else NAMES
        people = [User(1000 + i, names[i], locale) for i in range(players - len(computers))]
        table = TableDriver(double, people, seed=seed)
        await table.open(game, players=players, hints=hints, **options)
        await table.seat_everyone(computers)
        await table.start()
        await table.play()
        await table.wait_finished()
        if pictures is not None:
            pictures.mkdir(parents=True, exist_ok=True)
        return render(double, {user.id: user for user in [*people, MANAGER]}, pictures)
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
    parser.add_argument("--locale", default="en-US", choices=["en-US", "ja"], help="the players' and server's language")
    parser.add_argument("--pictures", type=Path, help="a folder to write every attached picture to")
    args = parser.parse_args(argv)
    options = {} if args.full else QUICK.get(args.game, {})
    computers = [level for level in args.computers.split(",") if level]
    unknown = [level for level in computers if level not in LEVELS]
    if unknown:
        parser.error(f"--computers: no computer level {', '.join(unknown)}; the levels are {', '.join(LEVELS)}")
    players = PLAYERS.get(args.game, GAMES[args.game].default_players) if args.players is None else args.players
    if len(computers) >= players:
        parser.error("at least one person plays: fewer computers than players")
    transcript = play(
        args.game, players, args.seed, options, computers, args.pace, args.hints, args.locale, args.pictures
    )
    try:
        print(asyncio.run(transcript))
    except Refused as refusal:
        print(f"The bot refused the table: {refusal}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
