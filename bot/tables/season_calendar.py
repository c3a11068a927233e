"""When seasons begin and end: plain functions of UTC instants (no database, no clock).

A season is the half-open span ``[starts_at, ends_at)``; a match counts in the season
it finished in. A month's season ends at 00:00 UTC on the first of the next month; a
three-month season ("quarter") at 00:00 UTC on 1 January, April, July or October; a
season of explicit dates ends at 00:00 UTC on its last date's next day, and the seasons
after it last as many days each.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

LENGTHS = ("month", "quarter", "dates")
MAX_SPAN_DAYS = 366 * 2
MAX_AHEAD_DAYS = 366  # the latest first day a season may be given, from today


def midnight(day: date) -> datetime:
    """00:00 UTC at the start of ``day``."""
    return datetime.combine(day, time(0), tzinfo=UTC)


def _first_of(year: int, month: int) -> datetime:
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=UTC)


def season_end(length: str, start: datetime, span_days: int | None) -> datetime:
    """The instant a season that began at ``start`` ends (exclusive)."""
    start = start.astimezone(UTC)
    if length == "month":
        return _first_of(start.year, start.month + 1)
    if length == "quarter":
        first_month = (start.month - 1) // 3 * 3 + 1
        return _first_of(start.year, first_month + 3)
    if length == "dates" and span_days is not None and span_days > 0:
        return start + timedelta(days=span_days)
    raise ValueError(f"no season length {length!r} (span {span_days})")


def season_label(length: str, start: datetime) -> str:
    """A season's name from its length and start: ``2026-11``, ``2026-Q4``, ``2026-11-25``. A month's or a
    quarter's season that began in its middle (turned on that day) still takes that month's or quarter's name."""
    start = start.astimezone(UTC)
    if length == "month":
        return f"{start.year:04d}-{start.month:02d}"
    if length == "quarter":
        return f"{start.year:04d}-Q{(start.month - 1) // 3 + 1}"
    return start.date().isoformat()


def parse_day(given: str) -> date | None:
    """A date as ``YYYY-MM-DD`` (None: not one)."""
    given = given.strip()
    if len(given) != 10 or not given.isascii():
        return None
    try:
        return date.fromisoformat(given)
    except ValueError:
        return None


def parse_instant(given: str) -> datetime | None:
    """A UTC time as ``YYYY-MM-DD HH:MM`` (or with a ``T``, seconds, a trailing ``Z``); None: not one. A time
    with another zone's offset is taken at that offset."""
    given = given.strip().replace("Z", "+00:00")
    if not given.isascii() or not 16 <= len(given) <= 32:
        return None
    try:
        found = datetime.fromisoformat(given)
        return found.replace(tzinfo=UTC) if found.tzinfo is None else found.astimezone(UTC)
    except (ValueError, OverflowError):  # not a time, or one whose UTC falls outside the calendar (year 0 or 10000)
        return None
