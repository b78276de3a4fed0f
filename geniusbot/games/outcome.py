"""How a game ends: the :class:`Outcome` (winner, :class:`Termination`, the words) that
:meth:`geniusbot.games.base.Game.outcome` gives. :mod:`geniusbot.games.base` names them too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from geniusbot.words import Message, Seat, Words, say


class Termination(StrEnum):
    """How a game ended, as data: a host, a picture or an archive reads this, never the sentence.

    These are the endings many games share. A game whose ending none of them names declares its
    own in a ``StrEnum`` of its package (:attr:`geniusbot.games.base.Game.terminations`) and ends
    with one of those; the match keeps its value (``"checkmate"``) as it keeps these."""

    #: A line of the mover's stones: five in a row, four in a row.
    LINE = "line"
    #: The loser's pieces were captured down to the last.
    CAPTURE = "capture"
    #: The loser had too many stones knocked off the board.
    KNOCKOUT = "knockout"
    #: The loser's clock ran out.
    TIME = "time"
    #: The loser resigned.
    RESIGNATION = "resignation"
    #: A points target was reached, or the points were counted at the end (a task, a final match).
    POINTS = "points"
    #: The board is full.
    FULL_BOARD = "full-board"
    #: The seat to act had no legal action.
    NO_LEGAL_ACTION = "no-legal-action"
    #: The loser made a declaration the board proved wrong, or broke a rule that loses at once.
    MISTAKE = "mistake"
    #: Any other ending (an outcome saved before terminations were recorded reads as this).
    OTHER = "other"


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as data.

    ``winner`` is a seat, or ``None`` for a draw. ``termination`` says how it ended (a member of
    :class:`Termination`, or of the game's own ``StrEnum`` of endings) and ``data``
    carries the plain values of it (the seat that ran out of time, the scores). ``how`` is the
    game's own sentence of what happened, without who wins ("p2 ran out of time", "p1 (black)
    makes five in a row, H8 to L8"), and ``verdict`` the words that close it in the record
    ("; p1 wins", ", and wins"; "" when ``how`` already says who wins or loses). The two sentences a
    reader sees are made here, once: :attr:`reason` (the record's result, the game's last word)
    and :attr:`detail` (for a line that has said who wins already).

    ``said_how`` and ``said_verdict`` are the two as words as data (:mod:`geniusbot.words`), where
    the game made them so (:meth:`of`): a host says :attr:`said` and :attr:`said_detail` in its
    language; ``how`` and ``verdict`` are their English with the seat ids.
    """

    winner: str | None
    termination: StrEnum
    how: str
    verdict: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    said_how: Message | None = field(default=None, compare=False)
    said_verdict: Message | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls,
        winner: str | None,
        termination: StrEnum,
        how: Message,
        verdict: Message | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """The outcome whose sentence is the message ``how`` (what happened, without who wins) and
        ``verdict`` (the words that close it; ``None`` when ``how`` says who wins already). The
        sentence's full stop is the outcome's: neither message ends with one."""
        closing = "" if verdict is None else _ENGLISH(verdict)
        return cls(winner, termination, _ENGLISH(how), closing, dict(data or {}), how, verdict)

    @property
    def said(self) -> Message | None:
        """:attr:`reason` as a message (``None`` for an outcome whose game gave plain English)."""
        if self.said_how is None:
            return None
        if self.said_verdict is None:
            return say("{how}.", how=self.said_how)
        return say("{how}{verdict}.", how=self.said_how, verdict=self.said_verdict)

    @property
    def said_detail(self) -> Message | None:
        """:attr:`detail` as a message (``None`` for an outcome whose game gave plain English)."""
        if self.said_how is None:
            return None
        return say("{how}.", how=self.said_how)

    @property
    def names_winner(self) -> bool:
        """Whether the game's own sentence says who wins, so that a line need not say it again: read
        from its message's arguments (a :class:`Seat` of the winner), never from its words. An
        outcome of plain English (``said_how`` is ``None``: one saved before endings were messages)
        answers ``False``; whoever says such old data decides from its ``verdict`` (see the host's
        result line)."""
        if self.winner is None or self.verdict or self.said_how is None:
            return False
        return self.said_how.names_seat(self.winner)

    @property
    def reason(self) -> str:
        """The whole sentence: how the game ended and who wins ("p2 ran out of time; p1 wins.")."""
        return _sentence(self.how + self.verdict)

    @property
    def detail(self) -> str:
        """How the game ended, for a line that has just said who wins ("p2 ran out of time.")."""
        return _sentence(self.how)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "termination": str(self.termination),
            "how": self.how,
            "verdict": self.verdict,
            "data": dict(self.data),
            **(
                {}
                if self.said_how is None
                else {
                    "said": {
                        "how": self.said_how.to_dict(),
                        "verdict": None if self.said_verdict is None else self.said_verdict.to_dict(),
                    }
                }
            ),
            # Derived, for a reader of the plain data (a record, a view); ignored when loading.
            "reason": self.reason,
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, own: type[StrEnum] | None = None) -> Outcome | None:
        """The outcome of :meth:`to_dict`; ``own``: the game's own terminations, beside :class:`Termination`."""
        if data is None:
            return None
        if "termination" not in data:
            # Saved before outcomes were data: the sentence stands whole, its ending unknown.
            return cls(data["winner"], Termination.OTHER, str(data.get("reason") or "").rstrip(". "))
        said = data.get("said") or {}
        return cls(
            data["winner"],
            termination_of(str(data["termination"]), own),
            data["how"],
            data.get("verdict", ""),
            dict(data.get("data") or {}),
            Message.from_dict(said["how"]) if said.get("how") else None,
            Message.from_dict(said["verdict"]) if said.get("verdict") else None,
        )


def termination_of(value: str, own: type[StrEnum] | None = None) -> StrEnum:
    """The termination whose value is ``value``: one of :class:`Termination`, else one of the
    game's ``own`` (a ``StrEnum`` of endings the common list does not name, such as a checkmate);
    :attr:`Termination.OTHER` when neither names it."""
    for kinds in (Termination, own):
        if kinds is not None:
            for member in kinds:
                if member.value == value:
                    return member
    return Termination.OTHER


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."


def default_verdict(winner: str | None) -> str:
    """The record's usual closing words for ``winner``: "; p1 wins" or "; the game is a draw"."""
    return _ENGLISH(said_verdict(winner))


def said_verdict(winner: str | None) -> Message:
    """:func:`default_verdict` as a message."""
    return say("; {seat} wins", seat=Seat(winner)) if winner else say("; the game is a draw")


_ENGLISH = Words()
