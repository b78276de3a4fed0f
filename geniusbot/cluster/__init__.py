"""Several bot processes on one PostgreSQL database, each serving some of the bot's Discord shards.

* :mod:`geniusbot.storage.shards` -- the shard of a guild, and the set of shards a process
  serves (pure; on the storage's floor, which filters a process's matches by it, as the host does);
* :mod:`.ownership` -- one advisory lock per shard, held while the process serves it, watched;
* :mod:`.inbox` -- the owner's side of the ``inbox`` table: LISTEN, take each row once, apply it;
* :mod:`.relay` -- the bot's side: a DM (which reaches shard 0 only) of another shard's match
  handed over, and what the owner answers the player.

See ``docs/bot.md`` ("Several processes") for the rulings.
"""

from __future__ import annotations

from geniusbot.storage.shards import Shards, shard_of

__all__ = ["Shards", "shard_of"]
