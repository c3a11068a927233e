"""A tournament's sign-up message as the channel shows it: its entrants field within Discord's limit of 1,024
characters, however many sign up, in English and Japanese."""

from __future__ import annotations

import re

import pytest

from bot.storage.models import MAX_ENTRANTS
from bot.tables.tournament_records import EntrantInfo, TournamentInfo, TournamentStatus
from cogs.i18n import t
from cogs.tournaments.render import signup_embed


def signed_up(count: int) -> TournamentInfo:
    entrants = tuple(EntrantInfo(i + 1, 1_180_000_000_000_000_000 + i, f"Player {i}") for i in range(count))
    return TournamentInfo(
        id=7, guild_id=1, channel_id=2, message_id=3, host_id=1_180_000_000_000_000_000, game="oh-hell",
        options={}, format="swiss", table_size=4, rounds=3, advance=1, computers=True, rated=True,
        starts_at=None, seed=1, status=TournamentStatus.SIGNUP, round=0, entrants=entrants,
    )  # fmt: skip


@pytest.mark.parametrize("locale", ["en-US", "ja"])
@pytest.mark.parametrize("count", [60, MAX_ENTRANTS])
def test_many_entrants_are_shown_whole_then_counted(locale: str, count: int) -> None:
    """Past what 1,024 characters hold (about 44 mentions), the field shows whole mentions, in sign-up order, then
    one line with how many more signed up: it was cut in the middle of the 45th mention, the rest uncounted."""
    info = signed_up(count)
    field = signup_embed(info, locale).fields[0]
    value = field.value or ""
    assert field.name == t(locale, "tournament.entrants", count=count)
    assert len(value) <= 1024
    *names, last = value.split("\n")
    assert names == [f"<@{entrant.user_id}>" for entrant in info.entrants[: len(names)]]
    assert all(re.fullmatch(r"<@\d+>", name) for name in names)
    assert last == t(locale, "tournament.entrants_more", count=count - len(names))
    assert len(names) >= 40  # the field is filled, not cut short
    one_more = "\n".join([*names, f"<@{info.entrants[len(names)].user_id}>", t(locale, "tournament.entrants_more",
                                                                          count=count - len(names) - 1)])  # fmt: skip
    assert len(one_more) > 1024  # as many as fit


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_entrants_that_fit_are_all_shown_without_a_count(locale: str) -> None:
    info = signed_up(40)
    value = signup_embed(info, locale).fields[0].value or ""
    assert value.split("\n") == [f"<@{entrant.user_id}>" for entrant in info.entrants]
    nobody = signup_embed(signed_up(0), locale).fields[0].value
    assert nobody == t(locale, "tournament.no_entrants")
