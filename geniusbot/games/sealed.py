"""A sealed round: the seats asked each send one submission privately, and none is shown until
all are in.

A game whose seats act at once (each plays a tile, each sends a move and the other an answer,
each places mines, the holders of an item each say whether they use it) keeps one
:class:`SealedRound` for the round under way. The round holds what each seat has sealed; the
game keeps its rules: what a submission may be, the words that refuse a second one or one typed
in the room, what a timeout seals, and what the round does once it is all in.

What a game does, and how its round does it:

* ``to_move()``: ``round.owed()``, the seats asked whose submission is not in;
* refuse a second submission: ``if round.has_sealed(seat): raise NotYourTurnError(...)``;
* refuse one typed in the room: ``require_private(private, refusal)``;
* take one: ``round.seal(seat, value)``, and ``sealed_event(seat, said, ...)`` to confirm it to
  its sender alone; a timeout or a seat with no choice seals the game's default the same way;
* resolve: ``if round.all_in:`` read ``round.reveal()``, then ``round.clear()`` (the same seats
  again) or ``round.open(seats)`` (others);
* the view: ``round.submitted()`` for everyone, ``round.sealed_by(viewer)`` for the viewer's own
  (``None`` for the room);
* saving: ``round.to_dict(encode)`` and ``SealedRound.from_dict(data, decode)``, the shape
  ``{seat: submission or None}`` with every seat asked a key.

A submission is never ``None``: ``None`` is what the stored shape and :meth:`SealedRound.sealed_by`
give for "not in" (a seat that sends "nothing" seals a value that says so).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from geniusbot.games.base import Event, EventKind, WrongPlaceError
from geniusbot.words import Message

T = TypeVar("T")


class SealedRound(Generic[T]):
    """The sealed submissions of one round: the seats asked, in order, and what each has sealed.

    ``SealedRound(("p1", "p2"))`` asks both seats; ``SealedRound()`` asks nobody (no round
    running) until :meth:`open`.
    """

    __slots__ = ("_sealed", "_seats")

    def __init__(self, seats: Iterable[str] = ()) -> None:
        self._seats: tuple[str, ...] = tuple(seats)
        self._sealed: dict[str, T] = {}

    # ---- the round ---------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats asked this round, in the order they were asked."""
        return self._seats

    def open(self, seats: Iterable[str]) -> None:
        """Start a round that asks ``seats`` (in that order), nothing in."""
        self._seats = tuple(seats)
        self._sealed = {}

    def clear(self) -> None:
        """Start the next round with the same seats, nothing in."""
        self._sealed = {}

    def owed(self) -> tuple[str, ...]:
        """The seats asked whose submission is not in yet, in order (a game's ``to_move()``)."""
        return tuple(seat for seat in self._seats if seat not in self._sealed)

    def has_sealed(self, seat: str | None) -> bool:
        """Whether ``seat``'s submission is in (``False`` for a seat not asked)."""
        return seat in self._sealed

    @property
    def all_in(self) -> bool:
        """Whether every seat asked has sealed (true of a round that asks nobody)."""
        return len(self._sealed) == len(self._seats)

    @property
    def any_in(self) -> bool:
        """Whether some seat has sealed (the round has begun)."""
        return bool(self._sealed)

    # ---- submissions -------------------------------------------------------------------------

    def seal(self, seat: str, value: T) -> None:
        """Take ``seat``'s submission. The game refuses a second one, or one from a seat not
        asked, in its own words first; here either is a ``ValueError`` (a bug, not a move)."""
        if seat not in self._seats:
            raise ValueError(f"{seat!r} is not asked in this round {self._seats!r}")
        if seat in self._sealed:
            raise ValueError(f"{seat!r} has sealed already")
        if value is None:
            raise ValueError("a sealed submission is never None")
        self._sealed[seat] = value

    def sealed_by(self, seat: str | None) -> T | None:
        """``seat``'s submission if it is in, else ``None`` (for a seat not asked and for
        ``None``, the room, too): what a view shows a viewer of its own."""
        return None if seat is None else self._sealed.get(seat)

    def reveal(self) -> dict[str, T]:
        """Every submission, seat by seat in the order asked, once all are in (``ValueError``
        before: a round is shown whole or not at all)."""
        if not self.all_in:
            raise ValueError(f"the round waits for {self.owed()!r}")
        return {seat: self._sealed[seat] for seat in self._seats}

    def submitted(self) -> dict[str, bool]:
        """Seat -> whether its submission is in, for every seat asked: what everyone may see."""
        return {seat: seat in self._sealed for seat in self._seats}

    # ---- saving ------------------------------------------------------------------------------

    def to_dict(self, encode: Callable[[T], Any] | None = None) -> dict[str, Any]:
        """``{seat: submission or None}`` for every seat asked, each submission made plain
        data by ``encode`` (default: as it is)."""
        return {
            seat: None if seat not in self._sealed else (encode or _same)(self._sealed[seat]) for seat in self._seats
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, decode: Callable[[Any], T]) -> SealedRound[T]:
        """The round :meth:`to_dict` gave (``None`` or ``{}``: a round that asks nobody), each
        submission read back by ``decode``."""
        found: SealedRound[T] = cls(data or ())
        for seat, value in (data or {}).items():
            if value is not None:
                found._sealed[seat] = decode(value)
        return found

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SealedRound):
            return NotImplemented
        return self._seats == other._seats and self._sealed == other._sealed

    __hash__ = None  # type: ignore[assignment]  # a round changes

    def __repr__(self) -> str:
        return f"SealedRound({self.to_dict()!r})"


def _same(value: Any) -> Any:
    return value


def require_private(private: bool, refusal: Message) -> None:
    """Refuse a sealed submission typed in the game room: ``WrongPlaceError(refusal,
    private=True)`` unless it came privately."""
    if not private:
        raise WrongPlaceError(refusal, private=True)


def sealed_event(seat: str, said: Message, **data: Any) -> Event:
    """The private confirmation of ``seat``'s sealed submission, to ``seat`` alone
    (:attr:`EventKind.SEALED`); ``data`` has the ``seat`` first, then ``data``."""
    return Event.of(said, seats=frozenset({seat}), kind=EventKind.SEALED, data={"seat": seat, **data})


__all__ = ["SealedRound", "require_private", "sealed_event"]
