"""A tiny test game (its words messages, as every game's) with what the real games lack so far: sealed private submissions, a
simultaneous phase, a timed window, a message to delete later, and "submit nothing" timeouts.

Rules: optionally (option ``memorize=1``) a 30 s window shows a secret number, then both seats
bid privately (``bid N``, 0-9) at the same time; the bids stay hidden until both are in; the
higher bid wins the round (a tie scores nobody). A seat whose time runs out bids nothing (0).
Two rounds; each new round is a new bout. More points wins; equal points draw.

It is registered only inside the tests that use it (see :func:`registered`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from geniusbot.games import (
    Event,
    EventKind,
    Game,
    GameError,
    MalformedMoveError,
    Move,
    Termination,
    Window,
    register,
    unregister,
)
from geniusbot.words import Seat, say

ROUNDS = 2


class SealedBidEvent(StrEnum):
    """The test game's own event kinds (a host treats them as :attr:`EventKind.INFO`)."""

    #: A seat's own bid, to it alone.
    PRIVATE = "private"
    #: Both bids shown: the event's ``delete_after``, seconds until the host deletes the message.
    REVEAL = "reveal"
    #: The memorize window closed: the number is hidden.
    HIDE = "hide"


@dataclass(frozen=True)
class Bid(Move):
    amount: int

    def text(self) -> str:
        return f"bid {self.amount}"


class SealedBid(Game):
    name = "sealedbid"
    title = "Sealed Bid"
    options = {"memorize": "1 to open with a 30 s window", "rewindow": "1 to open one after each round"}

    def setup(self, **options: str) -> None:
        self.window_open = options.get("memorize") == "1"
        self.rewindow = options.get("rewindow") == "1"
        self.secret = (self.seed * 7) % 10
        self.round = 1
        self.bids: dict[str, int] = {}
        self.scores = {"p1": 0, "p2": 0}
        self.last: str | None = None

    def to_move(self) -> tuple[str, ...]:
        if self.is_over or self.window_open:
            return ()
        return tuple(s for s in self.seats if s not in self.bids)

    def is_private(self, move: Move) -> bool:
        return True

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        self.require_turn(seat)
        match = re.fullmatch(r"\s*bid\s+(\d)\s*", text, re.IGNORECASE)
        if not match:
            raise MalformedMoveError("Write bid and a number 0-9, such as bid 4.")
        if not private:
            raise GameError("Bids are secret: send yours to the bot privately.")
        return Bid(seat, int(match.group(1)))

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        for s in self.to_move() if seat is None else (seat,):
            if s in self.to_move():
                for n in range(10):
                    yield Bid(s, n)

    def play(self, move: Move) -> list[Event]:
        assert isinstance(move, Bid)
        self.bids[move.seat] = move.amount
        events = [
            Event.of(say("Your bid of {n} is in.", n=move.amount), frozenset({move.seat}), kind=SealedBidEvent.PRIVATE)
        ]
        return events + self._settle()

    def _settle(self) -> list[Event]:
        if len(self.bids) < 2:
            return [Event.of(say("{seat} has bid.", seat=Seat(next(iter(self.bids)))))]
        a, b = self.bids["p1"], self.bids["p2"]
        revealed = say("Bids revealed: {p1} {a}, {p2} {b}.", p1=Seat("p1"), a=a, p2=Seat("p2"), b=b)
        events = [Event.of(revealed, kind=SealedBidEvent.REVEAL, delete_after=60)]
        if a != b:
            self.scores["p1" if a > b else "p2"] += 1
        self.bids = {}
        self.round += 1
        if self.round > ROUNDS:
            p1, p2 = self.scores["p1"], self.scores["p2"]
            winner = None if p1 == p2 else ("p1" if p1 > p2 else "p2")
            # A draw's sentence says no more than the score; a win's closes with who wins.
            score = say("Final score {p1}-{p2}", p1=p1, p2=p2)
            return events + self.end(winner, Termination.POINTS, score, verdict="" if winner is None else None)
        self.window_open = self.rewindow
        return events + [Event.of(say("Round {n}.", n=self.round), kind=EventKind.BOUT)]

    def timeout(self, seat: str) -> list[Event]:
        self.require_seat(seat)
        if self.is_over:
            return []
        self.bids[seat] = 0
        return [Event.of(say("{seat} bids nothing.", seat=Seat(seat)))] + self._settle()

    def window(self) -> Window | None:
        return Window("memorize", 30, vanishing=True) if self.window_open else None

    def close_window(self) -> list[Event]:
        if not self.window_open:
            raise GameError("There is no timed phase to close.")
        self.window_open = False
        return [Event.of(say("The number is hidden; bid now."), kind=SealedBidEvent.HIDE)]

    def view(self, seat: str | None = None) -> dict[str, Any]:
        view = {**self.base_view(), "round": self.round, "scores": dict(self.scores), "last_move": self.last}
        view["bid_in"] = sorted(self.bids)
        if seat in self.bids:
            view["my_bid"] = self.bids[seat]
        if self.window_open:
            view["secret"] = self.secret
        return view

    def state_dict(self) -> dict[str, Any]:
        return {
            "window_open": self.window_open,
            "rewindow": self.rewindow,
            "secret": self.secret,
            "round": self.round,
            "bids": dict(self.bids),
            "scores": dict(self.scores),
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.window_open = data["window_open"]
        self.rewindow = data.get("rewindow", False)
        self.secret = data["secret"]
        self.round = data["round"]
        self.bids = dict(data["bids"])
        self.scores = dict(data["scores"])
        self.last = None


@contextlib.contextmanager
def registered() -> Iterator[type[SealedBid]]:
    """Make the game known to the registry for the duration of a test."""
    register(SealedBid)
    try:
        yield SealedBid
    finally:
        unregister(SealedBid.name)
