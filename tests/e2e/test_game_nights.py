"""Game nights through the Discord double: the leaderboard, stats, history with charts, rules and settings."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import select

from bot.games import GAMES
from bot.storage.database import Database
from bot.storage.repository import MATCHES
from bot.tables import TableService
from tests.double import BotProcess, DiscordDouble, Message, User
from tests.double.server import THINKING
from tests.service.helpers import LOBBY_MESSAGE, play_to_end

from .conftest import people
from .driver import WAIT, TableDriver, control, eventually, shown_move
from .leaks import logged_actions, stored_location

SEEDED = 27  # three pages of ten


OTHER_GUILD, OTHER_CHANNEL = 910_000_000_000_000_611, 910_000_000_000_000_612


async def seed_rated_players(database_url: str, guild_id: int) -> list[int]:
    """Three finished nine-player matches of Just Make, played by the service itself before the bot starts: 27
    rated people. (Played while the bot started, a table open in a channel Discord does not list was resumed
    by it and taken for one in a deleted channel: abandoned under the seeding's feet.)"""
    database = Database(database_url)
    await database.upgrade()
    service = TableService(database)
    users = list(range(5000, 5000 + SEEDED))
    try:
        for number in range(3):
            lineup = users[number * 9 : (number + 1) * 9]
            info = await service.open_table(
                guild_id, 7000 + number, lineup[0], f"P{lineup[0]}", "just-make", {"target": 3}
            )
            for user in lineup[1:]:
                info = await service.join(info.id, user, f"P{user}")
            outcome = await service.start(info.id, lineup[0], message_id=LOBBY_MESSAGE)
            await play_to_end(service, outcome.table, seed=number)
        board = await service.leaderboard(guild_id, "just-make", limit=SEEDED)
    finally:
        await service.close()
        await database.close()
    return [row["user_id"] for row in board]


async def bot_after_seeding(
    double: DiscordDouble, database_url: str, tmp_path: Path, guild_id: int
) -> AsyncIterator[list[int]]:
    """The seeded players' ids by rank, with the bot running (started once they were seeded), and the ``bot``
    fixture's checks of its log once it stops."""
    ranked = await seed_rated_players(database_url, guild_id)
    process = BotProcess(double, database_url, tmp_path / "bot.log")
    await process.start()
    try:
        yield ranked
    finally:
        await process.stop()
    log = process.log()
    assert "Traceback" not in log, log[-5000:]


@pytest.fixture
async def ranked(double: DiscordDouble, database_url: str, tmp_path: Path) -> AsyncIterator[list[int]]:
    async for seeded in bot_after_seeding(double, database_url, tmp_path, double.guild_id):
        yield seeded


@pytest.fixture
async def ranked_elsewhere(double: DiscordDouble, database_url: str, tmp_path: Path) -> AsyncIterator[list[int]]:
    double.another_server(OTHER_GUILD, OTHER_CHANNEL)
    async for seeded in bot_after_seeding(double, database_url, tmp_path, OTHER_GUILD):
        yield seeded


def png_of(message: Message) -> Image.Image:
    attachment = next(a for a in message.attachments if a["filename"] == "totals.png")
    image = Image.open(io.BytesIO(attachment["data"]))
    assert image.format == "PNG" and image.size == (900, 440)
    return image


async def test_the_leaderboard_pages_and_shows_your_own_place(double: DiscordDouble, ranked: list[int]) -> None:
    assert len(ranked) == SEEDED
    low = User(ranked[24], "Quinn")  # 25th: not on the first page
    answer = await double.command(low, "leaderboard", game="just-make")
    board = answer.original
    assert board is not None and board.ephemeral_for is None
    text = board.text()
    assert len(re.findall(r"\d+ played · \d+% won", text)) == 11  # ten on the page, and the asker's own line
    assert "📍 Quinn" in text and "`#25`" in text and "Page 1 of 3 · 27 players" in text
    previous, following = control(board, "rk:board:just-make:all:0:"), control(board, "rk:board:just-make:all:1:")
    assert previous is not None and previous.get("disabled") and following is not None

    await double.click(low, board, following["custom_id"])  # the asker pages in place
    assert "Page 2 of 3" in board.text() and "`#11`" in board.text() and "`#25`" in board.text()
    following = control(board, "rk:board:just-make:all:2:")
    assert following is not None
    await double.click(low, board, following["custom_id"])
    assert "Page 3 of 3" in board.text()
    last = control(board, "rk:board:just-make:all:3:")
    assert last is not None and last.get("disabled")

    top = User(ranked[0], "Tess")
    other = await double.click(top, board, control(board, ":all:1:")["custom_id"])  # type: ignore[index]
    copy = other.original
    assert copy is not None and copy.ephemeral_for == top.id and copy.id != board.id  # their own copy
    assert "Page 2 of 3" in copy.text() and "📍 Tess" in copy.text() and "🥇" in copy.text()
    assert "Page 3 of 3" in board.text()  # the asker's message did not move

    week = (await double.command(top, "leaderboard", game="just-make", period="week")).original
    assert week is not None and "Last 7 days" in week.text() and "(now " in week.text()
    stranger = User(4242, "Nobody")
    empty = (await double.command(stranger, "leaderboard", game="five-hundred")).original
    assert empty is not None and "Nobody is on this board yet" in empty.text()
    assert double.problems == []


async def test_stats_history_and_charts_after_a_match_of_each_game(double: DiscordDouble, bot: BotProcess) -> None:
    four = people(4)
    alice, bob, carol, dave = four
    nine = TableDriver(double, four[:3], seed=3)
    await nine.open("ninety-nine", players=3, format="target", target=50)
    await nine.seat_everyone()
    await nine.start()
    await nine.play()
    await nine.wait_finished()
    assert nine.table is not None
    png_of(nine.table)  # the final table carries the chart, and its embed shows it
    assert "Running totals" in nine.table.text() and "🟦 Alice" in nine.table.text()

    rematch = control(nine.table, "tt:rematch:")
    assert rematch is not None
    again = TableDriver(double, [carol, alice, bob], seed=4)  # whoever asked for the rematch hosts it
    again.table = (await double.click(carol, nine.table, rematch["custom_id"])).original
    await again.start()
    await again.play()
    await again.wait_finished()

    for game, players, options in (("five-hundred", 4, {}), ("just-make", 4, {"target": 3})):
        table = TableDriver(double, four[:players], seed=players)
        await table.open(game, players=players, **options)
        await table.seat_everyone()
        await table.start()
        await table.play()
        await table.wait_finished()

    everything = (await double.command(alice, "stats")).original
    assert everything is not None
    text = everything.text()
    assert all(name in text for name in ("Ninety-Nine", "Five Hundred", "Just Make", "Recent matches"))
    assert "2 played" in text  # Ninety-Nine, with the rematch
    assert "Bids made:" in text and "Best deal:" in text and "Rating **" in text
    partners = (await double.command(alice, "stats", user=bob, game="five-hundred")).original
    assert partners is not None
    assert "📊 Bob" in partners.text() and "Favourite partners: Dave (1 together" in partners.text()
    assert "Ninety-Nine" not in partners.text()

    history = (await double.command(dave, "history")).original
    assert history is not None and history.text().count("`#") == 4
    picker = control(history, "rk:open:")
    assert picker is not None and len(picker["options"]) == 4
    newest = picker["options"][0]["value"]
    opened = (await double.choose(bob, history, picker["custom_id"], [newest])).original
    assert opened is not None and opened.ephemeral_for == bob.id
    sheet = opened.text()
    assert "Just Make · match #" in sheet and "Final standings" in sheet and "rating" in sheet
    png_of(opened)
    mine = (await double.command(carol, "history", user=dave)).original  # Dave sat out the Ninety-Nine
    assert mine is not None and "Dave's matches" in mine.text() and mine.text().count("`#") == 2
    assert double.problems == []


async def test_rules_summarise_the_game_and_the_table_here(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    alice = people(1)[0]
    which = (await double.command(alice, "rules")).original
    assert which is not None and "Which game?" in which.text()
    plain = (await double.command(alice, "rules", game="five-hundred")).original
    assert plain is not None and plain.ephemeral_for == alice.id
    assert "contractor" in plain.text() and "Options of a new Five Hundred table" in plain.text()
    table = TableDriver(double, [alice])
    await table.open("just-make", target=5, sweep_wins=True)
    assert table.table is not None
    thread = await double.wait_for(lambda: table.table.thread_id, timeout=WAIT)  # type: ignore[union-attr]

    async def recorded() -> bool:  # the bot records the thread just after Discord makes it
        return (await stored_location(database_url, table.table_id))[1] == thread

    await eventually(recorded, what="the table's thread recorded")
    here = (await double.command(alice, "rules", channel_id=thread)).original  # no game: the table's
    assert here is not None
    assert f"Options of the table here (table {table.table_id})" in here.text()
    assert "Target: 5" in here.text() and "A sweep wins: on" in here.text()
    assert double.problems == []


def settings_control(message: Message, what: str) -> dict[str, Any]:
    found = next((c for c in message.controls() if c.get("custom_id") == f"st:{what}"), None)
    assert found is not None, f"no st:{what} on the settings message"
    return found


async def test_settings_are_for_managers_and_are_saved(double: DiscordDouble, bot: BotProcess) -> None:
    member = User(1100, "Mel")
    manager = User(1101, "Max", manager=True)
    refused = (await double.command(member, "settings")).original
    assert refused is not None and "Only people who can manage this server" in refused.text()
    assert refused.controls() == []

    panel = (await double.command(manager, "settings")).original
    assert panel is not None and panel.ephemeral_for == manager.id
    assert "A reminder after 1 min, then 30 s of grace" in panel.text()  # the defaults
    assert "Short by default (1 min, then 30 s)" in panel.text()  # and why
    await double.choose(manager, panel, "st:turn", ["60"])
    await double.choose(manager, panel, "st:grace", ["15"])
    assert "A reminder after 1 min, then 15 s of grace" in panel.text()
    assert "A thread per table\non" in panel.text()
    await double.click(manager, panel, "st:thread")
    assert "A thread per table\noff" in panel.text()

    await double.choose(manager, panel, "st:game", ["just-make"])
    assert "Default options · Just Make" in panel.text()
    await double.choose(manager, panel, "st:opt:just-make", ["target"])
    values = settings_control(panel, "val:just-make:target")
    assert [o["value"] for o in values["options"]] == [f"i:{n}" for n in range(3, 16)]
    await double.choose(manager, panel, "st:val:just-make:target", ["i:5"])
    assert "✎ Target: 5" in panel.text()
    await double.click(manager, panel, "st:home")
    assert "Just Make**: Target: 5" in panel.text()

    forged = double.plant(["st:thread"])  # a member cannot change anything, even with a button
    answer = await double.click(member, forged, "st:thread")
    assert answer.original is not None and "Only people who can manage" in answer.original.text()
    for what in ("st:opt:no-such-game", "st:val:no-such-game:target"):  # forged: nothing to change
        odd = await double.click(manager, double.plant([what]), what)
        assert odd.original is not None and "That button is not one of mine" in odd.original.text()
    again = (await double.command(manager, "settings")).original
    assert again is not None and "A thread per table\noff" in again.text()

    table = TableDriver(double, [member])
    await table.open("just-make")
    assert table.table is not None
    assert "Target: 5" in table.table.text() and "Turn timer: 1 min, then 15 s" in table.table.text()
    assert table.table.thread_id is None  # threads were turned off
    assert double.problems == []


JAPANESE_NAMES = ["さくら", "はると", "ゆい", "そうた", "ひな"]
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
NOT_WORDS = re.compile(rf"<@!?\d+>|<t:\d+:[a-zA-Z]>|attachment://\S+|^{THINKING}$")  # Discord's own words


def english_in(text: str) -> list[str]:
    return LATIN_WORD.findall(NOT_WORDS.sub("", text))


JAPANESE_MATCHES = [
    ("ninety-nine", 3, {"format": "target", "target": 50}),
    ("five-hundred", 4, {}),
    ("just-make", 5, {"target": 3, "hints": True}),  # with a computer, and a hint asked for
    ("oh-hell", 4, {"start_cards": 3, "hints": True}),
]


@pytest.mark.parametrize(("game", "count", "options"), JAPANESE_MATCHES, ids=[g for g, _, _ in JAPANESE_MATCHES])
async def test_a_whole_match_in_japanese_shows_no_english(
    double: DiscordDouble, bot: BotProcess, game: str, count: int, options: dict[str, Any]
) -> None:
    manager = User(1200, "かんり", "ja", manager=True)
    panel = (await double.command(manager, "settings")).original
    assert panel is not None and "このサーバーの設定" in panel.text()
    await double.choose(manager, panel, "st:lang", ["ja"])
    assert "公開メッセージの言語\n日本語" in panel.text()
    hints = bool(options.get("hints"))
    computers = ["easy"] if hints else []
    if computers:
        await double.click(manager, panel, "st:pace:0")
        assert "コンピューターの速さ\nすぐ" in panel.text()

    players = [User(1300 + n, name, "ja") for n, name in enumerate(JAPANESE_NAMES[: count - len(computers)])]
    table = TableDriver(double, players, seed=8)
    await table.open(game, players=count, **options)
    await table.seat_everyone(computers)
    await table.start()
    if hints:
        for player in table.players:
            await table.show_hand(player)
        await double.wait_for(table.someone_can_act, timeout=WAIT)
        on_turn = next(p for p in table.players if table.choices(p.hand))  # type: ignore[arg-type]
        assert on_turn.hand is not None
        asked = control(on_turn.hand, "tt:hint:")
        assert asked is not None
        answer = (await double.click(on_turn.user, on_turn.hand, asked["custom_id"])).original
        assert answer is not None
        await double.wait_for(lambda: answer.text().startswith("💡"), timeout=WAIT)
    await table.play()
    await table.wait_finished()
    assert table.table is not None and "最終順位" in table.table.text()
    for user in players:
        await double.command(user, "hand", channel_id=table.table.thread_id)
    await double.command(players[0], "stats")
    await double.command(players[1], "rules")
    history = (await double.command(players[2], "history")).original
    assert history is not None
    picker = control(history, "rk:open:")
    assert picker is not None
    await double.choose(players[2], history, picker["custom_id"], [picker["options"][0]["value"]])

    seen = [(m.id, v) for m in double.public_messages() for v in m.versions if m.versions]
    seen += [(m.id, v) for user in players for m in double.ephemerals(user) for v in m.versions]
    assert len(seen) > 50
    found: dict[str, str] = {}
    for _message_id, version in seen:
        if version.get("content") == THINKING:  # Discord's own "is thinking…", in the reader's language there
            continue
        shadow = Message(0, 0)
        shadow.apply(version)
        text = shadow.text()
        found.update({word: text for word in english_in(text)})
    assert not found, f"English words {sorted(found)}, e.g. in:\n{next(iter(found.values()))}"
    assert double.problems == []


async def test_commands_are_localised_for_japanese(double: DiscordDouble, bot: BotProcess) -> None:
    by_name = {command["name"]: command for command in double.commands}
    plays = {f"play-{game}" for game in GAMES}
    assert set(by_name) >= {*plays, "hand", "abandon", "leaderboard", "stats", "history", "rules", "settings"}
    assert by_name["leaderboard"]["name_localizations"]["ja"] == "ランキング"
    assert by_name["leaderboard"]["description_localizations"]["ja"] == "ゲームごとのサーバーの上位プレイヤー"
    five = by_name["play-five-hundred"]
    players = next(option for option in five["options"] if option["name"] == "players")
    assert five["name_localizations"]["ja"] == "プレイ-ファイブハンドレッド"
    assert players["name_localizations"]["ja"] == "人数"
    all_pass = next(option for option in five["options"] if option["name"] == "all_pass")
    assert {c["name_localizations"]["ja"] for c in all_pass["choices"]} == {
        "配り直し",
        "切り札なしで遊ぶ",
        "2回続けて全員パスならディーラー交代",
    }
    assert int(by_name["settings"]["default_member_permissions"]) == 1 << 5  # Manage Server
    assert double.problems == []


async def test_play_offers_exactly_the_values_each_option_allows(double: DiscordDouble, bot: BotProcess) -> None:
    """Every game's /play takes each option's values from the engine's spec: a choice for each allowed
    value (500 or 520 is two values, not the range between), or the whole range of a number."""
    plays = [command["name"] for command in double.commands if command["name"].startswith("play-")]
    assert plays == [f"play-{game}" for game in GAMES]  # one per game, none written out
    for game, info in GAMES.items():
        command = next(c for c in double.commands if c["name"] == f"play-{game}")
        synced = {option["name"]: option for option in command["options"]}
        first = ["length", "players"] if info.quick else ["players"]  # the match's length up front, where it has one
        assert list(synced) == [*first, *(spec.name for spec in info.options), "turn_seconds", "hints"]
        if info.quick:
            assert [c["value"] for c in synced["length"]["choices"]] == ["quick", "full"]
        players = synced["players"]
        assert (players["min_value"], players["max_value"]) == (min(info.players), max(info.players))
        for spec in info.options:
            option = synced[spec.name]
            if spec.choices or spec.values:
                assert [c["value"] for c in option["choices"]] == list(spec.choices or spec.values), spec.name
            elif not isinstance(spec.default, bool):
                assert (option["min_value"], option["max_value"]) == (spec.low, spec.high), spec.name
    assert double.problems == []


async def test_every_record_is_walled_off_by_server(
    double: DiscordDouble, database_url: str, ranked_elsewhere: list[int]
) -> None:
    """Matches finished on another server never show here, whatever a command or a custom_id names."""
    elsewhere, ranked = OTHER_CHANNEL, ranked_elsewhere
    database = Database(database_url)
    try:
        async with database.engine.connect() as connection:
            match_ids = list((await connection.execute(select(MATCHES.c.id))).scalars())
    finally:
        await database.close()
    assert len(match_ids) == 3
    theirs = User(ranked[0], "Tess")
    there = (await double.command(theirs, "leaderboard", game="just-make", channel_id=elsewhere)).original
    assert there is not None and "27 players" in there.text()  # the records exist, on their own server

    me = User(4300, "Here")
    for period in ("all", "week"):
        board = (await double.command(me, "leaderboard", game="just-make", period=period)).original
        assert board is not None and "Nobody is on this board yet" in board.text(), period
    stats = (await double.command(me, "stats", user=theirs)).original
    assert stats is not None and "has not finished a match on this server" in stats.text()
    for history in (await double.command(me, "history"), await double.command(me, "history", user=theirs)):
        assert history.original is not None and "No finished matches here yet" in history.original.text()
    for match_id in match_ids:  # a forged pick of another server's match
        opener = double.plant_select("rk:open:0", [str(match_id)])
        await double.choose(me, opener, "rk:open:0", [str(match_id)])
        assert "not one of this server's" in (double.latest_ephemeral(me) or opener).text()
    for custom_id in (f"rk:hist:0:{theirs.id}:{me.id}", f"rk:board:just-make:all:0:{me.id}"):
        page = double.plant([custom_id])
        answer = await double.click(me, page, custom_id)
        shown = (answer.original or page).text() + (double.latest_ephemeral(me) or page).text()
        assert "Tess" not in shown and f"P{ranked[0]}" not in shown, custom_id
    assert double.problems == []


async def test_a_turn_pings_exactly_the_people_on_turn_and_keeps_one_line(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    players = people(4)
    table = TableDriver(double, players, seed=8)
    await table.open("just-make", players=4, target=3)
    await table.seat_everyone()
    await table.start()
    assert table.table is not None
    where = table.table.thread_id or double.channel_id

    def pings() -> list[Message]:
        return [m for m in double.public_messages() if m.channel_id == where and m.content.startswith("🔔")]

    def mentioned(message: Message) -> set[int]:
        return {int(found) for found in re.findall(r"<@(\d+)>", message.content)}

    posted = 0
    for _ in range(10):  # whoever is on turn is pinged, once, and the line before is gone
        await table.refresh_all()
        on_turn = {p.user.id for p in table.players if p.hand is not None and table.choices(p.hand)}
        assert len(on_turn) == 1  # Just Make bids and plays in turn
        line = await double.wait_for(
            lambda want=on_turn: len(pings()) == 1 and mentioned(pings()[0]) == want and pings()[0],  # type: ignore[misc]
            WAIT,
            "the ping of the person on turn, alone",
        )
        assert line.ephemeral_for is None
        posted += 1
        mover = next(p for p in table.players if p.user.id in on_turn)
        for _ in range(3):  # a choice may take two steps (a card, then how to bid it)
            if not await table.take_turn(mover):
                break
    assert posted == 10
    await table.refresh_all()  # the last move's ping lands before pings are turned off
    on_turn = {p.user.id for p in table.players if p.hand is not None and table.choices(p.hand)}
    await double.wait_for(lambda: len(pings()) == 1 and mentioned(pings()[0]) == on_turn, WAIT, "the last move's ping")
    hands = [str(v["embeds"]) for p in table.players for m in double.ephemerals(p.user) for v in m.versions]
    assert any("Last trick:" in text and ("won by" in text or "taken by nobody" in text) for text in hands)

    manager = User(1900, "Manager", manager=True)
    panel = (await double.command(manager, "settings")).original
    assert panel is not None
    await double.choose(manager, panel, "st:game", ["limits"])
    assert "🔔" in panel.text() and "Turn pings off" in str(panel.components)
    await double.click(manager, panel, "st:pings")
    assert "Off: only the reminder" in panel.text()
    before = {m.id for m in pings()}
    for _ in range(4):
        await table.refresh_all()
        mover = next(p for p in table.players if p.hand is not None and table.choices(p.hand))
        await table.take_turn(mover)
    # The table shows the last move (a ping would have gone before this edit), then a moment more for a stray one.
    moved = len(await logged_actions(database_url, table.table_id))
    await double.wait_for(lambda: shown_move(table.table) == moved, WAIT, "the table shows the last move")  # type: ignore[arg-type]
    await asyncio.sleep(0.5)
    assert {m.id for m in pings()} <= before  # nothing new once they are off
    assert double.problems == []
