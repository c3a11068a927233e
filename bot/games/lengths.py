"""How long a match lasts, for a lobby to say ("about 30 minutes"): each game says how many deals a
match of its options is expected to take (``expected_length`` beside each engine, measured by playing
every seat with the easy computer player, 10 matches each, 2026-11-24); people take a few seconds a
card and longer to bid."""

from __future__ import annotations

from dataclasses import dataclass

SECONDS_PER_CARD = 5  # a person playing a card, on average
SECONDS_PER_BID = 15  # a person bidding (or passing) once a deal


@dataclass(frozen=True)
class Length:
    """A match's expected length: its deals, and the tricks of a deal on average."""

    deals: float
    tricks: float

    def minutes(self, players: int) -> int:
        """The playing time in minutes for ``players`` people, rounded to a sensible figure."""
        seconds = self.deals * players * (self.tricks * SECONDS_PER_CARD + SECONDS_PER_BID)
        minutes = seconds / 60
        step = 5 if minutes < 60 else 15
        return max(5, round(minutes / step) * step)
