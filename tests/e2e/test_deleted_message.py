"""Someone deletes a table's message in the middle of a match (a moderator, another bot): the next change
posts the table again in its channel, and its players go on from the new message's Show my hand."""

from __future__ import annotations

from tests.double import BotProcess, DiscordDouble, Message

from .conftest import people
from .driver import WAIT, TableDriver, control


async def test_a_deleted_table_message_is_posted_again(double: DiscordDouble, bot: BotProcess) -> None:
    table = TableDriver(double, people(3), seed=5)
    await table.open("oh-hell", players=3, start_cards=3)
    await table.seat_everyone()
    await table.start()
    assert table.table is not None
    gone = table.table
    double.messages.pop(gone.id)  # deleted in Discord: every later edit of it is 404 Unknown Message

    def posted_again() -> Message | None:
        return next(
            (m for m in double.public_messages() if m.id > gone.id and control(m, "tt:hand:") is not None), None
        )

    await table.play(stop_after=1)  # the first bid changes the table
    again = await double.wait_for(posted_again, timeout=WAIT, what="the table posted again")
    assert again.channel_id == gone.channel_id and again.ephemeral_for is None
    table.table = again
    for player in table.players:  # the old hands still work; a hand opened from the new message too
        await table.show_hand(player)
    await table.play(stop_after=3)
    assert table.actions >= 3
    assert double.problems == []
