"""The sign-up message's buttons, which survive restarts: the tournament id lives in the custom_id.

Each is a :class:`discord.ui.DynamicItem` (like the tables' controls): after a restart a click on an old
message is matched against the template, and the callback hands it to the cog through the small
:class:`TournamentClicks` interface, found by the cog's name, so this module never imports the cog.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from ..client import table_bot
from ..i18n import reader, t
from ..replies import id_from, safely, send

PREFIX = "tt"
HANDLER = "Tournaments"  # the name of the cog that handles these clicks
OPS = ("join", "leave", "start", "cpu", "cancel")
RUNNING_OPS = ("leave", "cancel")  # what the sign-up message keeps while the rounds are played


@runtime_checkable
class TournamentClicks(Protocol):
    async def on_signup(self, interaction: discord.Interaction[Any], tournament_id: int, op: str) -> None: ...


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:tour:(?P<op>join|leave|start|cpu|cancel):(?P<tournament>[0-9]{1,20})",
):
    """Join, Leave, and the host's Start, Add a computer and Cancel (the service checks who pressed)."""

    def __init__(
        self,
        tournament_id: int,
        op: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label or op, style=style, custom_id=f"{PREFIX}:tour:{op}:{tournament_id}")
        )
        self.tournament_id, self.op = tournament_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(id_from(match["tournament"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = table_bot(interaction.client).get_cog(HANDLER)
        if not isinstance(cog, TournamentClicks):
            await send(interaction, t(reader(interaction), "error.internal"))
            return
        await safely(interaction, cog.on_signup(interaction, self.tournament_id, self.op))


def signup_controls(tournament_id: int, locale: Any, *, status: str) -> discord.ui.View | None:
    """The sign-up message's buttons: all of them in sign-up; once the tournament runs, **Leave** (withdraw from
    the rounds to come) and the host's **Cancel**; none once it has ended."""
    ops = OPS if status == "signup" else RUNNING_OPS if status == "running" else ()
    if not ops:
        return None
    view = discord.ui.View(timeout=None)
    styles = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cpu": discord.ButtonStyle.secondary,
        "cancel": discord.ButtonStyle.danger,
    }
    for op in ops:
        view.add_item(TournamentButton(tournament_id, op, label=t(locale, f"tournament.button_{op}"), style=styles[op]))
    return view


DYNAMIC_ITEMS = (TournamentButton,)
