"""Short whole games of Tightwire's three rule sets, for the console and the Discord tests.

Orange (p1) builds a trap at C3, a dot joined by lines to its pieces on B4 and D4, and Blue walks
into it four times (reviving once in between) until one blue piece is left. In ``classic`` and
``fate`` a piece that steps into the trap is captured at once; in ``influx`` only the mover
captures, at the end of its turn, so Orange's next action takes it and Orange needs one more
action at the end. ``fate`` starts with the draft (p1 Extra Slack Thread, p2 Turn Order, so p1
receives the Woven Revive) and p2's Turn Order choice ``second``; Orange then weaves its slack
line and the Extra Slack Thread instead of two plain draws.

Texts are written as a player might type them: a bare pair, lower case, a space for the dash.
"""

from __future__ import annotations

RESULT = "Blue (p2) has one piece left on the board and loses."

_TRAP: list[tuple[str, str]] = [
    ("p1", "draw B5-B4 and move"),
    ("p2", "draw B1-B2 and move"),
    ("p1", "draw D5-D4 and move"),
    # A bare "B2-C3" could mean the line alone or the line and the move: Blue names it.
    ("p2", "draw B2-C3"),
    ("p1", "draw B4-C3"),
    ("p2", "slack A1-A2 and move"),
    ("p1", "draw d4-c3"),
    ("p2", "move B2-C3"),  # into the trap
    ("p1", "draw E5-E4 and move"),
    ("p2", "revive C1"),
    ("p1", "draw A5-B5"),
    ("p2", "draw A2-B2 and move"),
    ("p1", "draw E4 E3"),
    ("p2", "B2-C3"),  # a bare pair along a line: a move, into the trap again
    ("p1", "draw A5-A4 and move"),
    ("p2", "draw C1-C2 and move"),
    ("p1", "draw A4-A3"),
    ("p2", "draw C2-C3 and move"),  # and again
    ("p1", "draw E3-E2"),
    ("p2", "draw D1-D2 and move"),
    ("p1", "draw A3-A2"),
    ("p2", "draw D2-C3 and move"),  # the fourth time
]

DRAFT: list[tuple[str, str]] = [("p1", "pick extra slack"), ("p2", "pick turn order"), ("p2", "second")]


def script(variant: str) -> list[tuple[str, str]]:
    """``(seat, text)`` of a whole game of ``variant`` that p1 wins with :data:`RESULT`."""
    if variant == "classic":
        return list(_TRAP)
    if variant == "influx":
        return [*_TRAP, ("p1", "draw B5-C5")]
    if variant == "fate":
        swaps = {"draw A5-B5": "slack A5-B5", "draw A4-A3": "extra slack A4-A3"}
        return [*DRAFT, *((seat, swaps.get(text, text)) for seat, text in _TRAP)]
    raise ValueError(variant)
