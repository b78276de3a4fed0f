"""Threats on the Tic-Tac-Five board, for the practice opponent's choice of moves to search.

A *five-point* of a colour is an empty point where its stone makes five or more in a row (an
overline wins too). A *winning threat* is a move after which its colour wins whatever the other
does, unless the other has fours of its own to play first:

* A move that leaves two five-points or more. That is an open four ``.XXXX.``, grown from an
  open three (``.XXX.`` or ``.X.XX.``), or a double four, grown from two broken lines.
* A four-three: one five-point and an open three in another line. It is allowed, since only a
  double three is forbidden (ruling 1).

The other side must answer such a threat one move before it is made: a stone on the open three
(an end, the gap of a split three), or on the four's line. :func:`focus` lists, for the colour to
move, the points worth searching, in this order of need: its five; the points that stop the
other's five; its own winning threat (the other has no four to answer with); the points after
which the other has no winning threat left (with its own four-threes beside them); else
``None`` (every point near a stone). Each point is tried under the double-three ban of the
colour that would place there.

Everything is counted over the 572 windows of five points in a line: a window with four stones
of a colour and one empty point names a five-point, one with three stones and two empty points
names the pair of points each of which leaves the other a five-point.
"""

from __future__ import annotations

from collections import defaultdict

from geniusbot.games.tictacfive.rules import (
    _BLACK,
    _DIRECTIONS,
    _EMPTY,
    _POINTS,
    _STRIDE,
    _THREE,
    _WHITE,
    SIZE,
    _allowed,
    _line_shape,
)

Window = tuple[int, int, int, int, int]


def _windows() -> tuple[Window, ...]:
    found: list[Window] = []
    for at, point in _POINTS:
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            col, row = point.col + 4 * dc, point.row + 4 * dr
            if 0 <= col < SIZE and 0 <= row < SIZE:
                step = dr * _STRIDE + dc
                found.append((at, at + step, at + 2 * step, at + 3 * step, at + 4 * step))
    return tuple(found)


WINDOWS = _windows()


class Lines:
    """The windows of one position that matter for threats, counted once."""

    def __init__(self, board: list[int]) -> None:
        self.board = board
        #: By colour: the five-points, and the windows of three stones and two empty points.
        self.fives: dict[int, set[int]] = {_BLACK: set(), _WHITE: set()}
        self.threes: dict[int, list[tuple[int, int]]] = {_BLACK: [], _WHITE: []}
        self.windows_of_threes: dict[int, list[Window]] = {_BLACK: [], _WHITE: []}
        for window in WINDOWS:
            values = [board[i] for i in window]
            empty = values.count(_EMPTY)
            if empty > 2 or empty == 0:
                continue
            for code in (_BLACK, _WHITE):
                if values.count(code) + empty != 5:
                    continue
                gaps = [i for i, v in zip(window, values, strict=True) if v == _EMPTY]
                if empty == 1:
                    self.fives[code].add(gaps[0])
                else:
                    self.threes[code].append((gaps[0], gaps[1]))
                    self.windows_of_threes[code].append(window)

    def threats(self, code: int, without: int | None = None) -> list[int]:
        """The points where ``code`` makes a winning threat (it has no five-point now), those
        windows that hold ``without`` left out: a stone of the other colour there (which the
        caller has put on the board)."""
        follow: dict[int, set[int]] = defaultdict(set)
        for (p, q), window in zip(self.threes[code], self.windows_of_threes[code], strict=True):
            if without is not None and without in window:
                continue
            follow[p].add(q)
            follow[q].add(p)
        board, found = self.board, []
        for p, qs in follow.items():
            if p == without or not _allowed(board, p, code):
                continue
            if len(qs) >= 2 or any(_line_shape(board, p, step, code) == _THREE for step, _ in _DIRECTIONS):
                found.append(p)
        return sorted(found)


def focus(board: list[int], own: int, near: list[int]) -> list[int] | None:
    """The points of ``near`` (empty points the mover ``own`` may take) worth searching in play,
    or ``None`` when no threat narrows them (see the module's docstring)."""
    other = _BLACK + _WHITE - own
    lines = Lines(board)
    mine = sorted(lines.fives[own])
    if mine:
        return mine[:1]
    theirs = sorted(p for p in lines.fives[other] if _allowed(board, p, own))
    if theirs:
        return theirs
    attack = lines.threats(own)
    doubles = [p for p in attack if _leaves_two_fives(lines, own, p)]
    if doubles:
        return doubles[:1]
    danger = lines.threats(other)
    if not danger:
        return attack or None
    answers = []
    for m in near:
        board[m] = own
        try:
            if not lines.threats(other, without=m):
                answers.append(m)
        finally:
            board[m] = _EMPTY
    return sorted(set(answers) | set(attack)) or None


def _leaves_two_fives(lines: Lines, code: int, p: int) -> bool:
    return len({q for (a, b) in lines.threes[code] for q in ((b,) if a == p else (a,) if b == p else ())}) >= 2
