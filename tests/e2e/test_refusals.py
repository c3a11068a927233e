"""Wrong clicks of every kind get a short, polite answer only the clicker sees, and change nothing."""

from __future__ import annotations

import asyncio

from tests.double import BotProcess, DiscordDouble, User

from .conftest import people
from .driver import WAIT, TableDriver, control
from .leaks import logged_actions


def last_ephemeral_text(double: DiscordDouble, user: User) -> str:
    message = double.latest_ephemeral(user)
    assert message is not None
    return message.text()


async def test_refusals_change_nothing(double: DiscordDouble, bot: BotProcess, database_url: str) -> None:
    alice, bob, carol, dave = people(4)
    watcher = User(2000, "Walter")
    table = TableDriver(double, [alice, bob, carol, dave], seed=3)
    await table.open("just-make", players=4, target=3)
    assert table.table is not None
    lobby_versions = len(table.table.versions)

    start = control(table.table, ":start:")
    assert start is not None
    await double.click(bob, table.table, start["custom_id"])  # not the host
    assert "Only the host" in last_ephemeral_text(double, bob)
    await table.seat_everyone()
    join = control(table.table, ":join:")
    assert join is not None
    await double.click(bob, table.table, join["custom_id"])  # twice
    assert "already seated" in last_ephemeral_text(double, bob)
    assert len(table.table.versions) == lobby_versions + 3  # three joins, nothing for the refusals

    thread_id = table.table.thread_id  # each table has its own thread where the server allows it
    assert thread_id is not None and double.channels[thread_id]["type"] == 11
    inside = await double.command(carol, "play-ninety-nine", channel_id=thread_id)
    assert inside.original is not None and inside.original.ephemeral_for == carol.id
    assert "not from inside a thread" in inside.original.text()
    inside = await double.command(carol, "tournament", "create", game="oh-hell", channel_id=thread_id)
    assert inside.original is not None and inside.original.ephemeral_for == carol.id
    assert "not from inside a thread" in inside.original.text()  # its tables open threads from the channel

    await table.start()
    table_id = table.table_id
    show = control(table.table, "tt:hand:")
    assert show is not None
    await double.click(watcher, table.table, show["custom_id"])  # a spectator
    assert "welcome to watch" in last_ephemeral_text(double, watcher)

    for player in table.players:
        await table.show_hand(player)
    on_turn = next(p for p in table.players if table.choices(p.hand))  # type: ignore[arg-type]
    waiting = next(p for p in table.players if p is not on_turn)
    assert waiting.hand is not None and not table.choices(waiting.hand)
    old = double.plant([f"tt:act:{table_id}:0:bid AS", "tt:hand:987654", "something:else"])
    await double.click(waiting.user, old, f"tt:act:{table_id}:0:bid AS")  # not their turn
    assert "not your turn" in last_ephemeral_text(double, waiting.user)
    await double.click(alice, old, "tt:hand:987654")  # a table that does not exist
    assert "no longer exists" in last_ephemeral_text(double, alice)
    await double.click(alice, old, "something:else")  # a custom_id the bot never made
    assert "not one of mine" in last_ephemeral_text(double, alice)
    assert await logged_actions(database_url, table_id) == []

    # two clicks at once on two different cards: one action, the other refused
    assert on_turn.hand is not None
    first, second = table.choices(on_turn.hand)[:2]
    await asyncio.gather(
        double.click(on_turn.user, on_turn.hand, first["custom_id"]),
        double.click(on_turn.user, on_turn.hand, second["custom_id"]),
    )
    assert len(await logged_actions(database_url, table_id)) == 1

    # a button from before their own last action is stale: the hand is shown again as it is now
    stale = double.plant([second["custom_id"]])
    await double.click(on_turn.user, stale, second["custom_id"])
    assert "before the table moved on" in last_ephemeral_text(double, on_turn.user)
    assert len(await logged_actions(database_url, table_id)) == 1

    # /abandon: not for a player who is not the host, yes for the host
    elsewhere = await double.command(bob, "abandon")  # the table lives in its thread
    assert elsewhere.original is not None and "no open table here" in elsewhere.original.text()
    refused = await double.command(bob, "abandon", channel_id=thread_id)
    assert refused.original is not None and "Only the host" in refused.original.text()
    done = await double.command(alice, "abandon", channel_id=thread_id)
    assert done.original is not None and done.original.ephemeral_for is None
    await double.wait_for(lambda: "abandoned" in table.table.text(), timeout=WAIT)  # type: ignore[union-attr]
    assert control(table.table, "tt:") is None
    # an abandoned table shows no rematch: one made by hand, by one of its players, opens nothing
    forged = f"tt:rematch:{table_id}"
    made = double.plant([forged], channel_id=thread_id)
    messages = len(double.public_messages())
    await double.click(alice, made, forged)
    assert "offers a rematch" in last_ephemeral_text(double, alice)
    assert len(double.public_messages()) == messages
    assert double.problems == []


