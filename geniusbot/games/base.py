"""The rules API that every game of geniusbot implements.

The contract, in the words of the rule texts:

* A **game** is a rich, mutable state object (a subclass of :class:`Game`). It is created by
  :meth:`Game.new` from a seed and string options (the same strings a match record carries in
  its headers), and it knows nothing of Discord, pictures, databases, clocks or asyncio.
* Seats are ``"p1"`` and ``"p2"``. ``p1`` is the seat that makes the first move of the game
  proper, unless the game's own rules decide the order in play (a draft, a DMO's choice); the
  record then says who is who.
* A **move** is a small frozen value (a subclass of :class:`Move`) that carries the seat that
  submits it. :meth:`Game.parse_move` turns the text a player typed into a legal move, or raises
  a :class:`GameError` whose message tells the player what to do next. It never changes the state.
* :meth:`Game.play` applies a legal move and returns the :class:`Event` list that a host
  announces: public events to the room, private ones to the seats named.
* :meth:`Game.to_move` names the seats that may submit now: one seat in a turn-based phase,
  several in a simultaneous phase (sealed submissions that the game keeps hidden until every
  seat has submitted), none once the game is over or while a timed :class:`Window` runs.
* :meth:`Game.outcome` is ``None`` while the game runs, then an :class:`Outcome`.
* :meth:`Game.view` is what one seat (or, with ``None``, a spectator) may see: a plain,
  JSON-ready dict. Hidden information (memory grids, mines, sealed plays) appears only in the
  view of the seat that may see it, and only until the rules reveal it to everyone.
* :meth:`Game.timeout` applies what the rule text says happens to a seat whose time runs out
  (it loses, or it submits nothing). The clock itself lives in the host.
* :meth:`Game.window` names a timed phase that no seat's move ends (the 30 s in which a memory
  grid is shown, a 30 s landmine window); the host closes it with :meth:`Game.close_window`.
* Randomness comes only from the match seed: a game draws what it needs in :meth:`new` (or
  from ``random.Random(f"{seed}:{purpose}")`` later) and stores the result in its state.
* :meth:`Game.to_dict` gives plain JSON-ready data; :func:`geniusbot.games.load` (or
  :meth:`Game.from_dict`) rebuilds an equal game. Two games are equal when their dicts are.

A record (seed, options, and the submissions in order) therefore replays to the same state.
"""

from __future__ import annotations

import copy
import pickle
import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from geniusbot.words import Message, Seat, Verbatim, joined, say

from .errors import (  # the refusals, named here too
    IN_THE_ROOM as IN_THE_ROOM,
    IN_THE_ROOM_SAID as IN_THE_ROOM_SAID,
    AmbiguousMoveError as AmbiguousMoveError,
    GameError as GameError,
    IllegalMoveError as IllegalMoveError,
    MalformedMoveError as MalformedMoveError,
    NotYourTurnError as NotYourTurnError,
    OptionError as OptionError,
    WrongPlaceError as WrongPlaceError,
)
from .events import (  # the values a game gives the host, named here too
    ENGLISH_WORDS as ENGLISH_WORDS,
    BaseView as BaseView,
    Event as Event,
    EventKind as EventKind,
    Move as Move,
    Window as Window,
)
from .outcome import (  # how a game ends, named here too
    Outcome as Outcome,
    Termination as Termination,
    default_verdict as default_verdict,
    said_verdict as said_verdict,
)
from .reading import notation_words as notation_words, typed as typed  # how the rules read typed text

if TYPE_CHECKING:
    from .tactics import ForcedWin  # what a game's tactics search finds (loaded only by a game that has one)

SEATS: tuple[str, str] = ("p1", "p2")


def other_seat(seat: str) -> str:
    """The opponent of ``seat`` in a two-player game."""
    return "p2" if seat == "p1" else "p1"


# --------------------------------------------------------------------------- the game


