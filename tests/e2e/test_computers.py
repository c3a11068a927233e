"""Computer players and hints through the Discord double.

The host seats computers of either level from the lobby; they move by
themselves (the service's listener updates the table and people's hands);
hints are offered only to the player on turn at a table that has them, name
only what that seat may know, are legal, and keep the match off the
leaderboard; and the bot answers every click within Discord's 3 seconds while
computers think at several tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

from bot.words import advised
from tests.double import BotProcess, DiscordDouble, Message, User
from tests.double.server import THINKING

from .conftest import people
from .driver import MANAGER, WAIT, Player, TableDriver, cards_named, control, set_computer_pace
from .leaks import check_public_messages, logged_actions, seat_at_move

HINT = re.compile(r"^💡 (.+?)(?:: .+ in \d{1,3}% of the \d+ deals? I tried)?\.$")
READING = re.compile(
    r"^🔎 The player (?:on your left|across|on your right|\d+ seats to your left) bid \d+: likely no .+ above the .+\.$"
)


def hint_button(message: Message) -> dict[str, object] | None:
    return control(message, "tt:hint:")


def ever_had_a_hint_button(double: DiscordDouble, user: User) -> bool:
    return any(
        "tt:hint:" in str(version["components"]) for message in double.ephemerals(user) for version in message.versions
    )


async def test_computers_of_each_level_take_seats_and_play_by_themselves(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    # The quick pace (half a second between computer moves): the match lasts long enough for the
    # table's coalesced edits (about one a second) to show it at several moments, which the leak check reads.
    await set_computer_pace(double, 500)
    alice, bob = people(2)
    table = TableDriver(double, [alice, bob], seed=21)
    await table.open("just-make", players=4, target=3)
    assert table.table is not None
    await table.seat_everyone()

    cpu = control(table.table, ":cpu:")
    assert cpu is not None
    refused = await double.click(bob, table.table, cpu["custom_id"])  # only the host seats computers
    assert refused.original is not None and "Only the host" in refused.original.text()
    assert control(refused.original, "tt:cpu:") is None

    choice = await table.computer_choice()
    text = choice.text()
    assert "**Easy** plays by simple rules of thumb" in text and "**Strong** tries each choice" in text
    await table.add_computer(choice, "easy")
    assert "🤖 Easy 3 has taken a seat." in choice.text()
    await table.add_computer(choice, "strong")
    assert "🤖 Strong 4 has taken a seat." in choice.text()
    await double.wait_for(lambda: "4. 🤖 Strong 4" in table.table.text(), timeout=WAIT)  # type: ignore[union-attr]
    assert "3. 🤖 Easy 3" in table.table.text()
    await table.add_computer(choice, "easy")  # a fifth seat at a table of four
    assert "This table is full" in choice.text()

    await table.start()
    for player in table.players:
        await table.show_hand(player)
    await double.wait_for(table.someone_can_act, timeout=WAIT)
    on_turn = next(p for p in table.players if table.choices(p.hand))  # type: ignore[arg-type]
    assert on_turn.hand is not None and hint_button(on_turn.hand) is None  # hints are off: no 💡
    turn = str(table.choices(on_turn.hand)[0]["custom_id"]).split(":")[3]
    forged = double.plant([f"tt:hint:{table.table_id}:{turn}"])  # asked for anyway: refused
    answer = await double.click(on_turn.user, forged, f"tt:hint:{table.table_id}:{turn}")
    assert answer.original is not None and answer.original.ephemeral_for == on_turn.user.id
    await double.wait_for(lambda: "Hints are off at this table." in answer.original.text(), timeout=WAIT)  # type: ignore[union-attr]

    # From here nobody presses Refresh: every hand shows its turn by itself, after the computers' moves too.
    await table.play(refresh=False)
    await table.wait_finished()
    final = table.table.text()
    assert "🤖 Easy 3" in final and "🤖 Strong 4" in final and "Final standings" in final
    assert "rating 0.0 →" in final  # hints were off: people are rated

    stored = await logged_actions(database_url, table.table_id)
    assert len(stored) > 20
    assert not any(ever_had_a_hint_button(double, user) for user in (alice, bob))  # hints off: never a 💡
    assert len(await check_public_messages(double, database_url, table.table_id)) >= 3
    assert double.problems == []


async def follow_a_hint(
    double: DiscordDouble, table: TableDriver, player: Player, database_url: str
) -> tuple[str, bool]:
    """The player on turn asks for a hint and checks it: one of their legal actions, worded as their hand words
    it, naming no card their seat cannot see. They play it when it is one click on their hand.
    Returns the hint, and whether it was played."""
    assert player.hand is not None
    button = hint_button(player.hand)
    assert button is not None, "the player on turn has 💡 Hint"
    move = len(await logged_actions(database_url, table.table_id))
    answer = await double.click(player.user, player.hand, str(button["custom_id"]))
    message = answer.original
    assert message is not None and message.ephemeral_for == player.user.id and message is not player.hand
    await double.wait_for(lambda: THINKING not in message.text(), timeout=WAIT)
    text = message.text()
    first, *reading = text.split("\n")  # the advice, then what the table says of a hand, if anything
    found = HINT.match(first)
    assert all(READING.match(line) for line in reading), text
    assert found is not None, text
    view, known, legal = await seat_at_move(database_url, table.table_id, player.user.id, move)
    assert cards_named(text) <= known, f"{text} names {cards_named(text) - known}, which the seat cannot see"
    worded = {advised(action, view, "en-US"): action for action in legal}
    assert found.group(1) in worded, f"{text}: not one of {sorted(worded)}"
    action = worded[found.group(1)]
    play = next((c for c in table.choices(player.hand) if str(c["custom_id"]).endswith(f":{action}")), None)
    if play is None:  # a bid of Five Hundred takes two steps: not followed here
        return text, False
    await double.click(player.user, player.hand, play["custom_id"])
    table.actions += 1
    assert (await logged_actions(database_url, table.table_id))[move] == action
    return text, True


async def test_hints_for_the_player_on_turn_and_an_unrated_match(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    await set_computer_pace(double, 0)
    alice, bob = people(2)
    table = TableDriver(double, [alice, bob], seed=4)
    await table.open("just-make", players=4, target=3, hints=True)
    assert table.table is not None
    assert "💡 Hints: on — this match will not be rated." in table.table.text()

    off = control(table.table, ":hints-off:")
    assert off is not None
    refused = await double.click(bob, table.table, off["custom_id"])
    assert refused.original is not None and "Only the host" in refused.original.text()
    await double.click(alice, table.table, off["custom_id"])
    assert "💡 Hints: off" in table.table.text() and control(table.table, ":hints-off:") is None
    on = control(table.table, ":hints-on:")
    assert on is not None
    await double.click(alice, table.table, on["custom_id"])
    assert "💡 Hints: on" in table.table.text()

    await table.seat_everyone(["easy", "easy"])
    await table.start()
    await double.wait_for(lambda: "💡 Hints are on: this match is not rated." in table.table.text(), timeout=WAIT)  # type: ignore[union-attr]
    for player in table.players:
        await table.show_hand(player)
    await double.wait_for(table.someone_can_act, timeout=WAIT)
    on_turn = next(p for p in table.players if table.choices(p.hand))  # type: ignore[arg-type]
    waiting = next(p for p in table.players if p is not on_turn)
    assert waiting.hand is not None and hint_button(waiting.hand) is None  # only the player on turn
    forged = double.plant([f"tt:hint:{table.table_id}:0"])
    answer = await double.click(waiting.user, forged, f"tt:hint:{table.table_id}:0")
    assert answer.original is not None
    await double.wait_for(lambda: "not your turn" in answer.original.text(), timeout=WAIT)  # type: ignore[union-attr]

    hints: list[str] = []
    while len(hints) < 6 and not table.finished():  # each person follows a few hints, then plays on at random
        await double.wait_for(lambda: table.finished() or table.someone_can_act(), timeout=WAIT)
        for player in table.players:
            if player.hand is not None and table.choices(player.hand) and not table.finished():
                text, followed = await follow_a_hint(double, table, player, database_url)
                assert followed, text  # in Just Make every action is one click
                hints.append(text)
    assert any("deals I tried" in hint for hint in hints), hints  # the strong computer searched, and says how
    await table.play()
    await table.wait_finished()
    final = table.table.text()
    assert "💡 Hints were on, so this match was not rated." in final and "rating" not in final
    board = (await double.command(alice, "leaderboard", game="just-make")).original
    assert board is not None and "Nobody is on this board yet" in board.text()
    assert len(await check_public_messages(double, database_url, table.table_id)) >= 3
    assert double.problems == []


async def test_every_click_is_answered_at_once_while_computers_think_at_several_tables(
    double: DiscordDouble, bot: BotProcess
) -> None:
    await set_computer_pace(double, 0)
    hosts = [User(3000 + n, f"Host{n}") for n in range(3)]
    tables = [TableDriver(double, [host], seed=n) for n, host in enumerate(hosts)]
    for table in tables:  # each table in its own thread, three strong computers at each
        await table.open("just-make", players=4, target=3)
        await table.seat_everyone(["strong", "strong", "strong"])
        await table.start()

    thinking: list[int] = []
    answers: list[float] = []
    watcher = User(3100, "Wanda")

    async def keep_clicking() -> None:
        while True:
            busy = sum(table.table is not None and "🤖" in table.table.content for table in tables)
            thinking.append(busy)
            started = time.monotonic()
            await double.command(watcher, "rules", game="just-make")
            answers.append(time.monotonic() - started)
            await asyncio.sleep(0.05)

    def seen_enough() -> bool:  # clicks answered while computers were to act at two tables at once
        return len(answers) >= 5 and max(thinking, default=0) >= 2

    clicking = asyncio.create_task(keep_clicking())
    try:  # people play on until that was seen (however slow the machine), at most to the match's end
        await asyncio.gather(*(table.play(patience=20, until=seen_enough) for table in tables))
    finally:
        clicking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await clicking
    # the last /rules may still be on its way: the bot answers it before the test goes on (and stops the bot)
    await double.wait_for(
        lambda: all(i.answered is None or i.answered.done() for i in double.interactions.values()), WAIT, "every answer"
    )
    assert max(thinking) >= 2, "computers were thinking at two tables at once"
    assert len(answers) >= 5 and max(answers) < 3.0, answers  # how many fit depends on how fast the tables play
    for table, host in zip(tables, hosts, strict=True):
        assert table.table is not None
        await double.command(host, "abandon", channel_id=table.table.thread_id)
    assert double.problems == []


async def test_when_time_runs_out_the_strong_computer_plays_and_the_hand_follows(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    panel = await set_computer_pace(double, 0)
    await double.choose(MANAGER, panel, "st:grace", ["0"])  # no grace: the computer plays when the turn's time is up
    alice = people(1)[0]
    table = TableDriver(double, [alice], seed=2)
    await table.open("just-make", players=4, target=15, turn_seconds=1)  # no one deal can end this match
    await table.seat_everyone(["easy", "easy", "easy"])
    await table.start()
    player = table.players[0]
    hand = await table.show_hand(player)
    await double.wait_for(table.someone_can_act, timeout=WAIT)
    offered = [c["custom_id"] for c in table.choices(hand)]
    move = len(await logged_actions(database_url, table.table_id))

    def notice() -> Message | None:
        return next((m for m in double.public_messages() if "time ran out" in m.text()), None)

    found = await double.wait_for(notice, timeout=WAIT)
    assert found.text() == f"<@{alice.id}>: time ran out, so the strong computer played for Alice."
    assert found.channel_id == table.table.thread_id  # type: ignore[union-attr]
    await double.wait_for(lambda: [c["custom_id"] for c in table.choices(hand)] != offered, timeout=WAIT)
    assert len(await logged_actions(database_url, table.table_id)) > move  # played for her, and her hand shows it
    # Nobody played a whole deal: the table is abandoned, as the service's rule says.
    await double.wait_for(lambda: "This table was abandoned" in table.table.text(), timeout=WAIT)  # type: ignore[union-attr]
    assert double.problems == []


async def test_hints_in_five_hundred_name_the_contract(
    double: DiscordDouble, bot: BotProcess, database_url: str
) -> None:
    await set_computer_pace(double, 0)
    table = TableDriver(double, people(2), seed=9)
    await table.open("five-hundred", players=4, hints=True)
    await table.seat_everyone(["easy", "strong"])
    await table.start()
    for player in table.players:
        await table.show_hand(player)
    hints: list[str] = []
    while len(hints) < 12 and not table.finished():
        await double.wait_for(lambda: table.finished() or table.someone_can_act(), timeout=WAIT)
        for player in table.players:
            if player.hand is None or not table.choices(player.hand) or table.finished():
                continue
            if hint_button(player.hand) is None:  # a next step (a bid's suit) has none: it is the same decision
                await table.take_turn(player)
                continue
            text, followed = await follow_a_hint(double, table, player, database_url)
            hints.append(text)
            if not followed:
                await table.take_turn(player)
    assert any("the contract in" in hint for hint in hints), hints  # a contract's side, or its defence
    await table.play()
    await table.wait_finished()
    assert "💡 Hints were on, so this match was not rated." in table.table.text()  # type: ignore[union-attr]
    assert double.problems == []


async def test_the_host_takes_a_computer_out_of_the_lobby(double: DiscordDouble, bot: BotProcess) -> None:
    alice, bob = people(2)
    table = TableDriver(double, [alice, bob], seed=3)
    await table.open("just-make", players=4)
    await table.seat_everyone()
    choice = await table.computer_choice()
    await table.add_computer(choice, "easy")
    await table.add_computer(choice, "strong")
    assert "🤖 Strong 4 has taken a seat." in choice.text()
    remove = [c for c in choice.controls() if c.get("custom_id", "").startswith("tt:uncpu:")]
    assert [c["label"] for c in remove] == ["Remove 🤖 Easy 3", "Remove 🤖 Strong 4"]
    forged = double.plant([remove[0]["custom_id"]], channel_id=table.table.channel_id)  # type: ignore[union-attr]
    refused = await double.click(bob, forged, remove[0]["custom_id"])
    assert refused.original is not None and "Only the host" in refused.original.text()
    await double.click(alice, choice, remove[0]["custom_id"])
    assert "🤖 Easy 3 has left the table." in choice.text()
    assert [c["label"] for c in choice.controls() if c.get("custom_id", "").startswith("tt:uncpu:")] == [
        "Remove 🤖 Strong 3"  # the strong one moved up a seat, and keeps its button
    ]
    lobby = table.table
    assert lobby is not None
    await double.wait_for(lambda: "🤖 Strong 3" in lobby.text() and "Easy" not in lobby.text(), timeout=WAIT)
    assert double.problems == []
