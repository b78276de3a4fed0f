"""All Hands On Deck (seed 001, FM2): the final match that plays the three tasks of the family,
five times each, for points.

The readings are fixed in ``docs/rules/allhands.md`` (its rules and numbered rulings). In short:

* The tasks run Tile Decklaration, Dueling Decks, Deck Swabbing, Tile Decklaration, ... (15 plays
  at most). The k-th play of a task is worth k points to its winner; the first seat to 23 points
  wins the match. 3 x (1+2+3+4+5) = 45 > 2 x 22, so someone always gets there by the 15th play.
* Anomalies of the k-th play of a task: k=1 none; k=2 the seats ban alternately from the five
  until one remains; k=3 they ban alternately from the four unplayed until two remain; k=4 the
  two unplayed, no bans (three unplayed, after an Override: one ban, down to two); k=5 each bans
  one of all five, the other three are active. The winner of the previous play bans first.
* Items (option ``items``, given by the host at the start): All-In (``use all-in`` by DM once
  the anomalies are chosen: +2 points to the winner of that play; once a match), Override (``use
  override chain rainbow`` when asked, before the first ban of a task's 2nd, 3rd or 4th play:
  hand-pick that many anomalies, a combination not played before; twice a match), Clock (3 min
  of reserve for the whole match: the host's clock spends it; the game only records it).
* While a play runs, the match holds the task's own game, built with ``Task.new(
  seed=..., anomalies=..., starter=..., tiebreak=...)`` from the match's history, and passes
  moves, timeouts, windows and views through to it; its events come out unchanged but for a
  ``task`` and ``play`` in their data (its ``end`` becomes ``task-end``: the match goes on).

Phases: ``override`` (a holder is asked whether to use the Override), ``ban``, ``items`` (the
sealed All-In answers), ``task``, ``over``.

View keys (besides ``game``, ``variant``, ``to_move``, ``outcome``):

``phase``
    ``override``, ``ban``, ``items``, ``task`` or ``over``.
``target``, ``plays_total``, ``order``
    23, 15 and the three task names in the order they are played.
``points``
    Seat -> points.
``play``
    The number (1-15) of the play under way (the last one once the match is over).
``current``
    The play under way: ``{"play", "task", "title", "time", "worth", "first", "pool", "bans",
    "bans_left", "banner", "override", "anomalies", "all_in"}``: ``time`` is k (this is the
    task's k-th play), ``worth`` the points it is worth before All-In; ``first`` the seat that
    bans first (the previous play's winner); ``pool`` the anomalies still open to a ban (``[]``
    where no ban is made); ``bans`` the bans so far, ``{"seat", "anomaly", "timeout"}``;
    ``bans_left`` how many bans are still to come; ``banner`` the seat to ban now, else
    ``None``; ``override`` ``{"asked", "by"}``: the seat being asked now and the seat that used
    it this play (else ``None``); ``anomalies`` the chosen anomalies, ``None`` until chosen;
    ``all_in`` ``{"answered": seat -> bool, "used": [seats]}``: who has sent an All-In answer
    (never which) and, once both answers are in, who used it. ``None`` once the match is over.
``plays``
    Every finished play: ``{"play", "task", "time", "anomalies", "bans", "override", "all_in",
    "winner", "points", "reason"}``: ``override`` the seat that hand-picked the anomalies, else
    ``None``; ``all_in`` the seats that used All-In; ``points`` what the winner scored.
``items``
    Seat -> ``{"all_in", "override", "clock"}``: All-In uses left (0 or 1), Override uses left
    (0-2), and whether the seat holds the Clock (3 min of match-wide reserve for the host's clock).
``sealed``
    The viewer's own All-In answer this play (``"use all-in"`` or ``"pass"``) while the other is
    awaited, else ``None``. Never in the public view or the opponent's.
``task``
    The running task's own view for this viewer (``None`` between plays and once over); it is
    exactly what the task shows that seat, so the task's hidden information stays hidden.
``last_move``
    The canonical text of the last public move of the match or its task, else ``None``.
``result``
    Once over: ``{"winner", "points", "reason"}``: ``reason`` ``target`` (23 reached),
    ``resign`` or ``plays-used`` (unreachable, see the rules doc). ``None`` while it runs.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from geniusbot.games.allhands.common import (
    ANOMALY_WORDS,
    TASK_ANOMALIES,
    TASK_TITLE_WORDS,
    TASK_TITLES,
    TASKS,
    anomaly_key,
    anomaly_list,
    canonical_order,
    split_anomaly_words,
    task_of,
)
from geniusbot.games.allhands.decks import DuelingDecks
from geniusbot.games.allhands.swabbing import DeckSwabbing, board_text as swabbing_board_text
from geniusbot.games.allhands.tiles import TileDecklaration, grid_text as tiles_grid_text
from geniusbot.games.allhands.view import AllHandsView, CurrentPlay
from geniusbot.games.base import (
    Event,
    EventKind,
    Game,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotYourTurnError,
    OptionError,
    Outcome,
    Termination,
    Window,
    WrongPlaceError,
    other_seat,
)
from geniusbot.games.sealed import SealedRound, require_private, sealed_event
from geniusbot.words import Listing, Message, Seat, Verbatim, say, say_c, say_n

#: The tasks as games of their own, by name.
_TASK_GAMES: dict[str, type[Game]] = {"tiles": TileDecklaration, "decks": DuelingDecks, "swabbing": DeckSwabbing}

TARGET = 23
#: The Clock item: 3 min of extra reserve for the whole final match.
CLOCK_ITEM_SECONDS = 180
TIMES_PER_TASK = 5
PLAYS_TOTAL = TIMES_PER_TASK * len(TASKS)
ALL_IN_POINTS = 2
OVERRIDE_USES = 2
ITEMS: tuple[str, ...] = ("all-in", "clock", "override")


class AllHandsOnDeckEvent(StrEnum):
    """All Hands On Deck's own event kinds; a task's events keep their task's kinds (its END becomes
    :attr:`TASK_END`), with ``data["task"]`` and ``data["play"]`` added (a host treats all as INFO)."""

    #: The match opens: ``data["items"]``, each seat's items.
    MATCH = "match"
    #: A choice is asked: ``data`` has the ``phase`` (override, ban, items), ``seat``/``seats``, ``count``/``pool``.
    PROMPT = "prompt"
    #: A seat bans an anomaly: ``data`` has the ``seat``, the ``anomaly``, ``timeout`` (False; a drawn ban is TIMEOUT).
    BAN = "ban"
    #: A seat passes on the Override: ``data["seat"]`` and ``used`` (False; a timeout's pass is TIMEOUT).
    OVERRIDE = "override"
    #: The play's anomalies are chosen: ``data`` has the ``play`` and its ``anomalies``.
    ANOMALIES = "anomalies"
    #: A seat's sealed All-In answer is in, or none in time: ``data["seat"]`` (``timeout`` when none came).
    SUBMITTED = "submitted"
    #: The All-In answers shown together: ``data["used"]``, the seats that use it on this play.
    ALL_IN = "all-in"
    #: The task's end, not the match's: its outcome's ``data`` (``Outcome.to_dict``) with ``task`` and ``play``.
    TASK_END = "task-end"
    #: The finished task's board (Deck Swabbing, ``data["board"]``) or grid (Tile Decklaration, ``grid``).
    FINAL_BOARD = "final-board"
    #: A play is scored: ``data`` has the ``play``, its ``winner``, the ``points`` won and the ``score``.
    SCORE = "score"


#: The k-th play of a task, as a phrase ("its {ordinal} play").
ORDINAL_WORDS: dict[int, Message] = {
    1: say_c("play", "1st"),
    2: say_c("play", "2nd"),
    3: say_c("play", "3rd"),
    4: say_c("play", "4th"),
    5: say_c("play", "5th"),
}

#: The items, as phrases.
ITEM_WORDS: dict[str, Message] = {
    "all-in": say_c("item", "all-in"),
    "clock": say_c("item", "clock"),
    "override": say_c("item", "override"),
}

#: The example a refusal gives of an answer to the Override question, and of a ban.
_PASS = Verbatim("pass")


def _seats(seats: Sequence[str]) -> Seat | Message:
    """One seat, or two joined by "and", as a message's argument."""
    if len(seats) == 1:
        return Seat(seats[0])
    return say("{seat} and {other}", seat=Seat(seats[0]), other=Seat(seats[1]))


