"""The values a game hands its host: a :class:`Move`, the :class:`Event` it says, the
:class:`Window` it times, the :class:`BaseView` every view shares. :mod:`geniusbot.games.base`
names them too."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypedDict

from geniusbot.words import Message, Words


@dataclass(frozen=True)
class Move(ABC):
    """A submission, frozen. Subclasses add their fields; ``seat`` is who submits it."""

    seat: str

    @abstractmethod
    def text(self) -> str:
        """The canonical notation of the move, as a record writes it."""


#: English with the seat ids: what an event's ``text`` and a record keep.
ENGLISH_WORDS = Words()


class BaseView(TypedDict):
    """The keys every view shares, as :meth:`Game.base_view` gives them: the game's name, its
    variant, the seats to move, the outcome (:meth:`Outcome.to_dict`, ``None`` while it runs),
    and two that a game's view sets over base_view's defaults: ``last_move``, the canonical text
    of the last move the view's seat may see (``None``, the default, before the first), and
    ``phase``, in the game's own words (``"choice"``, ``"draft"``; :meth:`Game.choosing` reads it
    against :attr:`Game.choice_phases`), ``"over"`` once the game is over and only then (default:
    ``"play"`` while it runs). A game's own view type (a subclass) adds the rest."""

    game: str
    variant: str
    to_move: list[str]
    outcome: dict[str, Any] | None
    last_move: str | None
    phase: str


class EventKind(StrEnum):
    """The event kinds every host understands. A game names its other kinds in a ``StrEnum`` of
    its own package (a host treats them as :attr:`INFO`)."""

    #: Something to say; nothing else follows from it.
    INFO = "info"
    #: The game ended; ``data`` is the :class:`Outcome` as :meth:`Outcome.to_dict` gives it.
    END = "end"
    #: A private confirmation of a sealed submission, to its sender alone ("Sealed: play 20.").
    #: A host that confirms every private submission itself ("Taken: ...") need not say it.
    SEALED = "sealed"
    #: A new bout starts: a clock whose reserve is reset each bout gives it back. ``data["clock"]``
    #: (optional) is the time control of the bout, as a spec such as ``"30s+1m"``, for a match
    #: that plays with the game's default clocks (a final match whose tasks have clocks of their own).
    BOUT = "bout"
    #: ``data["seat"]`` gets ``data["seconds"]`` of extra reserve for the rest of the match (an item).
    EXTRA_TIME = "extra-time"
    #: ``data["seat"]``'s clock ran out, and this event says what follows from it ("p1 ran out of
    #: time and plays nothing this phase."; its message names the seat as ``{seat}``, which the
    #: room hears in the form it knows the seat by; a text event begins with the seat). A host that says the
    #: timeout itself says this event instead, once. A timeout that ends the game is its
    #: :attr:`END` event (its outcome's termination is ``time``), not this kind.
    TIMEOUT = "timeout"


class Event:
    """Something a host announces after a move, a timeout or a closed window.

    ``seats`` is ``None`` for a public announcement, or the seats that alone may read it.
    ``kind`` lets a host treat some events specially: a member of :class:`EventKind`, or of the
    ``StrEnum`` of the game's own kinds, never a free string (its value is what a record keeps);
    ``data`` carries plain values for it. An event whose ``text`` is empty is data only: a host
    says nothing for it. ``delete_after``: what the rules show for a while only (a memory grid),
    a public event whose message the host deletes this many seconds after it posts it.
    ``said``: what it says as words-as-data (:mod:`geniusbot.words`); a host says it in the
    room's language with the players' names, and ``text`` is its English with the seat ids, made
    when first read (a record ruled on a few hundred moves reads none of it).

    Frozen, compared as a dataclass of ``text``, ``seats``, ``kind``, ``data`` and
    ``delete_after`` is (``said`` is not compared), and pickled with its fields.
    """

    seats: frozenset[str] | None
    kind: StrEnum
    data: Mapping[str, Any]
    delete_after: float | None
    said: Message | None

    def __init__(
        self,
        text: str,
        seats: frozenset[str] | None = None,
        kind: StrEnum = EventKind.INFO,
        data: Mapping[str, Any] | None = None,
        delete_after: float | None = None,
        said: Message | None = None,
    ) -> None:
        # Frozen: the fields are written once, here, past the class's __setattr__ (a move makes
        # an event or two, and a record ruled on replays hundreds of moves).
        fields = self.__dict__
        fields["_text"] = text
        fields["seats"] = seats
        fields["kind"] = kind
        fields["data"] = {} if data is None else data
        fields["delete_after"] = delete_after
        fields["said"] = said

    @classmethod
    def of(
        cls,
        said: Message,
        seats: frozenset[str] | None = None,
        kind: StrEnum = EventKind.INFO,
        data: Mapping[str, Any] | None = None,
        delete_after: float | None = None,
    ) -> Event:
        """An event that says ``said``: ``Event.of(say("{seat} passes.", seat=Seat("p1")), kind=...)``."""
        event = cls.__new__(cls)
        fields = event.__dict__
        fields["_text"] = None
        fields["seats"] = seats
        fields["kind"] = kind
        fields["data"] = {} if data is None else dict(data)
        fields["delete_after"] = delete_after
        fields["said"] = said
        return event

    @property
    def text(self) -> str:
        """The event's English with the seat ids (what a record keeps); ``""``: data only."""
        text: str | None = self.__dict__["_text"]
        if text is None:
            assert self.said is not None
            text = self.__dict__["_text"] = ENGLISH_WORDS(self.said)
        return text

    @property
    def public(self) -> bool:
        return self.seats is None

    def replace(self, **changes: Any) -> Event:
        """A copy with ``changes`` (as :func:`dataclasses.replace`): ``event.replace(kind=EventKind.TIMEOUT)``."""
        event = self.__class__.__new__(self.__class__)
        event.__dict__.update(self.__dict__)
        for name, value in changes.items():
            if name not in ("text", "seats", "kind", "data", "delete_after", "said"):
                raise TypeError(f"an Event has no field {name!r}")
            event.__dict__["_text" if name == "text" else name] = value
        return event

    def _fields(self) -> tuple[Any, ...]:
        return (self.text, self.seats, self.kind, self.data, self.delete_after)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Event)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an Event is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an Event is frozen: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, (self.text, self.seats, self.kind, dict(self.data), self.delete_after, self.said))

    def __repr__(self) -> str:
        return (
            f"Event(text={self.text!r}, seats={self.seats!r}, kind={self.kind!r}, data={self.data!r}, "
            f"delete_after={self.delete_after!r}, said={self.said!r})"
        )


@dataclass(frozen=True)
class Window:
    """A timed phase that no move ends: the host closes it after ``seconds``.

    ``kind`` names it (``"memorize"``, ``"landmines"``); seats in :meth:`Game.to_move` may still
    submit during a window (the landmine window takes private submissions). ``says``: the
    room's line under a board posted while it runs, a message whose ``left`` argument the host
    fills with the time the window has left (``say("Memorize the grid: it is hidden in
    {left}.", left=Verbatim(""))``; plain English with ``{left}`` from a game not yet made of
    words as data); ``""``: the board says whose turn it is.
    ``vanishing``: the window shows what the rules hide once it closes (a memory grid), so a
    host deletes the boards it posted during the window when the window closes.
    """

    kind: str
    seconds: float
    says: str | Message = field(default="", compare=False)
    vanishing: bool = field(default=False, compare=False)
