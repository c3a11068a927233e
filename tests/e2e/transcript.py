"""``python -m tests.e2e.transcript <game>``: a whole match through the Discord double, as plain text.

Starts the double and the real bot (a temporary SQLite database), seats simple
automatic players who choose at random among their enabled controls (and, with
``--computers easy,strong``, computer players the host adds from the lobby, at
the server's computer pace set by ``--pace``), plays to the end, and prints what
the channel and each player saw, message by message, every edit included, with
the files attached to each (``--pictures DIR`` writes them there to look at).
``--locale ja`` plays it in Japanese: the players' Discord language and the
server's language for the public messages.

``--duplicate N`` plays a duplicate night instead: ``/tournament create
format:duplicate`` for N tables of the game's size (``--players``), people signing
up for every seat (``--people`` fewer, and computers fill the rest), the host
starting it, and every table played to its end by the same random players. It
prints the channel (the sign-up and its edits, the comparisons of the deals,
the standings, the podium), each table's thread, and each table's message in its
final state only (``--every-edit`` prints every edit and every hand, as for a
match). ``--compare deal`` compares each deal as soon as every table has played
it; ``--compare round`` (the tournament's default) all of a round's at its end.

A table the bot refuses (``--players 9`` of a game for 2 to 4, say) prints the
bot's own answer and exits with 2, as a bad argument does.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.players import LEVELS
from cogs.i18n import t
from tests.double import BotProcess, DiscordDouble, Message, User
from tests.e2e import tournament
from tests.e2e.driver import MANAGER, WAIT, Refused, TableDriver, set_computer_pace

# A short match of each game (every game of the registry; the rest play as their defaults), and its table size.
QUICK: dict[str, dict[str, Any]] = {
    "ninety-nine": {"format": "target", "target": 50},
    "just-make": {"target": 3},
    "oh-hell": {"start_cards": 3},
}
PLAYERS = {"ninety-nine": 3, "just-make": 4}
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Ken", "Laura"]
NAMES_JA = [
    "たろう",
    "はなこ",
    "けんじ",
    "ゆき",
    "さくら",
    "ひろし",
    "みどり",
    "あきら",
    "なおみ",
    "まさる",
    "えみ",
    "ゆうた",
]
MENTION = re.compile(r"<@(\d+)>")


def people_named(count: int, locale: str) -> list[User]:
    """``count`` people speaking ``locale`` (the names again with a number once every name is taken)."""
    names = NAMES_JA if locale == "ja" else NAMES
    return [
        User(1000 + i, names[i % len(names)] + (str(i // len(names) + 1) if i >= len(names) else ""), locale)
        for i in range(count)
    ]


def where(message: Message, users: dict[int, User], double: DiscordDouble) -> str:
    if message.ephemeral_for is not None:
        return f"{users[message.ephemeral_for].name} only"
    channel = double.channels.get(message.channel_id, {})
    if channel.get("type") == 12:  # a private thread: who may read it
        members = sorted(users[i].name for i in double.thread_members.get(message.channel_id, set()) if i in users)
        return f"🔒 #{channel.get('name', message.channel_id)} (private: {', '.join(members)})"
    return f"#{channel.get('name', message.channel_id)}"


def everything(message: Message, version: int) -> bool:
    return True


def named(user_id: int, users: dict[int, User]) -> str:
    """A mention as Discord shows it: @ and the person's name."""
    return f"@{users[user_id].name}" if user_id in users else f"<@{user_id}>"


def render(
    double: DiscordDouble,
    users: dict[int, User],
    pictures: Path | None = None,
    shown: Callable[[Message, int], bool] = everything,
) -> str:
    """Every state of every message in the order they were shown (those ``shown`` keeps), mentions by name."""
    out = []
    numbers: dict[int, int] = {}
    for message, version in double.timeline:
        number = numbers.setdefault(message.id, len(numbers) + 1)
        if not shown(message, version):
            continue
        state = message.versions[version]
        shadow = Message(0, message.channel_id)
        shadow.apply(state)
        label = "new" if version == 0 else f"edit {version}"
        out.append(f"── {where(message, users, double)} · message {number} ({label}) ──")
        out.append(MENTION.sub(lambda found: named(int(found[1]), users), shadow.text()))
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
        people = people_named(players - len(computers), locale)
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


def briefly(double: DiscordDouble, tables: set[int]) -> Callable[[Message, int], bool]:
    """What a duplicate night's transcript shows by default: the public messages; of the ``tables``' messages
    their final state only; of a run of edits one after another (the sign-up as people join) the last; and no
    edit that reads the same as the state shown before it."""
    kept: set[tuple[int, int]] = set()
    before: dict[int, str] = {}
    timeline = double.timeline
    for index, (message, version) in enumerate(timeline):
        if message.ephemeral_for is not None or (message.id in tables and version != len(message.versions) - 1):
            continue
        if index + 1 < len(timeline) and timeline[index + 1][0] is message:
            continue
        shadow = Message(0, message.channel_id)
        shadow.apply(message.versions[version])
        if before.get(message.id) != shadow.text():
            kept.add((message.id, version))
        before[message.id] = shadow.text()
    return lambda message, version: (message.id, version) in kept


