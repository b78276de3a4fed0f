"""The engine review of a finished match: every move scored with all information known.

A match is its start and its accepted actions (a record's, or the store's). :func:`positions`
plays them through once and keeps, for each seat's move, the game just before it (the real
game: every secret is known after the match). :func:`judge` scores one move: the moves worth
trying there (the game's ``search_moves``, else a sample of its legal moves, at most
:attr:`Effort.candidates`, the played one always among them), each valued by
:attr:`Effort.playouts` play-outs of the practice engine's policy from the position after it
(common random numbers: every move meets the same dice). A game with a tactics search
(:meth:`~geniusbot.games.base.Game.forced_win`) makes some values exact: a forced win of the
mover's before the move (value 1, and "missed" when the move played starts none), a forced win
of the other seat's after a move (value 0). :func:`review` judges every move and marks the ones
that threw away the most.

Everything here is plain data and pure: a move is judged in a worker process
(``concurrent.futures``), one :class:`Position` in, one :class:`MoveReview` out.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from geniusbot.games import Game, GameError, Move
from geniusbot.games.tactics import ForcedWin
from geniusbot.practice.engine import MOVE_CAP, rewards, rollout
from geniusbot.record import MOVE_KINDS, Action, GameAction, apply_action

#: A move is marked when it lost at least this much of the mover's chance (0 to 1)...
MARK_LOSS = 0.25
#: ...and at most this many moves are marked (the largest losses; a missed forced win always).
MARKS = 3
#: A missed forced win is one the played move does not start and whose play-outs keep below this.
STILL_WINNING = 0.9


@dataclass(frozen=True)
class Effort:
    """How hard the review looks: ``candidates`` moves a position, ``playouts`` play-outs each;
    ``tactics``: whether a game's tactics search runs (exact wins where it finds them)."""

    candidates: int = 8
    playouts: int = 16
    tactics: bool = True
    seed: int = 0


#: The review the commands and the bot make; tests use a smaller one.
DEFAULT_EFFORT = Effort()


@dataclass(frozen=True)
class Position:
    """One move to judge: the game just before it (``index``: its step, 1 for the first
    action), the action as recorded."""

    index: int
    before: Game
    action: GameAction


@dataclass(frozen=True)
class MoveReview:
    """One move judged. Values are the mover's chance (0 lost, 1 won) after a move;
    ``advantage`` is the first seat's (``p1``) after the move played, -1 to 1.

    ``best``: the best move found (the played one when none is better); ``loss``: how much of the
    mover's chance the played move gave away against it. ``missed``: a forced win the mover had
    and did not play; ``allowed``: a forced win the move left the other seat. ``exact``: whether
    the played move's value is proven (a forced win either way), not estimated."""

    index: int
    seat: str
    move: str
    private: bool
    advantage: float
    played: float
    best: str
    best_value: float
    loss: float
    exact: bool = False
    missed: ForcedWin | None = None
    allowed: ForcedWin | None = None


@dataclass(frozen=True)
class Review:
    """A match reviewed: each move judged (in order), the first seat's advantage after every
    step (``graph``: step 0 the start, then one per move judged, -1 to 1), the marked moves
    (indices into ``moves``, the worst first), the effort spent and whether the game's tactics
    search ran (``tactics``: its depth, forcing moves and threats)."""

    seats: tuple[str, str]
    moves: tuple[MoveReview, ...]
    graph: tuple[float, ...]
    marked: tuple[int, ...]
    effort: Effort
    tactics: tuple[int, int] | None = None
    final: float | None = None

    @property
    def spread(self) -> float:
        """How far an estimated value may be off: one standard error of a value from
        :attr:`Effort.playouts` play-outs at worst (a chance of one half)."""
        return 0.5 / math.sqrt(max(self.effort.playouts, 1))

    def marked_moves(self) -> list[MoveReview]:
        """The marked moves, the worst first."""
        return [self.moves[i] for i in self.marked]

    def mark_of(self, step: int) -> MoveReview | None:
        """The marked move played at ``step`` (an action's index), or ``None``."""
        return next((m for m in self.marked_moves() if m.index == step), None)


def positions(start: Game, actions: Sequence[Action]) -> tuple[list[Position], Game]:
    """The moves of a match to judge (a seat's submission each) and the game at its end: the
    actions applied to a copy of ``start`` in order, a host's (a timeout, a window) too."""
    game = start.copy()
    found: list[Position] = []
    for index, action in enumerate(actions, 1):
        plain = GameAction(action.kind, action.seat, action.text, action.private)
        if plain.kind in MOVE_KINDS and plain.seat is not None:
            found.append(Position(index, game.copy(), plain))
        apply_action(game, plain)
    return found, game


def _chance(game: Game, seat: str, playouts: int, seed: str) -> float:
    """``seat``'s chance in ``game``: its result when over, else the mean of ``playouts``
    play-outs (their dice drawn from ``seed``, the same for every move compared)."""
    if game.is_over or playouts <= 0:
        return rewards(game).get(seat, 0.5)
    rng = random.Random(seed)
    total = sum(rollout(game.copy(), rng).get(seat, 0.5) for _ in range(playouts))
    return total / playouts


def _candidates(game: Game, seat: str, effort: Effort, rng: random.Random) -> list[Move]:
    """The moves worth trying for ``seat``: the game's focus, else its legal moves (a sample of
    the rollout policy's where there are too many to list), at most ``effort.candidates``."""
    listed = game.search_moves(seat)
    if not listed:
        listed = list(itertools.islice(game.legal_moves(seat), MOVE_CAP + 1))
        if len(listed) > MOVE_CAP:
            drawn: dict[str, Move] = {}
            for _ in range(effort.candidates * 3):
                move = game.rollout_move(seat, rng)
                if move is not None:
                    drawn.setdefault(move.text(), move)
            listed = list(drawn.values())
    if len(listed) > effort.candidates:
        listed = rng.sample(listed, effort.candidates)
    return listed


