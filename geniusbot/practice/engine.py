"""The practice opponent's search: Monte Carlo tree search over the rules API.

The engine is given a :class:`Knowledge`, what one seat knows, and nothing else: the seat's views
in the order it saw them and, for a game of perfect information only, the seed, options and the
actions of the match (which every seat sees). It never holds the match's game object.

To search it needs concrete games. For a game of perfect information it replays the actions from
the seed: the state every seat can rebuild. For a game with hidden information it asks the game's
:meth:`~geniusbot.games.base.Game.determinize` hook for games consistent with the views, each
drawn from the engine's own random numbers (information-set search: one tree over the moves,
a fresh determinization at every iteration, a child counted as available only when it is
legal in the iteration's determinization).

The budget is a number of iterations and, optionally, seconds of a ``now`` callable the caller
injects (tests use iterations only). The engine is pure: no asyncio, no I/O.

Speed is what buys strength here: an iteration searches a copy of the game (``Game.copy``, a
pickle round trip), a node of a game of perfect information lists its moves once, and a
play-out of a game that scores its positions (``Game.evaluate``) stops after
:data:`EVALUATED_DEPTH` actions and takes the score.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from geniusbot.games import Game, GameError, Move, get_game
from geniusbot.record import GameAction, apply_action

#: Above this many legal moves, a node samples moves (the game's rollout policy, else uniform)
#: rather than listing them all (a phase of hidden placements may have millions of legal moves).
MOVE_CAP = 400
#: How many moves a node samples when it may not list them.
SAMPLED_MOVES = 24
#: A rollout stops after this many actions and counts as even (0.5 each) when the game goes on.
ROLLOUT_DEPTH = 80
#: A rollout of a game with an ``evaluate`` stops after this many actions, and the game's
#: evaluation of the position counts: a short play-out scored is worth more than a long random one.
EVALUATED_DEPTH = 12
#: How many times a determinization is drawn before the engine gives up on a position (a game
#: may draw one that does not fit what the seat saw, and say so with ``None``).
DRAWS = 10
#: How many times the first determinization of a search is drawn (without it there is no move).
FIRST_DRAWS = 200
#: The seconds kept back from a wall-time budget: the iteration under way when it runs out, and
#: the answer's way back, finish within it.
TIME_MARGIN = 0.06
#: The exploration constant of UCB1.
EXPLORATION = 1.0
#: At most this many trial moves for ``hard``'s look for replies that win at once (beyond it the
#: look is left out: a game with that many moves narrows them itself through its search_moves hook).
CAREFUL_TRIALS = 3000


class PracticeError(GameError):
    """The engine cannot play this position (a hidden-information game without a
    determinization, or views that no game matches); the sentence says which."""


@dataclass(frozen=True)
class Budget:
    """How long a search may run: ``iterations`` at most, and ``seconds`` of ``now`` if given.

    ``modelled``: in a game that declares ``answers_by_policy``, the other seat's sealed answers
    are drawn from the game's play-out policy (a model of a typical player) rather than searched.
    ``careful``: in a game of perfect information, the moves after which the other seat wins at
    once are left out of the search when some others are not.
    """

    iterations: int
    seconds: float | None = None
    modelled: bool = False
    careful: bool = False


#: The levels a player picks: the same search, with more iterations (hard: 8 x normal). A level
#: is its iterations; its seconds are a safety limit that a loaded machine may reach first.
#: ``easy`` and ``normal`` answer a typical player, where a game offers a model of one; ``hard``
#: searches the answers of a player who answers its best.
LEVELS: Mapping[str, Budget] = {
    "easy": Budget(8, 2.0, modelled=True),
    "normal": Budget(32, 2.0, modelled=True),
    "hard": Budget(256, 2.0, careful=True),
}

#: How much of a vanishing picture (shown for a while, then hidden) each level keeps, 0 to 1: in a
#: memory task the levels differ in memory too, as players do (``Game.recall``).
MEMORY: Mapping[str, float] = {"easy": 0.5, "normal": 0.75, "hard": 1.0}


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows, as plain data (it crosses a process boundary).

    ``views``: the seat's views, oldest first, the last being the position now (``Game.view(seat)``
    after each action it saw). ``seed`` and ``actions``: for a game of perfect information only,
    the match's seed and its accepted game actions (:class:`~geniusbot.record.GameAction`, of the
    kinds in :data:`~geniusbot.record.GAME_KINDS`). ``memory``: how much of a
    vanishing picture the seat remembers (:data:`MEMORY`; the game's ``recall`` applies it).
    """

    game: str
    variant: str
    options: Mapping[str, str]
    seat: str
    views: Sequence[Mapping[str, Any]]
    seed: int | None = None
    actions: Sequence[GameAction] = ()
    memory: float = 1.0


