"""The Tightwire geometry against a slow, obviously correct reference in exact fractions."""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games.tightwire.geometry import geometry, segments_cross


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def _cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def reference_meeting_points(p1, p2, q1, q2):
    """Where segments p1-p2 and q1-q2 meet: a set of points, or ``"many"`` for a shared stretch."""
    p1, p2, q1, q2 = [(Fraction(x), Fraction(y)) for x, y in (p1, p2, q1, q2)]
    r, s = _sub(p2, p1), _sub(q2, q1)
    denom = _cross(r, s)
    qp = _sub(q1, p1)
    if denom != 0:
        t = _cross(qp, s) / denom
        u = _cross(qp, r) / denom
        if 0 <= t <= 1 and 0 <= u <= 1:
            return {(p1[0] + t * r[0], p1[1] + t * r[1])}
        return set()
    if _cross(qp, r) != 0:
        return set()  # parallel, apart
    # Collinear: project q's ends on p's parameter and intersect [0, 1] with that interval.
    rr = r[0] * r[0] + r[1] * r[1]
    t0 = (qp[0] * r[0] + qp[1] * r[1]) / rr
    q2p = _sub(q2, p1)
    t1 = (q2p[0] * r[0] + q2p[1] * r[1]) / rr
    lo, hi = max(min(t0, t1), Fraction(0)), min(max(t0, t1), Fraction(1))
    if lo > hi:
        return set()
    if lo == hi:
        return {(p1[0] + lo * r[0], p1[1] + lo * r[1])}
    return "many"


def reference_cross(p1, p2, q1, q2):
    """Crossing: meeting anywhere but at an endpoint the two segments share."""
    meet = reference_meeting_points(p1, p2, q1, q2)
    if meet == "many":
        return True
    shared = {(Fraction(x), Fraction(y)) for x, y in {p1, p2} & {q1, q2}}
    return bool(meet - shared)


def reference_passes_over_a_dot(a, b, cols, rows):
    for x in range(cols):
        for y in range(rows):
            if (x, y) in (a, b):
                continue
            if (
                _cross(_sub(b, a), _sub((x, y), a)) == 0
                and min(a[0], b[0]) <= x <= max(a[0], b[0])
                and min(a[1], b[1]) <= y <= max(a[1], b[1])
            ):
                return True
    return False


coord = st.tuples(st.integers(0, 6), st.integers(0, 6))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(coord, coord, coord, coord)
def test_segments_cross_matches_the_reference(p1, p2, q1, q2):
    if p1 == p2 or q1 == q2:
        return
    assert segments_cross(p1, p2, q1, q2) == reference_cross(p1, p2, q1, q2)
    assert segments_cross(q2, q1, p1, p2) == segments_cross(p1, p2, q1, q2)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 6), st.integers(0, 6))
def test_collinear_touching_counts_as_crossing(x, y):
    # A1-A3 and A2-A4 overlap along A2-A3; A1-A3 and A3-A5 only share A3.
    assert segments_cross((x, y), (x, y + 2), (x, y + 1), (x, y + 3))
    assert not segments_cross((x, y), (x, y + 2), (x, y + 2), (x, y + 4))
    # An end resting on the middle of another segment touches it.
    assert segments_cross((x, y), (x + 2, y + 2), (x + 1, y + 1), (x + 3, y))


def test_classic5_lines_are_exactly_the_pairs_passing_over_no_dot():
    g = geometry(5, 5)
    expected = [
        (i, j) for i, j in combinations(range(25), 2) if not reference_passes_over_a_dot(g.coords[i], g.coords[j], 5, 5)
    ]
    assert list(g.pairs) == expected
    assert len(g.pairs) == 200


def test_dot_names_sort_like_dot_numbers():
    g = geometry(5, 5)
    assert g.names[:6] == ("A1", "A2", "A3", "A4", "A5", "B1")
    assert g.names[g.index(1, 4)] == "B5"
    assert g.dots_between(g.index(0, 0), g.index(4, 4)) == [g.index(1, 1), g.index(2, 2), g.index(3, 3)]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.sampled_from([(5, 5), (7, 7), (3, 4)]), st.data())
def test_crossing_masks_match_the_reference(size, data):
    g = geometry(*size)
    p = data.draw(st.integers(0, len(g.pairs) - 1))
    q = data.draw(st.integers(0, len(g.pairs) - 1))
    if p == q:
        assert not g.crossing[p] >> p & 1
        return
    (a, b), (c, d) = g.pairs[p], g.pairs[q]
    expected = reference_cross(g.coords[a], g.coords[b], g.coords[c], g.coords[d])
    assert bool(g.crossing[p] >> q & 1) == expected
    assert bool(g.crossing[q] >> p & 1) == expected


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_draw_is_legal_exactly_when_it_crosses_nothing_drawn(data):
    g = geometry(5, 5)
    drawn = data.draw(st.lists(st.integers(0, len(g.pairs) - 1), max_size=12, unique=True))
    candidate = data.draw(st.integers(0, len(g.pairs) - 1))
    mask = sum(1 << pid for pid in drawn)
    fast = not (g.crossing[candidate] & mask) and candidate not in drawn
    a, b = g.pairs[candidate]
    slow = candidate not in drawn and not any(
        reference_cross(g.coords[a], g.coords[b], g.coords[g.pairs[pid][0]], g.coords[g.pairs[pid][1]]) for pid in drawn
    )
    assert fast == slow
    assert g.crossed_lines(candidate, mask) == sorted(
        pid for pid in drawn if pid != candidate and g.crossing[candidate] >> pid & 1
    )


def test_every_crossing_of_a_small_board_exhaustively():
    g = geometry(3, 4)
    for p, q in combinations(range(len(g.pairs)), 2):
        (a, b), (c, d) = g.pairs[p], g.pairs[q]
        assert bool(g.crossing[p] >> q & 1) == reference_cross(g.coords[a], g.coords[b], g.coords[c], g.coords[d])
