"""An interaction is answered once: a deferral made in the background and the handler's own answer never
both go (Discord refuses the second with 40060), and a private answer never lands in a public "thinking"."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs import replies
from cogs.replies import send, update
from cogs.tables import working as tables_cog
from cogs.tables.working import answering


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

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.calls.append("edit original")

    async def delete_original_response(self) -> None:
        self.calls.append("delete original")


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_cog, "DEFER_AFTER", 0.01)


@pytest.mark.parametrize("answer", [send, update])
async def test_a_deferral_and_the_answer_racing_make_one_acknowledgement(answer: Any) -> None:
    interaction: Any = FakeInteraction(delay=0.05)
    async with answering(interaction, update=answer is update):
        await asyncio.sleep(0.02)  # the deferral has started its call, not finished it
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
