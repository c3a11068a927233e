"""Page buttons and the match picker: everything they need is in their custom_id, so they work after a restart.

``owner`` is the person whose copy a message is: they page it in place;
anyone else who clicks gets their own copy, so nobody's view is changed
under them.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from ..client import table_bot
from ..replies import click_values, id_from, safely

PERIODS = ("all", "month", "week")
HANDLER = "Records"  # the name of the cog that handles these clicks


@runtime_checkable
class RecordClicks(Protocol):
    """What a click on a records message asks of its handler (the records cog): each control's callback
    calls one of these, so this module needs nothing of the cog but its name."""

    async def on_board_page(
        self, interaction: discord.Interaction[Any], game: str, period: str, page: int, owner: int
    ) -> None: ...

    async def on_history_page(
        self, interaction: discord.Interaction[Any], page: int, user: int, owner: int
    ) -> None: ...

    async def on_open_match(self, interaction: discord.Interaction[Any], values: list[str]) -> None: ...

    async def on_replay(
        self, interaction: discord.Interaction[Any], match_id: int, values: list[str], *, step: bool
    ) -> None: ...


def _cog(interaction: discord.Interaction[Any]) -> RecordClicks:
    cog = table_bot(interaction.client).get_cog(HANDLER)
    assert isinstance(cog, RecordClicks), f"the {HANDLER} cog is not loaded"
    return cog


class BoardPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rk:board:(?P<game>[a-z-]{1,20}):(?P<period>all|month|week|s[0-9]{1,10}):(?P<page>[0-9]{1,4}):(?P<owner>[0-9]{1,20})",
):
    def __init__(self, game: str, period: str, page: int, owner: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"rk:board:{game}:{period}:{page}:{owner}",
            )
        )
        self.game, self.period, self.page, self.owner = game, period, page, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardPage:
        found = match.groupdict()
        return cls(found["game"], found["period"], int(found["page"]), id_from(found["owner"]), label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(
            interaction, _cog(interaction).on_board_page(interaction, self.game, self.period, self.page, self.owner)
        )


class HistoryPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rk:hist:(?P<page>[0-9]{1,4}):(?P<user>[0-9]{1,20}):(?P<owner>[0-9]{1,20})",
):
    def __init__(self, page: int, user: int, owner: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"rk:hist:{page}:{user}:{owner}",
            )
        )
        self.page, self.user, self.owner = page, user, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryPage:
        found = match.groupdict()
        return cls(int(found["page"]), id_from(found["user"]), id_from(found["owner"]), label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(interaction, _cog(interaction).on_history_page(interaction, self.page, self.user, self.owner))


class OpenMatch(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"rk:open:(?P<page>[0-9]{1,4})"):
    """Pick a match to see its full score sheet (only the picker sees it)."""

    def __init__(self, page: int, options: list[discord.SelectOption], *, placeholder: str) -> None:
        super().__init__(discord.ui.Select(custom_id=f"rk:open:{page}", options=options, placeholder=placeholder))
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenMatch:
        return cls(int(match["page"]), [discord.SelectOption(label="-")], placeholder="")  # only its callback runs

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = click_values(interaction)
        await safely(interaction, _cog(interaction).on_open_match(interaction, values))


class ReplayPick(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"rk:deal:(?P<match>[0-9]{1,20}):(?P<part>[0-9])"
):
    """Pick a deal of a finished match to replay trick by trick (only the picker sees it)."""

    def __init__(self, match_id: int, part: int, options: list[discord.SelectOption], *, placeholder: str) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"rk:deal:{match_id}:{part}", options=options, placeholder=placeholder
        )
        super().__init__(select)
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayPick:
        return cls(id_from(match["match"]), int(match["part"]), [discord.SelectOption(label="-")], placeholder="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = click_values(interaction)
        await safely(interaction, _cog(interaction).on_replay(interaction, self.match_id, values, step=False))


class ReplayStep(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rk:replay:(?P<match>[0-9]{1,20}):(?P<deal>[0-9]{1,4})"
):
    """The previous or next deal of a replay, in place."""

    def __init__(self, match_id: int, deal: int, *, label: str = "", emoji: str | None = None) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=f"rk:replay:{match_id}:{deal}", label=label or str(deal), emoji=emoji
        )
        super().__init__(button)
        self.match_id, self.deal = match_id, deal

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayStep:
        return cls(id_from(match["match"]), int(match["deal"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await safely(interaction, _cog(interaction).on_replay(interaction, self.match_id, [str(self.deal)], step=True))


DYNAMIC_ITEMS = (BoardPage, HistoryPage, OpenMatch, ReplayPick, ReplayStep)
