""" "Your move" by private message, for long clocks: when the board that tells a seat it is its
turn has been posted (once a turn, :func:`turn_pings`), a
seat with an hour or more for this move (:data:`LONG_CLOCK_SECONDS`) is told privately, in the
match's language, that it is its move in match #N of its game, with a link to that board. Only
where the transport offers it (:class:`~geniusbot.host.transport.TurnLinks`: Discord, where the
server has turn pings on); never to the practice opponent's seat; it says nothing of the
position. A private message that fails is logged, once a match, and never told in the room:
the board's ping has told the room's players already."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from geniusbot.storage import MatchStatus
from geniusbot.words import Verbatim, say

from .live import LiveMatch
from .naming import game_title
from .transport import Player, TransportError, TurnLinks

if TYPE_CHECKING:
    from geniusbot.words import Words

    from .transport import Transport

log = logging.getLogger(__name__)

#: The least time for a move (seconds) that a seat is told of its turn privately for.
LONG_CLOCK_SECONDS = 3600


def turn_pings(live: LiveMatch) -> tuple[Player, ...]:
    """The players the board about to be posted tells it is their turn: the seats to move now
    that were not when the last board was posted (once a turn; a seat moving again, or one
    still owing its sealed move, is not told twice), the practice opponent and seats with no
    user aside. A transport tells them as it can (Discord mentions them, where the server has
    pings on), and a seat with a long move ahead is told privately too (:class:`TurnMessages`)."""
    movers = tuple(live.game.to_move()) if live.status == MatchStatus.LIVE and not live.game.is_over else ()
    told = [seat for seat in movers if seat not in live.pinged]
    live.pinged = movers
    return tuple(
        live.players[seat]
        for seat in told
        if seat != live.practice_seat and seat in live.players and live.players[seat].user_id is not None
    )


def long_move(live: LiveMatch, seat: str, now: float) -> bool:
    """Whether ``seat`` has :data:`LONG_CLOCK_SECONDS` or more for the move it is to make now:
    its per-move limit, or all its clock will allow (its reserve and extra time with it). An
    untimed match has no clock to wait on: no."""
    clock = live.clock
    if clock.control.untimed or seat not in clock.seats:
        return False
    return clock.remaining(seat, now).total_ms >= LONG_CLOCK_SECONDS * 1000


class TurnMessages:
    """Tells the seats to move, privately, that it is their move (see the module)."""

    def __init__(self, transport: Transport, now: Callable[[], float], words: Callable[[LiveMatch], Words]) -> None:
        self.transport = transport
        self.now = now
        self.words = words

    async def tell(self, live: LiveMatch, players: Sequence[Player], board_id: int | None) -> None:
        """Tell ``players`` (the board ``board_id`` has just told them it is their turn) privately,
        those with a long move ahead."""
        transport = self.transport
        if not players or board_id is None or not isinstance(transport, TurnLinks):
            return
        now = self.now()
        told = [
            p
            for p in players
            if p.seat != live.practice_seat and p.user_id is not None and long_move(live, p.seat, now)
        ]
        if not told:
            return
        try:
            if not await transport.tells_turns(live.room):
                return
            link = transport.link(live.room, board_id)
        except TransportError as error:
            log.info("match %s: cannot tell the players of their turn: %s", live.id, error)
            return
        if link is None:
            return
        text = self.words(live)(
            say(
                "It is your move in match #{id} of {game}: {link}",
                id=live.id,
                game=Verbatim(game_title(live.game)),
                link=Verbatim(link),
            )
        )
        for player in told:
            try:
                await transport.send_private(player, text)
            except TransportError as error:
                # A closed DM: logged once a match; the room has been told by the board's ping.
                if player.seat not in live.unreachable_turns:
                    live.unreachable_turns.add(player.seat)
                    log.info("match %s: could not tell %s it is their move: %s", live.id, player.seat, error)
