"""What the three tasks of All Hands On Deck share as games of their own (Tile Decklaration,
Dueling Decks, Deck Swabbing): :class:`AllHandsTask`.

Every task takes the same three options, which the final match passes to each play
(:meth:`geniusbot.games.allhands.final.AllHandsOnDeck.task_options`):

=============  ==================================================================================
``anomalies``  the task's anomalies, read as the family reads them (:mod:`.common`), kept in the
               rule text's order
``starter``    ``p1`` or ``p2``: the seat that acts first (default ``p1``)
``tiebreak``   ``p1`` or ``p2``: the seat a tie goes to (default :attr:`AllHandsTask.default_tiebreak`)
=============  ==================================================================================

and stores them under the same keys of its state. A task's ``name`` is its key in the family
(``tiles``, ``decks``, ``swabbing``; see :data:`.common.TASK_ANOMALIES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from geniusbot.games.allhands.common import TASK_ANOMALIES, canonical_order, parse_anomalies
from geniusbot.games.base import Game, IllegalMoveError, Move, NotYourTurnError, OptionError, other_seat
from geniusbot.words import Message, Seat, Verbatim, say


def task_options(task: str, *, starter: str, tiebreak: str) -> dict[str, str]:
    """A task's ``options`` (the help of each): the anomalies it takes, then what ``starter``
    and ``tiebreak`` mean in it."""
    anomalies = ", ".join(TASK_ANOMALIES[task])
    return {"anomalies": f"comma-separated: {anomalies} (default none)", "starter": starter, "tiebreak": tiebreak}


class AllHandsTask(Game):
    """A task of All Hands On Deck: its options, its anomalies, and the words every task says."""

    #: The ``tiebreak`` when the option names none (``None``: the task's own rule decides).
    default_tiebreak: ClassVar[str | None] = None

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant)
        self.anomalies: tuple[str, ...] = ()
        self.starter = "p1"
        self.tiebreak: str | None = self.default_tiebreak

    def setup(self, *, anomalies: str = "", starter: str = "", tiebreak: str = "") -> None:
        """Read the options (:class:`OptionError` for a name or seat the task does not take); a
        task's own ``setup`` calls this first, then lays out its start."""
        self.anomalies = parse_anomalies(anomalies, self.name)
        for option, value in (("starter", starter), ("tiebreak", tiebreak)):
            if value.strip() and value.strip().lower() not in self.seats:
                shown = Verbatim(repr(value.strip()))
                if option == "starter":
                    raise OptionError(say("The starter must be p1 or p2, not {value}.", value=shown))
                raise OptionError(say("The tiebreak must be p1 or p2, not {value}.", value=shown))
        self.starter = starter.strip().lower() or "p1"
        self.tiebreak = tiebreak.strip().lower() or self.default_tiebreak

    def has(self, anomaly: str) -> bool:
        """Whether ``anomaly`` is active in this play of the task."""
        return anomaly in self.anomalies

    # ---- moves -------------------------------------------------------------------------------

    def require_running(self, seat: str) -> None:
        """What ``parse_move`` checks first: ``seat`` is a seat and the task is not over."""
        self.require_seat(seat)
        if self.is_over:
            raise NotYourTurnError(say("The task is over; no more moves are taken."))

    def require_as_typed(self, move: Move) -> None:
        """Refuse a move built by hand that its own text would not give (``play`` re-reads it,
        so an illegal one is refused unchanged)."""
        if self.parse_move(move.text(), move.seat, private=self.is_private(move)) != move:
            raise IllegalMoveError(
                say("{move} cannot be played as given; submit it again as text.", move=Verbatim(repr(move.text())))
            )

    @staticmethod
    def lost_task(seat: str, *, by: str) -> Message:
        """How ``seat`` lost the task ``by`` resigning (``"resign"``) or running out of time
        (``"timeout"``), and that the other seat wins it."""
        winner = Seat(other_seat(seat))
        if by == "resign":
            return say("{seat} resigned; {winner} wins the task", seat=Seat(seat), winner=winner)
        return say("{seat} ran out of time; {winner} wins the task", seat=Seat(seat), winner=winner)

    # ---- saving ------------------------------------------------------------------------------

    def options_state(self) -> dict[str, Any]:
        """The options as the state stores them: ``anomalies``, ``starter``, ``tiebreak``."""
        return {"anomalies": list(self.anomalies), "starter": self.starter, "tiebreak": self.tiebreak}

    def load_options(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`options_state` from a state."""
        self.anomalies = canonical_order(data["anomalies"], self.name)
        self.starter = data["starter"]
        self.tiebreak = data["tiebreak"]

    # ---- the practice opponent ---------------------------------------------------------------

    @classmethod
    def blank(cls, options: Mapping[str, str]) -> Self:
        """A task at its start from seed 0 with ``options`` (``variant`` among them): what a
        determinization fills in with what a seat has seen."""
        rest = dict(options)
        variant = rest.pop("variant", None)
        return cls.new(seed=0, variant=variant, **rest)


__all__ = ["AllHandsTask", "task_options"]