async def test_a_table_answers_only_where_it_is(double: DiscordDouble, bot: BotProcess, database_url: str) -> None:
    """Servers are walls: a table's buttons, forged in another server or in another channel, change nothing
    and get the polite "not my button"; where the table is, the same click works."""
    players = people(3)
    table = TableDriver(double, players, seed=4)
    await table.open("ninety-nine", players=3, format="nine-deals")
    assert table.table is not None
    lobby_id = table.table_id
    join, start = f"tt:lobby:join:{lobby_id}", f"tt:lobby:start:{lobby_id}"
    stranger = User(4200, "Mallory")
    other_server = double.another_server(910_000_000_000_000_777, 910_000_000_000_000_778)
    forged = double.plant([join, start, f"tt:lobby:cpu:{lobby_id}", f"tt:hand:{lobby_id}"], channel_id=other_server)
    for custom_id in (join, start, f"tt:lobby:cpu:{lobby_id}", f"tt:hand:{lobby_id}"):
        await double.click(stranger, forged, custom_id)
        assert "not one of mine" in last_ephemeral_text(double, stranger), custom_id
    elsewhere = double.another_server(double.guild_id, 910_000_000_000_000_779)  # this server, another channel
    await double.click(stranger, double.plant([join], channel_id=elsewhere), join)
    assert "not one of mine" in last_ephemeral_text(double, stranger)
    assert "Mallory" not in table.table.text() and "4200" not in table.table.text()

    await table.seat_everyone()
    await table.start()
    assert await logged_actions(database_url, table.table_id) == []
    show = f"tt:hand:{table.table_id}"
    await double.click(players[0], double.plant([show], channel_id=other_server), show)  # a player, elsewhere
    assert "not one of mine" in last_ephemeral_text(double, players[0])
    where = table.table.thread_id or double.channel_id
    await double.click(players[0], double.plant([show], channel_id=where), show)  # the same button, at the table
    assert "Your hand" in last_ephemeral_text(double, players[0])
    # a click Discord would not send as it is (made by hand): a select's answer for a button's id, an id its message
    # does not show; discord.py dropped both in silence ("This interaction failed")
    before = len(double.ephemerals(players[0]))
    await double.choose(players[0], double.plant([show], channel_id=where), show, ["x"])
    await double.choose(players[0], double.plant([f"tt:lobby:join:{table.table_id}"], channel_id=where), show, ["x"])
    await double.wait_for(lambda: len(double.ephemerals(players[0])) >= before + 2, timeout=WAIT)
    assert all("not one of mine" in m.text() for m in double.ephemerals(players[0])[before:])
    assert double.problems == []


