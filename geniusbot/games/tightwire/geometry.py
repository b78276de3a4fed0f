"""Exact integer geometry of the Tightwire dot grid: which lines exist and which cross which.

Dots are numbered column by column (``index = col * rows + row``), so that sorting dot
indices sorts their names alphabetically (A1 < A2 < ... < B1). A *line* joins two distinct dots
and may not pass over a third dot: on a grid that means the column and row differences are
coprime. Lines are numbered too (``pid``, the index into :attr:`BoardGeometry.pairs`), and for
every line the set of lines it crosses is precomputed as a bitmask, so that the legality of a
draw is one ``&`` against the mask of the lines already on the board.

Everything is integer arithmetic: no floating point can misjudge a near miss.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import gcd

Coord = tuple[int, int]


def _orient(a: Coord, b: Coord, c: Coord) -> int:
    """The sign of the turn a -> b -> c: 1 counter-clockwise, -1 clockwise, 0 collinear."""
    value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (value > 0) - (value < 0)


def _within(a: Coord, b: Coord, c: Coord) -> bool:
    """Whether ``c``, known to be collinear with a-b, lies on the closed segment a-b."""
    return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])


def segments_cross(p1: Coord, p2: Coord, q1: Coord, q2: Coord) -> bool:
    """Whether segments p1-p2 and q1-q2 meet anywhere except at one shared endpoint.

    Touching counts as crossing (an end resting on the other segment, or collinear overlap),
    because a wire laid over or along another is exactly what the rules forbid. Identical
    segments overlap and so cross.
    """
    shared = {p1, p2} & {q1, q2}
    if len(shared) == 2:
        return True
    if shared:
        (s,) = shared
        a = p2 if p1 == s else p1
        b = q2 if q1 == s else q1
        # Two segments leaving one dot meet again only if they run along each other.
        return _orient(s, a, b) == 0 and (a[0] - s[0]) * (b[0] - s[0]) + (a[1] - s[1]) * (b[1] - s[1]) > 0
    o1, o2 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    o3, o4 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    return (
        (o1 == 0 and _within(p1, p2, q1))
        or (o2 == 0 and _within(p1, p2, q2))
        or (o3 == 0 and _within(q1, q2, p1))
        or (o4 == 0 and _within(q1, q2, p2))
    )


def dot_name(col: int, row: int) -> str:
    """The name of the dot at zero-based ``col``, ``row``: (1, 4) -> ``"B5"``."""
    return f"{chr(ord('A') + col)}{row + 1}"


@dataclass(frozen=True, eq=False)
class BoardGeometry:
    """The lines of one ``cols`` x ``rows`` dot grid and which of them cross.

    Attributes:
        coords: ``coords[d]`` is ``(col, row)`` of dot ``d``.
        names: ``names[d]`` is the dot's name (``"B5"``).
        pairs: ``pairs[pid]`` is ``(i, j)`` with ``i < j``: every line the rules allow.
        pair_id: ``(i, j)`` and ``(j, i)`` -> ``pid``, for allowed lines only.
        crossing: ``crossing[pid]`` is the bitmask of the other lines that line ``pid`` crosses.
        at_dot: ``at_dot[d]`` is the bitmask of the lines with an end at dot ``d``.
        dot_of: a dot's name as ``names`` writes it (``"B5"``) -> its number.
    """

    cols: int
    rows: int
    coords: tuple[Coord, ...]
    names: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    pair_id: dict[tuple[int, int], int]
    crossing: tuple[int, ...]
    at_dot: tuple[int, ...]
    dot_of: dict[str, int]

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        """Copied or pickled as its size: it never changes, and a copied game shares the cached one."""
        return geometry, (self.cols, self.rows)

    @property
    def dot_count(self) -> int:
        """How many dots the board has."""
        return len(self.coords)

    def index(self, col: int, row: int) -> int:
        """The number of the dot at ``col``, ``row``."""
        return col * self.rows + row

    def dots_between(self, i: int, j: int) -> list[int]:
        """The dots strictly inside the segment from dot ``i`` to dot ``j``, nearest ``i`` first."""
        (ci, ri), (cj, rj) = self.coords[i], self.coords[j]
        g = gcd(cj - ci, rj - ri)
        if g <= 1:
            return []
        dc, dr = (cj - ci) // g, (rj - ri) // g
        return [self.index(ci + k * dc, ri + k * dr) for k in range(1, g)]

    def crossed_lines(self, pid: int, mask: int) -> list[int]:
        """The lines in ``mask`` that line ``pid`` crosses, in line order."""
        hits = self.crossing[pid] & mask
        found = []
        while hits:
            low = hits & -hits
            found.append(low.bit_length() - 1)
            hits ^= low
        return found


@lru_cache(maxsize=16)
def geometry(cols: int, rows: int) -> BoardGeometry:
    """The (cached) geometry of a ``cols`` x ``rows`` grid of dots."""
    if not (1 <= cols <= 26 and 1 <= rows <= 99):
        raise ValueError(f"a board has 1-26 columns and 1-99 rows, not {cols} x {rows}")
    coords = tuple((c, r) for c in range(cols) for r in range(rows))
    names = tuple(dot_name(c, r) for c, r in coords)
    pairs = tuple(
        (i, j)
        for i in range(len(coords))
        for j in range(i + 1, len(coords))
        if gcd(coords[j][0] - coords[i][0], coords[j][1] - coords[i][1]) == 1
    )
    pair_id: dict[tuple[int, int], int] = {}
    for pid, (i, j) in enumerate(pairs):
        pair_id[(i, j)] = pid
        pair_id[(j, i)] = pid
    crossing = [0] * len(pairs)
    boxes = []
    for i, j in pairs:
        (ci, ri), (cj, rj) = coords[i], coords[j]
        boxes.append((min(ci, cj), max(ci, cj), min(ri, rj), max(ri, rj)))
    for p in range(len(pairs)):
        pi, pj = pairs[p]
        a, b = coords[pi], coords[pj]
        c0, c1, r0, r1 = boxes[p]
        for q in range(p + 1, len(pairs)):
            d0, d1, s0, s1 = boxes[q]
            # Disjoint bounding boxes never meet; this skips most of the quadratic work.
            if d0 > c1 or d1 < c0 or s0 > r1 or s1 < r0:
                continue
            qi, qj = pairs[q]
            if segments_cross(a, b, coords[qi], coords[qj]):
                crossing[p] |= 1 << q
                crossing[q] |= 1 << p
    at_dot = [0] * len(coords)
    for pid, (i, j) in enumerate(pairs):
        at_dot[i] |= 1 << pid
        at_dot[j] |= 1 << pid
    return BoardGeometry(
        cols=cols,
        rows=rows,
        coords=coords,
        names=names,
        pairs=pairs,
        pair_id=pair_id,
        crossing=tuple(crossing),
        at_dot=tuple(at_dot),
        dot_of={name: dot for dot, name in enumerate(names)},
    )