@dataclass(frozen=True)
class Choice:
    """The engine's move: its text, whether it is sent privately, and the search's figures."""

    text: str
    private: bool
    iterations: int = 0
    visits: int = 0


def replay(knowledge: Knowledge) -> Game:
    """The game of perfect information rebuilt from its seed and its public actions."""
    cls = get_game(knowledge.game)
    game = cls.new(seed=knowledge.seed or 0, variant=knowledge.variant, **dict(knowledge.options))
    for action in knowledge.actions:
        apply_action(game, action)
    return game


def determinizer(knowledge: Knowledge) -> Callable[..., Game]:
    """A function drawing a game consistent with what the seat knows."""
    cls = get_game(knowledge.game)
    if cls.perfect_information:
        if knowledge.seed is None:
            raise PracticeError(f"{cls.title} is replayed from its seed; the knowledge has none.")
        base = replay(knowledge)
        return lambda rng, tries=DRAWS: base.copy()
    if not knowledge.views:
        raise PracticeError("The engine has seen no view of this match.")
    if getattr(cls.determinize, "__func__", None) is getattr(Game.determinize, "__func__", None):
        raise PracticeError(
            f"{cls.title} keeps information hidden and draws no games its seats cannot tell apart "
            "(no determinize hook), so the practice opponent cannot play it; play it with two people."
        )

    views = cls.recall(knowledge.seat, knowledge.views, knowledge.memory)

    def draw(rng: random.Random, tries: int = DRAWS) -> Game:
        for _ in range(tries):
            game = cls.determinize(knowledge.seat, views, rng, variant=knowledge.variant, **knowledge.options)
            if game is not None:
                return game
        raise PracticeError(f"{cls.title} has no practice opponent in this position yet.")

    return draw


@dataclass
class _Node:
    mover: str | None = None
    move: Move | None = None
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[str, _Node] = field(default_factory=dict)
    # The moves a node with too many to list searches (drawn on its first visit).
    sampled: list[Move] | None = None
    # In a game of perfect information a node is one position: its moves, listed once, and
    # their texts (a move's key among the children).
    listed: list[Move] | None = None
    texts: list[str] | None = None
    # At a node where several seats move at once (sealed moves), the figures of the moves of
    # each seat that moves after the first, kept here rather than under the first seat's move:
    # a sealed answer is chosen without knowing the move it answers.
    blind: dict[str, dict[str, _Node]] = field(default_factory=dict)


def _mover(game: Game, seat: str) -> str | None:
    """The seat that acts next in a simulation, or ``None``: of several at once (sealed moves),
    ``seat``, the searching seat, first, so that its own choice is the root's."""
    movers = game.to_move()
    if seat in movers:
        return seat
    return movers[0] if movers else None


def _advance(game: Game) -> bool:
    """Close a window nobody's move ends; ``False`` when the game cannot go on."""
    if game.is_over:
        return False
    if game.to_move():
        return True
    if game.window() is not None:
        game.close_window()
        return True
    return False


def _moves(game: Game, seat: str, node: _Node, rng: random.Random) -> list[Move]:
    """The moves a node searches in this determinization (in a game of perfect information,
    where a node is one position, the ones listed on its first visit)."""
    if node.listed is not None:
        return node.listed
    if node.sampled is not None:
        return [m for m in node.sampled if game.is_legal(m)] or _sample(game, seat, rng)
    focus = game.search_moves(seat)
    listed = list(focus) if focus else list(itertools.islice(game.legal_moves(seat), MOVE_CAP + 1))
    if not focus and len(listed) > MOVE_CAP:
        node.sampled = _sample(game, seat, rng)
        return node.sampled
    if game.perfect_information:
        node.listed = listed
        node.texts = [m.text() for m in listed]
    return listed


def _texts(node: _Node, moves: list[Move]) -> list[str]:
    """The texts of ``moves``, the keys of their children at ``node``."""
    if node.texts is not None and moves is node.listed:
        return node.texts
    return [m.text() for m in moves]


def _sample(game: Game, seat: str, rng: random.Random) -> list[Move]:
    """A few distinct legal moves: the game's rollout policy's, else a uniform sample."""
    chosen: dict[str, Move] = {}
    for _ in range(SAMPLED_MOVES * 2):
        move = game.rollout_move(seat, rng)
        if move is None:
            break
        chosen.setdefault(move.text(), move)
        if len(chosen) >= SAMPLED_MOVES:
            break
    if chosen:
        return list(chosen.values())
    # Reservoir sampling over the whole list: slow, but right for any game.
    sample: list[Move] = []
    for index, move in enumerate(game.legal_moves(seat)):
        if index < SAMPLED_MOVES:
            sample.append(move)
        else:
            slot = rng.randrange(index + 1)
            if slot < SAMPLED_MOVES:
                sample[slot] = move
    return sample


