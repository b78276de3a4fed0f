"""The engine review of a finished match (``geniusbot analyse``, the Analyse button of ``/replay``).

============  ==================================================================================
module        what it holds
============  ==================================================================================
:mod:`.review`  the review itself, pure: :func:`positions`, :func:`judge` (one move, for a worker
              process), :func:`assemble`, :func:`review`,
              :func:`best_move` (a bench's player); :class:`Effort`, :class:`Review`
:mod:`.said`    the review in words (catalogue messages): :func:`lines`, :func:`graph_said`
:mod:`.graph`   the graph as a picture (Pillow, the house palette): :func:`graph_png`
============  ==================================================================================

No Discord, no asyncio, no database: a command or a cog hands it the start of a match and its
actions, and runs it where it likes (docs/analysis.md).
"""

from __future__ import annotations

from .review import (
    DEFAULT_EFFORT,
    MARK_LOSS,
    MARKS,
    Effort,
    MoveReview,
    Position,
    Review,
    assemble,
    best_move,
    judge,
    positions,
    review,
)

__all__ = [
    "DEFAULT_EFFORT",
    "MARKS",
    "MARK_LOSS",
    "Effort",
    "MoveReview",
    "Position",
    "Review",
    "assemble",
    "best_move",
    "judge",
    "positions",
    "review",
]
