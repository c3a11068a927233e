"""Flows no other end-to-end test walked, each checked as the person sees it (who sees the answer, in their
language; the public message redrawn; nothing changed by a refusal, nor by another server's button):
/tournament standings; /season stop and its final standings; /abandon by a manager not at the table; /history's
page buttons; /settings' reset of a game's defaults; the sign-up's Leave, computer and Cancel, and Leave during
the tournament; a server's new turn timer and new language reaching its open tables' messages."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.catalogues import translate
from bot.storage.database import Database
from bot.tables import TableService
from tests.double import BotProcess, DiscordDouble, Message, User
from tests.service.helpers import LOBBY_MESSAGE, play_to_end

from .driver import MANAGER, WAIT, TableDriver, control, shown_move
from .tournament import entrants, pings, play_round, round_tables, sign_up, table_of

SHORT = "start_cards=1 sequence=down"  # one deal of one card: a few moves a table
ROOM = 900_000_000_000_000_002  # the double's channel


async def test_tournament_standings_are_the_readers_own_and_name_the_rounds_played(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    users = entrants(4)
    bystander = User(2995, "Watcher")
    japanese = User(2996, "Mei", locale="ja")
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="50")
    await process.start()
    try:
        signup = await sign_up(double, users, rounds=2, options=SHORT)
        found = re.search(r"Tournament (\d+)", signup.text())
        assert found is not None, signup.text()
        number = int(found[1])

        async def standings(who: User, tournament: int = number, channel_id: int | None = None) -> Message:
            answer = await double.command(who, "tournament", "standings", tournament=tournament, channel_id=channel_id)
            assert answer.original is not None and answer.original.ephemeral_for == who.id, "to the asker alone"
            return answer.original

        before = (await standings(bystander)).text()
        assert "before any round has finished" in before and "after round" not in before, before

        start = control(signup, ":start:")
        assert start is not None
        await double.click(users[0], signup, start["custom_id"])
        await play_round(double, users, 1, 1)
        await double.wait_for(
            lambda: any("standings after round 1" in m.text() for m in double.public_messages()), WAIT, "round 1 over"
        )
        mine = (await standings(users[1])).text()
        assert "standings after round 1" in mine, mine  # round 2 is under way: the standings are still round 1's
        assert all(f"<@{user.id}>" in mine for user in users), mine
        theirs = (await standings(japanese)).text()
        assert "ラウンド1後の順位" in theirs and "standings" not in theirs, theirs

        assert "There is no tournament 999999" in (await standings(bystander, 999_999)).text()
        elsewhere = double.another_server(910_000_000_000_000_711, 910_000_000_000_000_712)
        other = (await standings(User(2997, "Stranger"), number, elsewhere)).text()
        assert "belongs to another server" in other and f"<@{users[0].id}>" not in other, other
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]


def in_room(double: DiscordDouble, words: str) -> list[Message]:
    return [m for m in double.public_messages() if m.channel_id == ROOM and words in m.text()]


async def test_season_stop_ends_the_season_and_posts_its_standings_and_only_a_manager_may(
    double: DiscordDouble, bot: BotProcess
) -> None:
    started = await double.command(MANAGER, "season", "start", game="just-make", length="month", channel=ROOM)
    assert started.original is not None and started.original.ephemeral_for is None, "said in the channel"
    found = re.search(r"season (\S+)\*\*", started.original.text())
    assert found is not None, started.original.text()
    name = found[1]

    member = User(1950, "Pat")
    refused = (await double.command(member, "season", "stop", game="just-make")).original
    assert refused is not None and refused.ephemeral_for == member.id
    assert "Only someone who can manage the server" in refused.text()
    again = (await double.command(MANAGER, "season", "start", game="just-make", length="month", channel=ROOM)).original
    assert again is not None and "already on" in again.text(), "the refusal turned nothing off"

    stopped = (await double.command(MANAGER, "season", "stop", game="just-make")).original
    assert stopped is not None and stopped.ephemeral_for is None, "said in the channel"
    assert "Seasons of Just Make are off" in stopped.text() and f"Season {name} ended now" in stopped.text()
    posted = await double.wait_for(lambda: in_room(double, f"season {name} is over"), WAIT, "the final standings")
    assert len(posted) == 1 and "No next season" in posted[0].text() and "Nobody played" in posted[0].text()

    japanese = User(1901, "Mei", locale="ja", manager=True)
    twice = (await double.command(japanese, "season", "stop", game="just-make")).original
    assert twice is not None and twice.ephemeral_for == japanese.id
    assert "シーズンはオンになっていません" in twice.text(), twice.text()
    board = (await double.command(member, "leaderboard", game="just-make", season=name)).original
    assert board is not None and f"season {name}" in board.text(), "the ended season's board is kept"
    assert len(in_room(double, f"season {name} is over")) == 1, "posted once"

    ahead = datetime.now(UTC).date() + timedelta(days=60)  # a season planned to begin in two months
    later = dict(
        game="oh-hell", length="dates", channel=ROOM, first=ahead.isoformat(), last=(ahead + timedelta(4)).isoformat()
    )
    planned = (await double.command(MANAGER, "season", "start", **later)).original
    assert planned is not None and planned.ephemeral_for is None, planned.text()
    dropped = (await double.command(MANAGER, "season", "stop", game="oh-hell")).original
    assert dropped is not None and "Seasons of Oh Hell are off" in dropped.text(), dropped.text()
    assert "ended now" not in dropped.text(), "a season not yet begun is dropped, not ended"
    again = (await double.command(MANAGER, "season", "start", **later)).original
    assert again is not None and "already on" not in again.text(), "off means off: it can be started afresh"
    assert double.problems == []


async def test_a_manager_not_at_the_table_abandons_it_and_a_player_is_refused_in_their_language(
    double: DiscordDouble, bot: BotProcess
) -> None:
    users = [User(1000, "Alice"), User(1001, "Ken", locale="ja"), User(1002, "Carol"), User(1003, "Dave")]
    table = TableDriver(double, users, seed=4)
    await table.open("just-make", players=4, target=3)
    await table.seat_everyone()
    await table.start()
    assert table.table is not None and table.table.thread_id is not None
    thread = table.table.thread_id
    for player in table.players:
        await table.show_hand(player)
    move = shown_move(table.table)

    refused = (await double.command(users[1], "abandon", channel_id=thread)).original
    assert refused is not None and refused.ephemeral_for == users[1].id
    assert "テーブルを中止できるのは" in refused.text(), refused.text()
    # nothing changed (the table's move, not its message's edits: on a loaded machine an edit the start left
    # waiting, coalesced to one a second, may land meanwhile)
    assert move is not None and shown_move(table.table) == move and "abandoned" not in table.table.text()

    done = (await double.command(MANAGER, "abandon", channel_id=thread)).original
    assert done is not None and done.ephemeral_for is None, "said in the thread for all"
    assert f"<@{MANAGER.id}> abandoned the table" in done.text(), done.text()
    await double.wait_for(lambda: "abandoned" in table.table.text(), WAIT, "the table says it was abandoned")  # type: ignore[union-attr]
    assert control(table.table, "tt:") is None, "no controls left on the table"

    stale = [p for p in table.players if p.hand is not None and table.choices(p.hand)]
    for on_turn in stale:  # a hand not redrawn yet at the end (a busy machine may have redrawn them all already)
        assert on_turn.hand is not None
        card = table.choices(on_turn.hand)[0]["custom_id"]
        answer = await double.click(on_turn.user, on_turn.hand, card)  # a button from before the end: refused
        shown = answer.original or on_turn.hand
        # said in the clicker's language (Ken's is Japanese)
        closed = translate("ja" if on_turn.user.locale == "ja" else "en", "error.table_closed")
        assert closed in shown.text() and not table.choices(shown), shown.text()
        break
    for player in table.players:  # every hand, once redrawn, offers nothing more
        await double.wait_for(lambda p=player: not table.choices(p.hand), WAIT, "no choice left in a hand")  # type: ignore[misc]
    again = (await double.command(MANAGER, "abandon", channel_id=thread)).original
    assert again is not None and again.ephemeral_for == MANAGER.id, "a table already ended is not ended twice"
    assert double.problems == []


PLAYED = 12  # matches of one person: two pages of /history


async def seed_matches(database_url: str, guild_id: int) -> list[int]:
    """Twelve finished matches of Just Make at four, the same person (5800) at each: their ids, oldest first."""
    database = Database(database_url)
    await database.upgrade()
    service = TableService(database)
    ids = []
    try:
        for number in range(PLAYED):
            lineup = [5800, 5801 + number * 3, 5802 + number * 3, 5803 + number * 3]
            info = await service.open_table(guild_id, 7300 + number, lineup[0], "Reg", "just-make", {"target": 3})
            for user in lineup[1:]:
                info = await service.join(info.id, user, f"P{user}")
            outcome = await service.start(info.id, lineup[0], message_id=LOBBY_MESSAGE)
            await play_to_end(service, outcome.table, seed=number)
            ids.append(outcome.table.id)
    finally:
        await service.close()
        await database.close()
    return ids


async def test_history_pages_in_place_for_its_asker_and_a_copy_for_anyone_else(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    await seed_matches(database_url, double.guild_id)
    process = BotProcess(double, database_url, tmp_path / "bot.log")
    await process.start()
    try:
        regular, other = User(5800, "Reg"), User(5990, "Ken", locale="ja")
        history = (await double.command(regular, "history", user=regular)).original
        assert history is not None and history.ephemeral_for is None
        assert "Page 1 of 2 · 12 matches" in history.text(), history.text()
        assert len(re.findall(r"`#\d+`", history.text())) == 10
        first_page = set(re.findall(r"`#(\d+)`", history.text()))
        previous = control(history, f"rk:hist:0:{regular.id}:")
        following = control(history, f"rk:hist:1:{regular.id}:")
        assert previous is not None and previous.get("disabled") and following is not None

        await double.click(regular, history, following["custom_id"])  # the asker pages in place
        await double.wait_for(lambda: "Page 2 of 2" in history.text(), WAIT, "page 2")
        second_page = set(re.findall(r"`#(\d+)`", history.text()))
        assert len(second_page) == 2 and not second_page & first_page, history.text()
        picker = control(history, "rk:open:")
        assert picker is not None and {o["value"] for o in picker["options"]} == second_page

        back = control(history, f"rk:hist:0:{regular.id}:")
        assert back is not None and not back.get("disabled")
        copy = (await double.click(other, history, back["custom_id"])).original  # someone else: their own copy
        assert copy is not None and copy.ephemeral_for == other.id and copy.id != history.id
        assert "1/2ページ · 12戦" in copy.text(), copy.text()
        assert set(re.findall(r"`#(\d+)`", copy.text())) == first_page
        assert "Page 2 of 2" in history.text(), "the asker's message did not move"
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]


CHOSEN = re.compile(r"(?m)^✎ ")  # a line of the server's own choice on a game's defaults


async def test_a_manager_resets_a_games_defaults_and_a_member_cannot(double: DiscordDouble, bot: BotProcess) -> None:
    manager, member = User(1101, "Max", manager=True), User(1100, "Mel", locale="ja")
    panel = (await double.command(manager, "settings")).original
    assert panel is not None and panel.ephemeral_for == manager.id
    await double.choose(manager, panel, "st:game", ["just-make"])
    await double.choose(manager, panel, "st:opt:just-make", ["target"])
    await double.choose(manager, panel, "st:val:just-make:target", ["i:5"])
    await double.choose(manager, panel, "st:opt:just-make", ["sweep_wins"])
    await double.choose(manager, panel, "st:val:just-make:sweep_wins", ["b:1"])
    assert "✎ Target: 5" in panel.text() and len(CHOSEN.findall(panel.text())) == 2, panel.text()

    forged = double.plant(["st:reset:just-make"])  # a member, with a button of their own making: refused
    refused = (await double.click(member, forged, "st:reset:just-make")).original
    assert refused is not None and refused.ephemeral_for == member.id and "Target" not in refused.text()
    assert "サーバー" in refused.text(), refused.text()
    odd = (await double.click(manager, double.plant(["st:reset:chess"]), "st:reset:chess")).original
    assert odd is not None and "That button is not one of mine" in odd.text()
    before = TableDriver(double, [member])
    await before.open("just-make")
    assert before.table is not None and "Target: 5" in before.table.text(), "the refusals changed nothing"
    await double.command(member, "abandon", channel_id=before.table.thread_id)

    await double.click(manager, panel, "st:reset:just-make")
    assert not CHOSEN.findall(panel.text()) and "Target: 7" in panel.text(), panel.text()
    await double.click(manager, panel, "st:home")
    assert "Target: 5" not in panel.text()
    after = TableDriver(double, [User(1102, "Ann")])
    await after.open("just-make")
    assert after.table is not None and "Target: 7" in after.table.text(), after.table.text()
    assert double.problems == []


async def test_leave_computer_and_cancel_on_the_sign_up_message(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    users = entrants(4)
    outsider = User(2990, "Outsider", locale="ja")
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="50")
    await process.start()
    try:
        signup = await sign_up(double, users, rounds=2, options=SHORT)
        number = re.search(r"Tournament (\d+)", signup.text())
        assert number is not None

        async def press(who: User, op: str) -> Message | None:
            button = control(signup, f":{op}:")
            assert button is not None, f"no {op} on the sign-up"
            return (await double.click(who, signup, button["custom_id"])).original

        versions = len(signup.versions)
        refusals = {"cpu": "トーナメントのホストか", "cancel": "トーナメントのホストか", "leave": "あなたは"}
        for op, words in refusals.items():  # not the host, not entered: each refused to them alone, in Japanese
            said = await press(outsider, op)
            assert said is not None and said.ephemeral_for == outsider.id and said.id != signup.id, op
            assert words in said.text(), (op, said.text())
        join = control(signup, ":join:")
        assert join is not None
        elsewhere = double.another_server(910_000_000_000_000_811, 910_000_000_000_000_812)
        copied = double.plant([join["custom_id"]], channel_id=elsewhere)  # the button copied to another server
        said = (await double.click(outsider, copied, join["custom_id"])).original
        assert said is not None and said.ephemeral_for == outsider.id and "別のサーバー" in said.text(), said.text()
        assert len(signup.versions) == versions and "Entrants (4)" in signup.text(), "the refusals changed nothing"

        await press(users[3], "leave")  # in sign-up: out of it
        await double.wait_for(lambda: f"<@{users[3].id}>" not in signup.text(), WAIT, "the sign-up without them")
        await press(users[0], "cpu")  # the host seats a computer in their place
        await double.wait_for(lambda: "Entrants (4)" in signup.text(), WAIT, "a computer entered")

        start = control(signup, ":start:")
        assert start is not None
        await double.click(users[0], signup, start["custom_id"])
        ready = await double.wait_for(lambda: pings(double, 1), WAIT, "round 1's table")
        table = await table_of(double, ready[0])

        await press(users[1], "cancel")  # an entrant, not the host: refused
        assert "Only the tournament's host" in (double.latest_ephemeral(users[1]) or signup).text()
        await press(MANAGER, "cancel")  # someone who manages the server may
        await double.wait_for(lambda: "Cancelled" in signup.text(), WAIT, "the sign-up says cancelled")
        await double.wait_for(
            lambda: any(f"Tournament {number[1]} was cancelled" in m.text() for m in double.public_messages()),
            WAIT,
            "the channel is told",
        )
        await double.wait_for(lambda: "abandoned" in table.text(), WAIT, "the round's table ended")
        assert control(signup, "tt:tour:") is None, "no buttons on a cancelled tournament"
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]


async def test_leave_during_a_tournament_withdraws_from_the_rounds_to_come(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    users = entrants(4)
    process = BotProcess(double, database_url, tmp_path / "bot.log", COMPUTER_BUDGET_MS="50")
    await process.start()
    try:
        signup = await sign_up(double, users, rounds=2, options=SHORT)
        start = control(signup, ":start:")
        assert start is not None
        await double.click(users[0], signup, start["custom_id"])
        drivers = await round_tables(double, users, 1, 1, seed=1)
        leave = control(signup, ":leave:")
        assert leave is not None
        await double.click(users[3], signup, leave["custom_id"])  # during round 1: out of the rounds to come
        await double.wait_for(lambda: "Entrants (3)" in signup.text(), WAIT, "the sign-up without them")
        assert f"<@{users[3].id}>" not in signup.text()
        again = (await double.click(users[3], signup, leave["custom_id"])).original
        assert again is not None and again.ephemeral_for == users[3].id and "You are not signed up" in again.text()

        await drivers[0].play()  # the table they are at plays on, with them
        await drivers[0].wait_finished()
        second = await double.wait_for(lambda: pings(double, 2), WAIT, "round 2's table")
        assert f"<@{users[3].id}>" not in second[0].text() and all(
            f"<@{user.id}>" in second[0].text() for user in users[:3]
        ), second[0].text()
        assert double.problems == []
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()[-4000:]


async def test_an_open_lobby_shows_the_servers_new_turn_timer(double: DiscordDouble, bot: BotProcess) -> None:
    """A lobby shows the timer its match will have: the server's, changed in /settings while it is open."""
    manager, host = User(1101, "Max", manager=True), User(1000, "Ann")
    lobby = TableDriver(double, [host, User(1001, "Bo"), User(1002, "Cy"), User(1003, "Di")])
    await lobby.open("just-make", target=3)
    assert lobby.table is not None and "Turn timer: 1 min, then 30 s of grace" in lobby.table.text()

    forged = double.plant_select("st:turn", ["300"])  # a member's forged change: refused, the lobby as it was
    refused = (await double.choose(host, forged, "st:turn", ["300"])).original
    assert refused is not None and refused.ephemeral_for == host.id and "Only people who can manage" in refused.text()
    panel = (await double.command(manager, "settings")).original
    assert panel is not None
    await double.choose(manager, panel, "st:grace", ["15"])
    await double.wait_for(
        lambda: "Turn timer: 1 min, then 15 s of grace" in lobby.table.text(),  # type: ignore[union-attr]
        WAIT,
        "the lobby shows the new grace",
    )
    await double.choose(manager, panel, "st:turn", ["120"])
    await double.wait_for(
        lambda: "Turn timer: 2 min, then 15 s of grace" in lobby.table.text(),  # type: ignore[union-attr]
        WAIT,
        "the lobby shows the new turn time",
    )
    await lobby.seat_everyone()
    await lobby.start()
    assert double.problems == []


