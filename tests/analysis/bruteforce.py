"""A separate solver for Tic-Tac-Five's wins by continuous fours, by brute force.

It shares nothing with the game's own search but the rules' legality (``parse_move``, which
refuses a double three): the board is a dict of points, a four is found by looking at every
window of five points on the board (three stones of the attacker, two empty points, none of the
defender's), a five by every window with four and one empty point. No move ordering, no pruning
beyond remembering the positions it has already solved.
"""

from __future__ import annotations

from functools import cache

from geniusbot.games import IllegalMoveError, get_game

SIZE = 15
COLS = "ABCDEFGHIJKLMNO"


def _windows() -> list[tuple[tuple[int, int], ...]]:
    found = []
    for row in range(SIZE):
        for col in range(SIZE):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = tuple((col + k * dc, row + k * dr) for k in range(5))
                if all(0 <= c < SIZE and 0 <= r < SIZE for c, r in cells):
                    found.append(cells)
    return found


WINDOWS = _windows()


def name(cell: tuple[int, int]) -> str:
    return f"{COLS[cell[0]]}{cell[1] + 1}"


def cell(point: str) -> tuple[int, int]:
    return COLS.index(point[0].upper()), int(point[1:]) - 1


def _points(stones: dict[tuple[int, int], str], colour: str, own: int) -> set[tuple[int, int]]:
    """Empty points in windows holding ``own`` stones of ``colour``, the rest empty."""
    found = set()
    for window in WINDOWS:
        held = [stones.get(c) for c in window]
        if held.count(colour) == own and held.count(None) == 5 - own:
            found.update(c for c in window if c not in stones)
    return found


def legal(stones: dict[tuple[int, int], str], colour: str, point: tuple[int, int]) -> bool:
    """Whether ``colour`` may place on ``point`` (the rules' own check, the double three)."""
    game = get_game("tictacfive").new(seed=0)
    game.load_state(
        {
            "phase": "play",
            "stones": [[name(c), s] for c, s in stones.items()],
            "colors": {"p1": "black", "p2": "white"},
            "next_color": colour,
            "winning_line": None,
        }
    )
    seat = "p1" if colour == "black" else "p2"
    try:
        game.parse_move(name(point), seat)
    except IllegalMoveError:
        return False
    return True


def vcf(stones: dict[tuple[int, int], str], attacker: str, depth: int) -> list[str] | None:
    """A win by at most ``depth`` continuous fours of ``attacker`` (to move), then five: its line."""
    defender = "white" if attacker == "black" else "black"

    @cache
    def solve(position: frozenset[tuple[tuple[int, int], str]], depth: int) -> tuple[str, ...] | None:
        board = dict(position)
        fives = _points(board, attacker, 4)
        if fives:
            return (name(min(fives)),)
        if depth == 0:
            return None
        threats = _points(board, defender, 4)
        if len(threats) > 1:
            return None
        for move in sorted(_points(board, attacker, 3)):
            if threats and move not in threats:
                continue
            if not legal(board, attacker, move):
                continue
            after = {**board, move: attacker}
            blocks = _points(after, attacker, 4)
            if len(blocks) > 1:
                return (name(move), *sorted(name(b) for b in blocks)[:2])
            (block,) = blocks
            if not legal(after, defender, block):
                return (name(move), "-", name(block))
            answered = {**after, block: defender}
            if any(block in w and [answered.get(c) for c in w].count(defender) == 5 for w in WINDOWS):
                continue  # the answer makes the defender's five
            rest = solve(frozenset(answered.items()), depth - 1)
            if rest is not None:
                return (name(move), name(block), *rest)
        return None

    found = solve(frozenset(stones.items()), depth)
    return None if found is None else list(found)


def replays(stones: dict[tuple[int, int], str], attacker: str, line: list[str]) -> bool:
    """Whether ``line`` is a win by continuous fours: every attacker move but the last a legal
    four whose one block is the defender's answer (or two fives, or a block the defender may not
    take), the last a five."""
    defender = "white" if attacker == "black" else "black"
    board = dict(stones)
    moves = list(line)
    while True:
        move = cell(moves.pop(0))
        if move in board:
            return False
        if not moves:
            return move in _points(board, attacker, 4)
        if not legal(board, attacker, move) or move not in _points(board, attacker, 3):
            return False
        board[move] = attacker
        blocks = _points(board, attacker, 4)
        answer = moves.pop(0)
        if answer == "-":
            return len(blocks) == 1 and not legal(board, defender, next(iter(blocks)))
        if len(blocks) > 1:
            board[cell(answer)] = defender
            continue
        if blocks != {cell(answer)}:
            return False
        board[cell(answer)] = defender