async def duplicate_night(
    game: str,
    tables: int,
    size: int,
    people_count: int,
    seed: int,
    options: dict[str, Any],
    compare: str | None,
    rounds: int = 1,
    locale: str = "en-US",
    every_edit: bool = False,
    pictures: Path | None = None,
) -> str:
    """A duplicate night of ``tables`` tables of ``size``: signed up, started, every table played, as text."""
    double = DiscordDouble()
    await double.start()
    folder = Path(tempfile.mkdtemp(prefix="transcript-"))
    bot = BotProcess(double, f"sqlite+aiosqlite:///{folder}/bot.db", folder / "bot.log")
    try:
        await bot.start()
        await set_computer_pace(double, 0)
        if locale != "en-US":
            panel = (await double.command(MANAGER, "settings")).original
            assert panel is not None
            await double.choose(MANAGER, panel, "st:lang", [locale])
        people = people_named(people_count, locale)
        chosen: dict[str, Any] = {"format": "duplicate", "rounds": rounds}
        if options:
            chosen["options"] = " ".join(f"{name}={value}" for name, value in options.items())
        if compare is not None:
            chosen["compare"] = compare
        signup = await tournament.sign_up(double, people, game, size, locale, **chosen)
        await tournament.start(double, people[0], signup)
        drawn: set[int] = set()  # the tables' messages
        for round_no in range(1, rounds + 1):
            drivers = await tournament.round_tables(double, people, round_no, tables, seed, locale=locale)
            for number, table in enumerate(drivers):
                table.rng = random.Random(seed * 1000 + round_no * 10 + number)  # each table plays its own way
                assert table.table is not None
                drawn.add(table.table.id)
                await table.play()
                await table.wait_finished()
        podium = t(locale, "tournament.podium_title", tournament="\x00", game="\x00").split("\x00")[-1]
        await double.wait_for(lambda: any(podium in m.text() for m in double.public_messages()), WAIT, "the podium")
        if pictures is not None:
            pictures.mkdir(parents=True, exist_ok=True)

        users = {user.id: user for user in [*people, MANAGER]}
        return render(double, users, pictures, everything if every_edit else briefly(double, drawn))
    finally:
        await bot.stop()
        await double.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.transcript", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, help="players at the table (with --duplicate: at each table)")
    parser.add_argument("--seed", type=int, default=1, help="the automatic players' random choices")
    parser.add_argument("--full", action="store_true", help="the rules' default options (a long match)")
    parser.add_argument("--computers", default="", help="levels of computer players among the players: easy,strong")
    parser.add_argument("--pace", type=int, default=0, choices=[0, 500, 1000, 2000], help="ms between computer moves")
    parser.add_argument("--hints", action="store_true", help="a table with hints (the players do not ask for any)")
    parser.add_argument("--locale", default="en-US", choices=["en-US", "ja"], help="the players' and server's language")
    parser.add_argument("--pictures", type=Path, help="a folder to write every attached picture to")
    night = parser.add_argument_group("a duplicate night (/tournament create format:duplicate)")
    night.add_argument("--duplicate", type=int, metavar="TABLES", help="a duplicate night of this many tables")
    night.add_argument("--people", type=int, help="people signing up (default: every seat; computers fill the rest)")
    night.add_argument("--rounds", type=int, default=1, help="rounds of the night (default 1)")
    night.add_argument(
        "--compare",
        choices=["deal", "round"],
        help="compare each deal once every table has played it, or all of a round's at its end (the default)",
    )
    night.add_argument(
        "--every-edit",
        action="store_true",
        help="every edit of each table's message and every hand (by default: each table's final state only)",
    )
    args = parser.parse_args(argv)
    if args.duplicate is None:
        extra = [f"--{name}" for name in ("people", "compare", "every_edit") if getattr(args, name)]
        if extra or args.rounds != 1:
            parser.error(f"{', '.join(extra or ['--rounds']).replace('_', '-')}: only with --duplicate TABLES")
    options = {} if args.full else QUICK.get(args.game, {})
    computers = [level for level in args.computers.split(",") if level]
    unknown = [level for level in computers if level not in LEVELS]
    if unknown:
        parser.error(f"--computers: no computer level {', '.join(unknown)}; the levels are {', '.join(LEVELS)}")
    players = PLAYERS.get(args.game, GAMES[args.game].default_players) if args.players is None else args.players
    if args.duplicate is not None:
        if computers or args.hints or args.pace:
            parser.error("--computers, --hints, --pace: for a match, not with --duplicate (use --people)")
        if args.duplicate < 1:
            parser.error("--duplicate: at least one table")
        people = players * args.duplicate if args.people is None else args.people
        if not 1 <= people <= players * args.duplicate:
            parser.error(f"--people: from 1 to the {players * args.duplicate} seats of {args.duplicate} tables")
        transcript = duplicate_night(
            args.game,
            args.duplicate,
            players,
            people,
            args.seed,
            options,
            args.compare,
            args.rounds,
            args.locale,
            args.every_edit,
            args.pictures,
        )
        what = "duplicate night"
    else:
        if len(computers) >= players:
            parser.error("at least one person plays: fewer computers than players")
        transcript = play(
            args.game, players, args.seed, options, computers, args.pace, args.hints, args.locale, args.pictures
        )
        what = "table"
    try:
        print(asyncio.run(transcript))
    except Refused as refusal:
        print(f"The bot refused the {what}: {refusal}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
