"""A table's thread that refuses the bot's messages (Send Messages in Threads taken away, or the thread locked): its
turn pings are said in the table's channel instead, one line at a time, so its people still hear their turn."""

from __future__ import annotations

import re

from tests.double import BotProcess, DiscordDouble, Message
from tests.double.server import SEND_MESSAGES_IN_THREADS

from .conftest import people
from .driver import WAIT, TableDriver


async def test_turn_pings_go_in_the_channel_while_the_tables_thread_refuses_them(
    double: DiscordDouble, bot: BotProcess
) -> None:
    players = people(4)
    table = TableDriver(double, players, seed=8)
    await table.open("just-make", players=4, target=3)
    await table.seat_everyone()
    double.permissions_withheld = SEND_MESSAGES_IN_THREADS  # taken away once the table was set up
    await table.start()
    assert table.table is not None and table.table.thread_id is not None
    thread = table.table.thread_id

    def pings(where: int) -> list[Message]:
        return [m for m in double.public_messages() if m.channel_id == where and m.content.startswith("🔔")]

    def mentioned(message: Message) -> set[int]:
        return {int(found) for found in re.findall(r"<@(\d+)>", message.content)}

    for _ in range(4):  # whoever is on turn is pinged in the channel, once, and the line before is gone
        await table.refresh_all()
        on_turn = {p.user.id for p in table.players if p.hand is not None and table.choices(p.hand)}
        await double.wait_for(
            lambda want=on_turn: len(pings(double.channel_id)) == 1 and mentioned(pings(double.channel_id)[0]) == want,  # type: ignore[misc]
            WAIT,
            "the ping of the person on turn, in the channel",
        )
        mover = next(p for p in table.players if p.user.id in on_turn)
        for _ in range(3):  # a choice may take two steps (a card, then how to bid it)
            if not await table.take_turn(mover):
                break
    assert pings(thread) == []
    refused = [path for method, path in double.calls if method == "POST" and path == f"/channels/{thread}/messages"]
    assert len(refused) == 1  # the thread was tried once, then left alone for a while
    assert double.problems == []
