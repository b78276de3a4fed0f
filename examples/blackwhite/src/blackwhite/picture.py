"""The picture of a Black and White view, drawn with geniusbot's toolkit (``geniusbot.render``).

A card: the two player rows (name, points, clock), then a row of nine tiles per seat, one
column per round. A played tile is a black or a white square; its number is written on it only
where the view knows it (a seat's own tiles in its own view, every tile once the game is over).
A tile sealed this round and not yet shown is a dashed slot with a question mark; the winning
tile of a round is framed in gold. The footer says whose tile is awaited, or the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.render import layout, palette, text
from geniusbot.words import Argument, Message, Seat, Verbatim, Words, say, say_n

WIDTH = 900
TILE = 64
GAP = 14
LEFT = 160  # the seat labels sit left of the tiles
TOP = layout.HEADER_HEIGHT + 24
NUMBERS_HEIGHT = 40  # the round numbers above the tiles
ROW = TILE + 26
BOARD_HEIGHT = NUMBERS_HEIGHT + 2 * ROW + 20
HEIGHT = TOP + BOARD_HEIGHT + layout.FOOTER_HEIGHT
SEATS = ("p1", "p2")


def tile_box(seat: str, k: int) -> tuple[int, int, int, int]:
    """The square of round ``k`` (from 0) in ``seat``'s row."""
    x = LEFT + k * (TILE + GAP)
    y = TOP + NUMBERS_HEIGHT + SEATS.index(seat) * ROW
    return x, y, x + TILE, y + TILE


def _tile(canvas: Image.Image, box: tuple[int, int, int, int], colour: str, number: int | None, won: bool) -> None:
    draw = ImageDraw.Draw(canvas)
    fill = "black_stone" if colour == "black" else "white_stone"
    if won:
        x0, y0, x1, y1 = box
        draw.rectangle([x0 - 6, y0 - 6, x1 + 6, y1 + 6], fill=palette.ink("accent"))
        draw.rectangle([x0 - 2, y0 - 2, x1 + 2, y1 + 2], fill=palette.ink("page"))
    # A black tile on the dark card gets a light edge, so it reads as a tile and not a hole.
    draw.rectangle(box, fill=palette.ink(fill), outline=palette.ink("muted") if colour == "black" else None, width=2)
    if number is not None:
        fg = "white_stone" if colour == "black" else "black_stone"
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        text.draw_text(canvas, centre, str(number), 36, fg=fg, bg=fill, bold=True, anchor="m", notation=True)


def _slot(canvas: Image.Image, box: tuple[int, int, int, int], sealed: bool) -> None:
    draw = ImageDraw.Draw(canvas)
    draw.rectangle(box, outline=palette.ink("muted" if sealed else "band"), width=3 if sealed else 2)
    if sealed:
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        text.draw_text(canvas, centre, "?", 34, fg="muted", bold=True, anchor="m", notation=True)


def _number(value: Any) -> Argument:
    return value if isinstance(value, int) else Verbatim(str(value))


def status_line(view: Mapping[str, Any], words: Words | Mapping[str, str] | None = None) -> str:
    """The footer while the game runs: the round, and whose tile is awaited."""
    words = layout.words_of(words)
    movers = list(view.get("to_move") or [])
    if not movers:
        return ""
    seats: Argument = Seat(movers[0])
    for seat in movers[1:]:
        seats = say("{seats} and {seat}", seats=seats, seat=Seat(seat), domain="blackwhite")
    return words(
        say(
            "Round {round} of {rounds}: {seats} to play a tile, by DM",
            round=_number(view.get("round")),
            rounds=_number(view.get("rounds_total")),
            seats=seats,
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
    rounds: list[Mapping[str, Any]] = list(view.get("rounds") or [])
    total = int(view.get("rounds_total") or 9)
    tiles: Mapping[str, list[int]] = view.get("tiles") or {}
    played: Mapping[str, bool] = view.get("played") or {}
    own = view.get("seat")  # a seat's own view says whose it is, and carries its tiles
    mine: list[int] = list(view.get("mine") or [])
    scores: Mapping[str, int] = view.get("scores") or {}

    for k in range(total):
        x = LEFT + k * (TILE + GAP) + TILE / 2
        text.draw_text(canvas, (x, TOP + NUMBERS_HEIGHT / 2 - 4), str(k + 1), 24, fg="muted", anchor="m", notation=True)
    for seat in SEATS:
        y = tile_box(seat, 0)[1] + TILE / 2
        label = text.fit_text(words(layout.named(seat)), 25, LEFT - 40)
        text.draw_text(canvas, (24, y), label, 25, fg="text")
        for k in range(total):
            box = tile_box(seat, k)
            if k < len(rounds):
                number = tiles[seat][k] if tiles else None
                if number is None and seat == own:
                    number = mine[k]
                _tile(canvas, box, str(rounds[k][seat]), number, rounds[k].get("winner") == seat)
            elif k == len(rounds) and played.get(seat):
                sealed = view.get("sealed")
                if sealed is not None and seat == own:
                    _tile(canvas, box, "black" if int(sealed) % 2 == 0 else "white", int(sealed), False)
                else:
                    _slot(canvas, box, sealed=True)
            else:
                _slot(canvas, box, sealed=False)

    def detail(seat: str) -> Message:
        points = scores.get(seat, 0)
        return say_n("{n} point", "{n} points", n=points, domain="blackwhite")

    rows = layout.player_rows(view, words, clocks, lambda seat, background: None, detail)
    head = layout.title_of(title, say("Black and White", domain="blackwhite"))
    layout.draw_header(canvas, layout.heading(words, head), rows)
    layout.draw_footer(
        canvas, status_line(view, words), layout.outcome_line(Outcome.from_dict(view.get("outcome")), words)
    )
    return canvas
