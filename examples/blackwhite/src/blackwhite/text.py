"""The text board of a Black and White view: one column per round, a row per seat.

While the game runs a tile shows as its colour (``B`` black, ``W`` white), a tile sealed this
round as ``?`` and a round still to come as ``.``; the seat's own view lists its tiles too. Once
the game is over every tile shows its number too (``B4``, ``W7``), as a seat's own tiles do in
its own view (its sealed tile as ``?4``). It reads only the view, so it
never shows more than the view's seat may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SEATS = ("p1", "p2")
LETTER = {"black": "B", "white": "W"}


def board_lines(view: Mapping[str, Any]) -> list[str]:
    rounds: list[Mapping[str, Any]] = list(view.get("rounds") or [])
    total = int(view.get("rounds_total") or 9)
    scores: Mapping[str, int] = view.get("scores") or {}
    played: Mapping[str, bool] = view.get("played") or {}
    tiles: Mapping[str, list[int]] = view.get("tiles") or {}
    own = view.get("seat")  # a seat's own view: its own tiles show their numbers
    mine: list[int] = list(view.get("mine") or [])
    width = 3 if tiles or own else 2

    def cell(seat: str, k: int) -> str:
        if k < len(rounds):
            text = LETTER[str(rounds[k][seat])]
            if tiles:
                text += str(tiles[seat][k])
            elif seat == own:
                text += str(mine[k])
            return text
        if k == len(rounds) and played.get(seat):
            sealed = view.get("sealed")
            return f"?{sealed}" if seat == own and sealed is not None else "?"
        return "."

    if view.get("phase") == "over":
        head = f"After {len(rounds)} rounds. Score: p1 {scores.get('p1', 0)}, p2 {scores.get('p2', 0)}."
    else:
        head = f"Round {view.get('round')} of {total}. Score: p1 {scores.get('p1', 0)}, p2 {scores.get('p2', 0)}."
    lines = [head, "round " + "".join(f"{k + 1:>{width + 1}}" for k in range(total))]
    for seat in SEATS:
        lines.append(f"{seat:<6}" + "".join(f"{cell(seat, k):>{width + 1}}" for k in range(total)))
    won = [str(r.get("winner") or "-") for r in rounds]
    lines.append("won   " + "".join(f"{w:>{width + 1}}" for w in won))
    left: Mapping[str, Mapping[str, int]] = view.get("left") or {}
    if view.get("phase") != "over" and left:
        lines.append(
            "Tiles left: "
            + "; ".join(f"{seat} {left[seat]['black']} black, {left[seat]['white']} white" for seat in SEATS)
            + "."
        )
    if "hand" in view and view.get("phase") != "over":
        hand = "Your tiles: " + (" ".join(map(str, view["hand"])) or "none")
        if view.get("sealed") is not None:
            hand += f"; sealed this round: {view['sealed']}"
        lines.append(hand + ".")
    return [line.rstrip() for line in lines]
