"""The text board of a Black and White view: one column per round, a row per seat.

A tile shows as its colour (``B`` black, ``W`` white), with its number where the view knows it (a
seat's own tiles, every tile once the game is over: ``B4``); a tile sealed this round as ``?``
(``?4`` to its own seat), a round still to come as ``.``. It reads only the view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from geniusbot.words import Argument, Message, Seat, Verbatim, say

from .rules import DOMAIN

SEATS = ("p1", "p2")
LETTER = {"black": "B", "white": "W"}


def board_lines(view: Mapping[str, Any]) -> list[str | Message]:
    rounds: list[Mapping[str, Any]] = view["rounds"]
    total, scores, own = view["rounds_total"], view["scores"], view.get("seat")
    tiles: Mapping[str, list[int]] = view.get("tiles") or ({own: view["mine"]} if own else {})
    width = 4 if tiles else 3
    over = view["phase"] == "over"

    def cell(seat: str, k: int) -> str:
        if k < len(rounds):
            return LETTER[rounds[k][seat]] + (str(tiles[seat][k]) if seat in tiles else "")
        if k == len(rounds) and view["played"].get(seat):
            return "?" if seat != own or view["sealed"] is None else f"?{view['sealed']}"
        return "."

    score: dict[str, Argument] = {s: Seat(s) for s in SEATS} | {f"{s}_score": scores[s] for s in SEATS}
    if over:
        head = say(
            "After {rounds} rounds. Score: {p1} {p1_score}, {p2} {p2_score}.",
            rounds=len(rounds),
            **score,
            domain=DOMAIN,
        )
    else:
        head = say(
            "Round {round} of {total}. Score: {p1} {p1_score}, {p2} {p2_score}.",
            round=Verbatim(str(view["round"])),
            total=total,
            **score,
            domain=DOMAIN,
        )
    columns = "".join(f"{k + 1:>{width}}" for k in range(total))
    lines: list[str | Message] = [head, say("round {columns}", columns=Verbatim(columns), domain=DOMAIN)]
    for seat in SEATS:
        cells = " " * (6 - len(seat)) + "".join(f"{cell(seat, k):>{width}}" for k in range(total))
        lines.append(say("{seat}{cells}", seat=Seat(seat), cells=Verbatim(cells), domain=DOMAIN))
    won: Argument | None = None  # each round's winner under its column, "-" for a tie
    for r in rounds:
        shown = r["winner"] or "-"
        said, pad = Seat(shown) if r["winner"] else Verbatim(shown), Verbatim(" " * (width - len(shown)))
        won = say("{cells}{pad}{cell}", cells=won or Verbatim(""), pad=pad, cell=said, domain=DOMAIN)
    lines.append(say("won   {winners}", winners=won, domain=DOMAIN) if won else say("won", domain=DOMAIN))
    if not over:
        left = [
            say("{seat} {black} black, {white} white", seat=Seat(s), **view["left"][s], domain=DOMAIN) for s in SEATS
        ]
        lines.append(say("Tiles left: {first}; {second}.", first=left[0], second=left[1], domain=DOMAIN))
    if "hand" in view and not over:
        held = Verbatim(" ".join(map(str, view["hand"]))) if view["hand"] else say("none", domain=DOMAIN)
        if view["sealed"] is None:
            lines.append(say("Your tiles: {tiles}.", tiles=held, domain=DOMAIN))
        else:
            sealed = Verbatim(str(view["sealed"]))
            lines.append(say("Your tiles: {tiles}; sealed this round: {tile}.", tiles=held, tile=sealed, domain=DOMAIN))
    return lines