def _uses_left(left: int) -> Message:
    return say_n("{n} use left", "{n} uses left", n=left)


def task_for(play: int) -> str:
    """The task of play ``play`` (1-15): tiles, decks, swabbing, tiles, ..."""
    return TASKS[(play - 1) % len(TASKS)]


def time_of(play: int) -> int:
    """Which time (k, 1-5) its task is played in play ``play``: the points it is worth."""
    return (play - 1) // len(TASKS) + 1


def points_for(time: int, all_ins: int = 0) -> int:
    """What the winner of a task's ``time``-th play scores, with ``all_ins`` All-In uses on it."""
    return time + ALL_IN_POINTS * all_ins


def active_count(time: int) -> int:
    """How many anomalies are active in a task's ``time``-th play: 0, 1, 2, 2, 3."""
    return (0, 1, 2, 2, 3)[time - 1]


def override_allowed(time: int) -> bool:
    """The Override may replace the selection of a task's 2nd, 3rd or 4th play, never its 1st or 5th."""
    return 2 <= time <= 4


def parse_items(text: str) -> dict[str, tuple[str, ...]]:
    """The items an ``items`` option gives: ``"p1 all-in clock; p2 override"`` -> seat -> items,
    or :class:`OptionError`.

    Each player's items follow its seat (``p1`` or ``p1:``); groups are separated by ``;`` or a
    new line (or simply by the next seat); names are ``all-in`` (``allin``, ``all in``),
    ``clock`` and ``override``, in any case, separated by spaces or commas. ``none`` or nothing
    gives no items. A player holds each item at most once.
    """
    given: dict[str, list[str]] = {"p1": [], "p2": []}
    text = re.sub(r"(?i)all[\s_\-]*in", "all-in", text or "")
    seat: str | None = None
    for word in re.split(r"[\s,;]+", text):
        key = word.strip().lower().rstrip(":")
        if not key or key == "none":
            continue
        if key in given:
            seat = key
            continue
        if key not in ITEMS:
            raise OptionError(
                say(
                    "There is no item {item}; the items are all-in, clock and override, given as "
                    "'p1 all-in clock; p2 override'.",
                    item=Verbatim(repr(word.strip())),
                )
            )
        if seat is None:
            raise OptionError(
                say(
                    "Say whose item {item} is: write each player's items after their seat, such as "
                    "'p1 all-in clock; p2 override'.",
                    item=ITEM_WORDS[key],
                )
            )
        if key in given[seat]:
            raise OptionError(
                say(
                    "{seat} is given {item} twice; each player holds each item at most once.",
                    seat=Seat(seat),
                    item=ITEM_WORDS[key],
                )
            )
        given[seat].append(key)
    return {s: tuple(i for i in ITEMS if i in items) for s, items in given.items()}


def derived_seed(seed: int, play: int) -> int:
    """The seed of play ``play``'s task game, drawn from the match seed."""
    return random.Random(f"{seed}:allhands:play:{play}").randrange(2**31)


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Ban(Move):
    """Ban ``anomaly`` from the pool of the coming play (typed in the game room)."""

    anomaly: str

    def text(self) -> str:
        """As a record writes it: ``ban chain``."""
        return f"ban {self.anomaly}"


@dataclass(frozen=True)
class UseOverride(Move):
    """Override: hand-pick the anomalies of the coming play (typed in the game room)."""

    anomalies: tuple[str, ...]

    def text(self) -> str:
        """As a record writes it: ``use override chain rainbow``."""
        return "use override " + " ".join(self.anomalies)


@dataclass(frozen=True)
class Pass(Move):
    """Asked about the Override: leave the selection to the bans (typed in the game room)."""

    def text(self) -> str:
        """As a record writes it: ``pass``."""
        return "pass"


@dataclass(frozen=True)
class AllInAnswer(Move):
    """The sealed All-In answer of this play, by direct message: use it, or not."""

    use: bool

    def text(self) -> str:
        """As a record writes it: ``use all-in`` or ``pass``."""
        return "use all-in" if self.use else "pass"


_OWN_MOVES = (Ban, UseOverride, Pass, AllInAnswer)


# --------------------------------------------------------------------------- the game


