"""Tic-Tac-Five's tactics: a threat-space search for a win by continuous fours (VCF) or by
threes and fours (VCT), under the game's rules (five or more wins; no double three for either
colour, unless it makes five). The engine review reads it through ``TicTacFive.forced_win``.

=====================  =========================================================================
search                 what it proves
=====================  =========================================================================
VCF, ``fours`` deep    The attacker plays a four (a stone after which one more makes five) at
                       every move, at most ``fours`` of them, then five. The defender's answer is
                       forced: the one point that stops the five (a four with two such points,
                       or whose point the defender may not take, a double three, wins at once).
                       A defender with a five to make wins first; a defender's four must be
                       blocked, by a four. Every four of the attacker is tried: the search is
                       exact within its depth.
VCT, ``threats`` deep  The attacker may also play a three, a stone after which, were the
                       defender to pass, a VCF wins. The defender's answers tried: every point
                       of that VCF (its fours and their blocks) and every four of the defender.
                       Sound as far as those answers are all the answers that matter (the usual
                       threat-space assumption).
=====================  =========================================================================

The search works on the game's flat board with the rules' own line reading (``_line_shape``) and
remembers positions it has refuted (a Zobrist hash and the depth searched).
"""

from __future__ import annotations

import random

from .rules import _DIRECTIONS, _EMPTY, _FIVE, _FOUR, _POINT_AT, _POINTS, _THREE, _allowed, _line_shape

#: The VCF after each three of a VCT has at most this many fours (the game's ``tactics_depth``
#: gives the VCF's fours and the VCT's threes).
VCT_FOURS = 6
#: How many positions one search visits at most; past it, it answers "none found".
NODES = 60_000

_STEPS = tuple(step for step, _ in _DIRECTIONS)
_rng = random.Random(20260507)
_ZOBRIST = {(at, code): _rng.getrandbits(64) for at, _ in _POINTS for code in (1, 2)}


