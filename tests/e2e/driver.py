"""People at a table, played through the Discord double: open, join, start, and play with simple random choices.

Each person only ever reads what Discord would show them (the channel's
messages and their own ephemeral hand) and only clicks enabled controls.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cogs.picture import FILENAME as PICTURE
from cogs.picture import picture_inputs
from tests.double import DiscordDouble, Interaction, Message, User

CARD_LABEL = re.compile(r"(?<![0-9])(10|11|12|13|[2-9JQKA])([♠♥♦♣])")
SUIT_CODE = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
MOVE = re.compile(r"move (\d+)")
JOKER, JOKER2 = "🃏 Joker", "🃏 Joker 2"  # as the English catalogue writes them
RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A"}
# How long a person waits for something the bot is sure to do (an edit, a ping, a line). Only a failure waits
# this long: every wait returns the moment the thing happens, however busy the machine is.
WAIT = 60.0


def cards_named(text: str) -> set[str]:
    """Every card a text shows (``A♠`` → ``AS``; the jokers by name)."""
    found = {rank + SUIT_CODE[suit] for rank, suit in CARD_LABEL.findall(text)}
    if JOKER2 in text:
        found.add("JK2")
    if JOKER in text.replace(JOKER2, ""):
        found.add("JK")
    return found


def shown_move(message: Message) -> int | None:
    """The move the table message shows now (its footer)."""
    found = [MOVE.search((embed.get("footer") or {}).get("text", "")) for embed in message.embeds]
    return next((int(match.group(1)) for match in found if match), None)


def control(message: Message, marker: str) -> dict[str, Any] | None:
    return next((c for c in message.controls() if marker in c.get("custom_id", "")), None)


class Refused(AssertionError):
    """The bot refused a step (its answer, seen only by the one who asked, is the message)."""


class MatchOver(AssertionError):
    """Someone asked for their hand after the match ended (its table shows Rematch, no Show my hand)."""


@dataclass
class Player:
    user: User
    hand: Message | None = None  # the latest ephemeral hand this person opened


@dataclass
class TableDriver:
    double: DiscordDouble
    users: list[User]
    seed: int = 1
    rng: random.Random = field(init=False)
    players: list[Player] = field(init=False)
    table: Message | None = None
    actions: int = 0
    channel_id: int | None = None  # where /play is used (default: the double's first channel)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.players = [Player(user) for user in self.users]

    @property
    def host(self) -> User:
        return self.users[0]

    @property
    def table_id(self) -> int:
        assert self.table is not None
        found = control(self.table, "tt:")
        assert found is not None, "the table message has no controls"
        return int(found["custom_id"].split(":")[-1])

    async def open(self, game: str, **options: Any) -> Interaction:
        answer = await self.double.command(self.host, f"play-{game}", channel_id=self.channel_id, **options)
        assert answer.original is not None, "/play is answered"
        if answer.original.ephemeral_for == self.host.id:  # the bot said no, to the host alone
            raise Refused(answer.original.text())
        assert answer.original.ephemeral_for is None, "the lobby is public"
        self.table = answer.original
        return answer

    async def seat_everyone(self, computers: Sequence[str] = ()) -> None:
        """Everyone joins; then the host seats a computer of each level in ``computers``."""
        assert self.table is not None
        join = control(self.table, ":join:")
        assert join is not None
        for user in self.users[1:]:
            await self.double.click(user, self.table, join["custom_id"])
        if computers:
            choice = await self.computer_choice()
            for level in computers:
                await self.add_computer(choice, level)
            last_seat = re.compile(rf"(?m)^{len(self.users) + len(computers)}\. ")  # the lobby's numbered seats
            await self.double.wait_for(
                lambda: last_seat.search(self.table.text()),  # type: ignore[union-attr]
                WAIT,
                "the lobby shows every seat taken",
            )

    async def computer_choice(self) -> Message:
        """The host presses Add computer: their own message with a button for each level."""
        assert self.table is not None
        cpu = control(self.table, ":cpu:")
        assert cpu is not None
        answer = await self.double.click(self.host, self.table, cpu["custom_id"])
        assert answer.original is not None and answer.original.ephemeral_for == self.host.id
        return answer.original

    async def add_computer(self, choice: Message, level: str) -> None:
        button = control(choice, f"tt:cpu:{self.table_id}:{level}")
        assert button is not None, f"no {level} on the host's choice"
        await self.double.click(self.host, choice, button["custom_id"])

    async def start(self) -> None:
        assert self.table is not None
        start = control(self.table, ":start:")
        assert start is not None
        await self.double.click(self.host, self.table, start["custom_id"])
        # The lobby becomes the table with the click's answer; a busy bot defers it and edits the table later.
        shown = await self.double.wait_for(
            lambda: control(self.table, "tt:hand:"),  # type: ignore[arg-type]
            WAIT,
            "the table shows Show my hand once started",
        )
        assert shown is not None, "the table shows Show my hand once started"

    async def show_hand(self, player: Player) -> Message:
        assert self.table is not None
        button = await self.double.wait_for(
            lambda: control(self.table, "tt:hand:") or (self.finished() and "over"),  # type: ignore[arg-type]
            WAIT,
            "Show my hand",
        )
        if button == "over":
            raise MatchOver(f"{player.user.name} asked for their hand after the match ended")
        answer = await self.double.click(player.user, self.table, button["custom_id"])
        assert answer.original is not None and answer.original.ephemeral_for == player.user.id
        player.hand = answer.original
        return player.hand

    def choices(self, message: Message) -> list[dict[str, Any]]:
        """The enabled controls that do something at the table (not Refresh or Back)."""
        return [
            c
            for c in message.controls()
            if not c.get("disabled") and c.get("custom_id", "").startswith(("tt:act:", "tt:more:", "tt:pick:"))
        ]

    async def take_turn(self, player: Player) -> bool:
        """Make one choice if this person has any; True if they did."""
        if player.hand is None:
            await self.show_hand(player)
        assert player.hand is not None
        options = self.choices(player.hand)
        if not options:
            return False
        chosen = self.rng.choice(options)
        if chosen.get("type") == 3:
            count = chosen.get("min_values", 1)
            values = self.rng.sample([o["value"] for o in chosen["options"]], count)
            await self.double.choose(player.user, player.hand, chosen["custom_id"], values)
        else:
            await self.double.click(player.user, player.hand, chosen["custom_id"])
            if chosen["custom_id"].startswith("tt:act:"):
                self.actions += 1
        return True

    def finished(self) -> bool:
        """The table shows the match over: its Rematch button, or (a private table's, which offers none) its Last
        deal without a Show my hand."""
        if self.table is None:
            return False
        if control(self.table, "tt:rematch:") is not None:
            return True
        return control(self.table, "tt:review:") is not None and control(self.table, "tt:hand:") is None

    async def refresh_all(self) -> None:
        for player in self.players:
            if player.hand is None or control(player.hand, ":r") is None:
                await self.show_hand(player)
            else:
                refresh = control(player.hand, "tt:hand:")
                assert refresh is not None
                await self.double.click(player.user, player.hand, refresh["custom_id"])

    def someone_can_act(self) -> bool:
        return any(player.hand is not None and self.choices(player.hand) for player in self.players)

    async def play(
        self,
        max_choices: int = 20_000,
        stop_after: int | None = None,
        *,
        refresh: bool = True,
        patience: float = 30.0,
        until: Callable[[], bool] | None = None,
    ) -> None:
        """Everyone plays until the match is over (or ``stop_after`` actions, or ``until()`` holds between turns).

        Between turns people wait for their hand to show their choices by itself
        (after others' moves and the computers', which come in their own time); with
        ``refresh`` they press Refresh when nothing came within ``patience`` seconds.
        """
        idle = 0
        for _ in range(max_choices):
            if stop_after is not None and self.actions >= stop_after:
                return
            if until is not None and until():
                return
            progressed = False
            for player in self.players:
                if await self.take_turn(player):
                    progressed = True
            if progressed:
                idle = 0
                continue
            if self.finished():
                return
            try:
                await self.double.wait_for(lambda: self.finished() or self.someone_can_act(), patience)
                continue
            except AssertionError:
                if not refresh:
                    raise AssertionError("no hand showed its choices by itself, and the match is not over") from None
            idle += 1
            if idle > 5:
                raise AssertionError("nobody can act and the match is not over")
            await self.refresh_all()
        raise AssertionError("the match did not end")

    async def wait_finished(self, timeout: float = WAIT) -> None:
        await self.double.wait_for(self.finished, timeout, "the table shows the match is over")


async def eventually(check: Callable[[], Awaitable[Any]], timeout: float = WAIT, what: str = "") -> Any:
    """Wait until the async ``check()`` returns something truthy (what the bot stored or logged, which the
    double does not see): checked again every 50 ms, for at most ``timeout`` seconds (only a failure waits)."""
    deadline = time.monotonic() + timeout
    while True:
        result = await check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or 'the bot'} ({timeout} s)")
        await asyncio.sleep(0.05)


MANAGER = User(1900, "Morgan", manager=True)


async def set_computer_pace(double: DiscordDouble, pace_ms: int) -> Message:
    """A manager sets the server's computer pace in /settings (tests use 0: no wait between computer moves)."""
    panel = (await double.command(MANAGER, "settings")).original
    assert panel is not None
    await double.click(MANAGER, panel, f"st:pace:{pace_ms}")
    chosen = control(panel, f"st:pace:{pace_ms}")
    assert chosen is not None and chosen.get("disabled"), "the chosen pace is shown as chosen"
    return panel


SUIT_SIGN = {code: sign for sign, code in SUIT_CODE.items()}


def picture_text(png: bytes) -> str:
    """What a picture the bot drew shows, as text (its cards as labels, as the leak checks read them)."""
    inputs = picture_inputs(png)
    assert inputs, "a picture without its inputs"
    words = [str(word) for word in _strings(inputs)]
    labels = []
    for word in words:
        if word == "JK":
            labels.append(JOKER)
        elif word == "JK2":
            labels.append(JOKER2)
        elif len(word) in (2, 3) and word[-1] in SUIT_SIGN and word[:-1] in RANKS:
            labels.append(word[:-1] + SUIT_SIGN[word[-1]])
        else:
            labels.append(word)
    return "\n".join(labels)


def _strings(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return [value] if isinstance(value, str) else []


def version_text(message: Message, version: dict[str, Any]) -> str:
    """Everything one state of a message shows: its text, and what its pictures show."""
    shadow = Message(0, message.channel_id)
    shadow.apply(version)
    text = shadow.text()
    for attachment in version.get("attachments", []):
        if attachment.get("filename") == PICTURE:
            text += "\n" + picture_text(attachment["data"])
    return text


def public_versions(double: DiscordDouble) -> list[tuple[Message, dict[str, Any], str]]:
    """Every state of every public message, with its text (and what its table picture shows)."""
    return [
        (message, version, version_text(message, version))
        for message in double.public_messages()
        for version in message.versions
    ]
