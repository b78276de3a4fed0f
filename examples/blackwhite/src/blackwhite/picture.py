"""The picture of a Black and White view, drawn with geniusbot's toolkit (``geniusbot.render``).

A card: the two player rows (name, points, clock), then a row of nine tiles per seat, a column a
round. A played tile is a black or a white square, its number written on it where the view knows
it; a tile sealed this round and not yet shown is a dashed slot with a question mark; a round's
winning tile is framed in gold. The footer says whose tile is awaited, or the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.render import layout, palette, text
from geniusbot.words import Message, Seat, Words, joined, say, say_n

WIDTH, TILE, GAP = 900, 64, 14
LEFT = 160  # the seat labels sit left of the tiles
TOP = layout.HEADER_HEIGHT + 24
NUMBERS_HEIGHT = 40  # the round numbers above the tiles
ROW = TILE + 26
HEIGHT = TOP + NUMBERS_HEIGHT + 2 * ROW + 20 + layout.FOOTER_HEIGHT
SEATS = ("p1", "p2")


def tile_box(seat: str, k: int) -> tuple[int, int, int, int]:
    """The square of round ``k`` (from 0) in ``seat``'s row."""
    x, y = LEFT + k * (TILE + GAP), TOP + NUMBERS_HEIGHT + SEATS.index(seat) * ROW
    return x, y, x + TILE, y + TILE


def _tile(canvas: Image.Image, box: tuple[int, int, int, int], colour: str, number: int | None, won: bool) -> None:
    draw = ImageDraw.Draw(canvas)
    fill, fg = ("black_stone", "white_stone") if colour == "black" else ("white_stone", "black_stone")
    x0, y0, x1, y1 = box
    if won:
        draw.rectangle([x0 - 6, y0 - 6, x1 + 6, y1 + 6], fill=palette.ink("accent"))
        draw.rectangle([x0 - 2, y0 - 2, x1 + 2, y1 + 2], fill=palette.ink("page"))
    # A black tile on the dark card gets a light edge, so it reads as a tile and not a hole.
    draw.rectangle(box, fill=palette.ink(fill), outline=palette.ink("muted") if colour == "black" else None, width=2)
    if number is not None:
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        text.draw_text(canvas, centre, str(number), 36, fg=fg, bg=fill, bold=True, anchor="m", notation=True)


def _slot(canvas: Image.Image, box: tuple[int, int, int, int], sealed: bool) -> None:
    ImageDraw.Draw(canvas).rectangle(box, outline=palette.ink("muted" if sealed else "band"), width=2 + sealed)
    if sealed:
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        text.draw_text(canvas, centre, "?", 34, fg="muted", bold=True, anchor="m", notation=True)


def status_line(view: Mapping[str, Any], words: Words | Mapping[str, str] | None = None) -> str:
    """The footer while the game runs: the round, and whose tile is awaited."""
    if not view.get("to_move"):
        return ""
    return layout.words_of(words)(
        say(
            "Round {round} of {rounds}: {seats} to play a tile, by DM",
            round=view["round"],
            rounds=view["rounds_total"],
            seats=joined([Seat(seat) for seat in view["to_move"]]),
            domain="blackwhite",
        )
    )


def render(
    view: Mapping[str, Any],
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card of a Black and White view as a palette image, its words said by ``words``
    (English without it, the seats named by ``players``)."""
    words = words or layout.card_words(players=players)
    canvas = palette.new_canvas((WIDTH, HEIGHT))
    rounds: list[Mapping[str, Any]] = view["rounds"]
    own, sealed = view.get("seat"), view.get("sealed")  # a seat's own view carries its tiles
    tiles: Mapping[str, list[int]] = view.get("tiles") or ({own: view["mine"]} if own else {})
    for k in range(view["rounds_total"]):
        x = LEFT + k * (TILE + GAP) + TILE / 2
        text.draw_text(canvas, (x, TOP + NUMBERS_HEIGHT / 2 - 4), str(k + 1), 24, fg="muted", anchor="m", notation=True)
    for seat in SEATS:
        label = text.fit_text(words(layout.named(seat)), 25, LEFT - 40)
        text.draw_text(canvas, (24, tile_box(seat, 0)[1] + TILE / 2), label, 25, fg="text")
        for k in range(view["rounds_total"]):
            box = tile_box(seat, k)
            if k < len(rounds):
                number = tiles[seat][k] if seat in tiles else None
                _tile(canvas, box, rounds[k][seat], number, rounds[k]["winner"] == seat)
            elif k == len(rounds) and view["played"].get(seat) and seat == own and sealed is not None:
                _tile(canvas, box, "black" if sealed % 2 == 0 else "white", sealed, False)
            else:
                _slot(canvas, box, sealed=k == len(rounds) and view["played"].get(seat, False))

    def points(seat: str) -> Message:
        return say_n("{n} point", "{n} points", n=view["scores"].get(seat, 0), domain="blackwhite")

    rows = layout.player_rows(view, words, clocks, lambda seat, background: None, points)
    head = layout.title_of(title, say("Black and White", domain="blackwhite"))
    layout.draw_header(canvas, layout.heading(words, head), rows)
    ending = layout.outcome_line(Outcome.from_dict(view.get("outcome")), words)
    layout.draw_footer(canvas, status_line(view, words), ending)
    return canvas
