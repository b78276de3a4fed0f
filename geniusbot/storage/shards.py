"""Shard maths: which shard a guild is on, and the set of shards one process serves.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count`` and direct messages to
shard 0. A match belongs to the shard of its guild; a match of no guild (the console's) to shard 0.
Pure: no Discord, no database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard of ``guild_id`` among ``shard_count`` (``None``, no guild: shard 0)."""
    if shard_count < 1:
        raise ValueError(f"a shard count is 1 or more, not {shard_count}")
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards one process serves: ``ids`` among ``count``."""

    count: int
    ids: frozenset[int]

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> Shards:
        """``ids`` of ``count`` shards (all of them when ``ids`` is ``None``), checked."""
        chosen = frozenset(range(count) if ids is None else ids)
        if count < 1 or not chosen or any(not 0 <= i < count for i in chosen):
            raise ValueError(f"shards {sorted(chosen)} are not among the {count} shard(s) 0..{count - 1}")
        return cls(count, chosen)

    @property
    def every(self) -> bool:
        """Whether these are all the shards (nothing to filter)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether the matches of ``guild_id`` (``None``: no guild) belong to these shards."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return ",".join(str(i) for i in sorted(self.ids)) + f" of {self.count}"