class AllHandsOnDeck(Game):
    """All Hands On Deck: three tasks, five times each, for points; first to 23 wins."""

    name = "allhands"
    aliases = ("allhandsondeck", "allhandsdeck")
    title = "All Hands On Deck"
    picture = "geniusbot.games.allhands.picture_final:render"
    # Each play of a task takes that task's clock (its bout event says which).
    clocks = {"*": "30s"}
    choice_phases = frozenset({"ban", "override", "items"})
    # The running tasks' words, then the final match's own: bans, the Override, the All-In answer
    # and every anomaly, as one word or as the words of a name typed with spaces ("your" aside:
    # table talk says it far more often than "ban pick your prize" does). "yes", "no", "keep" and
    # "skip" are answers the parser takes too, but everyday words: taken when they are legal,
    # table talk otherwise.
    keywords = (
        TileDecklaration.keywords
        | DuelingDecks.keywords
        | DeckSwabbing.keywords
        | frozenset(
            {
                "ban",
                "bans",
                "use",
                "override",
                "pass",
                "all-in",
                "allin",
                *(name for names in TASK_ANOMALIES.values() for name in names),
                *(anomaly_key(name) for names in TASK_ANOMALIES.values() for name in names),
                *(word for names in TASK_ANOMALIES.values() for name in names for word in name.split("-")),
            }
        )
        - {"your"}
    )
    options = {
        "first": "p1 or p2: the seat that acts first where no previous task exists (the first caller of "
        "the first Tile Decklaration; default p1)",
        "items": "the items the host gives, such as 'p1 all-in clock; p2 override' (all-in, clock, "
        "override; default none)",
    }
    summary = say(
        "Three tasks are played in turn, five times each: Tile Decklaration, Dueling Decks, Deck Swabbing, "
        "Tile Decklaration... The k-th play of a task is worth k points; the first to 23 points wins. "
        "Anomalies: none the 1st time; the 2nd time ban alternately from the five until one remains "
        "('ban chain'); the 3rd time ban alternately from the four unplayed until two remain; the 4th time "
        "the two unplayed are active; the 5th time each bans one of the five and the other three are "
        "active. The winner of the previous task bans first. Items: All-In ('use all-in' by direct message "
        "once the anomalies are chosen: +2 points to that task's winner), Override ('use override chain "
        "rainbow' when asked, in the 2nd-4th play of a task, at most twice), Clock (3 minutes of reserve "
        "for the whole match). Each task is played by its own rules; see /rules for each."
    )

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant)
        self.first = "p1"
        self.given: dict[str, tuple[str, ...]] = {s: () for s in self.seats}
        self.all_in_left: dict[str, int] = {s: 0 for s in self.seats}
        self.override_left: dict[str, int] = {s: 0 for s in self.seats}
        self.points: dict[str, int] = {s: 0 for s in self.seats}
        self.plays: list[dict[str, Any]] = []
        self.play_no = 1
        self.phase = "task"
        self.pool: list[str] = []
        self.bans: list[dict[str, Any]] = []
        self.bans_left = 0
        self.override_queue: list[str] = []
        self.override_by: str | None = None
        self.chosen: tuple[str, ...] | None = None
        # The sealed All-In answers (use it or not) of the seats asked this play (none before its items phase).
        self.all_in_answers: SealedRound[bool] = SealedRound()
        self.all_in_used: list[str] = []
        self.task: Game | None = None
        self.last_move: str | None = None
        self.result: dict[str, Any] | None = None

    # ---- construction -----------------------------------------------------------------

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The board of the view in text (see :mod:`geniusbot.games.allhands.text`)."""
        from geniusbot.games.allhands.text import final_lines

        return final_lines(cast(AllHandsView, view))  # a host passes the views of this game

    def setup(self, *, first: str = "", items: str = "") -> None:
        """Give the items and open the first play (Tile Decklaration, no anomalies)."""
        first = first.strip().lower()
        if first and first not in self.seats:
            raise OptionError(say("The first option must be p1 or p2, not {first}.", first=Verbatim(repr(first))))
        self.first = first or "p1"
        self.given = parse_items(items)
        self.all_in_left = {s: int("all-in" in self.given[s]) for s in self.seats}
        self.override_left = {s: OVERRIDE_USES if "override" in self.given[s] else 0 for s in self.seats}
        self._open_play()

    def choosing(self, view: Mapping[str, Any] | None = None) -> bool:
        """A ban, the Override question and the All-In answers are choices; in a task, the task's
        own (``view``'s ``task``, the task's public view, when the caller has the match's)."""
        if self.phase == "task":
            return self.task is not None and self.task.choosing(view.get("task") if view is not None else None)
        return super().choosing(view)

    def choice_key(self, view: Mapping[str, Any] | None = None) -> tuple[object, ...]:
        """The phase and the play: a kept All-In asked again in a later play is a new question,
        with the same answers."""
        shown = view if view is not None else self.view(None)
        return (*super().choice_key(shown), shown["play"])

    def opening_events(self) -> list[Event]:
        """The events that open the match: the items, then what the first play asks for (the
        memory grid of the first Tile Decklaration, or the All-In question)."""
        if self.plays or self.is_over or self.last_move is not None or self.all_in_answers.any_in:
            return []
        held = [
            say("{seat}: {items}", seat=Seat(s), items=Listing(tuple(ITEM_WORDS[i] for i in self.given[s])))
            for s in self.seats
            if self.given[s]
        ]
        if not held:
            items = say_c("items", "none")
        elif len(held) == 1:
            items = held[0]
        else:
            items = say("{items}; {other}", items=held[0], other=held[1])
        said = say(
            "All Hands On Deck: three tasks, five times each; the k-th play of a task is worth k points "
            "and the first to {target} wins. Items: {items}.",
            target=TARGET,
            items=items,
        )
        events = [
            Event.of(said, kind=AllHandsOnDeckEvent.MATCH, data={"items": {s: list(self.given[s]) for s in self.seats}})
        ]
        # The Clock item: extra reserve for the whole final match (said by the line above).
        events += [
            Event("", kind=EventKind.EXTRA_TIME, data={"seat": s, "seconds": CLOCK_ITEM_SECONDS})
            for s in self.seats
            if "clock" in self.given[s]
        ]
        events.append(self._play_announcement())
        if self.phase == "items":
            return events + self._items_prompt()
        assert self.task is not None
        return events + self._wrap(self.task.opening_events())

    # ---- the history a play is built from ----------------------------------------------------

    @property
    def time(self) -> int:
        """k: this is the k-th play of the current task."""
        return time_of(self.play_no)

    @property
    def current_task(self) -> str:
        """The task of the play under way."""
        return task_for(self.play_no)

    def previous_winner(self) -> str:
        """The winner of the previous play (the ``first`` option where there is none)."""
        last: str | None = self.plays[-1]["winner"] if self.plays else None
        return last if last in self.seats and last is not None else self.first

    def previous_loser(self) -> str:
        """The loser of the previous play (the seat other than ``first`` where there is none)."""
        return other_seat(self.previous_winner())

    def task_plays(self, task: str | None = None) -> list[dict[str, Any]]:
        """The finished plays of ``task`` (default: the current task), in order."""
        task = task or self.current_task
        return [p for p in self.plays if p["task"] == task]

    def played_anomalies(self) -> set[str]:
        """Every anomaly of the current task that has been active in one of its plays."""
        return {a for p in self.task_plays() for a in p["anomalies"]}

    def played_combinations(self) -> set[frozenset[str]]:
        """The anomaly combinations the current task has been played with (Override may not repeat one)."""
        return {frozenset(p["anomalies"]) for p in self.task_plays()}

    def task_options(self) -> dict[str, str]:
        """The options the current play's task game is built with, from the match's history.

        Tile Decklaration: the first caller is the previous play's winner. Deck Swabbing: the first
        mover is the previous play's loser. Dueling Decks and Deck Swabbing break a tie for the
        loser of this task's previous play. In its first play, Deck Swabbing's tie goes to "the
        player that most recently scored": the previous play's winner; Dueling Decks' to "the
        player that won the most recent round", which the task reads from its own rounds.
        """
        task = self.current_task
        options = {"anomalies": ",".join(self.chosen or ())}
        if task == "tiles":
            options["starter"] = self.previous_winner()
        elif task == "swabbing":
            options["starter"] = self.previous_loser()
        if task in ("decks", "swabbing"):
            before = self.task_plays(task)
            if before and before[-1]["winner"] in self.seats:
                options["tiebreak"] = other_seat(before[-1]["winner"])
            elif task == "swabbing" and self.plays:
                options["tiebreak"] = self.previous_winner()
        return options

    # ---- opening a play ----------------------------------------------------------------------

    def _open_play(self) -> list[Event]:
        """Reset the per-play state and start the selection of the play ``self.play_no``."""
        self.task = None
        self.bans = []
        self.override_by = None
        self.override_queue = []
        self.chosen = None
        self.all_in_answers.open(())
        self.all_in_used = []
        time, task = self.time, self.current_task
        names = TASK_ANOMALIES[task]
        if time == 1:
            self.pool, self.bans_left = [], 0
        elif time in (2, 5):
            self.pool = list(names)
            self.bans_left = len(names) - active_count(time)
        else:
            played = self.played_anomalies()
            self.pool = [a for a in names if a not in played]
            self.bans_left = max(0, len(self.pool) - active_count(time))
        if override_allowed(time):
            first = self.previous_winner()
            self.override_queue = [s for s in (first, other_seat(first)) if self.override_left[s] > 0]
        if self.override_queue:
            self.phase = "override"
            return self._override_prompt()
        return self._start_bans()

    def _play_announcement(self) -> Event:
        time, task = self.time, self.current_task
        # No score: the line before it (the last play's result) has just said it.
        said = say_n(
            "Play {play} of {total}: {task}, its {ordinal} play, worth {n} point.",
            "Play {play} of {total}: {task}, its {ordinal} play, worth {n} points.",
            play=self.play_no,
            total=PLAYS_TOTAL,
            task=TASK_TITLE_WORDS[task],
            ordinal=ORDINAL_WORDS[time],
            n=time,
        )
        # A bout: a host whose clock resets a reserve each bout does it at each play, and a match on
        # the default clocks takes the task's own clock for the play.
        clock = _TASK_GAMES[task].default_clock()
        return Event.of(
            said, kind=EventKind.BOUT, data={"play": self.play_no, "task": task, "time": time, "clock": clock}
        )

    def _override_prompt(self) -> list[Event]:
        seat = self.override_queue[0]
        count = active_count(self.time)
        return [
            Event.of(
                say_n(
                    "{seat}: use your Override for this play ({uses})? Hand-pick {n} anomaly not played together "
                    "before, such as {example}, or pass.",
                    "{seat}: use your Override for this play ({uses})? Hand-pick {n} anomalies not played together "
                    "before, such as {example}, or pass.",
                    seat=Seat(seat),
                    uses=_uses_left(self.override_left[seat]),
                    n=count,
                    example=self._example_override_text(),
                ),
                kind=AllHandsOnDeckEvent.PROMPT,
                data={"seat": seat, "phase": "override", "count": count},
            )
        ]

    def _example_override(self) -> tuple[str, ...]:
        return next(iter(self._override_choices()))

    def _example_override_text(self) -> Verbatim:
        return Verbatim(UseOverride("", self._example_override()).text())

    def _example_ban(self) -> Verbatim:
        return Verbatim(Ban("", self.pool[0]).text())

    def _override_choices(self) -> Iterator[tuple[str, ...]]:
        played = self.played_combinations()
        for combo in itertools.combinations(TASK_ANOMALIES[self.current_task], active_count(self.time)):
            if frozenset(combo) not in played:
                yield combo

    def _start_bans(self) -> list[Event]:
        if self.time == 1:
            return self._choose((), say("The first play of a task is played exactly as written: no anomaly."))
        if self.bans_left == 0:
            return self._choose(
                tuple(self.pool),
                say("The unplayed anomalies are active: {anomalies}.", anomalies=anomaly_list(self.pool)),
            )
        self.phase = "ban"
        return self._ban_prompt()

    @property
    def banner(self) -> str | None:
        """The seat to ban now: the previous winner first, then alternately."""
        if self.phase != "ban" or self.is_over:
            return None
        first = self.previous_winner()
        return first if len(self.bans) % 2 == 0 else other_seat(first)

    def _ban_prompt(self) -> list[Event]:
        seat = self.banner
        assert seat is not None
        return [
            Event.of(
                say_n(
                    "{seat}: ban an anomaly of {task} ({n} ban to go), such as {example}. Open: {open}.",
                    "{seat}: ban an anomaly of {task} ({n} bans to go), such as {example}. Open: {open}.",
                    seat=Seat(seat),
                    task=TASK_TITLE_WORDS[self.current_task],
                    n=self.bans_left,
                    example=self._example_ban(),
                    open=anomaly_list(self.pool),
                ),
                kind=AllHandsOnDeckEvent.PROMPT,
                data={"seat": seat, "phase": "ban", "pool": list(self.pool)},
            )
        ]

    def _choose(self, anomalies: tuple[str, ...], said: Message) -> list[Event]:
        self.chosen = canonical_order(anomalies, self.current_task)
        events = [
            Event.of(
                said, kind=AllHandsOnDeckEvent.ANOMALIES, data={"play": self.play_no, "anomalies": list(self.chosen)}
            )
        ]
        holders = [s for s in self.seats if self.all_in_left[s] > 0]
        if holders:
            self.phase = "items"
            self.all_in_answers.open(holders)
            return events + self._items_prompt()
        return events + self._start_task()

    def _items_prompt(self) -> list[Event]:
        return [
            Event.of(
                say(
                    "{seats}: use your All-In on this play (+{points} points to its winner)? Send use all-in "
                    "or pass to me by direct message; the answers are shown together.",
                    seats=_seats(self.all_in_answers.seats),
                    points=ALL_IN_POINTS,
                ),
                kind=AllHandsOnDeckEvent.PROMPT,
                data={"seats": list(self.all_in_answers.seats), "phase": "items"},
            )
        ]

    def _start_task(self) -> list[Event]:
        self.phase = "task"
        self.task = _TASK_GAMES[self.current_task].new(
            seed=derived_seed(self.seed, self.play_no), **self.task_options()
        )
        return self._wrap(self.task.opening_events())

    # ---- whose turn, what is legal ---------------------------------------------------------

    def to_move(self) -> tuple[str, ...]:
        """The seat asked about the Override, the seat to ban, the All-In holders still to answer,
        or whoever the running task names."""
        if self.is_over:
            return ()
        if self.phase == "override":
            return (self.override_queue[0],)
        if self.phase == "ban":
            return (self.banner,) if self.banner is not None else ()
        if self.phase == "items":
            return self.all_in_answers.owed()
        assert self.task is not None
        return self.task.to_move()

    def is_private(self, move: Move) -> bool:
        """All-In answers are sealed (by direct message); a task's moves are as the task says."""
        if isinstance(move, AllInAnswer):
            return True
        if isinstance(move, _OWN_MOVES):
            return False
        return self.task.is_private(move) if self.task is not None else False

    def window(self) -> Window | None:
        """The running task's timed window, if any."""
        if self.is_over or self.phase != "task" or self.task is None:
            return None
        return self.task.window()

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """A ban, an Override answer, an All-In answer, or the running task's own move."""
        self.require_seat(seat)
        if self.is_over:
            raise NotYourTurnError(say("The match is over; no more moves are taken."))
        if self.phase == "task":
            assert self.task is not None
            return self.task.parse_move(text, seat, private=private)
        if self.phase == "items":
            return self._parse_all_in(text, seat, private)
        self.require_turn(seat)
        if not isinstance(text, str):
            raise MalformedMoveError(say("Write your move as text, such as ban chain."))
        words = [w for w in re.split(r"[\s,;:.!]+", text.strip().lower()) if w]
        if self.phase == "override":
            return self._parse_override(text, words, seat, private)
        return self._parse_ban(text, words, seat, private)

    def _room_only(self, private: bool) -> None:
        if private:
            raise WrongPlaceError(
                say("Type this in the game room, not by direct message: bans and the Override are public."),
                private=False,
            )

    def _parse_ban(self, text: str, words: list[str], seat: str, private: bool) -> Ban:
        if words and words[0] in ("ban", "bans"):
            words = words[1:]
        if words[:2] == ["use", "override"] or words[:1] == ["override"]:
            raise IllegalMoveError(
                say(
                    "The Override is used only before the first ban of a play, when I ask you; now ban an "
                    "anomaly, such as {example}.",
                    example=self._example_ban(),
                )
            )
        task = self.current_task
        name = "-".join(words)
        owner = task_of(name) if name else None
        if owner is None:
            shown = text.strip()[:40]
            example, pool = self._example_ban(), anomaly_list(self.pool)
            if shown:
                raise MalformedMoveError(
                    say(
                        "{text} is not a ban; write ban and an anomaly, such as {example}. Open: {open}.",
                        text=Verbatim(repr(shown)),
                        example=example,
                        open=pool,
                    )
                )
            raise MalformedMoveError(
                say("write ban and an anomaly, such as {example}. Open: {open}.", example=example, open=pool)
            )
        anomaly = next(a for a in TASK_ANOMALIES[owner] if anomaly_key(a) == anomaly_key(name))
        if owner != task:
            raise IllegalMoveError(
                say(
                    "{anomaly} is an anomaly of {other}; ban one of {task}'s: {open}.",
                    anomaly=ANOMALY_WORDS[anomaly],
                    other=TASK_TITLE_WORDS[owner],
                    task=TASK_TITLE_WORDS[task],
                    open=anomaly_list(self.pool),
                )
            )
        if anomaly not in self.pool:
            named, pool = ANOMALY_WORDS[anomaly], anomaly_list(self.pool)
            if self.time in (3, 4) and anomaly in self.played_anomalies():
                why = say(
                    "{anomaly} was played before, so it is not in this pool; ban one of: {open}.",
                    anomaly=named,
                    open=pool,
                )
            elif any(b["anomaly"] == anomaly for b in self.bans):
                why = say("{anomaly} is already banned; ban one of: {open}.", anomaly=named, open=pool)
            else:
                why = say("{anomaly} is not in the pool; ban one of: {open}.", anomaly=named, open=pool)
            raise IllegalMoveError(why)
        self._room_only(private)
        return Ban(seat, anomaly)

    def _parse_override(self, text: str, words: list[str], seat: str, private: bool) -> Move:
        if words in (["pass"], ["no"], ["skip"], ["pass", "override"]):
            self._room_only(private)
            return Pass(seat)
        if words[:2] == ["use", "override"]:
            names_typed = words[2:]
        elif words[:1] == ["override"]:
            names_typed = words[1:]
        else:
            shown = text.strip()[:40]
            example = self._example_override_text()
            if shown:
                raise MalformedMoveError(
                    say(
                        "{text} is not an answer; write use override and the anomalies, such as {example}, or pass.",
                        text=Verbatim(repr(shown)),
                        example=example,
                    )
                )
            raise MalformedMoveError(
                say("write use override and the anomalies, such as {example}, or pass.", example=example)
            )
        task, count = self.current_task, active_count(self.time)
        title, names = TASK_TITLE_WORDS[task], anomaly_list(TASK_ANOMALIES[task])
        chosen: list[str] = []
        for word in split_anomaly_words(" ".join(names_typed)):
            owner = task_of(word)
            if owner is None:
                raise MalformedMoveError(
                    say(
                        "{word} is not an anomaly; {task}'s are: {anomalies}.",
                        word=Verbatim(repr(word)),
                        task=title,
                        anomalies=names,
                    )
                )
            anomaly = next(a for a in TASK_ANOMALIES[owner] if anomaly_key(a) == anomaly_key(word))
            if owner != task:
                raise IllegalMoveError(
                    say(
                        "{anomaly} is an anomaly of {other}; pick from {task}'s: {anomalies}.",
                        anomaly=ANOMALY_WORDS[anomaly],
                        other=TASK_TITLE_WORDS[owner],
                        task=title,
                        anomalies=names,
                    )
                )
            if anomaly in chosen:
                raise IllegalMoveError(
                    say_n(
                        "{anomaly} is named twice; pick {n} anomaly.",
                        "{anomaly} is named twice; pick {n} different anomalies.",
                        anomaly=ANOMALY_WORDS[anomaly],
                        n=count,
                    )
                )
            chosen.append(anomaly)
        if len(chosen) != count:
            raise IllegalMoveError(
                say_n(
                    "This play has {n} active anomaly, so pick exactly {n}, such as {example}.",
                    "This play has {n} active anomalies, so pick exactly {n}, such as {example}.",
                    n=count,
                    example=self._example_override_text(),
                )
            )
        if frozenset(chosen) in self.played_combinations():
            raise IllegalMoveError(
                say(
                    "{task} has been played with {anomalies} before; pick a combination not played before.",
                    task=title,
                    anomalies=anomaly_list(canonical_order(chosen, task)),
                )
            )
        self._room_only(private)
        return UseOverride(seat, canonical_order(chosen, task))

    def _parse_all_in(self, text: str, seat: str, private: bool) -> AllInAnswer:
        if seat not in self.all_in_answers.seats:
            raise NotYourTurnError(
                say("You hold no All-In to use; wait while the All-In answers come in.")
                if self.all_in_left[seat] == 0
                else say("It is not your turn.")
            )
        if self.all_in_answers.has_sealed(seat):
            raise NotYourTurnError(
                say(
                    "You have already answered about your All-In; the first answer stands. Wait for {seat}.",
                    seat=Seat(other_seat(seat)),
                )
            )
        if not isinstance(text, str):
            raise MalformedMoveError(say("Write use all-in or pass."))
        key = re.sub(r"[\s_\-]+", "", text.strip().lower())
        if key in ("useallin", "allin", "use", "yes"):
            use = True
        elif key in ("pass", "no", "keep", "passallin"):
            use = False
        else:
            shown = text.strip()[:40]
            if shown and private:
                refusal = say("{text} is not an answer; send use all-in or pass here.", text=Verbatim(repr(shown)))
            elif shown:
                refusal = say(
                    "{text} is not an answer; send use all-in or pass by direct message.", text=Verbatim(repr(shown))
                )
            elif private:
                refusal = say("send use all-in or pass here.")
            else:
                refusal = say("send use all-in or pass by direct message.")
            raise MalformedMoveError(refusal)
        require_private(
            private,
            say(
                "Send this to me by direct message, not in the game room: the All-In answers are sealed "
                "until both are in."
            ),
        )
        return AllInAnswer(seat, use)

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        """Every legal submission of ``seat`` (default: every seat to move)."""
        movers = self.to_move()
        for mover in movers if seat is None else [seat]:
            if mover not in movers:
                continue
            if self.phase == "task":
                assert self.task is not None
                yield from self.task.legal_moves(mover)
            elif self.phase == "items":
                yield AllInAnswer(mover, True)
                yield AllInAnswer(mover, False)
            elif self.phase == "override":
                yield Pass(mover)
                for combo in self._override_choices():
                    yield UseOverride(mover, combo)
            else:
                for anomaly in self.pool:
                    yield Ban(mover, anomaly)

    # ---- playing ---------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Apply a ban, an Override answer, an All-In answer or a task move, and say what happened."""
        if isinstance(move, _OWN_MOVES):
            if self.phase == "task" or self.parse_move(move.text(), move.seat, private=self.is_private(move)) != move:
                raise IllegalMoveError(
                    say("{move} cannot be played now; submit it again as text.", move=Verbatim(repr(move.text())))
                )
            if isinstance(move, Ban):
                return self._apply_ban(move.seat, move.anomaly, timeout=False)
            if isinstance(move, Pass):
                return self._apply_pass(move.seat, timeout=False)
            if isinstance(move, UseOverride):
                return self._apply_override(move)
            return self._apply_all_in(move.seat, move.use, timeout=False)
        if self.phase != "task" or self.task is None or self.is_over:
            raise IllegalMoveError(say("That move belongs to a task, and no task is running; wait for the next phase."))
        if not self.task.is_legal(move):
            raise IllegalMoveError(
                say("{move} cannot be played as given; submit it again as text.", move=Verbatim(repr(move.text())))
            )
        events = self._wrap(self.task.play(move))
        if not self.task.is_private(move):
            self.last_move = move.text()
        return events + self._after_task_step()

    def _apply_ban(self, seat: str, anomaly: str, *, timeout: bool) -> list[Event]:
        self.pool.remove(anomaly)
        self.bans.append({"seat": seat, "anomaly": anomaly, "timeout": timeout})
        self.bans_left -= 1
        if not timeout:
            self.last_move = f"ban {anomaly}"
        if timeout:
            said = say(
                "{seat} ran out of time, so {anomaly} is banned for them at random.",
                seat=Seat(seat),
                anomaly=ANOMALY_WORDS[anomaly],
            )
        else:
            said = say("{seat} bans {anomaly}.", seat=Seat(seat), anomaly=ANOMALY_WORDS[anomaly])
        kind = EventKind.TIMEOUT if timeout else AllHandsOnDeckEvent.BAN
        events = [Event.of(said, kind=kind, data={"seat": seat, "anomaly": anomaly, "timeout": timeout})]
        if self.bans_left > 0:
            return events + self._ban_prompt()
        return events + self._choose(
            tuple(self.pool),
            say_n(
                "The active anomaly is: {anomalies}.",
                "The active anomalies are: {anomalies}.",
                n=len(self.pool),
                anomalies=anomaly_list(self.pool),
            ),
        )

    def _apply_pass(self, seat: str, *, timeout: bool) -> list[Event]:
        self.override_queue.pop(0)
        if not timeout:
            self.last_move = "pass"
        kind = EventKind.TIMEOUT if timeout else AllHandsOnDeckEvent.OVERRIDE
        if timeout:
            said = say("{seat} ran out of time, so passes on the Override.", seat=Seat(seat))
        else:
            said = say("{seat} passes on the Override.", seat=Seat(seat))
        events = [Event.of(said, kind=kind, data={"seat": seat, "used": False})]
        if self.override_queue:
            return events + self._override_prompt()
        return events + self._start_bans()

    def _apply_override(self, move: UseOverride) -> list[Event]:
        self.override_left[move.seat] -= 1
        self.override_by = move.seat
        self.override_queue = []
        self.pool, self.bans_left = [], 0
        self.last_move = move.text()
        return self._choose(
            move.anomalies,
            say_n(
                "{seat} uses the Override ({uses}): the active anomaly is {anomalies}.",
                "{seat} uses the Override ({uses}): the active anomalies are {anomalies}.",
                seat=Seat(move.seat),
                uses=_uses_left(self.override_left[move.seat]),
                n=len(move.anomalies),
                anomalies=anomaly_list(move.anomalies),
            ),
        )

    def _apply_all_in(self, seat: str, use: bool, *, timeout: bool) -> list[Event]:
        self.all_in_answers.seal(seat, use)
        if timeout:
            events = [
                Event.of(
                    say("{seat} sent no All-In answer in time, so keeps it.", seat=Seat(seat)),
                    kind=AllHandsOnDeckEvent.SUBMITTED,
                    data={"seat": seat, "timeout": True},
                )
            ]
        else:
            events = [
                sealed_event(
                    seat, say("Your answer is in: use all-in.") if use else say("Your answer is in: pass."), use=use
                ),
                Event.of(
                    say("{seat} has sent an All-In answer.", seat=Seat(seat)),
                    kind=AllHandsOnDeckEvent.SUBMITTED,
                    data={"seat": seat},
                ),
            ]
        if not self.all_in_answers.all_in:
            return events
        self.all_in_used = [s for s, used in self.all_in_answers.reveal().items() if used]
        for s in self.all_in_used:
            self.all_in_left[s] -= 1
        worth = points_for(self.time, len(self.all_in_used))
        if len(self.all_in_used) == 1:
            said = say(
                "{seat} uses All-In: this play is worth {points} points to its winner.",
                seat=Seat(self.all_in_used[0]),
                points=worth,
            )
        elif self.all_in_used:
            said = say(
                "{seats} use All-In: this play is worth {points} points to its winner.",
                seats=_seats(self.all_in_used),
                points=worth,
            )
        else:
            said = say("Nobody uses All-In on this play.")
        events.append(Event.of(said, kind=AllHandsOnDeckEvent.ALL_IN, data={"used": list(self.all_in_used)}))
        return events + self._start_task()

    # ---- the running task ------------------------------------------------------------------

    def _wrap(self, events: list[Event]) -> list[Event]:
        """The task's events, unchanged but for the play they belong to. Its end is not the match's:
        it is a ``task-end``; a task lost on time says so as the timeout of its seat (its text), the
        ``task-end`` then being data only."""
        wrapped: list[Event] = []
        for e in events:
            data = {**e.data, "task": self.current_task, "play": self.play_no}
            if e.kind != EventKind.END:
                wrapped.append(e.replace(data=data))
                continue
            ending = Outcome.from_dict(e.data)
            if ending is not None and ending.termination is Termination.TIME and "seat" in ending.data:
                seat = ending.data["seat"]
                wrapped.append(e.replace(kind=EventKind.TIMEOUT, data={**data, "seat": seat}))
                wrapped.append(Event("", seats=e.seats, kind=AllHandsOnDeckEvent.TASK_END, data=data))
            else:
                wrapped.append(e.replace(kind=AllHandsOnDeckEvent.TASK_END, data=data))
        return wrapped

    def _after_task_step(self) -> list[Event]:
        assert self.task is not None
        if not self.task.is_over:
            return []
        return self._score()

    def _final_board(self) -> list[Event]:
        """The finished task's board as it ended (Deck Swabbing) or its grid as it was (Tile
        Decklaration, its marks with it). The board shown after this action is the next play's, so
        this text is the only place the finished board is seen (Tile Decklaration's own final-grid
        event carries the grid as data only; Dueling Decks' rounds are in its events)."""
        task = self.task
        where = {"play": self.play_no, "task": self.current_task}
        if isinstance(task, DeckSwabbing):
            board = Verbatim(swabbing_board_text(task.board, task.numbers))
            return [
                Event.of(
                    say("The board as it ended:\n{board}", board=board),
                    kind=AllHandsOnDeckEvent.FINAL_BOARD,
                    data={**where, "board": {str(p): v for p, v in task.board.items()}},
                )
            ]
        if isinstance(task, TileDecklaration):
            grid = Verbatim(tiles_grid_text(task.grid, task.marks))
            return [
                Event.of(
                    say("The grid as it was:\n{grid}", grid=grid),
                    kind=AllHandsOnDeckEvent.FINAL_BOARD,
                    data={**where, "grid": {str(p): c for p, c in task.grid.items()}},
                )
            ]
        return []

    def _score(self) -> list[Event]:
        assert self.task is not None
        outcome = self.task.outcome()
        assert outcome is not None
        winner = outcome.winner if outcome.winner in self.seats else None
        gained = points_for(self.time, len(self.all_in_used)) if winner else 0
        if winner:
            self.points[winner] += gained
        self.plays.append(
            {
                "play": self.play_no,
                "task": self.current_task,
                "time": self.time,
                "anomalies": list(self.chosen or ()),
                "bans": [dict(b) for b in self.bans],
                "override": self.override_by,
                "all_in": list(self.all_in_used),
                "winner": winner,
                "points": gained,
                "reason": outcome.reason,
            }
        )
        title, p1, p2 = TASK_TITLE_WORDS[self.current_task], self.points["p1"], self.points["p2"]
        if winner and self.all_in_used:
            said = say(
                "{seat} wins play {play} ({task}) and scores {points} ({time} + {bonus} All-In). "
                "Score: {p1} {p1_points}, {p2} {p2_points}.",
                seat=Seat(winner),
                play=self.play_no,
                task=title,
                points=gained,
                time=self.time,
                bonus=ALL_IN_POINTS * len(self.all_in_used),
                p1=Seat("p1"),
                p1_points=p1,
                p2=Seat("p2"),
                p2_points=p2,
            )
        elif winner:
            said = say(
                "{seat} wins play {play} ({task}) and scores {points}. Score: {p1} {p1_points}, {p2} {p2_points}.",
                seat=Seat(winner),
                play=self.play_no,
                task=title,
                points=gained,
                p1=Seat("p1"),
                p1_points=p1,
                p2=Seat("p2"),
                p2_points=p2,
            )
        else:
            said = say(
                "Play {play} ({task}) has no winner; nobody scores. Score: {p1} {p1_points}, {p2} {p2_points}.",
                play=self.play_no,
                task=title,
                p1=Seat("p1"),
                p1_points=p1,
                p2=Seat("p2"),
                p2_points=p2,
            )
        events = [
            *self._final_board(),
            Event.of(
                said,
                kind=AllHandsOnDeckEvent.SCORE,
                data={"play": self.play_no, "winner": winner, "points": gained, "score": dict(self.points)},
            ),
        ]
        if winner and self.points[winner] >= TARGET:
            mine, theirs = self.points[winner], self.points[other_seat(winner)]
            return events + self._finish(
                winner,
                "target",
                say(
                    "{seat} reaches {points} points and wins All Hands On Deck, {points} to {other_points}",
                    seat=Seat(winner),
                    points=mine,
                    other_points=theirs,
                ),
            )
        if self.play_no >= PLAYS_TOTAL:
            # Unreachable (45 points are shared out, so someone has 23), kept so the match always ends.
            best = max(self.seats, key=lambda s: (self.points[s], s == self.previous_winner()))
            return events + self._finish(
                best,
                "plays-used",
                say(
                    "All {plays} plays are over; {seat} has the most points and wins",
                    plays=PLAYS_TOTAL,
                    seat=Seat(best),
                ),
            )
        self.play_no += 1
        return events + [self._play_announcement()] + self._open_play()

    def _finish(self, winner: str, reason: str, how: Message) -> list[Event]:
        self.phase = "over"
        self.result = {"winner": winner, "points": dict(self.points), "reason": reason}
        ending = Termination.RESIGNATION if reason == "resign" else Termination.POINTS
        return self.end(winner, ending, how, verdict="", rule=reason, points=dict(self.points))

    # ---- windows and clocks ------------------------------------------------------------------

    def close_window(self) -> list[Event]:
        """Close the running task's timed window."""
        if self.is_over or self.phase != "task" or self.task is None or self.task.window() is None:
            raise GameError(say("There is no timed phase to close."))
        return self._wrap(self.task.close_window()) + self._after_task_step()

    def timeout(self, seat: str) -> list[Event]:
        """A seat's clock ran out: in a task, what the task says; asked about the Override, it
        passes; to ban, a random open anomaly (from the seed) is banned for it; about All-In, it
        keeps the item."""
        self.require_seat(seat)
        if self.is_over or seat not in self.to_move():
            return []
        if self.phase == "task":
            assert self.task is not None
            return self._wrap(self.task.timeout(seat)) + self._after_task_step()
        if self.phase == "override":
            return self._apply_pass(seat, timeout=True)
        if self.phase == "items":
            return self._apply_all_in(seat, False, timeout=True)
        rng = random.Random(f"{self.seed}:allhands:ban:{self.play_no}:{len(self.bans)}")
        return self._apply_ban(seat, rng.choice(self.pool), timeout=True)

    def resign(self, seat: str) -> list[Event]:
        """The seat concedes the whole match (a running task ends with it, revealing what it hid)."""
        self.require_seat(seat)
        if self.is_over:
            return []
        events: list[Event] = []
        if self.phase == "task" and self.task is not None and not self.task.is_over:
            events = self._wrap(self.task.resign(seat))
        return events + self._finish(
            other_seat(seat),
            "resign",
            say(
                "{seat} resigned the match; {winner} wins All Hands On Deck",
                seat=Seat(seat),
                winner=Seat(other_seat(seat)),
            ),
        )

    # ---- what a seat sees ------------------------------------------------------------------

    def view(self, seat: str | None = None) -> AllHandsView:
        """The scoreboard for ``seat`` plus the running task's own view for ``seat``."""
        over = self.is_over
        current: CurrentPlay | None = None
        if not over:
            current = {
                "play": self.play_no,
                "task": self.current_task,
                "title": TASK_TITLES[self.current_task],
                "time": self.time,
                "worth": self.time,
                "anomaly_count": active_count(self.time),
                "first": self.previous_winner(),
                "pool": list(self.pool) if self.phase in ("override", "ban") else [],
                "bans": [dict(b) for b in self.bans],
                "bans_left": self.bans_left if self.phase in ("override", "ban") else 0,
                "banner": self.banner,
                "override": {
                    "asked": self.override_queue[0] if self.phase == "override" else None,
                    "by": self.override_by,
                },
                "anomalies": list(self.chosen) if self.chosen is not None else None,
                "all_in": {
                    "answered": self.all_in_answers.submitted(),
                    "used": list(self.all_in_used),
                },
            }
        mine = self.all_in_answers.sealed_by(seat) if self.phase == "items" else None
        sealed = None if mine is None else ("use all-in" if mine else "pass")
        return {
            **self.base_view(),
            "phase": "over" if over else self.phase,
            "target": TARGET,
            "plays_total": PLAYS_TOTAL,
            "all_in_points": ALL_IN_POINTS,
            "order": list(TASKS),
            "points": dict(self.points),
            "play": self.play_no,
            "current": current,
            "plays": [_copy_play(p) for p in self.plays],
            "items": {
                s: {"all_in": self.all_in_left[s], "override": self.override_left[s], "clock": "clock" in self.given[s]}
                for s in self.seats
            },
            "sealed": sealed,
            "task": self.task.view(seat) if self.task is not None and self.phase == "task" else None,
            "last_move": self.last_move,
            "result": dict(self.result, points=dict(self.result["points"])) if self.result else None,
        }

    def clock_holders(self) -> tuple[str, ...]:
        """The seats that hold the Clock item (3 min of reserve for the whole match)."""
        return tuple(s for s in self.seats if "clock" in self.given[s])

    # ---- serialisation ---------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """Everything, the running task's whole state (hidden parts included) among it."""
        return {
            "first": self.first,
            "given": {s: list(i) for s, i in self.given.items()},
            "all_in_left": dict(self.all_in_left),
            "override_left": dict(self.override_left),
            "points": dict(self.points),
            "plays": [_copy_play(p) for p in self.plays],
            "play_no": self.play_no,
            "phase": self.phase,
            "pool": list(self.pool),
            "bans": [dict(b) for b in self.bans],
            "bans_left": self.bans_left,
            "override_queue": list(self.override_queue),
            "override_by": self.override_by,
            "chosen": list(self.chosen) if self.chosen is not None else None,
            "all_in_answers": self.all_in_answers.to_dict(),
            "all_in_used": list(self.all_in_used),
            "task": self.task.to_dict() if self.task is not None else None,
            "last_move": self.last_move,
            "result": dict(self.result, points=dict(self.result["points"])) if self.result else None,
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`state_dict`."""
        self.first = data["first"]
        self.given = {s: tuple(i) for s, i in data["given"].items()}
        self.all_in_left = {s: int(n) for s, n in data["all_in_left"].items()}
        self.override_left = {s: int(n) for s, n in data["override_left"].items()}
        self.points = {s: int(n) for s, n in data["points"].items()}
        self.plays = [_copy_play(p) for p in data["plays"]]
        self.play_no = int(data["play_no"])
        self.phase = data["phase"]
        self.pool = list(data["pool"])
        self.bans = [dict(b) for b in data["bans"]]
        self.bans_left = int(data["bans_left"])
        self.override_queue = list(data["override_queue"])
        self.override_by = data["override_by"]
        self.chosen = tuple(data["chosen"]) if data["chosen"] is not None else None
        self.all_in_answers = SealedRound.from_dict(data["all_in_answers"], bool)
        self.all_in_used = list(data["all_in_used"])
        self.task = _TASK_GAMES[data["task"]["game"]].from_dict(data["task"]) if data["task"] is not None else None
        self.last_move = data["last_move"]
        self.result = dict(data["result"], points=dict(data["result"]["points"])) if data["result"] else None

    # ---- the practice opponent's hooks (see geniusbot.practice) --------------------------

    @classmethod
    def recall(cls, seat: str, views: Sequence[Mapping[str, Any]], memory: float) -> Sequence[Mapping[str, Any]]:
        """The views with each running task's views as that task's own :meth:`recall` keeps them."""
        if memory >= 1:
            return views
        recalled: list[Mapping[str, Any]] = []
        for view in views:
            current = view.get("current")
            if view.get("phase") == "task" and view.get("task") and current:
                task_cls = _TASK_GAMES[current["task"]]
                view = dict(view, task=task_cls.recall(seat, [view["task"]], memory)[0])
            recalled.append(view)
        return recalled

    @classmethod
    def determinize(
        cls, seat: str, views: Sequence[Mapping[str, Any]], rng: random.Random, **options: str
    ) -> AllHandsOnDeck | None:
        """A match ``seat`` cannot tell from the one it plays: the scoreboard, items, bans and
        Override as its view shows them, the other seat's sealed All-In answer drawn from ``rng``
        when it is in, and the running task the task's own determinization of the task views this
        play showed the seat."""
        if not views or views[-1]["phase"] == "over" or views[-1]["current"] is None:
            return None
        view, current = views[-1], views[-1]["current"]
        variant = options.pop("variant", None)
        game = cls.new(seed=0, variant=variant, **options)
        game.all_in_left = {s: int(view["items"][s]["all_in"]) for s in game.seats}
        game.override_left = {s: int(view["items"][s]["override"]) for s in game.seats}
        game.points = {s: int(n) for s, n in view["points"].items()}
        game.plays = [_copy_play(p) for p in view["plays"]]
        game.play_no, game.phase = int(view["play"]), view["phase"]
        game.pool, game.bans = list(current["pool"]), [dict(b) for b in current["bans"]]
        game.bans_left = int(current["bans_left"])
        asked = current["override"]["asked"]
        queue = [asked] if asked else []
        if asked == current["first"] and game.override_left[other_seat(asked)] > 0:
            queue.append(other_seat(asked))
        game.override_queue, game.override_by = queue, current["override"]["by"]
        game.chosen = tuple(current["anomalies"]) if current["anomalies"] is not None else None
        answers: SealedRound[bool] = SealedRound(current["all_in"]["answered"])
        used = current["all_in"]["used"]
        for holder, answered in current["all_in"]["answered"].items():
            if not answered:
                continue
            if game.phase != "items":
                answers.seal(holder, holder in used)  # both answers are shown together
            elif holder == seat:
                answers.seal(holder, view["sealed"] == "use all-in")
            else:
                answers.seal(holder, rng.random() < 0.5)
        game.all_in_answers, game.all_in_used = answers, list(used)
        game.last_move, game.task = view["last_move"], None
        if game.phase == "task":
            task_cls = _TASK_GAMES[game.current_task]
            shown = [v["task"] for v in views if v["phase"] == "task" and v["play"] == view["play"] and v["task"]]
            task = task_cls.determinize(seat, shown, rng, **game.task_options())
            if task is None:
                return None
            game.task = task
        return game

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        """The running task's rollout policy; a random answer, ban or Override choice between plays."""
        if self.phase == "task" and self.task is not None and not self.is_over:
            return self.task.rollout_move(seat, rng)
        return None

    def evaluate(self, seat: str) -> float | None:
        """The lead in points, with the running play's worth won or lost as the task's own
        evaluation of it says (even without one)."""
        other = other_seat(seat)
        lead: float = self.points[seat] - self.points[other]
        if self.phase == "task" and self.task is not None:
            outcome = self.task.outcome()
            if outcome is not None:
                chance = 0.5 if outcome.winner is None else float(outcome.winner == seat)
            else:
                value = self.task.evaluate(seat)
                chance = 0.5 if value is None else value
            lead += (2 * chance - 1) * self.time
        return 0.5 + 0.5 * math.tanh(lead / 8)

    def search_moves(self, seat: str) -> list[Move] | None:
        """The running task's moves worth searching."""
        if self.phase == "task" and self.task is not None and not self.is_over:
            return self.task.search_moves(seat)
        return None


def _copy_play(play: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **play,
        "anomalies": list(play["anomalies"]),
        "bans": [dict(b) for b in play["bans"]],
        "all_in": list(play["all_in"]),
    }


__all__ = [
    "PLAYS_TOTAL",
    "TARGET",
    "AllHandsOnDeck",
    "AllInAnswer",
    "Ban",
    "Pass",
    "UseOverride",
    "active_count",
    "derived_seed",
    "override_allowed",
    "parse_items",
    "points_for",
    "task_for",
    "time_of",
]
