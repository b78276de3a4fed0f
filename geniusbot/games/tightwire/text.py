"""Tightwire's text board: the console's board, and the room's when there is no picture. It
reads only the view it is given. The drawing is lines of text as they are; everything in words
is a message, its seats :class:`~geniusbot.words.Seat` (named by whoever says the board)."""

from __future__ import annotations

from collections.abc import Mapping

from geniusbot.games.grid import symbol
from geniusbot.games.tightwire.notation import ITEM_NAMES
from geniusbot.games.tightwire.view import TightwireView
from geniusbot.words import Argument, Listing, Message, Seat, Verbatim, joined, say, say_c

#: The colours as the board's lines say them (lower case, as in "O orange").
COLOUR_WORDS: dict[str, Message] = {"orange": say_c("colour", "orange"), "blue": say_c("colour", "blue")}

# Columns between two dots of the drawing: a horizontal line fills them with '---'.
_TW_GAP = 3


def _tightwire_grid(
    cols: int, rows: int, pieces: Mapping[str, str], lines: list[tuple[str, str]], marks: set[str]
) -> list[str]:
    """The dots (pieces as letters, the last action's in lower case) and the lines between
    neighbouring dots: ``---`` across, ``|`` up, ``/`` and ``\\`` (``X`` for both) diagonally."""
    step = _TW_GAP + 1
    width = (cols - 1) * step + 1
    # Canvas rows: one for each row of dots, one between each two of them; row 1 at the bottom.
    canvas = [[" "] * width for _ in range(2 * rows - 1)]

    def at(col: int, row: int) -> tuple[int, int]:  # zero-based dot -> (canvas row, canvas column)
        return 2 * (rows - 1 - row), col * step

    for col in range(cols):
        for row in range(rows):
            name = f"{chr(ord('A') + col)}{row + 1}"
            colour = pieces.get(name)
            letter = symbol(colour) if colour else "."
            y, x = at(col, row)
            canvas[y][x] = letter.lower() if name in marks and colour else letter
    for a, b in lines:
        (ca, ra), (cb, rb) = sorted(((ord(a[0]) - ord("A"), int(a[1:]) - 1), (ord(b[0]) - ord("A"), int(b[1:]) - 1)))
        y, x = at(ca, ra)
        if cb - ca > 1 or abs(rb - ra) > 1:
            _draw_long(canvas, (y, x), at(cb, rb))
        elif ra == rb:
            for k in range(1, step):
                canvas[y][x + k] = "-"
        elif ca == cb:
            canvas[y - 1 if rb > ra else y + 1][x] = "|"
        else:  # one column right, one row up or down
            y, x = (y - 1 if rb > ra else y + 1), x + step // 2
            mark = "/" if rb > ra else "\\"
            canvas[y][x] = "X" if canvas[y][x] not in (" ", mark) else mark
    header = "    " + "".join(f"{chr(ord('A') + c):<{step}}" for c in range(cols)).rstrip()
    out = [header]
    for i, cells in enumerate(canvas):
        label = f"{rows - i // 2:>2}" if i % 2 == 0 else "  "
        out.append(f"{label}  {''.join(cells)}".rstrip())
    out.append(header)
    return out


def _draw_long(canvas: list[list[str]], start: tuple[int, int], end: tuple[int, int]) -> None:
    """A line between dots that are not neighbours (A1-B3, A1-D5), traced cell by cell from
    ``start`` to ``end`` (canvas row, column) in the one character nearest its slope (``/``,
    ``\\``, ``|``, or ``~`` for a shallow one), the cells being twice as tall as they are wide.
    Where it meets a line already drawn (only a slack line may cross another), the cell shows
    ``X`` or ``+``."""
    (y0, x0), (y1, x1) = start, end
    dy, dx = y1 - y0, x1 - x0
    steep = abs(2 * dy) / max(1, abs(dx))  # rise over run as the eye sees it
    if steep < 0.5:
        mark = "~"  # not "-": along a row of dots that would read as a line between neighbours
    elif steep > 2:
        mark = "|"
    else:
        mark = "/" if (dy < 0) == (dx > 0) else "\\"
    # One character a canvas row for a line that climbs faster than it runs, else one a column,
    # as the neighbours' lines are drawn (one ``/`` between two rows, ``---`` along a row).
    steps = abs(dy) if steep >= 1 else abs(dx)
    for k in range(1, steps):
        y, x = y0 + round(k * dy / steps), x0 + round(k * dx / steps)
        if y % 2 == 0 and x % (_TW_GAP + 1) == 0:
            continue  # the cell of a dot (the line passes beside it, never over it)
        here = canvas[y][x]
        if here in (" ", mark):
            canvas[y][x] = mark
        else:
            canvas[y][x] = "X" if {here, mark} <= {"/", "\\", "X"} else "+"