async def test_ids_beyond_any_id_and_other_digits_are_refused_politely(double: DiscordDouble, bot: BotProcess) -> None:
    """A custom_id or select value with a number no id can be (20 digits) or digits that are not ASCII
    ("²") gets a polite answer, never "something went wrong"."""
    alice = people(1)[0]
    huge = "9" * 20
    forged = [
        f"tt:hand:{huge}",
        f"tt:rematch:{huge}",
        f"tt:act:{huge}:0:play AS",
        f"tt:lobby:join:{huge}",
        f"rk:hist:0:{huge}:{alice.id}",
        f"rk:board:just-make:all:0:{huge}",
        f"rk:board:just-make:s9999999999:0:{alice.id}",  # a season id past 32 bits: PostgreSQL refuses the number
    ]
    for custom_id in forged:
        await double.click(alice, double.plant([custom_id]), custom_id)
        answer = last_ephemeral_text(double, alice)
        assert answer and "went wrong" not in answer, (custom_id, answer)
    launch = await double.click(alice, double.plant(["tt:launch:424242"]), "tt:launch:424242")  # no such table
    assert launch.original is not None and "no longer exists" in launch.original.text()  # not opened as an Activity
    opener = double.plant_select("rk:open:0", ["²"])
    await double.choose(alice, opener, "rk:open:0", ["²"])
    assert "went wrong" not in last_ephemeral_text(double, alice)
    manager = User(1900, "Manager", manager=True)
    panel = (await double.command(manager, "settings")).original
    assert panel is not None
    for what, value in (("st:turn", "²"), ("st:turn", huge), ("st:pace:²", "x")):
        await double.choose(manager, panel, what, [value])
        assert "went wrong" not in panel.text() + last_ephemeral_text(double, manager), (what, value)

    # values the panel never offers, within the service's own limits (a 5 s turn, a target of 137), made by hand
    async def refused(what: str, value: str) -> None:
        await double.choose(manager, panel, what, [value])
        assert "not one these settings offer" in last_ephemeral_text(double, manager), (what, value)

    await refused("st:turn", "5")
    await refused("st:grace", "7")
    await double.choose(manager, panel, "st:game", ["limits"])
    await refused("st:limit:tables", "3")
    await double.click(manager, panel, "st:home")
    await double.choose(manager, panel, "st:game", ["ninety-nine"])
    await double.choose(manager, panel, "st:opt:ninety-nine", ["target"])
    await refused("st:val:ninety-nine:target", "i:137")
    await double.choose(manager, panel, "st:val:ninety-nine:target", ["i:150"])  # one it offers
    assert "✎ Target: 150" in panel.text(), panel.text()
    # the panel's controls on a public message (made by hand): refused, never drawn over that message
    public = double.plant_select("st:turn", ["300"])
    shown = public.text()
    await double.choose(manager, public, "st:turn", ["300"])
    assert "not one of mine" in last_ephemeral_text(double, manager)
    assert public.text() == shown and "Settings of this server" not in shown
    await double.click(manager, panel, "st:home")
    assert "A reminder after 1 min, then 30 s of grace" in panel.text(), panel.text()
    assert double.problems == []


async def test_play_refuses_values_no_choice_offers(double: DiscordDouble, bot: BotProcess) -> None:
    """A client may send /play with any value: one that is not among an option's choices or exact values, or
    out of its range, gets a polite refusal naming what is allowed, and no table is opened."""
    alice = people(1)[0]
    cases = [
        ("ninety-nine", {"format": "bogus"}, "Format cannot be bogus. Choose one of: three bonuses · to a target"),
        ("five-hundred", {"open_misere_value": 510}, "cannot be 510. Choose one of: 500 · 520"),
        ("just-make", {"target": 99}, "a whole number from 3 to 15"),
        ("oh-hell", {"sequence": "sideways"}, "Choose one of: Down to 1 · Up from 1"),
    ]
    for game, options, expected in cases:
        answer = await double.command(alice, f"play-{game}", **options)
        assert answer.original is not None and answer.original.ephemeral_for == alice.id
        assert expected in answer.original.text(), answer.original.text()
    assert not [m for m in double.public_messages() if "is hosting" in m.text()]
    assert double.problems == []


async def test_limits_against_abuse_say_why_and_a_manager_sets_them(double: DiscordDouble, bot: BotProcess) -> None:
    alice = people(1)[0]
    first = await double.command(alice, "play-just-make")
    assert first.original is not None and first.original.ephemeral_for is None  # the lobby
    second_room = double.another_server(double.guild_id, 910_000_000_000_000_901)
    again = await double.command(alice, "play-just-make", channel_id=second_room)
    assert again.original is not None and again.original.ephemeral_for == alice.id
    assert "You opened a table a moment ago" in again.original.text()

    manager = User(1900, "Manager", manager=True)
    panel = (await double.command(manager, "settings")).original
    assert panel is not None
    await double.choose(manager, panel, "st:game", ["limits"])
    assert "turn pings and limits" in panel.text() and "2 lobbies" in panel.text() and "25 tables" in panel.text()
    await double.choose(manager, panel, "st:limit:cooldown", ["0"])
    await double.choose(manager, panel, "st:limit:lobbies", ["5"])
    assert "5 lobbies" in panel.text()
    third = await double.command(alice, "play-just-make", channel_id=second_room)
    assert third.original is not None and third.original.ephemeral_for is None  # allowed now
    watcher = User(2000, "Walter")
    await double.choose(watcher, panel, "st:limit:lobbies", ["1"])  # not a manager: refused, nothing changed
    assert "Manage Server" in last_ephemeral_text(double, watcher) or "manage" in last_ephemeral_text(double, watcher)
    assert double.problems == []


