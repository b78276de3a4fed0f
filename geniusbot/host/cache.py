"""The live-match cache: the matches the host holds in memory, loaded from the store on demand
and let go of once they are over. One object, which the host's other parts call through its
public methods; :class:`~geniusbot.host.match.Host` answers the front ends' queries from it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from geniusbot.games import load
from geniusbot.storage import (
    ENDED_STATUSES,
    UNFINISHED_STATUSES,
    MatchNotFound,
    MatchRecord,
    MatchStatus,
    StorageUnavailable,
)
from geniusbot.words import ENGLISH, Words, say

from .clock import Clock, preset
from .live import LiveMatch, Reply, ReplyStatus
from .transport import Player

if TYPE_CHECKING:
    from geniusbot.storage import Store
    from geniusbot.storage.shards import Shards

log = logging.getLogger(__name__)


class MatchCache:
    """The live-match cache: load a match once, hold it while it runs, forget it once it is over.

    ``shards()``: the shards this process serves (see :class:`~geniusbot.host.match.Host`);
    an unfinished match of another shard is refused.
    """

    def __init__(
        self, store: Store, shards: Callable[[], Shards | None] | None = None, *, language: str = ENGLISH
    ) -> None:
        self.store = store
        self.shards = shards
        #: The language of the replies said here (the host's).
        self.language = language
        #: The matches held, by id.
        self.matches: dict[int, LiveMatch] = {}
        #: The lock of each match being loaded (one load of a match at a time).
        self.loading: dict[int, asyncio.Lock] = {}

    async def load(self, match_id: int) -> LiveMatch | None:
        """The match ``match_id`` as the host holds it, or as the store has it once it is over
        (``None``: no such match, or the store cannot be read now). A finished match read here
        is not kept in memory."""
        live, _ = await self.get(match_id)
        self.let_go(match_id)
        return live

    # ---- the front ends' queries: what the host holds, never its cache or its locks

    def held(self, match_id: int) -> LiveMatch | None:
        """The match ``match_id`` if this host holds it in memory (``None``: not held now)."""
        return self.matches.get(match_id)

    def match_in(self, channel_id: int) -> LiveMatch | None:
        """The unfinished match this host holds in memory for the room ``channel_id``."""
        for live in self.matches.values():
            if live.channel_id == channel_id and live.status in UNFINISHED_STATUSES:
                return live
        return None

    def unfinished(self) -> list[LiveMatch]:
        """The unfinished matches this host holds in memory."""
        return [live for live in list(self.matches.values()) if live.status in UNFINISHED_STATUSES]

    def matches_of(self, user_id: int) -> list[LiveMatch]:
        """The unfinished matches this host holds in memory in which ``user_id`` holds a seat."""
        return [live for live in self.unfinished() if any(p.user_id == user_id for p in live.players.values())]

    async def players(self, match_id: int) -> dict[str, Player]:
        """Who holds each seat of match ``match_id``, from memory or else from the store (which
        raises :class:`~geniusbot.storage.MatchNotFound` for no such match)."""
        live = self.matches.get(match_id)
        if live is not None:
            return dict(live.players)
        record = await self.store.get_match(match_id)
        return {s.seat: Player(s.seat, s.user_id, s.display_name) for s in record.seats}

    async def seat_of(self, match_id: int, user_id: int) -> str | None:
        """The seat ``user_id`` holds in match ``match_id`` (``None``: none); see :meth:`players`."""
        return next((s for s, p in (await self.players(match_id)).items() if p.user_id == user_id), None)

    async def quiet(self, match_id: int) -> None:
        """Return once the input match ``match_id`` is handling now, if any, is done (inputs are
        handled one at a time: whatever came before this call has been ruled on)."""
        live = self.matches.get(match_id)
        if live is not None:
            async with live.lock:
                pass

    def let_go(self, match_id: int) -> None:
        """Forget a finished or aborted match (and its loading lock): a bot that runs for months
        must not hold every match it ever hosted. Reading it later loads it from the store.

        A match whose lock is held is kept: the holder may still be announcing its end, and
        lets go of it itself when done. A live or paused match is never let go of.
        """
        live = self.matches.get(match_id)
        if live is not None:
            if live.status not in ENDED_STATUSES or live.lock.locked():
                return
            del self.matches[match_id]
        loading = self.loading.get(match_id)
        if loading is not None and not loading.locked():
            del self.loading[match_id]

    def hold(self, live: LiveMatch) -> None:
        """Hold ``live`` in memory: a match just started, or resumed at a restart."""
        self.matches[live.id] = live

    def forget(self, match_id: int) -> None:
        """Drop the match from memory whatever its status: its copy here is stale (another process
        moved it on, or its store write failed); the next input reads it from the store again."""
        self.matches.pop(match_id, None)

    async def get(self, match_id: int) -> tuple[LiveMatch | None, Reply]:
        live = self.matches.get(match_id)
        if live is not None:
            return live, Reply(ReplyStatus.ACCEPTED)
        lock = self.loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            live = self.matches.get(match_id)
            if live is not None:
                return live, Reply(ReplyStatus.ACCEPTED)
            try:
                record = await self.store.get_match(match_id)
            except MatchNotFound as error:
                return None, Reply(ReplyStatus.ERROR, str(error), match_id)
            except StorageUnavailable:
                return None, Reply(
                    ReplyStatus.UNAVAILABLE,
                    Words(self.language)(say("The bot cannot read its matches right now; try again in a moment.")),
                    match_id,
                )
            shards = self.shards() if self.shards is not None else None
            if shards is not None and not shards.owns(record.guild_id) and record.status in UNFINISHED_STATUSES:
                elsewhere = say(
                    "Match #{id} is hosted by another of the bot's processes; try again in a moment.", id=match_id
                )
                return None, Reply(ReplyStatus.ERROR, Words(self.language)(elsewhere), match_id)
            try:
                live = self.from_record(record)
            except Exception:
                log.exception("match %s cannot be loaded", match_id)
                broken = say("Match #{id} cannot be loaded; ask the bot's owner to look at the log.", id=match_id)
                return None, Reply(ReplyStatus.ERROR, Words(self.language)(broken), match_id)
            self.matches[match_id] = live
            return live, Reply(ReplyStatus.ACCEPTED)

    def from_record(self, record: MatchRecord) -> LiveMatch:
        game = load(record.state)
        clock = (
            Clock.from_dict(record.clock)
            if record.clock
            else Clock.new(preset(record.game, record.variant), game.seats)
        )
        players = {s.seat: Player(s.seat, s.user_id, s.display_name) for s in record.seats}
        live = LiveMatch(
            record.id,
            record.guild_id,
            record.channel_id,
            game,
            clock,
            players,
            record.version,
            MatchStatus(record.status),
            dict(record.host or {}),
            practice=record.practice,
            language=record.language,
        )
        live.snapshot()
        return live
