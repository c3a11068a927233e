"""Which servers a process owns: Discord's shard of a server, ``(guild_id >> 22) % shard_count``.

A bot run as several processes gives each a range of shards; a process loads,
times and drives the tables of the servers on its shards (any process still
serves a click routed to it: its writes are checked against the table's version).
One process with every shard owns every server (``Shards.everything()``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MAX_SHARDS = 4096  # far beyond any bot's need (Discord asks for one shard per 1,000 to 2,500 servers)


class ShardSpecError(ValueError):
    """A shard setting that cannot be read (the message says how to write it)."""


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to, out of ``count``."""
    return (guild_id >> 22) % count


@dataclass(frozen=True)
class Shards:
    """The shards one process runs: ``ids`` of ``count`` (``count`` None: all of however many there are)."""

    count: int | None
    ids: frozenset[int]

    @classmethod
    def everything(cls) -> Shards:
        return cls(None, frozenset())

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> Shards:
        if not 1 <= count <= MAX_SHARDS:
            raise ShardSpecError(f"the shard count must be from 1 to {MAX_SHARDS}, not {count}")
        chosen = frozenset(range(count) if ids is None else ids)
        if not chosen:
            raise ShardSpecError("a process needs at least one shard")
        wrong = sorted(i for i in chosen if not 0 <= i < count)
        if wrong:
            raise ShardSpecError(f"shard ids run from 0 to {count - 1}; {wrong[0]} is not one of them")
        return cls(count, chosen)

    @property
    def all(self) -> bool:
        """True when this process owns every server."""
        return self.count is None or len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        return self.all or shard_of(guild_id, self.count or 1) in self.ids

    def __str__(self) -> str:
        if self.count is None:
            return "all shards"
        return f"shards {describe(sorted(self.ids))} of {self.count}"


def parse_ids(text: str) -> list[int]:
    """``"0-3,8"`` → ``[0, 1, 2, 3, 8]``: the shard ids a process runs, as a setting writes them."""
    ids: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ShardSpecError(f"{part!r} is not a shard id or a range such as 0-3") from None
        if first < 0 or last < first or last - first >= MAX_SHARDS:
            raise ShardSpecError(f"{part!r} is not a range of shard ids from low to high, such as 0-3")
        ids.extend(range(first, last + 1))
    if not ids:
        raise ShardSpecError("no shard id is given; write them as 0-3 or 0,1,2,3")
    return sorted(set(ids))


def describe(ids: list[int]) -> str:
    """``[0, 1, 2, 5]`` → ``"0-2,5"``."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(str(low) if low == high else f"{low}-{high}" for low, high in runs)
