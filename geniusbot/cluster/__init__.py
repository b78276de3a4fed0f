"""Several bot processes on one PostgreSQL database, each serving some of the bot's Discord shards.

* :mod:`.shards` -- the shard of a guild, and the set of shards a process serves;
* :mod:`.ownership` -- one advisory lock per shard, held while the process serves it, watched;
* :mod:`.inbox` -- direct messages (which reach shard 0 only) handed to the owner of their match.

See ``docs/bot.md`` ("Several processes") for the rulings.
"""

from __future__ import annotations

from .shards import Shards, shard_of

__all__ = ["Shards", "shard_of"]