def _random_move(game: Game, seat: str, rng: random.Random) -> Move | None:
    move = game.rollout_move(seat, rng)
    if move is not None:
        return move
    listed = list(itertools.islice(game.legal_moves(seat), MOVE_CAP + 1))
    if len(listed) > MOVE_CAP:
        sample = _sample(game, seat, rng)
        return rng.choice(sample) if sample else None
    return rng.choice(listed) if listed else None


def rollout(
    game: Game, rng: random.Random, depth: int = ROLLOUT_DEPTH, late: Callable[[], bool] | None = None
) -> dict[str, float]:
    """Play ``game`` on to its end (at most ``depth`` actions, :data:`EVALUATED_DEPTH` when the
    game evaluates its positions, and not past ``late``, looked at every eighth action); each
    seat's reward."""
    for step in range(depth):
        if late is not None and step % 8 == 7 and late():
            break
        if step == EVALUATED_DEPTH and not game.is_over and game.evaluate(game.seats[0]) is not None:
            break
        if not _advance(game):
            break
        mover = _mover(game, game.seats[0])
        if mover is None:
            break
        move = _random_move(game, mover, rng)
        if move is None:
            break
        game.play(move)
    return rewards(game)


def rewards(game: Game) -> dict[str, float]:
    """1 to the winner, 0 to the loser, 0.5 each for a draw or a game still going (or the
    game's own :meth:`~geniusbot.games.base.Game.evaluate` of it)."""
    outcome = game.outcome()
    if outcome is None:
        value = game.evaluate(game.seats[0])
        if value is None:
            return dict.fromkeys(game.seats, 0.5)
        return {game.seats[0]: value, game.seats[1]: 1.0 - value}
    if outcome.winner is None:
        return dict.fromkeys(game.seats, 0.5)
    return {seat: 1.0 if seat == outcome.winner else 0.0 for seat in game.seats}


def _wins_at_once(game: Game, move: Move) -> bool:
    trial = game.copy()
    trial.play(move)
    outcome = trial.outcome()
    return outcome is not None and outcome.winner == move.seat


def _careful(game: Game, seat: str, moves: list[Move], late: Callable[[], bool]) -> list[Move]:
    """The moves of ``moves`` after which the other seat, moving next, has no move that wins at
    once; all of them when every one loses so, or when the look would take more than
    :data:`CAREFUL_TRIALS` trial moves (taking the replies to be about as many as the moves, or
    counting them) or the time runs out."""
    if len(moves) ** 2 > CAREFUL_TRIALS:  # about as many replies as moves: too many to try
        return moves
    safe, trials = [], 0
    for move in moves:
        after = game.copy()
        after.play(move)
        movers = after.to_move()
        if after.is_over or len(movers) != 1 or movers[0] == seat:
            safe.append(move)
            continue
        lost = False
        for reply in after.legal_moves(movers[0]):
            trials += 1
            if trials > CAREFUL_TRIALS or late():
                return moves
            if _wins_at_once(after, reply):
                lost = True
                break
        if not lost:
            safe.append(move)
    return safe or moves


def choose(
    knowledge: Knowledge,
    budget: Budget,
    *,
    seed: int = 0,
    now: Callable[[], float] | None = None,
) -> Choice:
    """The move the engine plays for ``knowledge.seat``, searched within ``budget``.

    The same knowledge and ``seed`` give the same move when the budget is iterations alone.
    """
    deadline = None if now is None or budget.seconds is None else now() + budget.seconds - TIME_MARGIN

    def late() -> bool:
        return deadline is not None and now is not None and now() >= deadline

    draw = determinizer(knowledge)
    seat = knowledge.seat
    modelled = budget.modelled and get_game(knowledge.game).answers_by_policy
    rng = random.Random(f"practice:{seed}")
    first = draw(rng, FIRST_DRAWS)
    if first.is_over or seat not in first.to_move():
        raise PracticeError(f"{seat} has no move to make now.")
    root = _Node()
    moves = _moves(first, seat, root, rng)
    if not moves:
        raise PracticeError(f"{seat} has no legal move here.")
    if len(moves) == 1:
        return Choice(moves[0].text(), first.is_private(moves[0]))
    if first.perfect_information:
        for move in moves:
            if late():
                break
            if _wins_at_once(first, move):
                return Choice(move.text(), first.is_private(move))
        if budget.careful:
            moves = root.listed = _careful(first, seat, moves, late)
            root.texts = [m.text() for m in moves]
            if len(moves) == 1:
                return Choice(moves[0].text(), first.is_private(moves[0]))
    done = 0
    for done in range(1, budget.iterations + 1):
        if done > 1 and late():  # one iteration at least, however late
            done -= 1
            break
        try:
            game = first.copy() if done == 1 else draw(rng)
        except PracticeError:  # no draw fitted this time: search the first one again
            game = first.copy()
        _iterate(game, root, rng, seat, late, modelled)
    best = max(root.children.values(), key=lambda n: (n.visits, n.reward))
    assert best.move is not None
    return Choice(best.move.text(), first.is_private(best.move), done, best.visits)


