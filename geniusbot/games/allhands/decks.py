"""Dueling Decks (seed 001, task 2 of the final match All Hands On Deck): sealed card duels for
seven prize cards.

The readings are fixed in ``docs/rules/decks.md`` (its rules and numbered rulings). In short:

* Each seat starts the task with 50 power and 0 points. Seven prize cards 4..10, shuffled from the
  seed, are revealed in order at the start; one is played for in each round.
* Create phase (both seats at once, by DM): ``create 20 15`` makes cards of those values (each
  value is subtracted from power, which never goes below 0) as long as the hand stays within the
  deck size (2; Overshadow or Revolution: 3); ``create none`` makes nothing. Hands are public.
* Play phase (both seats at once, by DM): ``play 20 15``, ``play none`` (Backup: ``play 20
  backup 3``). The higher sum scores the prize; equal sums split it (halves allowed). Played cards
  are discarded. A create phase comes before every round.
* First to 25 points wins; both at once, or all seven prizes used with equal scores: the
  ``tiebreak`` seat wins (default: the seat that won the most recent round of this task outright;
  no such round: p2). All prizes used, nobody at 25: the higher score wins.
* A seat whose time runs out submits nothing for that phase.
* Anomalies (option ``anomalies``): backup, darkness, overshadow, pick-your-prize, revolution, in
  any combination.

Sums are kept in tenths (Revolution's 0.1) and points in halves (a split prize), as integers, so
every comparison is exact.

Phases: ``create``, ``play``, ``over``.

View keys (besides ``game``, ``variant``, ``to_move``, ``outcome``):

``phase``
    ``create``, ``play`` or ``over``.
``round``, ``rounds``
    The number (1-7) of the round being prepared or played (the last one once the task is over),
    and 7.
``anomalies``, ``deck_size``
    The active anomalies (canonical names, in the text's order) and the hand limit (2 or 3).
``tiebreak``
    The seat the ``tiebreak`` option names, else ``None`` (the task's own rule then applies).
``prizes``
    The seven prize values in the order they are played (public from the start); with Pick Your
    Prize they have no set value: seven ``None``.
``prize``
    The value of this round's prize card (``None`` with Pick Your Prize, or once over).
``power``
    Seat -> power left (public: it follows from the public creations).
``hands``
    Seat -> the cards in hand, highest first. Darkness: only the viewer's own hand (the
    opponent's is ``None``, since its plays are unknown) until the task is over.
``points``
    Seat -> points (a number; halves from split prizes). Darkness with Pick Your Prize: ``None``
    for both seats until the task is over (no one learns a prize's value).
``backups_left``
    Backup: seat -> uses left (Darkness: the opponent's is ``None`` until the end); else ``None``.
``submitted``
    Seat -> whether its sealed submission for this phase is in (never what it is).
``sealed``
    The viewer's own sealed submission this phase, ``{"cards", "backup"}`` (``cards`` are the
    cards created, or played), else ``None``. Never in the public view or the opponent's.
``created``
    Every finished create phase: ``{"round", "cards": {seat: [values]}}`` (public, Darkness too).
``history``
    Every resolved round: ``{"round", "prize", "plays", "counted", "sums", "winner", "points"}``:
    ``prize`` the value played for; ``plays`` seat -> ``{"cards", "backup"}``; ``counted`` seat ->
    what each played card added to the sum (0 when overshadowed, 0.1 under Revolution); ``sums``
    seat -> the round-end sum; ``winner`` a seat, or ``None`` for a tie (a split); ``points`` seat
    -> points scored. Under Darkness ``plays``, ``counted`` and ``sums`` are ``None`` (the viewer's
    own play still shows under ``plays``), and with Pick Your Prize so are ``prize`` and ``points``,
    until the task is over; then everything shows.
``last_move``
    The viewer's own last submission (every move here is sealed), ``None`` in the public view.
``result``
    Once over: ``{"reason", "tiebreak"}``: ``reason`` one of ``reached-25``, ``both-25``,
    ``prizes-used``, ``resign``; ``tiebreak`` the seat a tie-break chose, else ``None``.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple, cast

from geniusbot.games.allhands.common import TASK_ANOMALIES, parse_anomalies as parse_family_anomalies
from geniusbot.games.allhands.task import AllHandsTask, task_options
from geniusbot.games.allhands.view import DuelingDecksView
from geniusbot.games.base import (
    Event,
    EventKind,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotYourTurnError,
    Termination,
    other_seat,
)
from geniusbot.games.sealed import SealedRound, require_private, sealed_event
from geniusbot.words import Argument, Listing, Message, Seat, Verbatim, say, say_c, say_n

START_POWER = 50
DECK_SIZE = 2
BIG_DECK_SIZE = 3
PRIZES: tuple[int, ...] = tuple(range(4, 11))
WINNING_POINTS = 25
BACKUP_USES = 2
BACKUP_MAX = 3
#: The plays the practice opponent searches in a play phase (the best by their worth).
PLAY_FOCUS = 2

#: The anomalies of Task 2, in the order the rule text lists them.
ANOMALIES: tuple[str, ...] = TASK_ANOMALIES["decks"]

#: A hand, or a play, with no card in it.
NO_CARDS = say_c("cards", "no cards")


class DuelingDecksEvent(StrEnum):
    """Dueling Decks' own event kinds (a host treats them as :attr:`EventKind.INFO`)."""

    #: The prize cards, said at the start: ``data["prizes"]``, in order (each ``None`` under Pick Your Prize).
    PRIZES = "prizes"
    #: A phase waits for submissions: ``data`` has the ``phase`` (create, play), the ``round`` and the ``seats``.
    PHASE = "phase"
    #: A seat's sealed move is in (the room learns that, never what): ``data`` has the ``seat`` and ``phase``.
    SUBMITTED = "submitted"
    #: A seat with no choice this phase submits nothing: ``data`` has the ``seat`` and the ``phase``.
    SKIPPED = "skipped"
    #: The create phase resolved: ``data`` has the ``round`` and each seat's new ``cards``.
    CREATED = "created"
    #: A round resolved: ``data`` has the ``round`` and ``winner``, and what Darkness does not hide of it.
    ROUND = "round"
    #: Darkness lifts when the task ends: ``data`` has every round's ``history`` and the ``points``.
    REVEAL = "reveal"


_TOKEN = re.compile(r"[a-z]+|[0-9]+")
_FILLER = re.compile(r"^[\s,;:+&()]*$")
#: More digits than this is more power than anyone has; int() is never asked to read a huge number.
_MAX_DIGITS = 6


def parse_anomalies(text: str) -> tuple[str, ...]:
    """The anomalies an ``anomalies`` option names, in the text's order, or :class:`OptionError`.

    Names are Task 2's five (``backup, darkness, overshadow, pick-your-prize, revolution``), read
    as the whole family reads them (:mod:`geniusbot.games.allhands.common`); ``none`` or nothing
    means no anomaly.
    """
    return parse_family_anomalies(text, "decks")


def deal_prizes(seed: int) -> list[int]:
    """The seven prize cards 4..10 in the order they are played, shuffled from ``seed``."""
    prizes = list(PRIZES)
    random.Random(f"{seed}:decks:prizes").shuffle(prizes)
    return prizes


def deck_size_for(anomalies: Iterable[str]) -> int:
    """The hand limit: 3 with Overshadow or Revolution (both together: still 3), else 2."""
    chosen = set(anomalies)
    return BIG_DECK_SIZE if chosen & {"overshadow", "revolution"} else DECK_SIZE


