"""Final standings and rating changes: plain functions of a match's result.

Sides are the units that place: a Five Hundred partnership, or one player.
Placement is competition ranking ("1, 2, 2, 4"): resigned sides last, then
the engine's winners, then by score. Ratings use openskill's Plackett-Luce
model with each side's seated people as a team; computer players are not
rated, and a match with fewer than two rated sides changes no rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class SkillRating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating shown to people: mu - 3 sigma."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())

    @classmethod
    def initial(cls) -> SkillRating:
        fresh = MODEL.rating()
        return cls(fresh.mu, fresh.sigma)


def placements(
    sides: Sequence[Sequence[int]], totals: Sequence[int], winners: set[int], resigned: set[int]
) -> list[int]:
    """Each side's placement, 1 best, ties sharing a place."""

    def key(side: Sequence[int]) -> tuple[bool, bool, int]:
        gave_up = any(seat in resigned for seat in side)
        won = not gave_up and any(seat in winners for seat in side)
        return (not gave_up, won, totals[side[0]])

    keys = [key(side) for side in sides]
    return [1 + sum(other > mine for other in keys) for mine in keys]


def rate(
    teams: Sequence[Sequence[int]], places: Sequence[int], current: Mapping[int, SkillRating]
) -> dict[int, SkillRating]:
    """New ratings of every user in ``teams`` (lists of user ids), ranked by ``places``."""
    rated = [(team, place) for team, place in zip(teams, places, strict=True) if team]
    if len(rated) < 2:
        return {}
    model_teams = [
        [MODEL.rating(mu=current[user].mu, sigma=current[user].sigma, name=str(user)) for user in team]
        for team, _ in rated
    ]
    updated = MODEL.rate(model_teams, ranks=[float(place) for _, place in rated])
    return {
        user: SkillRating(new.mu, new.sigma)
        for (team, _), new_team in zip(rated, updated, strict=True)
        for user, new in zip(team, new_team, strict=True)
    }