class Search:
    """One search over a copy of a board: ``board`` the rules' flat board, ``attacker`` the code
    of the colour to move (1 black, 2 white)."""

    def __init__(self, board: list[int], attacker: int, nodes: int = NODES) -> None:
        self.board = list(board)
        self.attacker = attacker
        self.defender = 3 - attacker
        self.stones: dict[int, list[int]] = {1: [], 2: []}
        self.hash = 0
        for at, _ in _POINTS:
            code = self.board[at]
            if code in (1, 2):
                self.stones[code].append(at)
                self.hash ^= _ZOBRIST[(at, code)]
        self.refuted: dict[tuple[int, str], int] = {}
        self._fives: dict[tuple[int, int], list[int]] = {}
        self.nodes = nodes
        self.exhausted = False

    # ---- the board ----------------------------------------------------------------------

    def place(self, at: int, code: int) -> None:
        self.board[at] = code
        self.stones[code].append(at)
        self.hash ^= _ZOBRIST[(at, code)]

    def lift(self, at: int, code: int) -> None:
        self.board[at] = _EMPTY
        self.stones[code].pop()
        self.hash ^= _ZOBRIST[(at, code)]

    def _near(self, code: int) -> list[int]:
        """The empty points within four of a stone of ``code`` along its lines."""
        board, seen = self.board, set()
        for at in self.stones[code]:
            for step in _STEPS:
                for k in (1, 2, 3, 4):
                    for i in (at + k * step, at - k * step):
                        if 0 <= i < len(board) and board[i] == _EMPTY:
                            seen.add(i)
        return sorted(seen)

    def shape(self, at: int, code: int) -> int:
        """The best shape a stone of ``code`` on ``at`` makes along any line."""
        best = 0
        for step in _STEPS:
            shape = _line_shape(self.board, at, step, code)
            if shape > best:
                best = shape
                if best == _FIVE:
                    break
        return best

    def fives(self, code: int) -> list[int]:
        """The points where a stone of ``code`` makes five (remembered by position)."""
        key = (self.hash, code)
        found = self._fives.get(key)
        if found is None:
            found = self._fives[key] = [at for at in self._near(code) if self.shape(at, code) == _FIVE]
        return found

    def fives_through(self, at: int, code: int) -> list[int]:
        """The points where a stone of ``code`` makes five along a line through ``at`` (its own stone)."""
        board, found = self.board, []
        for step in _STEPS:
            for sign in (1, -1):
                i = at + sign * step
                while board[i] == code:
                    i += sign * step
                if board[i] == _EMPTY and i not in found and _line_shape(board, i, step, code) == _FIVE:
                    found.append(i)
        return found

    def fours(self, code: int) -> list[int]:
        """The points where ``code`` may play a four (making no five)."""
        board = self.board
        return [at for at in self._near(code) if self.shape(at, code) == _FOUR and _allowed(board, at, code)]

    def threes(self, code: int) -> list[int]:
        """The points where ``code`` may play an open three (making no four)."""
        board = self.board
        return [at for at in self._near(code) if self.shape(at, code) == _THREE and _allowed(board, at, code)]

    def _spend(self) -> bool:
        self.nodes -= 1
        if self.nodes < 0:
            self.exhausted = True
        return self.exhausted

    # ---- VCF ----------------------------------------------------------------------------

    def vcf(self, depth: int) -> list[int] | None:
        """The attacker's win by continuous fours (at most ``depth`` of them), the attacker to
        move: its line (attacker, defender, ..., the five), or ``None``."""
        att, dfn = self.attacker, self.defender
        five = self.fives(att)
        if five:
            return [five[0]]
        if depth <= 0 or self._spend():
            return None
        key = (self.hash, "f")
        if self.refuted.get(key, -1) >= depth:
            return None
        threats = self.fives(dfn)
        if len(threats) > 1:
            self.refuted[key] = depth
            return None
        candidates = self.fours(att)
        if threats:
            candidates = [at for at in candidates if at == threats[0]]
        for at in candidates:
            line = self._after_four(at, depth)
            if line is not None:
                return line
        if not self.exhausted:
            self.refuted[key] = depth
        return None

    def _after_four(self, at: int, depth: int) -> list[int] | None:
        att, dfn = self.attacker, self.defender
        self.place(at, att)
        try:
            points = self.fives_through(at, att)
            if len(points) > 1:
                return [at, points[0], points[1]]
            block = points[0]
            if not _allowed(self.board, block, dfn):  # the defender may not take it: a double three
                return [at, -1, block]
            if self.shape(block, dfn) == _FIVE:
                return None
            self.place(block, dfn)
            try:
                rest = self.vcf(depth - 1)
            finally:
                self.lift(block, dfn)
            return None if rest is None else [at, block, *rest]
        finally:
            self.lift(at, att)

    # ---- VCT ----------------------------------------------------------------------------

    def vct(self, depth: int, fours: int) -> list[int] | None:
        """The attacker's win by threes and fours: at most ``depth`` threes, each followed by a
        VCF of at most ``fours`` fours; its line (one answer for each three), or ``None``."""
        line = self.vcf(fours)
        if line is not None or depth <= 0 or self.exhausted:
            return line
        key = (self.hash, f"t{fours}")
        if self.refuted.get(key, -1) >= depth:
            return None
        att, dfn = self.attacker, self.defender
        if self.fives(dfn):
            return None
        for at in self.threes(att):
            if self._spend():
                return None
            self.place(at, att)
            try:
                answered = self._answers(at, depth, fours)
            finally:
                self.lift(at, att)
            if answered is not None:
                return [at, *answered]
        if not self.exhausted:
            self.refuted[key] = depth
        return None

    def _answers(self, at: int, depth: int, fours: int) -> list[int] | None:
        """After the attacker's three on ``at``: the line after one answer, when every relevant
        answer of the defender still loses; ``None`` otherwise."""
        dfn = self.defender
        if self.fives(dfn):
            return None
        threat = self.vcf(fours)  # were the defender to pass
        if threat is None:
            return None
        tried = {p for p in threat if p >= 0}
        tried.update(self.fours(dfn))
        board = self.board
        shown: list[int] | None = None
        for answer in sorted(tried):
            if board[answer] != _EMPTY or not _allowed(board, answer, dfn):
                continue
            if self.shape(answer, dfn) == _FIVE:
                return None
            self.place(answer, dfn)
            try:
                rest = self.vct(depth - 1, fours)
            finally:
                self.lift(answer, dfn)
            if rest is None:
                return None
            if shown is None or answer in threat:
                shown = [answer, *rest]
        if shown is None:  # the defender may take none of them: the threat stands
            return [-1, *threat]
        return shown


def forced_win(
    board: list[int], attacker: int, fours: int, threats: int, nodes: int = NODES
) -> tuple[list[str], bool] | None:
    """The attacker's forced win on ``board`` as points (``"-"`` for a defender's move that does
    not matter) and whether it is by continuous fours alone, or ``None`` (none within depth)."""
    search = Search(board, attacker, nodes)
    line = None
    for depth in range(fours + 1):  # the shortest first
        line = search.vcf(depth)
        if line is not None or search.exhausted:
            break
    by_fours = line is not None
    if line is None and threats > 0:
        line = search.vct(threats, min(fours, VCT_FOURS))
    if line is None:
        return None
    return [str(_POINT_AT[at]) if at >= 0 else "-" for at in line], by_fours


__all__ = ["NODES", "VCT_FOURS", "Search", "forced_win"]