class Game(ABC):
    """One game of one rule set. Subclasses set the class attributes and the hooks below.

    Class attributes:
        name: the registry key (``"nim"``), also the record's ``Game`` header.
        title: the human name ("Nim").
        variants: rule-set names; the first is the default.
        options: option name -> one-line help; option names are lower-case record header names
            (``setup``, ``p1_color``, ``board``, ``dmo``...). ``seed`` and ``variant`` are always taken.
        summary: the short rules text a ``/rules`` command shows, with the notation: a message of
            the game's catalogue domain (``say(...)``), so it is read in the room's language; a
            plain ``str`` is shown as it is, in English. Discord's Markdown (``**bold**``, ```code```)
            may mark it; a terminal shows it plain.
        keywords: the words of the game's notation, lower case, as :func:`notation_words` reads
            them (``black``, ``pick``, ``use``, ``all-in``): every word of every legal move's
            text, and the other words its parser takes that show a move attempt without a
            coordinate (not the ones that only join coordinates, such as "and" in "draw B5-C3
            and move"). A host tells a move attempt from table talk by them (a test holds every
            legal move's words among them).
        aliases: other names the game is found by (``"takeaway"``); case, spaces and hyphens are
            ignored.
        variant_aliases: a rule set's own name -> the rule set (``"misere"`` -> ``"misère"``):
            the name picks the game and that rule set.
        clocks: rule set -> the default time control, as a spec (``"60s+5m"``, ``"5x60s"``,
            ``"90s+5m/10s"``, ``"30s+1m"``, ``"none"``); the key ``"*"`` covers every rule set not
            named. A game that names none plays with the host's default.
        picture: ``"module:function"`` of the function that draws a view (it may use Pillow, which
            the rules never import): ``function(view, *, words, players, clocks, title)`` returns a
            Pillow image, every word on it a message said by ``words`` (the caller's language and
            the players' names). ``""``: the game has no picture and is shown by its text board.
        choice_phases: the view phases in which the seats to move pick one of a few named options
            (a colour, an order, an item) rather than a point of the board; a host offers the
            legal moves as buttons then (see :meth:`choosing`).
        perfect_information: whether every seat's view is the public view and shows all that
            decides what a move does (no hidden colours, cards, mines or sealed moves). Only then
            may a host try a move on a copy of the game to tell a player whether it loses at once
            (the console's ``help`` does): in a game with hidden information that trial would
            tell what the player cannot know. A host builds no seat's own view of such a game
            (it is the room's). Default ``False``.
        answers_by_policy: whether :meth:`rollout_move` is a fair picture of how a player
            answers a sealed move. The practice opponent at ``easy`` and ``normal`` then takes the
            other seat's sealed answers from it rather than searching them (it plays its best
            against a typical player; ``hard`` searches them, against one who answers its best).
            Default ``False``: every level searches them.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    options: ClassVar[Mapping[str, str]] = {}
    summary: ClassVar[Message | str] = ""
    keywords: ClassVar[frozenset[str]] = frozenset()
    #: The seats, always ``("p1", "p2")``: the house hosts two-player matches (death matches and
    #: finals), and its host, clocks, records and pictures name these two. A game that names
    #: other seats fails ``geniusbot check``'s declaration check.
    seats: ClassVar[tuple[str, str]] = SEATS
    aliases: ClassVar[tuple[str, ...]] = ()
    variant_aliases: ClassVar[Mapping[str, str]] = {}
    clocks: ClassVar[Mapping[str, str]] = {}
    picture: ClassVar[str] = ""
    choice_phases: ClassVar[frozenset[str]] = frozenset()
    perfect_information: ClassVar[bool] = False
    answers_by_policy: ClassVar[bool] = False
    #: The game's own endings, a ``StrEnum`` of its package, for an ending that no member of
    #: :class:`Termination` names (a checkmate); ``None``: the common ones are enough.
    terminations: ClassVar[type[StrEnum] | None] = None

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        variant = (variant or self.variants[0]).strip().lower()
        if variant not in self.variants:
            raise OptionError(
                say(
                    "{game} has no rule set {variant}; choose one of: {variants}.",
                    game=Verbatim(self.title),
                    variant=Verbatim(repr(variant)),
                    variants=Verbatim(", ".join(self.variants)),
                )
            )
        self.seed = int(seed)
        self.variant = variant
        self.option_values: dict[str, str] = {}
        self._outcome: Outcome | None = None

    # ---- construction -----------------------------------------------------------------

    @classmethod
    def new(cls, *, seed: int = 0, variant: str | None = None, **options: str) -> Self:
        """A game at its start. Unknown or malformed options raise :class:`OptionError`."""
        unknown = sorted(set(options) - set(cls.options))
        if unknown:
            option = Verbatim(repr(unknown[0]))
            if cls.options:
                raise OptionError(
                    say(
                        "{game} takes no option {option} (it takes: {options}).",
                        game=Verbatim(cls.title),
                        option=option,
                        options=Verbatim(", ".join(sorted(cls.options))),
                    )
                )
            raise OptionError(
                say("{game} takes no option {option}; it takes no options.", game=Verbatim(cls.title), option=option)
            )
        game = cls(seed=seed, variant=variant)
        game.option_values = {k: str(v) for k, v in options.items() if v is not None}
        game.setup(**game.option_values)
        return game

    def setup(self, *args: Any, **options: Any) -> None:
        """Lay out the start position from ``self.seed`` and the options; validate them. Default:
        nothing (a game whose start ``__init__`` makes, with no options and nothing to draw)."""
        return None

    def opening_events(self) -> list[Event]:
        """What a host announces when a match starts, before the first move: the game's opening
        lines (the prize cards, the items of a final match, a memory grid's window). A game that
        has already begun opens with nothing. Default: nothing."""
        return []

    # ---- what a host needs to know of the game ---------------------------------------------

    @classmethod
    def default_clock(cls, variant: str | None = None) -> str | None:
        """The default time control of a rule set as a spec (see :attr:`clocks`), or ``None``
        when the game names none."""
        return cls.clocks.get(variant or cls.variants[0]) or cls.clocks.get("*")

    @classmethod
    def takes_private_moves(cls) -> bool:
        """Whether some moves of the game are submitted privately (a DM): its players must be
        reachable privately before a match starts."""
        return cls.is_private is not Game.is_private

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The board of ``view`` as lines for a person (the console's board, and the room's when
        there is no picture); ``None``: a host lists the view's keys. A line is a drawing (a
        ``str``: a grid, coordinates, card numbers, said as it is in every language, with no word
        of two letters or more and no seat id in it) or a :class:`Message` (words; its seats are
        :class:`Seat`, named by whoever says it). It reads only the view, so it never shows more
        than that view's seat may see."""
        return None

    @classmethod
    def describe(cls, view: Mapping[str, Any]) -> list[Message] | None:
        """The position of ``view`` in sentences, for who cannot see the picture (a screen reader
        reads it: Discord's alt text), such as "Black stones: H8, I9." It reads only the view, and
        the host adds what each seat plays as, the last move and who is to move. ``None`` (the
        default): the text board stands in."""
        return None

    @classmethod
    def legend(cls, view: Mapping[str, Any]) -> dict[str, Message]:
        """What each seat plays as in ``view`` (seat -> its colour as a phrase,
        ``{"p1": say_c("colour", "black")}``), a seat not yet settled left out: the text board's
        footer says it ("p1 black, p2 white", the seats named). It reads only the view. Default:
        nothing (the seats are their names alone)."""
        return {}

    def choosing(self, view: Mapping[str, Any] | None = None) -> bool:
        """Whether the seats to move now pick one of a few named options (see
        :attr:`choice_phases`) rather than a point of the board. ``view``: the public view of
        now, when the caller has it (a host builds it once an action), else it is built."""
        if not self.choice_phases or self.is_over:
            return False
        return (view if view is not None else self.view(None)).get("phase") in self.choice_phases

    def choice_key(self, view: Mapping[str, Any] | None = None) -> tuple[object, ...]:
        """What tells one choice from the next while the seats to move are :meth:`choosing`: a
        host keeps its offer of the options (a seat's buttons) while they and this key stay the
        same, and offers them anew once either changes. ``view``: the public view of now, as
        :meth:`choosing` takes it. Default: the phase alone."""
        return ((view if view is not None else self.view(None)).get("phase"),)

    # ---- whose turn, what is legal ---------------------------------------------------------

    @abstractmethod
    def to_move(self) -> tuple[str, ...]:
        """The seats that may submit now (empty once the game is over)."""

    @abstractmethod
    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """The legal move that ``text`` names for ``seat``, or a :class:`GameError`.

        ``private`` is true for a submission sent privately (a DM). Order of checks: game over
        / not this seat's turn (:class:`NotYourTurnError`), then syntax
        (:class:`MalformedMoveError`), then legality (:class:`IllegalMoveError`,
        :class:`AmbiguousMoveError`). Never changes the state.
        """

    @abstractmethod
    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        """Every legal move of ``seat`` (default: every seat in :meth:`to_move`)."""

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be played now."""
        try:
            return self.parse_move(move.text(), move.seat, private=self.is_private(move)) == move
        except GameError:
            return False

    def is_private(self, move: Move) -> bool:
        """Whether ``move`` is submitted privately (by DM). Most games have none."""
        return False

    @abstractmethod
    def play(self, move: Move) -> list[Event]:
        """Apply a legal move (as :meth:`parse_move` returns) and say what happened."""

    def submit(self, text: str, seat: str, *, private: bool = False) -> tuple[Move, list[Event]]:
        """Parse and play in one step: what a host does with a typed submission."""
        move = self.parse_move(text, seat, private=private)
        return move, self.play(move)

    # ---- the end -------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """``None`` while the game runs; the result once it has ended."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    def end(
        self,
        winner: str | None,
        termination: StrEnum,
        how: str | Message,
        *,
        verdict: str | Message | None = None,
        **data: Any,
    ) -> list[Event]:
        """Set the outcome (once) and return the public announcement of it.

        ``how`` is what happened, without who wins: a message (``say("{seat} ran out of time",
        seat=Seat("p2"))``), or plain English from a game not yet made of words as data;
        ``verdict`` the words that close the record's sentence (default: "; p1 wins", or "; the
        game is a draw"; "" when ``how`` says it already); ``data``: plain values of the ending
        (:attr:`Outcome.data`).
        """
        if self._outcome is None:
            if isinstance(how, Message):
                if verdict is None:
                    closing: Message | None = said_verdict(winner)
                elif isinstance(verdict, Message):
                    closing = verdict
                elif verdict == "":
                    closing = None
                else:
                    raise TypeError("a message's verdict is a message too (or '' when the message says who wins)")
                self._outcome = Outcome.of(winner, termination, how, closing, data)
            else:
                if isinstance(verdict, Message):
                    raise TypeError("a verdict message closes a message: make how a message too")
                text = default_verdict(winner) if verdict is None else verdict
                self._outcome = Outcome(winner, termination, how.strip().rstrip("."), text, data)
        said = self._outcome.said
        if said is not None:
            return [Event.of(said, kind=EventKind.END, data=self._outcome.to_dict())]
        return [Event(self._outcome.reason, kind=EventKind.END, data=self._outcome.to_dict())]

    def timeout(self, seat: str) -> list[Event]:
        """What a seat's exhausted clock does. Default: that seat loses."""
        self.require_seat(seat)
        if self.is_over:
            return []
        return self.end(other_seat(seat), Termination.TIME, say("{seat} ran out of time", seat=Seat(seat)), seat=seat)

    def clock_running(self, seat: str) -> bool:
        """Whether ``seat``'s clock runs: the game goes on, no timed window is open, ``seat`` is to move."""
        return not self.is_over and self.window() is None and seat in self.to_move()

    def require_clock(self, seat: str) -> None:
        """Raise :class:`NotYourTurnError` unless ``seat``'s clock runs: only a running clock runs out."""
        self.require_seat(seat)
        if self.clock_running(seat) or self.is_over:
            return  # the game over: the submission's own check says so
        window = self.window()
        why = (
            say("the {window} window is open", window=Verbatim(window.kind))
            if window
            else say("waiting for {seats}", seats=joined([Seat(s) for s in self.to_move()]))
        )
        raise NotYourTurnError(
            say(
                "{seat}'s clock is not running ({why}), so {seat} cannot run out of time now.", seat=Seat(seat), why=why
            )
        )

    def resign(self, seat: str) -> list[Event]:
        """The seat concedes the game."""
        self.require_seat(seat)
        if self.is_over:
            return []
        return self.end(other_seat(seat), Termination.RESIGNATION, say("{seat} resigned", seat=Seat(seat)), seat=seat)

    # ---- timed windows ---------------------------------------------------------------------

    def window(self) -> Window | None:
        """The timed phase running now, if any. Most games have none."""
        return None

    def close_window(self) -> list[Event]:
        """The host's timer for :meth:`window` ran out."""
        raise GameError(say("There is no timed phase to close."))

    # ---- what a seat sees ------------------------------------------------------------------

    @abstractmethod
    def view(self, seat: str | None = None) -> Mapping[str, Any]:
        """What ``seat`` may see now (``None``: a spectator or the public room). JSON-ready.

        Every view has at least the keys of :class:`BaseView`: it starts from :meth:`base_view`
        and sets its own ``last_move`` and ``phase``. A game may type its view as a subclass of
        :class:`BaseView`, which its picture and text board then read by key.
        """

    def base_view(self) -> BaseView:
        """The keys every view shares (:class:`BaseView`), ``last_move`` and ``phase`` at their
        defaults, which a game's view sets over them."""
        return {
            "game": self.name,
            "variant": self.variant,
            "to_move": list(self.to_move()),
            "outcome": self._outcome.to_dict() if self._outcome else None,
            "last_move": None,
            "phase": "over" if self._outcome is not None else "play",
        }

    # ---- serialisation ---------------------------------------------------------------------

    @abstractmethod
    def state_dict(self) -> dict[str, Any]:
        """The game-specific part of the state, as plain JSON-ready data."""

    @abstractmethod
    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore what :meth:`state_dict` gave (after ``__init__``, without :meth:`setup`)."""

    def to_dict(self) -> dict[str, Any]:
        """The whole game as plain data; :func:`geniusbot.games.load` rebuilds it."""
        return {
            "game": self.name,
            "variant": self.variant,
            "seed": self.seed,
            "options": dict(self.option_values),
            "outcome": self._outcome.to_dict() if self._outcome else None,
            "state": self.state_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a game of this class from :meth:`to_dict`."""
        if data.get("game") != cls.name:
            raise OptionError(f"That saved game is {data.get('game')!r}, not {cls.name!r}.")
        game = cls(seed=data["seed"], variant=data["variant"])
        game.option_values = dict(data.get("options", {}))
        game._outcome = Outcome.from_dict(data.get("outcome"), cls.terminations)
        game.load_state(data["state"])
        return game

    def copy(self) -> Self:
        """An independent copy: a round trip through :mod:`pickle` (a deep copy at a fraction of
        :func:`copy.deepcopy`'s time, which the practice opponent's search spends a lot of), or
        :func:`copy.deepcopy` for a game that does not pickle (a class defined in a function)."""
        try:
            data = pickle.dumps(self, pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, AttributeError, TypeError):
            return copy.deepcopy(self)
        return cast(Self, pickle.loads(data))

    def twin(self, seat: str, seed: int) -> Game | None:
        """A game that ``seat`` cannot tell from this one, built by :meth:`determinize` from the
        seat's view now alone, what it hides drawn from ``seed``; ``None`` when the game has no
        determinization or this draw does not show the seat its view. Not a hook (a game
        implements :meth:`determinize`): a host tries a move on a few twins to tell a player
        whether it loses whatever is hidden (the console's ``help``), and a twin depends on
        nothing the seat cannot see, since it is built from the view."""
        if self.is_over or seat not in self.seats:
            return None
        view = self.view(seat)
        rng = random.Random(f"{seed}:twin")
        drawn = type(self).determinize(seat, [view], rng, variant=self.variant, **self.option_values)
        return drawn if drawn is not None and drawn.view(seat) == view else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ---- helpers for subclasses --------------------------------------------------------------

    def require_seat(self, seat: str) -> None:
        if seat not in self.seats:
            raise NotYourTurnError(
                say(
                    "{seat} is not a seat in this game; seats are {seats}.",
                    seat=Verbatim(repr(seat)),
                    seats=Verbatim(", ".join(self.seats)),
                )
            )

    def require_room(self, private: bool) -> None:
        """Refuse a DM'd submission, whatever it says, in a game whose moves are all made in the room."""
        if private:
            raise WrongPlaceError(IN_THE_ROOM_SAID, private=False)

    def require_turn(self, seat: str) -> None:
        """Raise :class:`NotYourTurnError` unless ``seat`` may submit now."""
        self.require_seat(seat)
        if self._outcome is not None:
            raise NotYourTurnError(say("The game is over; no more moves are taken."))
        movers = self.to_move()
        if seat not in movers:
            if movers:
                raise NotYourTurnError(
                    say("It is not your turn; waiting for {seats}.", seats=joined([Seat(s) for s in movers]))
                )
            raise NotYourTurnError(say("No move is taken right now; wait for the next phase."))

    # ---- hooks of the practice opponent (geniusbot.practice); all optional -------------------

    @classmethod
    def determinize(
        cls, seat: str, views: Sequence[Mapping[str, Any]], rng: random.Random, **options: str
    ) -> Game | None:
        """A game consistent with everything ``seat`` has seen (``views``: its views in order,
        the last one now; ``options``: ``variant`` and the match's options), whatever the views
        hide drawn from ``rng``; ``None``: this draw does not fit, or the game offers none (the
        default). The one hook for a game that ``seat`` cannot tell from the real one: the
        practice opponent of a game with hidden information searches such games (a fresh one
        each iteration), and :meth:`twin` builds a host's twins with it from the view of now
        alone (the console's ``help``). It reads only the views, so it cannot know more than
        the seat."""
        return None

    @classmethod
    def recall(cls, seat: str, views: Sequence[Mapping[str, Any]], memory: float) -> Sequence[Mapping[str, Any]]:
        """``views`` as a seat that keeps only ``memory`` (0 to 1) of what a vanishing picture
        showed would remember them (the practice opponent's levels differ in memory where a
        game tests it); the same views give the same memory every time. The default keeps all:
        a game without such a picture has nothing to forget."""
        return views

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        """A legal move of ``seat`` for a simulated game (a quick policy better than chance, or
        a random move of a phase with too many to list); ``None``: the practice opponent draws
        one uniformly from :meth:`legal_moves` (the default)."""
        return None

    def search_moves(self, seat: str) -> list[Move] | None:
        """The legal moves of ``seat`` worth searching; ``None``: all of them (the default)."""
        return None

    def evaluate(self, seat: str) -> float | None:
        """How good the unfinished position is for ``seat``, 0 (lost) to 1 (won); ``None``: even."""
        return None

    # ---- the engine review's hook (geniusbot.analysis); optional ----------------------------

    #: How deep :meth:`forced_win` looks by default: forcing moves that leave one answer (a
    #: line game's fours), and threats that leave a few (its threes). ``None``: no tactics search.
    tactics_depth: ClassVar[tuple[int, int] | None] = None

    def forced_win(self, forcing: int | None = None, threats: int | None = None) -> ForcedWin | None:
        """A win the seat to move can force within ``forcing`` forcing moves and ``threats``
        threats (default :attr:`tactics_depth`), found by the game's own search, or ``None``:
        none within that depth, or the game has no such search (the default)."""
        return None