def _iterate(
    game: Game, root: _Node, rng: random.Random, searcher: str, late: Callable[[], bool], modelled: bool = False
) -> None:
    node, path = root, [root]
    # The node where the seats still to move sealed their moves together, and those seats.
    sealed: _Node | None = None
    waiting: tuple[str, ...] = ()
    blind: list[_Node] = []  # the sealed answers' figures this iteration touched
    while _advance(game):
        seat = _mover(game, searcher)
        if seat is None:
            break
        moves = _moves(game, seat, node, rng)
        if not moves:
            break
        if sealed is not None and seat in waiting:
            # A sealed answer: chosen on its own figures at the node where the seats began to
            # move together, whatever the seats before it chose; or (``modelled``) the other
            # seat's, drawn from the game's play-out policy, as a typical player would answer.
            drawn = game.rollout_move(seat, rng) if modelled and seat != searcher else None
            if drawn is not None:
                move, moves = drawn, [drawn]
            else:
                move, figures = _pick(sealed.blind.setdefault(seat, {}), seat, moves, rng)
                blind.append(figures)
            child = node.children.get(move.text())
            game.play(_as_legal(game, move, moves))
            if child is None:
                path.append(node.children.setdefault(move.text(), _Node(seat, move)))
                break
            path.append(child)
            node = child
            waiting = tuple(s for s in waiting if s != seat)
            continue
        movers = game.to_move()
        if len(movers) > 1:
            sealed, waiting = node, tuple(s for s in movers if s != seat)
        elif seat not in waiting:
            sealed, waiting = None, ()
        texts = _texts(node, moves)
        children = node.children
        untried = [m for m, text in zip(moves, texts, strict=True) if text not in children]
        if untried:
            move = rng.choice(untried)
            child = children[move.text()] = _Node(seat, move)
            for text in texts:
                if text in children:
                    children[text].available += 1
            game.play(move)
            path.append(child)
            break
        options = [children[text] for text in texts]
        for option in options:
            option.available += 1
        child = max(options, key=_ucb)
        assert child.move is not None
        game.play(_as_legal(game, child.move, moves))
        path.append(child)
        node = child
    result = rollout(game, rng, late=late)
    for visited in path:
        visited.visits += 1
        if visited.mover is not None:
            visited.reward += result.get(visited.mover, 0.5)
    for figures in blind:
        figures.visits += 1
        figures.reward += result.get(figures.mover or "", 0.5)


def _pick(table: dict[str, _Node], seat: str, moves: Sequence[Move], rng: random.Random) -> tuple[Move, _Node]:
    """A move of ``moves`` by its figures in ``table`` (one not tried yet first, else UCB1),
    and those figures."""
    untried = [m for m in moves if m.text() not in table]
    for move in moves:
        if move.text() in table:
            table[move.text()].available += 1
    if untried:
        move = rng.choice(untried)
        figures = table[move.text()] = _Node(seat, move, available=1)
        return move, figures
    figures = max((table[m.text()] for m in moves), key=_ucb)
    assert figures.move is not None
    return figures.move, figures


def _as_legal(game: Game, move: Move, moves: Sequence[Move]) -> Move:
    """The move of this determinization with the node's text (moves compare by value)."""
    text = move.text()
    return next((m for m in moves if m.text() == text), move)


def _ucb(node: _Node) -> float:
    if node.visits == 0:
        return math.inf
    return node.reward / node.visits + EXPLORATION * math.sqrt(math.log(max(node.available, 1)) / node.visits)


__all__ = [
    "LEVELS",
    "MEMORY",
    "Budget",
    "Choice",
    "Knowledge",
    "PracticeError",
    "choose",
    "determinizer",
    "replay",
    "rewards",
    "rollout",
]