def _solved(game: Game, effort: Effort) -> bool:
    return effort.tactics and type(game).tactics_depth is not None


def judge(position: Position, effort: Effort = DEFAULT_EFFORT) -> MoveReview:
    """One move judged (see the module's docstring); pure, so a worker process may run it."""
    before, action = position.before, position.action
    seat = action.seat
    assert seat is not None
    first = before.seats[0]
    dice = f"review:{effort.seed}:{position.index}"
    rng = random.Random(dice)
    after = before.copy()
    apply_action(after, action)
    played_text = action.text.strip()
    solved = _solved(before, effort)
    had = before.forced_win() if solved and before.to_move() == (seat,) else None

    def value(game: Game, threats: bool = True) -> tuple[float, bool, ForcedWin | None]:
        """The mover's chance after a move, whether it is exact, the other seat's forced win
        (``threats``: searched with threats too, else by forcing moves alone, which is quick)."""
        if game.is_over:
            return rewards(game).get(seat, 0.5), True, None
        movers = game.to_move()
        if solved and len(movers) == 1 and movers[0] != seat:
            against = game.forced_win() if threats else game.forced_win(threats=0)
            if against is not None:
                return 0.0, True, against
        return _chance(game, seat, effort.playouts, dice), False, None

    played, exact, allowed = value(after)
    best_text, best_value = played_text, played
    for move in _candidates(before, seat, effort, rng):
        text = move.text()
        if text.lower() == played_text.lower():
            continue
        trial = before.copy()
        try:
            trial.play(move)
        except GameError:
            continue
        worth, _, _ = value(trial, threats=False)
        if worth > best_value:
            best_text, best_value = text, worth
    missed = None
    if had is not None:
        if played_text.upper() == had.first.upper() or (exact and played >= 1.0):
            played, exact = 1.0, True
        elif played < STILL_WINNING:
            missed = had
        best_text, best_value = (played_text, played) if missed is None else (had.first, 1.0)
    mover_first = seat == first
    advantage = 2 * (played if mover_first else 1 - played) - 1
    return MoveReview(
        index=position.index,
        seat=seat,
        move=played_text,
        private=action.private,
        advantage=advantage,
        played=played,
        best=best_text,
        best_value=best_value,
        loss=max(0.0, best_value - played),
        exact=exact,
        missed=missed,
        allowed=allowed,
    )


def _other(game: Game, seat: str) -> bool:
    """Whether the other seat alone is to move (its forced win is then worth searching)."""
    movers = game.to_move()
    return len(movers) == 1 and movers[0] != seat


def best_move(game: Game, seat: str, effort: Effort = DEFAULT_EFFORT) -> Move:
    """The move the review values best for ``seat`` (to move) in ``game``: the first move of a
    forced win the game's tactics search finds, else the best of the moves :func:`judge` would
    try (each valued as there, the same dice for all; ties go to the first tried). Pure: the same
    game and effort (its ``seed`` too) give the same move. A bench's player, not the review's."""
    if seat not in game.to_move():
        raise ValueError(seat)
    solved = _solved(game, effort)
    if solved and game.to_move() == (seat,):
        win = game.forced_win()
        if win is not None:
            return game.parse_move(win.first, seat)
    dice = f"best:{effort.seed}"
    best: tuple[float, Move] | None = None
    for move in _candidates(game, seat, effort, random.Random(dice)):
        trial = game.copy()
        try:
            trial.play(move)
        except GameError:
            continue
        if trial.is_over:
            worth = rewards(trial).get(seat, 0.5)
        elif solved and _other(trial, seat) and trial.forced_win(threats=0) is not None:
            worth = 0.0
        else:
            worth = _chance(trial, seat, effort.playouts, dice)
        if best is None or worth > best[0]:
            best = (worth, move)
    if best is None:
        return next(iter(game.legal_moves(seat)))
    return best[1]


def assemble(start: Game, judged: Sequence[MoveReview], end: Game, effort: Effort) -> Review:
    """The review of the moves judged: the graph, the marks."""
    final = None
    if end.is_over:
        final = 2 * rewards(end).get(start.seats[0], 0.5) - 1
    graph = (0.0, *(m.advantage for m in judged))
    ranked = sorted(
        (i for i, m in enumerate(judged) if m.missed is not None or m.loss >= MARK_LOSS),
        key=lambda i: (judged[i].missed is None, -judged[i].loss, judged[i].index),
    )
    missed = [i for i in ranked if judged[i].missed is not None]
    others = [i for i in ranked if judged[i].missed is None][: max(0, MARKS - len(missed))]
    return Review(
        seats=(start.seats[0], start.seats[1]),
        moves=tuple(judged),
        graph=graph,
        marked=tuple(missed + others),
        effort=effort,
        tactics=type(start).tactics_depth if effort.tactics else None,
        final=final,
    )


def review(
    start: Game,
    actions: Sequence[Action],
    effort: Effort = DEFAULT_EFFORT,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The whole review, move after move in this process; ``progress(done, total)`` after each."""
    found, end = positions(start, actions)
    judged: list[MoveReview] = []
    for done, position in enumerate(found, 1):
        judged.append(judge(position, effort))
        if progress is not None:
            progress(done, len(found))
    return assemble(start, judged, end, effort)
