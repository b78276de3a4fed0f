"""A forced win as data: what a game's own tactics search (:meth:`Game.forced_win`) finds.

A game that can prove wins in some positions (a line game's threat-space search) answers
:meth:`~geniusbot.games.base.Game.forced_win` with a :class:`ForcedWin`; the engine review
(:mod:`geniusbot.analysis`) reads it as an exact verdict where its play-outs only estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from geniusbot.words import Message


@dataclass(frozen=True)
class ForcedWin:
    """A win ``seat`` (the seat to move) can force, whatever the other seat answers.

    ``moves``: the line, the attacker's move first, then the answer and the next move in turn,
    the winning move last (where the defender has no answer that helps, the answer shown is one
    of those tried). ``threats``: how many of the attacker's moves are threats before the one that
    wins. ``kind``: the kind of win in words (a game's own, such as "continuous fours").
    ``exact``: whether every answer of the defender was searched (``False``: the answers the game's
    search deems relevant, as its documentation states)."""

    seat: str
    moves: tuple[str, ...]
    threats: int
    kind: Message
    exact: bool = True

    @property
    def first(self) -> str:
        """The move that starts the win."""
        return self.moves[0]
