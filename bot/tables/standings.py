"""Final standings and rating changes: plain functions of a match's result.

Sides are the units that place: a Five Hundred partnership, or one player.
Placement is competition ranking ("1, 2, 2, 4"): resigned sides last, then
the engine's winners, then by score. The match's winners are the engine's
winners whose side did not resign; where every one of them resigned (a
computer played the seat on to the win), the best-placed side that did not.
Ratings use openskill's Plackett-Luce model with each side's seated people as
a team; computer players are not rated (a computer beside people stands in
at its partners' rating), and a match with fewer than two rated sides
changes no rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

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


def match_winners(
    sides: Sequence[Sequence[int]], places: Sequence[int], winners: set[int], resigned: set[int]
) -> set[int]:
    """The seats that won the match: the engine's ``winners`` whose side did not resign (a partner of one who
    resigned did not win, even where the computer that played the seat on took the match); where none is left,
    the seats of the best-placed sides that did not resign. Nobody, when every side resigned."""
    playing = [(side, place) for side, place in zip(sides, places, strict=True) if not set(side) & resigned]
    kept = {seat for side, _ in playing for seat in side if seat in winners}
    if kept or not playing:
        return {seat for side, _ in playing if set(side) & kept for seat in side}
    best = min(place for _, place in playing)
    return {seat for side, place in playing if place == best for seat in side}


def rate(
    teams: Sequence[Sequence[int | None]], places: Sequence[int], current: Mapping[int, SkillRating]
) -> dict[int, SkillRating]:
    """New ratings of every user in ``teams`` (lists of user ids, None for a computer's seat), ranked by
    ``places``. A side of computers only is not rated. A computer beside people stands in at the mean of its
    side's people's ratings, and its own update is dropped: a person partnered with a computer is rated as one
    of a pair of equals. (Left out, the person was a team of one against a pair, which the model takes for half
    as strong: a win gained about +4.0 and a loss cost about 0.5, where two people gain and lose about 2.)"""
    rated = [(team, place) for team, place in zip(teams, places, strict=True) if any(u is not None for u in team)]
    if len(rated) < 2:
        return {}
    model_teams = [[_model_rating(user, team, current) for user in team] for team, _ in rated]
    updated = MODEL.rate(model_teams, ranks=[float(place) for _, place in rated])
    return {
        user: SkillRating(new.mu, new.sigma)
        for (team, _), new_team in zip(rated, updated, strict=True)
        for user, new in zip(team, new_team, strict=True)
        if user is not None
    }


def _model_rating(
    user: int | None, team: Sequence[int | None], current: Mapping[int, SkillRating]
) -> PlackettLuceRating:
    """openskill's rating of one seat of a side: a person's own; a computer's, its side's people's mean."""
    if user is not None:
        return MODEL.rating(mu=current[user].mu, sigma=current[user].sigma, name=str(user))
    people = [current[u] for u in team if u is not None]
    mu = sum(r.mu for r in people) / len(people)
    sigma = sum(r.sigma for r in people) / len(people)
    return MODEL.rating(mu=mu, sigma=sigma, name="computer")
