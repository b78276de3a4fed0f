"""The text board of a Black and White view: one column per round, a row per seat.

While the game runs a tile shows as its colour (``B`` black, ``W`` white), a tile sealed this
round as ``?`` and a round still to come as ``.``; the seat's own view lists its tiles too. Once
the game is over every tile shows its number too (``B4``, ``W7``), as a seat's own tiles do in
its own view (its sealed tile as ``?4``). It reads only the view, so it
never shows more than the view's seat may see. Its words are messages of the plug-in's own
domain; a seat is a :class:`~geniusbot.words.Seat`, named by whoever says the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from geniusbot.words import Argument, Message, Seat, Verbatim, say

from .rules import DOMAIN

SEATS = ("p1", "p2")
LETTER = {"black": "B", "white": "W"}


def _row(parts: list[Argument]) -> Argument:
    """Cells of a row one after the other (a seat's among them, named where it is said)."""
    if len(parts) == 1:
        return parts[0]
    return say("{cells}{cell}", cells=_row(parts[:-1]), cell=parts[-1], domain=DOMAIN)


def board_lines(view: Mapping[str, Any]) -> list[str | Message]:
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

    score: dict[str, Argument] = {
        "p1": Seat("p1"),
        "p1_score": scores.get("p1", 0),
        "p2": Seat("p2"),
        "p2_score": scores.get("p2", 0),
    }
    if view.get("phase") == "over":
        head = Message(
            "After {rounds} rounds. Score: {p1} {p1_score}, {p2} {p2_score}.",
            {**score, "rounds": len(rounds)},
            domain=DOMAIN,
        )
    else:
        head = Message(
            "Round {round} of {total}. Score: {p1} {p1_score}, {p2} {p2_score}.",
            {**score, "round": Verbatim(str(view.get("round"))), "total": total},
            domain=DOMAIN,
        )
    columns = "".join(f"{k + 1:>{width + 1}}" for k in range(total))
    lines: list[str | Message] = [head, say("round {columns}", columns=Verbatim(columns), domain=DOMAIN)]
    for seat in SEATS:
        cells = " " * (6 - len(seat)) + "".join(f"{cell(seat, k):>{width + 1}}" for k in range(total))
        lines.append(say("{seat}{cells}", seat=Seat(seat), cells=Verbatim(cells), domain=DOMAIN))
    won: list[Argument] = []
    for r in rounds:  # each round's winner under its column, "-" for a tie
        winner = r.get("winner")
        shown = str(winner or "-")
        won += [Verbatim(" " * (width + 1 - len(shown))), Seat(str(winner)) if winner else Verbatim(shown)]
    lines.append(say("won   {winners}", winners=_row(won), domain=DOMAIN) if won else say("won", domain=DOMAIN))
    left: Mapping[str, Mapping[str, int]] = view.get("left") or {}
    if view.get("phase") != "over" and left:
        each = [
            say(
                "{seat} {black} black, {white} white",
                seat=Seat(seat),
                black=left[seat]["black"],
                white=left[seat]["white"],
                domain=DOMAIN,
            )
            for seat in SEATS
        ]
        lines.append(say("Tiles left: {first}; {second}.", first=each[0], second=each[1], domain=DOMAIN))
    if "hand" in view and view.get("phase") != "over":
        hand = view["hand"]
        held: Argument = Verbatim(" ".join(map(str, hand))) if hand else say("none", domain=DOMAIN)
        lines.append(
            say("Your tiles: {tiles}.", tiles=held, domain=DOMAIN)
            if view.get("sealed") is None
            else say(
                "Your tiles: {tiles}; sealed this round: {tile}.",
                tiles=held,
                tile=Verbatim(str(view["sealed"])),
                domain=DOMAIN,
            )
        )
    return lines