def card_contributions(cards: Mapping[str, Sequence[int]], anomalies: Iterable[str]) -> dict[str, list[int]]:
    """What each played card adds to its owner's round-end sum, in tenths, card by card.

    Overshadow: a card x-1 adds nothing when any x was played by either seat (a card that adds
    nothing is still played, so it overshadows x-2 in turn). Revolution: every copy of the highest
    value played by either seat adds 0.1. The highest card can never be overshadowed (nothing
    higher was played), so the two never compete for one card.
    """
    chosen = set(anomalies)
    played = [v for seat_cards in cards.values() for v in seat_cards]
    values = set(played)
    highest = max(played) if played else None
    result: dict[str, list[int]] = {}
    for seat, seat_cards in cards.items():
        counted = []
        for value in seat_cards:
            if "overshadow" in chosen and value + 1 in values:
                counted.append(0)
            elif "revolution" in chosen and value == highest:
                counted.append(1)
            else:
                counted.append(10 * value)
        result[seat] = counted
    return result


def pick_your_prize_value(cards: Iterable[int]) -> int:
    """Pick Your Prize: the average face value of every card played this round (both seats,
    overshadowed and Revolution's highest at full value), rounded up; no card played: 0."""
    played = list(cards)
    if not played:
        return 0
    return -(-sum(played) // len(played))


def resolve_round(
    plays: Mapping[str, tuple[Sequence[int], int]], prize: int, anomalies: Iterable[str]
) -> dict[str, Any]:
    """Score one round: ``plays`` is seat -> (cards, backup). Sums in tenths, points in halves.

    Returns ``{"value", "counted", "sums", "winner", "award"}``: ``value`` is the prize played for
    (Pick Your Prize: the rounded-up average of the cards), ``winner`` a seat or ``None`` (a
    split), ``award`` seat -> halves of a point.
    """
    chosen = tuple(anomalies)
    cards = {seat: list(play[0]) for seat, play in plays.items()}
    counted = card_contributions(cards, chosen)
    sums = {seat: sum(counted[seat]) + 10 * plays[seat][1] for seat in plays}
    if "pick-your-prize" in chosen:
        value = pick_your_prize_value(v for seat_cards in cards.values() for v in seat_cards)
    else:
        value = prize
    p1, p2 = sums["p1"], sums["p2"]
    if p1 == p2:
        winner, award = None, {"p1": value, "p2": value}
    else:
        winner = "p1" if p1 > p2 else "p2"
        award = {seat: 2 * value if seat == winner else 0 for seat in ("p1", "p2")}
    return {"value": value, "counted": counted, "sums": sums, "winner": winner, "award": award}


def tenths(amount: int) -> int | float:
    """An amount kept in tenths, as a plain number (``203`` -> ``20.3``, ``200`` -> ``20``)."""
    return amount // 10 if amount % 10 == 0 else round(amount / 10, 1)


def halves(amount: int) -> int | float:
    """An amount kept in halves, as a plain number (``25`` -> ``12.5``, ``24`` -> ``12``)."""
    return amount // 2 if amount % 2 == 0 else amount / 2


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(str(v) for v in cards) if cards else "none"


def _cards_said(cards: Sequence[int]) -> Listing | Message:
    """Cards as a sentence lists them (``20, 15``), or "no cards"."""
    return Listing(tuple(say_c("card", "{value}", value=v) for v in cards)) if cards else NO_CARDS


def _amount_said(amount: int, scale: int) -> int | Message:
    """An amount kept in ``scale``-ths (tenths, halves) as a number a sentence says: the whole
    number, or the number with its decimal fraction (``20.3``, ``12.5``), as :func:`tenths` and
    :func:`halves` write it."""
    whole, part = divmod(amount, scale)
    if part == 0:
        return whole
    return say_c("decimal number", "{whole}.{fraction}", whole=whole, fraction=part * 10 // scale)


def _already_in(phase: str, how: str, other: Seat) -> Message:
    """The refusal of a second submission in a phase: the seat's is in (sent, timed out or
    skipped), so it waits for ``other``."""
    if phase == "create":
        if how == "sent":
            return say(
                "You have already sent your creations for this phase; the first one stands. Wait for {seat}.",
                seat=other,
            )
        if how == "timeout":
            return say("Your time ran out this phase, so you create nothing. Wait for {seat}.", seat=other)
        return say("You have nothing to create this phase. Wait for {seat}.", seat=other)
    if how == "sent":
        return say("You have already sent your play for this phase; the first one stands. Wait for {seat}.", seat=other)
    if how == "timeout":
        return say("Your time ran out this phase, so you play nothing. Wait for {seat}.", seat=other)
    return say("You have nothing to play this phase. Wait for {seat}.", seat=other)


def _descending(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards, reverse=True))


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Create(Move):
    """The seat's sealed creations for this create phase (highest first; empty: none)."""

    cards: tuple[int, ...]

    def text(self) -> str:
        """As a record writes it: ``create 20 15`` or ``create none``."""
        return f"create {_cards_text(self.cards)}"


@dataclass(frozen=True)
class Play(Move):
    """The seat's sealed play for this round: cards from its hand (highest first) and Backup."""

    cards: tuple[int, ...]
    backup: int = 0

    def text(self) -> str:
        """As a record writes it: ``play 20 15``, ``play none``, ``play 20 backup 3``, ``play backup 3``."""
        if self.backup:
            return f"play {' '.join(str(v) for v in self.cards) + ' ' if self.cards else ''}backup {self.backup}"
        return f"play {_cards_text(self.cards)}"


class Sealed(NamedTuple):
    """A seat's sealed submission in a phase: the cards created or played (highest first), the
    Backup amount, and how it came in: ``sent``, ``timeout`` or ``auto`` (a seat with no choice)."""

    cards: tuple[int, ...] = ()
    backup: int = 0
    how: str = "sent"

    def to_dict(self) -> dict[str, Any]:
        """As the state stores it: ``{"cards", "backup", "how"}``."""
        return {"cards": list(self.cards), "backup": self.backup, "how": self.how}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sealed:
        return cls(tuple(data["cards"]), int(data["backup"]), data["how"])


# --------------------------------------------------------------------------- the game


class DuelingDecks(AllHandsTask):
    """Dueling Decks: create cards from 50 power, then play them sealed for seven prize cards."""

    name = "decks"
    aliases = ("duelingdecks", "dueling")
    title = "Dueling Decks"
    picture = "geniusbot.games.allhands.picture_decks:render"
    # 30 s a phase and a 1 min reserve for the whole bout; one play of the task is one match, so
    # the reserve starts full in each.
    clocks = {"*": "30s+1m"}
    keywords = frozenset({"create", "play", "none", "backup"})
    # The play-out policy spends power and plays cards as a typical player does: the practice
    # opponent answers that player (rollout_move).
    answers_by_policy = True
    options = task_options(
        "decks",
        starter="p1 or p2: taken for the final match's sake; both seats act at once in Dueling Decks",
        tiebreak=(
            "p1 or p2: the seat that wins when both reach 25 at once or the scores end equal "
            "(default: the winner of the task's most recent round won outright, else p2)"
        ),
    )
    summary = say(
        "Each player starts with 50 power. Seven prize cards (4 to 10) are shuffled and shown in order. "
        "Before each round both players secretly create cards by direct message, 'create 20 15' or "
        "'create none': each card's value comes out of your power, and a hand holds at most 2 cards. "
        "Then both secretly play cards from their hands, 'play 20', 'play 20 15' or 'play none': the "
        "higher sum scores the prize card, equal sums split it, and played cards are discarded. Hands "
        "are public. First to 25 points wins; after seven prizes, the higher score. Time out: you "
        "submit nothing. Anomalies: Backup (add up to 3 to a round's sum twice a task: 'play 20 "
        "backup 3'), Darkness (only creations and round winners are shown), Overshadow (a played x "
        "cancels every played x-1; 3 cards a hand), Pick Your Prize (a prize is worth the rounded-up "
        "average of the cards played on it), Revolution (the highest card played adds only 0.1; 3 "
        "cards a hand)."
    )

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant)
        self.deck_size = DECK_SIZE
        self.prizes: list[int] = []
        self.phase = "create"
        self.round = 0
        self.power: dict[str, int] = {s: START_POWER for s in self.seats}
        self.hands: dict[str, list[int]] = {s: [] for s in self.seats}
        self.points: dict[str, int] = {s: 0 for s in self.seats}  # in halves
        self.backups_left: dict[str, int] = {s: 0 for s in self.seats}
        self.sealed: SealedRound[Sealed] = SealedRound(self.seats)
        self.created: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.last_moves: dict[str, str | None] = {s: None for s in self.seats}
        self.result: dict[str, Any] | None = None

    # ---- construction -----------------------------------------------------------------

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The board of the view in text (see :mod:`geniusbot.games.allhands.text`)."""
        from geniusbot.games.allhands.text import decks_lines

        return decks_lines(cast(DuelingDecksView, view))  # a host passes the views of this game

    def setup(self, **options: str) -> None:
        """Deal the prize cards from the seed and open the first create phase."""
        super().setup(**options)
        self.deck_size = deck_size_for(self.anomalies)
        self.prizes = deal_prizes(self.seed)
        self.backups_left = {s: BACKUP_USES if self.has("backup") else 0 for s in self.seats}
        self.phase, self.round = "create", 0
        # A seat with no choice at all is skipped at once (see _advance); at the start, none is.
        self._advance()

    def opening_events(self) -> list[Event]:
        """The events that open the task: the prize order and the first create phase."""
        if self.is_over:
            return []
        if self.has("pick-your-prize"):
            prizes = say(
                "Pick Your Prize: the seven prize cards have no set value; each is worth the "
                "rounded-up average of the cards played on it."
            )
        else:
            prizes = say("The prize cards, in order: {prizes}.", prizes=_cards_said(self.prizes))
        return [
            Event.of(prizes, kind=DuelingDecksEvent.PRIZES, data={"prizes": self._prize_list()}),
            *self._phase_prompt(),
        ]

    # ---- whose turn, what is legal ---------------------------------------------------------

    def to_move(self) -> tuple[str, ...]:
        """The seats whose sealed submission for this phase is not in yet."""
        return () if self.is_over else self.sealed.owed()

    def is_private(self, move: Move) -> bool:
        """Every creation and play is sealed: sent by direct message."""
        return True

    def can_create(self, seat: str) -> bool:
        """Whether ``seat`` could make any card now: power left and room in the hand."""
        return self.power[seat] > 0 and len(self.hands[seat]) < self.deck_size

    def can_play(self, seat: str) -> bool:
        """Whether ``seat`` has anything to play this round: a card, or a Backup use left."""
        return bool(self.hands[seat]) or self.backups_left[seat] > 0

    def _no_choice(self, seat: str) -> bool:
        """Whether ``seat`` may be skipped: it can only submit nothing, and everyone can see that.

        Under Darkness the opponent does not know a hand (the plays are hidden), so only the
        power, which the public creations give away, may skip a seat there.
        """
        if self.phase == "create":
            return self.power[seat] == 0 or (not self.has("darkness") and not self.can_create(seat))
        return not self.has("darkness") and not self.can_play(seat)

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """A :class:`Create` or :class:`Play` for ``seat``, or a GameError saying what to send."""
        self.require_running(seat)
        sealed = self.sealed.sealed_by(seat)
        if sealed is not None:
            raise NotYourTurnError(_already_in(self.phase, sealed.how, Seat(other_seat(seat))))
        self.require_turn(seat)
        if not isinstance(text, str):
            raise MalformedMoveError(say("Write your move as text, such as create 20 15 or play 20."))
        verb, numbers, backup = _read(text)
        require_private(
            private, say("Send this to me by direct message, not in the game room: creations and plays are sealed.")
        )
        if self.phase == "create":
            if verb != "create":
                raise IllegalMoveError(
                    say(
                        "It is the create phase: send create and your new cards' values, such as create "
                        "20 15, or create none. You play in the next phase."
                    )
                )
            if backup is not None:
                raise MalformedMoveError(say("Backup is used when you play, not when you create; send create 20 15."))
            return Create(seat, self._check_creation(seat, numbers))
        if verb != "play":
            raise IllegalMoveError(
                say(
                    "It is the play phase: send play and the cards from your hand, such as play 20, or "
                    "play none. You create again after this round."
                )
            )
        cards = self._check_play(seat, numbers)
        return Play(seat, cards, self._check_backup(seat, backup))

    def _check_creation(self, seat: str, numbers: list[str] | None) -> tuple[int, ...]:
        if numbers is None:
            return ()
        room = self.deck_size - len(self.hands[seat])
        if len(numbers) > room:
            held = len(self.hands[seat])
            raise IllegalMoveError(
                say_n(
                    "A hand holds at most {size} cards and you hold {held}: create at most {n} card (or create none).",
                    "A hand holds at most {size} cards and you hold {held}: create at most {n} cards (or create none).",
                    size=self.deck_size,
                    held=held,
                    n=room,
                )
                if room
                else say(
                    "Your hand is full ({size} cards): play cards to make room; for now send create none.",
                    size=self.deck_size,
                )
            )
        power = self.power[seat]
        if any(len(n) > _MAX_DIGITS for n in numbers):
            raise IllegalMoveError(
                say("You have {power} power left; create cards worth at most {power} in all.", power=power)
            )
        cards = _descending(int(n) for n in numbers)
        if any(v < 1 for v in cards):
            raise IllegalMoveError(say("Every card is worth at least 1 power; send whole numbers from 1 up."))
        if sum(cards) > power:
            if len(cards) > 1:
                too_much = say(
                    "You have {power} power left and {sum} = {total} would take you below 0; create cards worth "
                    "at most {power} in all.",
                    power=power,
                    sum=Verbatim(" + ".join(map(str, cards))),
                    total=sum(cards),
                )
            else:
                too_much = say(
                    "You have {power} power left and a card of {value} would take you below 0; create cards "
                    "worth at most {power} in all.",
                    power=power,
                    value=cards[0],
                )
            raise IllegalMoveError(too_much)
        return cards

    def _check_play(self, seat: str, numbers: list[str] | None) -> tuple[int, ...]:
        if numbers is None:
            return ()
        hand = Counter(self.hands[seat])
        wanted = Counter(int(n) if len(n) <= _MAX_DIGITS else -1 for n in numbers)
        missing = wanted - hand
        if missing:
            value = next(iter(missing))
            held = _cards_said(self.hands[seat])
            if value in hand:
                problem = say_n(
                    "You hold only {n} card of {value} (your hand: {hand}); play cards from your hand, or play none.",
                    "You hold only {n} cards of {value} (your hand: {hand}); play cards from your hand, or play none.",
                    n=hand[value],
                    value=value,
                    hand=held,
                )
            else:
                problem = say(
                    "You have no {value} in your hand (your hand: {hand}); play cards from your hand, or play none.",
                    value=Verbatim(numbers[0]) if value == -1 else value,
                    hand=held,
                )
            raise IllegalMoveError(problem)
        return _descending(wanted.elements())

    def _check_backup(self, seat: str, backup: str | None) -> int:
        if backup is None:
            return 0
        if not self.has("backup"):
            raise IllegalMoveError(
                say("Backup is not active in this task; send your play without it, such as play 20.")
            )
        if self.backups_left[seat] == 0:
            raise IllegalMoveError(
                say(
                    "You have used Backup {uses} times already; send your play without it, such as play 20.",
                    uses=BACKUP_USES,
                )
            )
        amount = int(backup) if len(backup) <= _MAX_DIGITS else BACKUP_MAX + 1
        if not 1 <= amount <= BACKUP_MAX:
            raise IllegalMoveError(
                say("Backup adds 1 to {most} power; send, for example, play 20 backup 3.", most=BACKUP_MAX)
            )
        return amount

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        """Every legal submission: each multiset of new cards within power and hand room, or each
        sub-multiset of the hand (with each Backup amount, if a use is left)."""
        movers = self.to_move()
        for mover in movers if seat is None else [seat]:
            if mover not in movers:
                continue
            if self.phase == "create":
                room = self.deck_size - len(self.hands[mover])
                for cards in _multisets_within(room, self.power[mover]):
                    yield Create(mover, cards)
            else:
                backups = [0]
                if self.has("backup") and self.backups_left[mover] > 0:
                    backups += list(range(1, BACKUP_MAX + 1))
                for cards in _sub_multisets(self.hands[mover]):
                    for backup in backups:
                        yield Play(mover, cards, backup)

    # ---- playing ---------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Seal a creation or a play; once both seats are in, resolve the phase."""
        if not isinstance(move, (Create, Play)):
            raise IllegalMoveError(
                say("That is not a move of Dueling Decks; send create 20 15 or play 20 by direct message.")
            )
        # Re-read the move from its text so that a hand-built illegal move is refused unchanged.
        if self.parse_move(move.text(), move.seat, private=True) != move:
            raise IllegalMoveError(
                say("{move} cannot be played as given; send it again as text.", move=Verbatim(repr(move.text())))
            )
        seat = move.seat
        backup = move.backup if isinstance(move, Play) else 0
        self.sealed.seal(seat, Sealed(move.cards, backup))
        self.last_moves[seat] = move.text()
        if isinstance(move, Create):
            sent = say("{seat} has sent their creations.", seat=Seat(seat))
        else:
            sent = say("{seat} has sent their play.", seat=Seat(seat))
        events = [
            sealed_event(seat, say("Sealed: {move}.", move=Verbatim(move.text())), move=move.text()),
            Event.of(sent, kind=DuelingDecksEvent.SUBMITTED, data={"seat": seat, "phase": self.phase}),
        ]
        return events + self._advance()

    def timeout(self, seat: str) -> list[Event]:
        """A seat whose time (and reserve) runs out submits nothing for this phase."""
        self.require_seat(seat)
        if self.is_over or seat not in self.to_move():
            return []
        self.sealed.seal(seat, Sealed(how="timeout"))
        if self.phase == "create":
            timed_out = say("{seat} ran out of time and creates nothing this phase.", seat=Seat(seat))
        else:
            timed_out = say("{seat} ran out of time and plays nothing this phase.", seat=Seat(seat))
        events = [Event.of(timed_out, kind=EventKind.TIMEOUT, data={"seat": seat, "phase": self.phase})]
        return events + self._advance()

    def _advance(self) -> list[Event]:
        """Skip the seats with no choice, resolve the phase once every seat is in, and repeat
        while phases resolve on their own (two seats with nothing left to do)."""
        events: list[Event] = []
        new_phase = False
        while not self.is_over:
            for seat in self.sealed.owed():
                if self._no_choice(seat):
                    self.sealed.seal(seat, Sealed(how="auto"))
                    events.append(
                        Event.of(
                            self._skipped(seat),
                            kind=DuelingDecksEvent.SKIPPED,
                            data={"seat": seat, "phase": self.phase},
                        )
                    )
            if not self.sealed.all_in:
                # Prompt only for a phase that waits for someone, never for one that resolves itself.
                return events + (self._phase_prompt() if new_phase else [])
            if self.phase == "create":
                events += self._resolve_create()
            else:
                events += self._resolve_round()
            new_phase = True
        return events

    def _skipped(self, seat: str) -> Message:
        if self.phase == "create":
            if self.power[seat] == 0:
                return say("{seat} has no power left, so creates nothing this phase.", seat=Seat(seat))
            return say("{seat} has a full hand, so creates nothing this phase.", seat=Seat(seat))
        if self.has("backup"):
            return say("{seat} has no card to play and no Backup left, so plays nothing.", seat=Seat(seat))
        return say("{seat} has no card to play, so plays nothing.", seat=Seat(seat))

    def _phase_prompt(self) -> list[Event]:
        waiting = self.to_move()
        if not waiting:
            return []
        number = self.round + 1
        if self.phase == "create":
            # The time is the clock's to say (the host's clock line): a match without a clock has none.
            said = say(
                "Round {number}: create phase. Send your new cards by direct message, such as "
                "create 20 15, or create none.",
                number=number,
            )
        elif self.has("pick-your-prize"):
            said = say(
                "Round {number}: play phase. Send your play by direct message, such as "
                "play 20, play 20 15 or play none.",
                number=number,
            )
        else:
            said = say(
                "Round {number}: play phase for the prize card {prize}. Send your play by direct message, such as "
                "play 20, play 20 15 or play none.",
                number=number,
                prize=self.prizes[self.round],
            )
        data = {"phase": self.phase, "round": number, "seats": list(waiting)}
        return [Event.of(said, kind=DuelingDecksEvent.PHASE, data=data)]

    def _resolve_create(self) -> list[Event]:
        cards: dict[str, list[int]] = {}
        for seat, sealed in self.sealed.reveal().items():
            cards[seat] = list(sealed.cards)
            self.power[seat] -= sum(sealed.cards)
            self.hands[seat] = list(_descending([*self.hands[seat], *sealed.cards]))
        self.created.append({"round": self.round + 1, "cards": cards})
        self.sealed.clear()
        self.phase = "play"
        made = say(
            "Round {number}, cards created: {p1} creates {p1_cards}; {p2} creates {p2_cards}.",
            number=self.round + 1,
            p1=Seat("p1"),
            p1_cards=_cards_said(cards["p1"]),
            p2=Seat("p2"),
            p2_cards=_cards_said(cards["p2"]),
        )
        return [
            Event.of(
                made,
                kind=DuelingDecksEvent.CREATED,
                data={"round": self.round + 1, "cards": {s: list(c) for s, c in cards.items()}},
            )
        ]

    def _resolve_round(self) -> list[Event]:
        revealed = self.sealed.reveal()
        plays = {seat: (list(sealed.cards), sealed.backup) for seat, sealed in revealed.items()}
        scored = resolve_round(plays, self.prizes[self.round], self.anomalies)
        for seat, (cards, backup) in plays.items():
            hand = Counter(self.hands[seat])
            hand.subtract(cards)
            self.hands[seat] = list(_descending(hand.elements()))
            self.backups_left[seat] -= 1 if backup else 0
            self.points[seat] += scored["award"][seat]
        entry = {
            "round": self.round + 1,
            "prize": scored["value"],
            "plays": {s: sealed.to_dict() for s, sealed in revealed.items()},
            "counted": scored["counted"],
            "sums": scored["sums"],
            "winner": scored["winner"],
            "award": scored["award"],
        }
        self.history.append(entry)
        self.sealed.clear()
        events = self._round_events(entry)
        return events + self._after_round()

    def _round_events(self, entry: Mapping[str, Any]) -> list[Event]:
        number, winner = entry["round"], entry["winner"]
        outcome = say("{seat} wins the round", seat=Seat(winner)) if winner else say("a tie: the prize is split")
        if self.has("darkness"):
            # Only the winner is told: never the cards, the sums or (Pick Your Prize) the value.
            if self.has("pick-your-prize"):
                return [
                    Event.of(
                        say("Round {number}: {outcome}.", number=number, outcome=outcome),
                        kind=DuelingDecksEvent.ROUND,
                        data={"round": number, "winner": winner},
                    )
                ]
            return [
                Event.of(
                    say(
                        "Round {number} (prize {prize}): {outcome}. Points: {points}.",
                        number=number,
                        prize=entry["prize"],
                        outcome=outcome,
                        points=self._score(),
                    ),
                    kind=DuelingDecksEvent.ROUND,
                    data={
                        "round": number,
                        "winner": winner,
                        "prize": entry["prize"],
                        "points": self._points_view(full=True),
                    },
                )
            ]
        args: dict[str, Argument] = {
            "number": number,
            "prize": entry["prize"],
            "p1_play": self._play_said(entry, "p1", played=True),
            "p2_play": self._play_said(entry, "p2", played=True),
            "outcome": outcome,
            "points": self._score(),
        }
        if self.has("pick-your-prize"):
            said = Message(
                "Round {number}, prize worth {prize} (Pick Your Prize): {p1_play}; {p2_play}; {outcome}. "
                "Points: {points}.",
                args,
            )
        else:
            said = Message("Round {number}, prize {prize}: {p1_play}; {p2_play}; {outcome}. Points: {points}.", args)
        return [Event.of(said, kind=DuelingDecksEvent.ROUND, data=self._entry_view(entry, None, full=True))]

    @staticmethod
    def _play_said(entry: Mapping[str, Any], seat: str, *, played: bool) -> Message:
        """A seat's play in a resolved round and its sum: "p1 played 20, 15 + backup 3 = 38" (the
        round's event), or "p1 20, 15 + backup 3 = 38" (Darkness lifting)."""
        play = entry["plays"][seat]
        who, cards, backup = Seat(seat), _cards_said(play["cards"]), int(play["backup"])
        total = _amount_said(entry["sums"][seat], 10)
        if played and backup:
            return say(
                "{seat} played {cards} + backup {backup} = {sum}", seat=who, cards=cards, backup=backup, sum=total
            )
        if played:
            return say("{seat} played {cards} = {sum}", seat=who, cards=cards, sum=total)
        if backup:
            return say("{seat} {cards} + backup {backup} = {sum}", seat=who, cards=cards, backup=backup, sum=total)
        return say("{seat} {cards} = {sum}", seat=who, cards=cards, sum=total)

    def _after_round(self) -> list[Event]:
        goal = 2 * WINNING_POINTS
        reached = [s for s in self.seats if self.points[s] >= goal]
        if len(reached) == 2:
            winner, rule = self._tiebreak_seat()
            return self._finish(
                winner,
                "both-25",
                rule,
                say(
                    "Both reached {target} points at once ({points}); {rule}: {seat} wins the task",
                    target=WINNING_POINTS,
                    points=self._score(),
                    rule=rule,
                    seat=Seat(winner),
                ),
            )
        if reached:
            winner = reached[0]
            return self._finish(
                winner,
                "reached-25",
                None,
                say(
                    "{seat} reached {target} points ({points}) and wins the task",
                    seat=Seat(winner),
                    target=WINNING_POINTS,
                    points=self._score(),
                ),
            )
        if self.round + 1 >= len(self.prizes):
            p1, p2 = self.points["p1"], self.points["p2"]
            if p1 != p2:
                winner = "p1" if p1 > p2 else "p2"
                return self._finish(
                    winner,
                    "prizes-used",
                    None,
                    say(
                        "All seven prizes are used ({points}): {seat} has the higher score and wins the task",
                        points=self._score(),
                        seat=Seat(winner),
                    ),
                )
            winner, rule = self._tiebreak_seat()
            return self._finish(
                winner,
                "prizes-used",
                rule,
                say(
                    "All seven prizes are used and the scores are equal ({points}); {rule}: {seat} wins the task",
                    points=self._score(),
                    rule=rule,
                    seat=Seat(winner),
                ),
            )
        self.round += 1
        self.phase = "create"
        return []

    def _tiebreak_seat(self) -> tuple[str, Message]:
        """The seat a tie goes to, and the rule that chose it, in words."""
        if self.tiebreak:
            return self.tiebreak, say("the tie-break goes to the seat the match names")
        for entry in reversed(self.history):
            if entry["winner"]:
                return entry["winner"], say(
                    "the tie-break goes to the winner of the most recent round won (round {number})",
                    number=entry["round"],
                )
        return "p2", say("no round was won outright, so the tie-break goes to {seat}", seat=Seat("p2"))

    def _finish(self, winner: str, reason: str, rule: Message | None, how: Message) -> list[Event]:
        """End the task: ``how`` says how, and who wins (so there is no verdict to add)."""
        self.phase = "over"
        self.result = {"reason": reason, "tiebreak": winner if rule else None}
        self.sealed.clear()
        ending = Termination.RESIGNATION if reason == "resign" else Termination.POINTS
        events = self.end(winner, ending, how, verdict="", rule=reason, points=dict(self.points))
        if self.has("darkness"):
            events.append(self._reveal_event())
        return events

    def _reveal_event(self) -> Event:
        rounds: Message | None = None
        for entry in self.history:
            args: dict[str, Argument] = {
                "number": entry["round"],
                "prize": entry["prize"],
                "p1_play": self._play_said(entry, "p1", played=False),
                "p2_play": self._play_said(entry, "p2", played=False),
            }
            if entry["winner"]:
                line = Message(
                    "Round {number} (prize {prize}): {p1_play}; {p2_play}; {seat}.",
                    args | {"seat": Seat(entry["winner"])},
                )
            else:
                line = Message("Round {number} (prize {prize}): {p1_play}; {p2_play}; tie.", args)
            # One line a round, under the ones before (a translator keeps the line break).
            rounds = line if rounds is None else say_c("lines", "{above}\n{line}", above=rounds, line=line)
        if rounds is None:
            said = say("Darkness lifts: every round as it was played.\nPoints: {points}.", points=self._score())
        else:
            said = say(
                "Darkness lifts: every round as it was played.\n{rounds}\nPoints: {points}.",
                rounds=rounds,
                points=self._score(),
            )
        return Event.of(
            said,
            kind=DuelingDecksEvent.REVEAL,
            data={
                "history": [self._entry_view(e, None, full=True) for e in self.history],
                "points": self._points_view(full=True),
            },
        )

    def resign(self, seat: str) -> list[Event]:
        """The seat concedes the task; under Darkness everything is then revealed."""
        self.require_seat(seat)
        if self.is_over:
            return []
        winner = other_seat(seat)
        return self._finish(winner, "resign", None, self.lost_task(seat, by="resign"))

    def _score(self) -> Message:
        """The points of both seats: "p1 12.5, p2 10"."""
        return say_c(
            "score",
            "{p1} {p1_points}, {p2} {p2_points}",
            p1=Seat("p1"),
            p1_points=_amount_said(self.points["p1"], 2),
            p2=Seat("p2"),
            p2_points=_amount_said(self.points["p2"], 2),
        )

    # ---- what a seat sees ------------------------------------------------------------------

    def _prize_list(self) -> list[int | None]:
        return [None] * len(self.prizes) if self.has("pick-your-prize") else list(self.prizes)

    def _points_view(self, *, full: bool) -> dict[str, int | float | None]:
        if not full and self.has("darkness") and self.has("pick-your-prize"):
            return {s: None for s in self.seats}
        return {s: halves(self.points[s]) for s in self.seats}

    def _entry_view(self, entry: Mapping[str, Any], seat: str | None, *, full: bool) -> dict[str, Any]:
        """One resolved round as ``seat`` may see it (``full``: as it was, for everyone)."""
        hidden = not full and self.has("darkness")
        value_hidden = hidden and self.has("pick-your-prize")
        plays: dict[str, Any] | None = {
            s: {"cards": list(p["cards"]), "backup": p["backup"]} for s, p in entry["plays"].items()
        }
        if hidden:
            plays = {s: (plays[s] if s == seat else None) for s in self.seats}  # type: ignore[index]
        return {
            "round": entry["round"],
            "prize": None if value_hidden else entry["prize"],
            "plays": plays,
            "counted": None if hidden else {s: [tenths(c) for c in v] for s, v in entry["counted"].items()},
            "sums": None if hidden else {s: tenths(v) for s, v in entry["sums"].items()},
            "winner": entry["winner"],
            "points": None if value_hidden else {s: halves(v) for s, v in entry["award"].items()},
        }

    def view(self, seat: str | None = None) -> DuelingDecksView:
        """What ``seat`` may see: sealed submissions only their owner's until the phase resolves;
        under Darkness only creations and round winners of the opponent, until the task is over."""
        over = self.is_over
        dark = self.has("darkness") and not over
        own = seat if seat in self.seats else None
        hands = {s: (list(self.hands[s]) if not dark or s == own else None) for s in self.seats}
        backups = None
        if self.has("backup"):
            backups = {s: (self.backups_left[s] if not dark or s == own else None) for s in self.seats}
        mine = self.sealed.sealed_by(own)
        sealed = {"cards": list(mine.cards), "backup": mine.backup} if mine is not None and mine.how == "sent" else None
        return {
            **self.base_view(),
            "phase": "over" if over else self.phase,
            "round": self.round + 1,
            "rounds": len(self.prizes),
            "anomalies": list(self.anomalies),
            "deck_size": self.deck_size,
            "tiebreak": self.tiebreak,
            "prizes": self._prize_list(),
            "prize": None if over or self.has("pick-your-prize") else self.prizes[self.round],
            "power": dict(self.power),
            "start_power": START_POWER,
            "target": WINNING_POINTS,
            "hands": hands,
            "points": self._points_view(full=over),
            "backups_left": backups,
            "submitted": self.sealed.submitted(),
            "sealed": sealed,
            "created": [
                {"round": c["round"], "cards": {s: list(v) for s, v in c["cards"].items()}} for c in self.created
            ],
            "history": [self._entry_view(e, own, full=over) for e in self.history],
            "last_move": self.last_moves[own] if own else None,
            "result": dict(self.result) if self.result else None,
        }

    # ---- serialisation ---------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """Everything, sealed submissions included (the store is not a view)."""
        return {
            **self.options_state(),
            "prizes": list(self.prizes),
            "phase": self.phase,
            "round": self.round,
            "power": dict(self.power),
            "hands": {s: list(h) for s, h in self.hands.items()},
            "points": dict(self.points),
            "backups_left": dict(self.backups_left),
            "sealed": self.sealed.to_dict(Sealed.to_dict),
            "created": [
                {"round": c["round"], "cards": {s: list(v) for s, v in c["cards"].items()}} for c in self.created
            ],
            "history": [_copy_entry(e) for e in self.history],
            "last_moves": dict(self.last_moves),
            "result": dict(self.result) if self.result else None,
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`state_dict`."""
        self.load_options(data)
        self.deck_size = deck_size_for(self.anomalies)
        self.prizes = [int(p) for p in data["prizes"]]
        self.phase = data["phase"]
        self.round = int(data["round"])
        self.power = {s: int(v) for s, v in data["power"].items()}
        self.hands = {s: [int(v) for v in h] for s, h in data["hands"].items()}
        self.points = {s: int(v) for s, v in data["points"].items()}
        self.backups_left = {s: int(v) for s, v in data["backups_left"].items()}
        self.sealed = SealedRound.from_dict(data["sealed"], Sealed.from_dict)
        self.created = [
            {"round": c["round"], "cards": {s: list(v) for s, v in c["cards"].items()}} for c in data["created"]
        ]
        self.history = [_copy_entry(e) for e in data["history"]]
        self.last_moves = dict(data["last_moves"])
        self.result = dict(data["result"]) if data["result"] else None

    # ---- the practice opponent's hooks (see geniusbot.practice) --------------------------

    @classmethod
    def determinize(
        cls, seat: str, views: Sequence[Mapping[str, Any]], rng: random.Random, **options: str
    ) -> DuelingDecks | None:
        """A game ``seat`` cannot tell from the one it plays: the public creations and plays of
        every round replayed (under Darkness the other seat's plays drawn from ``rng``, kept when
        they give the round's known winner), then the seat's own sealed submission; the other
        seat's sealed one, which no view shows, drawn from ``rng`` if it is in."""
        if not views or views[-1]["phase"] == "over":
            return None
        view = views[-1]
        game = cls.blank(options)
        game.prizes = [int(p) if p is not None else 0 for p in view["prizes"]]
        for number, created in enumerate(view["created"]):
            game._replay_phase("create", {s: Create(s, _descending(created["cards"][s])) for s in game.seats})
            if number >= len(view["history"]):
                break
            entry = view["history"][number]
            plays = {s: p for s, p in (entry["plays"] or {}).items() if p is not None}
            last_round = number + 1 == len(view["history"])
            known = {s: Play(s, _descending(p["cards"]), int(p["backup"])) for s, p in plays.items()}
            hidden = [s for s in game.to_move() if s not in known]
            options_of = [list(game.legal_moves(s)) for s in hidden]
            candidates = [
                dict(known, **dict(zip(hidden, pick, strict=True))) for pick in itertools.product(*options_of)
            ]
            rng.shuffle(candidates)
            trials: list[DuelingDecks] = []
            for moves in candidates[:64] or [known]:
                trial = game.copy()
                trial._replay_phase("play", moves)
                trials.append(trial)
                if (
                    trial.history
                    and trial.history[-1]["winner"] == entry["winner"]
                    and (last_round or not trial.is_over)
                ):
                    break
            # A drawn play that would have ended the task is worse than one with the wrong winner.
            game = trials[-1] if last_round else next((t for t in reversed(trials) if not t.is_over), trials[-1])
            if game.is_over and not last_round:
                return None
        mine = view["sealed"]
        if mine is not None and seat in game.to_move():
            cards = tuple(mine["cards"])
            game.play(Create(seat, cards) if game.phase == "create" else Play(seat, cards, int(mine["backup"])))
        elif view["submitted"][seat] and seat in game.to_move():
            game.timeout(seat)
        other = other_seat(seat)
        if view["submitted"][other] and other in game.to_move() and not game.is_over:
            game.play(rng.choice(list(game.legal_moves(other))))  # sealed: any it could have sent
        game.last_moves[seat] = view["last_move"]
        if game.is_over or list(game.to_move()) != list(view["to_move"]):
            return None  # the draws under Darkness could not give what the seat saw
        return game

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        """A quick play-out policy: a creation that keeps power for the rounds to come (cards of
        about the power left shared over those rounds, now and then a bigger one; under Pick Your
        Prize a random share of the power left, up to all of it); a play that
        is mostly the best of :meth:`_plays_by_worth` (what the round is worth against the other
        seat's hand, played at random, with what the power left after it wins later), else (and
        always under Pick Your Prize) a random part of the hand, now and then with a Backup."""
        if self.is_over or seat not in self.to_move():
            return None
        if self.phase == "create":
            room, left = self.deck_size - len(self.hands[seat]), self.power[seat]
            rounds_left = max(len(self.prizes) - self.round, 1)
            share = max(1, 2 * left // rounds_left)
            cards: list[int] = []
            for _ in range(rng.randint(0, room) if left > 0 else 0):
                if left <= 0:
                    break
                if self.has("pick-your-prize"):
                    value = rng.randint(1, max(1, left // 2 if rng.random() < 0.7 else left))
                else:
                    value = rng.randint(1, max(1, left if rng.random() < 0.15 else min(left, share)))
                cards.append(value)
                left -= value
            return Create(seat, _descending(cards))
        if not self.has("pick-your-prize") and rng.random() < 0.8:
            ranked = self._plays_by_worth(seat)
            best = ranked[0][0]
            return rng.choice([move for worth, move in ranked if worth >= best - 1e-9])
        played = [card for card in self.hands[seat] if rng.random() < 0.5]
        backup = 0
        if self.has("backup") and self.backups_left[seat] > 0 and rng.random() < 0.3:
            backup = rng.randint(1, BACKUP_MAX)
        return Play(seat, _descending(played), backup)

    def search_moves(self, seat: str) -> list[Move] | None:
        """The moves worth searching: in a create phase a few creations shaped by the other
        seat's resources (:meth:`_creations_worth_searching`); in a play phase the
        :data:`PLAY_FOCUS` best plays by :meth:`_plays_by_worth` (under Pick Your Prize too:
        the round's worth there comes from the cards played, as :func:`resolve_round` reckons
        it)."""
        if self.is_over or seat not in self.to_move():
            return None
        if self.phase == "play":
            return [move for _, move in self._plays_by_worth(seat)[:PLAY_FOCUS]]
        return [Create(seat, cards) for cards in self._creations_worth_searching(seat)]

    def _creations_worth_searching(self, seat: str) -> list[tuple[int, ...]]:
        """A few creations shaped by the other seat's resources: none; a card of 1; the power
        left shared over the rounds left, and twice that; the least card that makes the whole
        hand beat the other seat's whole hand (with its Backup), and the least that beats that
        hand with all its power made into one more card too. Under Pick Your Prize, where big
        plays make big prizes, bigger ones as well: the share and a 1, half the power, and twice
        the share with the share."""
        other = other_seat(seat)
        power, room = self.power[seat], self.deck_size - len(self.hands[seat])
        if power <= 0 or room <= 0:
            return [()]
        rounds_left = max(len(self.prizes) - self.round, 1)
        share = max(1, power // rounds_left)
        wanted: list[tuple[int, ...]] = [(), (1,), (share,), (2 * share,)]
        if self.has("pick-your-prize"):
            wanted += [(share, 1), (power // 2,), (2 * share, share)]
        extra = BACKUP_MAX if self.has("backup") and self.backups_left[other] > 0 else 0
        threats = [list(self.hands[other])]
        if self.power[other] > 0 and len(self.hands[other]) < self.deck_size:
            threats.append(list(self.hands[other]) + [self.power[other]])
        for threat in threats:
            for value in range(1, power + 1):
                hand = list(self.hands[seat]) + [value]
                counted = card_contributions({seat: hand, other: threat}, self.anomalies)
                if sum(counted[seat]) > sum(counted[other]) + 10 * extra:
                    wanted.append((value,))
                    break
        seen: dict[tuple[int, ...], None] = {}
        for cards in wanted:
            if sum(cards) <= power and len(cards) <= room and all(v >= 1 for v in cards):
                seen.setdefault(_descending(cards), None)
        return list(seen)

    def _plays_by_worth(self, seat: str) -> list[tuple[float, Play]]:
        """Every play of ``seat`` (Backup only at its most) with its worth, best first: the points
        it scores on average against each play of the other seat's hand (as this game holds it)
        drawn uniformly, a round that ends the task counting as the task, and the lead in the
        prizes after this round that the power and cards each seat has left then win
        (:func:`_share`)."""
        other = other_seat(seat)
        prize = self.prizes[self.round]
        goal = 2 * WINNING_POINTS
        later = self._prizes_left(after=1)
        mine_left = self.power[seat] + sum(self.hands[seat])
        theirs_left = self.power[other] + sum(self.hands[other])
        backups = [0] + ([BACKUP_MAX] if self.has("backup") and self.backups_left[seat] > 0 else [])
        answers = [0] + (list(range(1, BACKUP_MAX + 1)) if self.has("backup") and self.backups_left[other] > 0 else [])
        theirs = list(_sub_multisets(self.hands[other]))
        ranked: list[tuple[float, Play]] = []
        for cards in _sub_multisets(self.hands[seat]):
            for backup in backups:
                total = 0.0
                for their in theirs:
                    for answer in answers:
                        scored = resolve_round({seat: (cards, backup), other: (their, answer)}, prize, self.anomalies)
                        mine = self.points[seat] + scored["award"][seat]
                        yours = self.points[other] + scored["award"][other]
                        if mine >= goal and yours < goal:
                            total += 25.0
                        elif yours >= goal and mine < goal:
                            total -= 25.0
                        else:
                            share = _share(mine_left - sum(cards), theirs_left - sum(their))
                            total += (scored["award"][seat] - scored["award"][other]) / 2
                            total += later * (2 * share - 1)
                worth = total / (len(theirs) * len(answers))
                ranked.append((worth, Play(seat, cards, backup)))
        ranked.sort(key=lambda pair: -pair[0])
        return ranked

    def evaluate(self, seat: str) -> float | None:
        """The points, and the prizes still to play shared by the power and the hands left (the
        resources that win them, :func:`_share`), as a lead."""
        other = other_seat(seat)
        left = {s: self.power[s] + sum(self.hands[s]) for s in self.seats}
        prizes = self._prizes_left()

        def worth(s: str) -> float:
            return self.points[s] / 2 + prizes * _share(left[s], left[other_seat(s)])

        return 0.5 + 0.5 * math.tanh((worth(seat) - worth(other)) / 8)

    def _prizes_left(self, after: int = 0) -> int:
        """What the prizes from this round on are worth (``after``: from that many rounds
        later; Pick Your Prize: 7, the middle of a card's 4 to 10, a round)."""
        start = self.round + after
        if self.has("pick-your-prize"):
            return 7 * max(len(self.prizes) - start, 0)
        return sum(self.prizes[start:])

    def _replay_phase(self, phase: str, moves: Mapping[str, Move]) -> None:
        """Submit ``moves`` for the seats that move in this phase (a skipped seat is not asked)."""
        for seat in self.seats:
            if self.phase == phase and not self.is_over and seat in self.to_move():
                move = moves.get(seat)
                if move is None or not self.is_legal(move):
                    self.timeout(seat)
                else:
                    self.play(move)


def board_text(view: DuelingDecksView) -> str:
    """A view as plain text for a room with no pictures; it shows only what ``view`` holds, so a
    public view gives a public board and a seat's view that seat's board.

    ``Round 2 of 7: play phase, prize 9.`` / ``Prizes: 10 [9] 8 7 6 5 4`` / one line a seat
    (points, power, hand, Backup left; ``?`` where hidden) / one line a resolved round.
    """

    def shown(value: Any) -> str:
        return "?" if value is None else str(value)

    phase, number = view["phase"], view["round"]
    if phase == "over":
        head = "The task is over."
    else:
        prize = "" if view.get("prize") is None else f", prize {view['prize']}"
        head = f"Round {number} of {view['rounds']}: {phase} phase{prize}."
    lines = [head + (f" Anomalies: {', '.join(view['anomalies'])}." if view["anomalies"] else "")]
    if any(p is not None for p in view["prizes"]):
        cells = [f"[{p}]" if i + 1 == number and phase != "over" else str(p) for i, p in enumerate(view["prizes"])]
        lines.append("Prizes: " + " ".join(cells))
    for seat in ("p1", "p2"):
        hand = view["hands"][seat]
        parts = [
            f"{shown(view['points'][seat])} points",
            f"{view['power'][seat]} power",
            "hand " + ("?" if hand is None else (" ".join(map(str, hand)) or "empty")),
        ]
        backups = view["backups_left"]
        if backups:
            parts.append(f"Backup {shown(backups[seat])} left")
        if phase != "over" and view["submitted"][seat]:
            parts.append("sent")
        lines.append(f"{seat}: " + ", ".join(parts))
    sealed = view["sealed"]
    if sealed:
        cards = " ".join(map(str, sealed["cards"])) or "none"
        lines.append(
            f"Your sealed {'creations' if phase == 'create' else 'play'}: {cards}"
            + (f" backup {sealed['backup']}" if sealed["backup"] else "")
        )
    for entry in view["history"]:
        plays = entry["plays"] or {}
        parts = []
        for seat in ("p1", "p2"):
            play = plays.get(seat)
            if play is None:
                parts.append(f"{seat} ?")
                continue
            backup = f" + backup {play['backup']}" if play["backup"] else ""
            total = "" if entry["sums"] is None else f" = {entry['sums'][seat]}"
            parts.append(f"{seat} {' '.join(map(str, play['cards'])) or 'none'}{backup}{total}")
        won = f"{entry['winner']} wins" if entry["winner"] else "split"
        lines.append(f"Round {entry['round']} (prize {shown(entry['prize'])}): {'; '.join(parts)}; {won}.")
    return "\n".join(lines)


def _share(mine: int, theirs: int) -> float:
    """The share of the prizes still to play that ``mine`` of power and cards wins against
    ``theirs``, as in a Colonel Blotto game of those budgets over many rounds: the poorer seat
    wins about half its budget's ratio to the richer's (so power beyond what the other seat
    can answer is worth little), equal budgets a half each."""
    if mine <= 0 and theirs <= 0:
        return 0.5
    if mine >= theirs:
        return 1 - theirs / (2 * mine)
    return mine / (2 * theirs)


def _copy_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "round": entry["round"],
        "prize": entry["prize"],
        "plays": {s: dict(p, cards=list(p["cards"])) for s, p in entry["plays"].items()},
        "counted": {s: list(v) for s, v in entry["counted"].items()},
        "sums": dict(entry["sums"]),
        "winner": entry["winner"],
        "award": dict(entry["award"]),
    }


def _read(text: str) -> tuple[str, list[str] | None, str | None]:
    """Split a submission into its verb, its card values (``None`` for ``none``) and its Backup
    amount (``None`` without one); anything else is refused with the forms to send."""
    lowered = text.lower().strip().rstrip(".!")
    if re.search(r"[0-9]\s*\.\s*[0-9]", lowered):
        raise MalformedMoveError(say("Card values are whole numbers; send, for example, create 20 15."))
    tokens = _TOKEN.findall(lowered)
    if not tokens or not _FILLER.match(_TOKEN.sub(" ", lowered)):
        shown = text.strip()[:40]
        if shown:
            raise MalformedMoveError(
                say(
                    "{text} is not a move; send create 20 15 or create none in a create phase, and play 20, "
                    "play 20 15 or play none in a play phase.",
                    text=Verbatim(repr(shown)),
                )
            )
        raise MalformedMoveError(
            say(
                "send create 20 15 or create none in a create phase, and play 20, play 20 15 or play none in a "
                "play phase."
            )
        )
    tokens = [t for t in tokens if t != "and"]
    if not tokens or tokens[0] not in ("create", "play"):
        raise MalformedMoveError(
            say(
                "Start with create or play: send create 20 15 or create none in a create phase, and play 20, "
                "play 20 15 or play none in a play phase."
            )
        )
    verb, rest = tokens[0], tokens[1:]
    backup = None
    if "backup" in rest:
        at = rest.index("backup")
        after = rest[at + 1 :]
        if len(after) != 1 or not after[0].isdigit():
            raise MalformedMoveError(say("Put Backup last, with one amount from 1 to 3: play 20 backup 3."))
        backup, rest = after[0], rest[:at]
    if rest == ["none"] or (not rest and backup is not None):
        return verb, None, backup
    if not rest:
        if verb == "create":
            raise MalformedMoveError(say("Name the cards: create 20 15, or create none."))
        raise MalformedMoveError(say("Name the cards: play 20 15, or play none."))
    if any(not t.isdigit() for t in rest):
        word = Verbatim(repr(next(t for t in rest if not t.isdigit())))
        if verb == "create":
            raise MalformedMoveError(
                say("{word} is not a card value; write whole numbers, such as create 20 15, or create none.", word=word)
            )
        raise MalformedMoveError(
            say("{word} is not a card value; write whole numbers, such as play 20 15, or play none.", word=word)
        )
    return verb, rest, backup


def _multisets_within(count: int, total: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of at most ``count`` positive values summing to at most ``total``, highest
    first (the empty one first)."""

    def grow(prefix: tuple[int, ...], cap: int, left: int) -> Iterator[tuple[int, ...]]:
        yield prefix
        if len(prefix) == count:
            return
        for value in range(min(cap, left), 0, -1):
            yield from grow(prefix + (value,), value, left - value)

    if count <= 0:
        yield ()
        return
    yield from grow((), total, total)


def _sub_multisets(hand: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every sub-multiset of ``hand``, highest first, each once."""
    counts = sorted(Counter(hand).items(), reverse=True)

    def grow(index: int, prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if index == len(counts):
            yield prefix
            return
        value, available = counts[index]
        for n in range(available + 1):
            yield from grow(index + 1, prefix + (value,) * n)

    yield from grow(0, ())


__all__ = [
    "ANOMALIES",
    "Create",
    "DuelingDecks",
    "Play",
    "board_text",
    "card_contributions",
    "deal_prizes",
    "deck_size_for",
    "halves",
    "parse_anomalies",
    "pick_your_prize_value",
    "resolve_round",
    "tenths",
]
