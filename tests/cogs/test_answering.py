"""An interaction is answered once: a deferral made in the background and the handler's own answer never
both go (Discord refuses the second with 40060), and a private answer never lands in a public "thinking"."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.tables import TableNotFound
from cogs import replies
from cogs.replies import post, send, update
from cogs.tables import clicks
from cogs.tables import working as tables_cog
from cogs.tables.hand_messages import Hands
from cogs.tables.lobby_clicks import LobbyClicks
from cogs.tables.play_clicks import PlayClicks
from cogs.tables.working import Work, answering
from tests.source_trees import parsed


class FakeResponse:
    def __init__(self, calls: list[str], delay: float) -> None:
        self.calls, self.delay, self.done = calls, delay, False

    def is_done(self) -> bool:
        return self.done

    async def _answer(self, what: str) -> None:
        self.calls.append(what + " sent")
        await asyncio.sleep(self.delay)  # the HTTP call: is_done() turns true only when it returns
        if self.done:
            self.calls.append(what + " refused: already acknowledged")
        self.done = True

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        await self._answer("defer " + ("public " if thinking and not ephemeral else "") + "thinking" * thinking)

    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        await self._answer("message")

    async def edit_message(self, **kwargs: Any) -> None:
        await self._answer("edit")


class FakeFollowup:
    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    async def send(self, *args: Any, **kwargs: Any) -> None:
        self.calls.append(f"follow-up ephemeral={kwargs.get('ephemeral')}")


class FakeInteraction:
    def __init__(self, delay: float = 0.05) -> None:
        self.calls: list[str] = []
        self.response = FakeResponse(self.calls, delay)
        self.followup = FakeFollowup(self.calls)
        self.extras: dict[str, Any] = {}

    async def edit_original_response(self, **kwargs: Any) -> str:
        self.calls.append("edit original")
        return "the original, edited"

    async def original_response(self) -> str:
        return "the original"

    async def delete_original_response(self) -> None:
        self.calls.append("delete original")


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_cog, "DEFER_AFTER", 0.01)


@pytest.mark.parametrize("answer", [send, update])
async def test_a_deferral_and_the_answer_racing_make_one_acknowledgement(answer: Any) -> None:
    interaction: Any = FakeInteraction(delay=0.05)
    async with answering(interaction, update=answer is update):
        async with asyncio.timeout(5):  # the deferral has started its call, not finished it
            while not interaction.calls:
                await asyncio.sleep(0.001)
        await (send(interaction, "done") if answer is send else update(interaction, content="done"))
    assert not any("refused" in call for call in interaction.calls), interaction.calls
    assert interaction.calls[0].startswith("defer")
    assert interaction.calls[-1] in ("follow-up ephemeral=True", "edit original")


async def test_an_answer_before_the_deferral_leaves_nothing_to_defer() -> None:
    interaction: Any = FakeInteraction(delay=0.05)
    async with answering(interaction, update=False):
        await send(interaction, "quick")
        await asyncio.sleep(0.1)
    assert interaction.calls == ["message sent"]


async def test_a_private_answer_after_a_public_thinking_is_sent_to_that_person_alone() -> None:
    interaction: Any = FakeInteraction(delay=0.0)
    async with answering(interaction, update=False, public=True):
        await asyncio.sleep(0.05)
        await send(interaction, "refused")
    assert interaction.calls == ["defer public thinking sent", "delete original", "follow-up ephemeral=True"]
    assert replies.PUBLIC_THINKING not in interaction.extras


async def test_a_public_answer_racing_the_deferral_takes_the_place_of_its_thinking() -> None:
    """A lobby or a tournament's sign-up that comes as the deferral's call is under way: one acknowledgement,
    then the thinking edited into the message (the sign-up raced this way once, under load in CI)."""
    interaction: Any = FakeInteraction(delay=0.05)
    async with answering(interaction, update=False, public=True):
        await asyncio.sleep(0.02)  # the deferral has started its call, not finished it
        message = await post(interaction, content="the lobby")
    assert interaction.calls == ["defer public thinking sent", "edit original"]
    assert message == "the original, edited" and replies.PUBLIC_THINKING not in interaction.extras


async def test_a_public_answer_before_the_deferral_is_the_first_answer() -> None:
    interaction: Any = FakeInteraction(delay=0.0)
    async with answering(interaction, update=False, public=True):
        message = await post(interaction, content="the lobby")
        await asyncio.sleep(0.05)
    assert interaction.calls == ["message sent"] and message == "the original"


async def test_the_deferral_counts_from_the_clicks_arrival(monkeypatch: pytest.MonkeyPatch) -> None:
    """What came before the handler (the table read where the click came from, slow while the tables are read
    back after a restart) counts towards Discord's three seconds: the deferral goes ``DEFER_AFTER`` after the
    click arrived, not after the handler started (CI saw "This interaction failed" on a click after a restart)."""
    monkeypatch.setattr(tables_cog, "DEFER_AFTER", 0.3)
    interaction: Any = FakeInteraction(delay=0.0)
    replies.arrived(interaction)
    await asyncio.sleep(0.25)  # the read before the handler
    async with answering(interaction, update=False):
        await asyncio.sleep(0.1)  # the handler's own work: its answer would come 0.35 s after the click
        await send(interaction, "done")
    assert interaction.calls == ["defer thinking sent", "follow-up ephemeral=True"]


async def test_a_table_click_notes_its_arrival_before_the_table_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    class Cog:
        async def belongs_here(self, interaction: Any, table_id: int) -> bool:
            seen.append("arrived" in interaction.extras)
            return False

    monkeypatch.setattr(clicks, "_handler", lambda interaction: Cog())
    interaction: Any = FakeInteraction()

    async def never(cog: Any) -> None:
        raise AssertionError("not where the table is: no handler")

    await clicks.on_table(interaction, 7, never)
    assert seen == [True]


COGS = Path(__file__).resolve().parents[2] / "cogs"


def _unlocked_answers(tree: ast.AST) -> list[int]:
    """Lines answering an interaction directly (``….response.x(...)``) in a handler that works under
    ``working(...)`` (whose deferral may fire meanwhile), outside an ``async with answer_lock(...)``."""
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.AsyncFunctionDef):
            continue
        withs = [node for node in ast.walk(function) if isinstance(node, ast.AsyncWith)]
        worked = any("working(" in ast.unparse(item.context_expr) for block in withs for item in block.items)
        if not worked:
            continue
        locked = set()
        for block in withs:
            if any("answer_lock(" in ast.unparse(item.context_expr) for item in block.items):
                locked |= {id(inner) for inner in ast.walk(block)}
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "response"
                and id(node) not in locked
            ):
                found.append(node.lineno)
    return found


def test_no_handler_under_a_background_deferral_answers_outside_the_lock() -> None:
    """Every answer of a handler whose deferral may fire meanwhile goes through ``send``, ``update``, ``post``
    or the lock: a direct ``interaction.response`` call could race the deferral and be refused (40060)."""
    unlocked = {
        str(path.relative_to(COGS)): lines
        for path in sorted(COGS.rglob("*.py"))
        if (lines := _unlocked_answers(parsed(path.read_text(encoding="utf-8"))))
    }
    assert unlocked == {}
    planted = parsed(
        "async def f(self, interaction):\n"
        "    async with self.work.working(interaction, update=False):\n"
        "        await interaction.response.send_message('x')\n"
    )
    assert _unlocked_answers(planted) == [3]  # it can fail


class SlowService:
    """A service whose every read waits (the table's lock held by a computer's move, the tables being read back
    after a restart) and then refuses: what matters is that the click is acknowledged in time meanwhile."""

    def __init__(self, wait: float) -> None:
        self.wait = wait

    def __getattr__(self, name: str) -> Any:
        async def slow(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(self.wait)
            raise TableNotFound("table_not_found", table=7)

        return slow


class SlowInteraction(FakeInteraction):
    def __init__(self) -> None:
        super().__init__(delay=0.0)
        self.user = SimpleNamespace(id=5)
        self.locale = discord.Locale.american_english
        self.guild_id = 1
        self.client = None
        self.message = None


async def _hand_clicks(interaction: Any, wait: float) -> None:
    clicks_here = PlayClicks(SlowService(wait), Hands(SlowService(wait), Work()), Work())  # type: ignore[arg-type]
    await clicks_here.on_cards(interaction, 7, 3, ["AS", "KS", "QS"])


async def _choose(interaction: Any, wait: float) -> None:
    clicks_here = PlayClicks(SlowService(wait), Hands(SlowService(wait), Work()), Work())  # type: ignore[arg-type]
    await clicks_here.on_choose(interaction, 7, 3, ["bid 1"])


async def _hint(interaction: Any, wait: float) -> None:
    clicks_here = PlayClicks(SlowService(wait), Hands(SlowService(wait), Work()), Work())  # type: ignore[arg-type]
    await clicks_here.on_hint(interaction, 7, 3)


async def _computers(interaction: Any, wait: float) -> None:
    lobby = LobbyClicks(SlowService(wait), None, Work(), None)  # type: ignore[arg-type]
    await lobby.offer_computers(interaction, 7)


@pytest.mark.parametrize("handler", [_hand_clicks, _choose, _hint, _computers])
async def test_a_click_whose_first_read_waits_is_acknowledged_in_time(handler: Any) -> None:
    """A click whose first read of the table waits (here 0.2 s against a deferral due after 0.01 s; in life
    seconds against Discord's three) is deferred while it waits, and its answer then follows the deferral."""
    interaction: Any = SlowInteraction()
    await handler(interaction, 0.2)
    assert interaction.calls[0].startswith("defer"), interaction.calls
    assert interaction.calls[-1] in ("follow-up ephemeral=True", "edit original"), interaction.calls
    assert not any("refused" in call for call in interaction.calls), interaction.calls


async def test_a_deferral_under_way_when_the_work_ends_is_let_finish_not_cancelled() -> None:
    """The work ended while the background deferral's call was under way: cancelled in the middle of it, Discord
    had taken it but the interaction did not know, and the handler's own answer was refused (40060)."""
    interaction: Any = FakeInteraction(delay=0.05)
    async with answering(interaction, update=False, public=True):
        async with asyncio.timeout(5):  # the deferral has started its call, not finished it
            while not interaction.calls:
                await asyncio.sleep(0.001)
    assert interaction.response.is_done()  # known done: the handler follows it up
    await post(interaction, content="the night")
    assert interaction.calls == ["defer public thinking sent", "edit original"]


def _discord_refusal(status: int, code: int) -> discord.NotFound:
    response: Any = SimpleNamespace(status=status, reason="Not Found")
    return discord.NotFound(response, {"code": code, "message": "Unknown"})


@pytest.mark.parametrize("code", [10062, 10008])
async def test_a_click_discord_forgot_is_a_warning_and_any_other_failure_an_apology(
    code: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A click answered after Discord's 3 seconds (a machine or a database too slow) gets Unknown Interaction
    (10062) for every answer: one warning line, no traceback and no second try at an apology nobody can see.
    Anything else the handler did not expect (here an Unknown Message, 10008) is logged with its traceback and
    the clicker is told politely."""
    interaction: Any = FakeInteraction(delay=0)
    interaction.data, interaction.client = {"custom_id": "tt:x"}, SimpleNamespace()
    interaction.locale, interaction.guild_locale, interaction.guild_id = discord.Locale.american_english, None, None

    async def work() -> None:
        raise _discord_refusal(404, code)

    caplog.set_level("INFO", logger=replies.__name__)
    await replies.safely(interaction, work())
    [record] = [r for r in caplog.records if r.name == replies.__name__]
    if code == 10062:
        assert record.levelname == "WARNING" and record.exc_info is None and "tt:x" in record.getMessage()
        assert interaction.calls == []
    else:
        assert record.levelname == "ERROR" and record.exc_info is not None
        assert interaction.calls == ["message sent"]


async def test_a_command_discord_forgot_is_a_warning_too(caplog: pytest.LogCaptureFixture) -> None:
    """The same for a command: its handler's answer refused with 10062 reaches the command's error handler wrapped
    in CommandInvokeError; one warning line, no traceback, no apology sent."""
    from discord import app_commands

    from cogs.command_errors import answer_command_error

    interaction: Any = FakeInteraction(delay=0)
    interaction.data, interaction.client = {"name": "stats"}, SimpleNamespace()
    interaction.locale, interaction.guild_locale, interaction.guild_id = discord.Locale.american_english, None, None
    interaction.command = SimpleNamespace(name="stats")
    error = app_commands.CommandInvokeError(interaction.command, _discord_refusal(404, 10062))
    caplog.set_level("INFO")
    await answer_command_error(interaction, error)
    [record] = [r for r in caplog.records if r.name.startswith("cogs.")]
    assert record.levelname == "WARNING" and record.exc_info is None and "/stats" in record.getMessage()
    assert interaction.calls == []
