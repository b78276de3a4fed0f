"""The spectators' room: where the host posts, as they happen, what the match's room may not see.

A match started with a spectators' room (``live.host["spectators"]``: its ``room`` and the
``host``, the user who started it) has every secret posted there too: each private message a
seat receives (its sealed plays, its mines), each seat's private view when it changes (a picture
where the game has one), and the boards of a vanishing window (the memory grid), deleted with the
room's when the window closes. Each is labelled with the match and the seat.

Before each secret is posted, the transport is asked whether a seated player can read the room
(:class:`SpectatorGuard`; Discord reads the channel's permission overwrites). If one can, or the
transport cannot tell, nothing secret is posted there for the rest of the match: the room reads
why (never the secret), and so does the match's host, privately.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from geniusbot.words import Message, say

from . import board
from .transport import Player, TextBoard, TransportError, post_picture, post_text

if TYPE_CHECKING:
    from .announce import Announcer
    from .live import LiveMatch

log = logging.getLogger(__name__)


@runtime_checkable
class SpectatorGuard(Protocol):
    """A transport that can tell whether a player can read a room (Discord: through the channel's
    permission overwrites). A transport without it gets no secret posted in a spectators' room."""

    async def readable_by(self, room: int, players: Sequence[Player], *, fresh: bool = False) -> Message | None:
        """Why one of ``players`` can read ``room`` (or why it cannot be told); ``None`` when
        none can. ``fresh``: read who the players are anew (their roles may have changed)."""
        ...


def spectators_of(live: LiveMatch) -> tuple[int, int | None] | None:
    """The match's spectators' room and its host's user id, if it has one."""
    data = live.host.get("spectators")
    if not isinstance(data, Mapping) or data.get("room") is None:
        return None
    host = data.get("host")
    return int(data["room"]), int(host) if host is not None else None


class Spectators:
    """Posting a match's secrets in its spectators' room, once the room is checked (see the module)."""

    def __init__(self, announcer: Announcer) -> None:
        self.announcer = announcer
        #: The matches whose spectators' room failed a check: nothing more is posted there.
        self.refused: set[int] = set()
        #: Match -> the version whose players were last read afresh. A member's roles reach the
        #: bot only with the members intent, which it does not ask for: so the players are read
        #: anew once a move, before that move's first secret, and a role given in between is seen.
        self._read_at: dict[int, int] = {}

    async def room(self, live: LiveMatch, *, fresh: bool = False) -> int | None:
        """The room to post ``live``'s next secret in, checked now; ``None``: post none."""
        found = spectators_of(live)
        if found is None or live.id in self.refused:
            return None
        room, host = found
        transport = self.announcer.transport
        seated = [p for s, p in live.players.items() if s != live.practice_seat]
        fresh = fresh or self._read_at.get(live.id) != live.version
        self._read_at[live.id] = live.version
        if isinstance(transport, SpectatorGuard):
            why = await transport.readable_by(room, seated, fresh=fresh)
        else:
            why = say("this transport cannot tell who reads a room.")
        if why is None:
            return room
        if live.id in self.refused:
            return None  # refused while this check ran: said once
        self.refused.add(live.id)
        said = self.announcer.text(live, say("Match #{id}: no secret is posted here: {why}", id=live.id, why=why))
        log.warning("match %s: spectators' room %s refused: %s", live.id, room, said)
        await self._send(live, lambda: transport.post(room, said))
        if host is not None:
            await self._send(live, lambda: transport.send_private(Player("host", host), said))
        return None

    async def private(self, live: LiveMatch, seat: str, text: str | Message | TextBoard) -> None:
        """Post what ``seat`` receives privately, labelled with the match and the seat."""
        if seat == live.practice_seat or (room := await self.room(live)) is None:
            return
        label = self.announcer.text(live, say("Match #{id}, sent to {seat}:", id=live.id, seat=live.who(seat)))
        if isinstance(text, Message):
            text = self.announcer.text(live, text)
        if isinstance(text, TextBoard):
            text = TextBoard(text.board, above="\n".join(t for t in (label, text.above) if t), below=text.below)
        else:
            text = f"{label}\n{text}"
        await self._send(live, lambda: post_text(self.announcer.transport, room, text, None))

    async def view(self, live: LiveMatch, seat: str, view: Mapping[str, Any], clocks: Mapping[str, str]) -> None:
        """Post ``seat``'s private view as it now is, as a picture (a game without one sends its
        view as a private text, which :meth:`private` posts)."""
        if not (self.announcer.pictures and board.has_picture(live.game.name)) or seat == live.practice_seat:
            return
        if (room := await self.room(live)) is None:
            return
        label = self.announcer.text(live, say("Match #{id}: the view of {seat}.", id=live.id, seat=live.who(seat)))
        players = {s: p.name or s for s, p in live.players.items()}
        title = self.announcer.text(live, say("Match #{id}: {seat}", id=live.id, seat=live.who(seat)))
        words = self.announcer.words(live)
        png = await asyncio.to_thread(board.picture, view, words=words, players=players, clocks=clocks, title=title)
        if png is not None:
            name = f"match{live.id}-{seat}.png"
            transport = self.announcer.transport
            await self._send(live, lambda: transport.post_picture(room, png, filename=name, text=label))

    async def vanishing(
        self, live: LiveMatch, delete_at: float | None, png: bytes | None, text: str | TextBoard | None
    ) -> None:
        """Post a board of a vanishing window (the memory grid) as the room got it, to be deleted
        when the window closes (``delete_at``), as the room's is; nothing when it is not deleted."""
        if delete_at is None or (room := await self.room(live)) is None:
            return
        label = self.announcer.text(live, say("Match #{id}: what the players see until the window closes.", id=live.id))
        transport = self.announcer.transport
        there = replace(live, channel_id=room)  # its deletion kept for the spectators' room
        if png is not None:
            caption = "\n".join(t for t in (label, text if isinstance(text, str) else "") if t)
            name = f"match{live.id}-spectators.png"

            def send(key: str) -> Any:
                return post_picture(transport, room, png, filename=name, text=caption, key=key)

            whole = None
        else:
            if isinstance(text, TextBoard):
                shown = TextBoard(text.board, above="\n".join(t for t in (label, text.above) if t), below=text.below)
            else:
                shown = TextBoard("", above=label, below=text or "")
            whole = shown.text

            def send(key: str) -> Any:
                return post_text(transport, room, shown, key)

        await self._send(live, lambda: self.announcer.posted.post_timed(there, delete_at, send, text=whole))

    async def _send(self, live: LiveMatch, send: Any) -> None:
        try:
            await send()
        except TransportError as error:
            log.warning("match %s: could not post in the spectators' room: %s", live.id, error)