JA_SEATED, JA_SHOW_HAND = "着席（1）", "手札を見る"


async def test_open_tables_speak_the_servers_new_language(double: DiscordDouble, bot: BotProcess) -> None:
    """Public messages speak the server's language: a lobby and a table in play, changed in /settings while
    they are open, are drawn again in it."""
    manager = User(1101, "Max", manager=True)
    lobby = TableDriver(double, [User(1000, "Ann")])
    await lobby.open("just-make", target=3)
    playing = TableDriver(double, [User(1010, "Bo"), User(1011, "Cy"), User(1012, "Di"), User(1013, "Eve")])
    await playing.open("just-make", target=3)
    await playing.seat_everyone()
    await playing.start()
    assert lobby.table is not None and playing.table is not None
    assert "Seated (1)" in lobby.table.text() and "Show my hand" in playing.table.text()
    signup = await sign_up(double, entrants(2), rounds=1)  # a tournament's sign-up, open too
    open_now = translate("en", "tournament.status_signup")
    assert open_now in signup.text()

    panel = (await double.command(manager, "settings")).original
    assert panel is not None
    await double.choose(manager, panel, "st:lang", ["ja"])
    await double.wait_for(
        lambda: JA_SEATED in lobby.table.text() and JA_SHOW_HAND in playing.table.text(),  # type: ignore[union-attr]
        WAIT,
        "both open tables in Japanese",
    )
    assert "Seated" not in lobby.table.text() and "Show my hand" not in playing.table.text()
    ja_open = translate("ja", "tournament.status_signup")
    await double.wait_for(lambda: ja_open in signup.text(), WAIT, "the sign-up in Japanese")
    assert open_now not in signup.text()
    assert double.problems == []