def _neighbours(a: str, b: str) -> bool:
    return abs(ord(a[0]) - ord(b[0])) <= 1 and abs(int(a[1:]) - int(b[1:])) <= 1


def _colour(colour: str) -> Argument:
    return COLOUR_WORDS.get(colour) or Verbatim(colour)


def _item(item: str) -> Argument:
    return ITEM_NAMES.get(item) or Verbatim(item)


def _semicolons(items: list[Message]) -> Message:
    """Phrases joined by "; " (each a seat's, which has commas of its own)."""
    if len(items) == 1:
        return items[0]
    return say("{items}; {last}", items=_semicolons(items[:-1]), last=items[-1])


def board_lines(view: TightwireView) -> list[str | Message]:
    lines = [(ln["a"], ln["b"], ln["slack"]) for ln in view["lines"]]
    # Neighbours' lines first: a longer line traced over them shows where it crosses one.
    drawn = sorted(((a, b) for a, b, _ in lines), key=lambda line: not _neighbours(*line))
    out: list[str | Message] = list(
        _tightwire_grid(view["cols"], view["rows"], view["pieces"], drawn, set(view["last_path"]))
    )
    longer: list[Argument] = [
        say("{line} (slack)", line=Verbatim(f"{a}-{b}")) if slack else Verbatim(f"{a}-{b}")
        for a, b, slack in lines
        if not _neighbours(a, b)
    ]
    if longer:
        # Traced as near as text can; named too, since a traced line's ends can be hard to read.
        out.append(say("Longer lines, traced above: {lines}.", lines=Listing(tuple(longer))))
    slack_drawn: list[Argument] = [Verbatim(f"{a}-{b}") for a, b, slack in lines if slack and _neighbours(a, b)]
    if slack_drawn:
        out.append(say("Slack lines drawn above: {lines}.", lines=Listing(tuple(slack_drawn))))
    colours: list[Argument] = [
        say("{letter} {colour}", letter=Verbatim(symbol(c)), colour=_colour(c)) for c in view["colors"].values() if c
    ]
    out.append(
        say(
            "{colours}, {dot} an empty dot; lower case: the dots of the last action.",
            colours=Listing(tuple(colours)),
            dot=Verbatim("."),
        )
    )
    draft = view["draft"]
    if view["phase"] == "draft" and draft:
        out.append(say("Items still to pick: {items}.", items=Listing(tuple(_item(i) for i in draft["available"]))))
    captured = view["captured"]
    off: list[Argument] = [
        say("{count} {colour}", count=n, colour=_colour(colour)) for colour, n in captured.items() if n
    ]
    if off:
        out.append(say("Off the board, to be revived: {pieces}.", pieces=Listing(tuple(off))))
    slack_left = view["slack_left"]
    if view["phase"] not in ("draft", "order", "over") and slack_left:
        unused: list[Argument] = [Seat(s) for s, n in slack_left.items() if n]
        out.append(
            say("Slack line unused: {seats}.", seats=joined(unused)) if unused else say("Slack line unused: nobody.")
        )
    held = {s: [_item(i) for i in items] for s, items in view["items"].items()}
    if any(held.values()):
        each = [
            say("{seat} {items}", seat=Seat(s), items=Listing(tuple(t))) if t else say("{seat} none", seat=Seat(s))
            for s, t in held.items()
        ]
        out.append(say("Items held: {items}.", items=_semicolons(each)))
    return out