async def test_without_threads_a_table_plays_in_its_channel_and_the_host_is_told(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    double.threads_forbidden = True
    alice, bob = people(2)
    opened = await double.command(alice, "play-just-make")
    lobby = opened.original
    assert lobby is not None and lobby.ephemeral_for is None and lobby.thread_id is None
    told = await double.wait_for(lambda: double.latest_ephemeral(alice), WAIT)  # a followup, after the lobby
    assert "could not open a thread" in told.text() and "plays in this channel" in told.text()
    await double.command(bob, "play-oh-hell")  # meant for a thread, which cannot be made either
    told = await double.wait_for(
        lambda: "already has an open table" in (double.latest_ephemeral(bob) or lobby).text(), WAIT, "Bob told"
    )
    open_lobbies = [m for m in double.public_messages() if m.channel_id == double.channel_id and m.components]
    assert open_lobbies == [lobby]  # the second lobby closed and its message gone: nothing half made
    assert told
    assert double.problems == []


async def test_every_command_refuses_values_no_choice_offers(double: DiscordDouble, bot: BotProcess) -> None:
    """Not only /play: any command given a value none of its choices offers (a client may send anything) is
    answered, ephemerally, naming the option and what it may be, in the reader's language; nothing is logged
    as a failure and nothing changes (discord.py refuses the value before the command runs: the bot's command
    tree answers it, cogs/command_errors.py)."""
    alice = people(1)[0]
    manager = User(1901, "Manager", manager=True)
    cases = [
        (alice, "leaderboard", None, {"game": "chess"}, "Game cannot be chess. Choose one of: Ninety-Nine"),
        (alice, "stats", None, {"game": "chess"}, "cannot be chess"),
        (alice, "rules", None, {"game": "chess"}, "cannot be chess"),
        (manager, "season", "stop", {"game": "chess"}, "cannot be chess"),
        (manager, "season", "start", {"game": "oh-hell", "length": "decade"}, "cannot be decade"),
        (alice, "tournament", "create", {"game": "oh-hell", "format": "bogus"}, "cannot be bogus"),
        # a value of the wrong type (a client whose commands are not up to date, a payload made by hand)
        (alice, "tournament", "standings", {"tournament": "abc"}, "in a form it does not know"),
    ]
    for who, name, sub, options, expected in cases:
        answer = await double.command(who, name, sub, **options)
        assert answer.original is not None and answer.original.ephemeral_for == who.id, (name, sub)
        assert expected in answer.original.text(), answer.original.text()
    # a tournament in a voice channel's chat: its tables could open no thread there
    voice = 900_000_000_000_000_010
    double.channels[voice] = {**double.channels[double.channel_id], "id": str(voice), "type": 2, "name": "voice"}
    double.channels[voice].update({"bitrate": 64000, "user_limit": 0, "rtc_region": None, "video_quality_mode": 1})
    answer = await double.command(manager, "tournament", "create", channel_id=voice, game="oh-hell")
    assert answer.original is not None and "from a text channel" in answer.original.text(), answer.original
    hanako = User(1902, "Hanako", locale="ja")
    answer = await double.command(hanako, "leaderboard", None, game="chess")
    assert answer.original is not None
    assert "ゲーム" in answer.original.text() and "オーヘル" in answer.original.text(), answer.original.text()
    assert "Traceback" not in bot.log() and "command failed" not in bot.log()
    assert not [m for m in double.public_messages() if "tournament" in m.text().lower()]
    assert double.problems == []
