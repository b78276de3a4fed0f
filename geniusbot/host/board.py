"""Boards for the room: a picture when ``geniusbot.render`` has a renderer, text otherwise.

The text board is the console's board and the fallback for a game no renderer draws yet. It
reads only the view it is given, so a public view can never show hidden information, and it is
always prose and diagrams for a person, never JSON.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping
from typing import Any

from geniusbot.games.grid import Point, parse_point

log = logging.getLogger(__name__)

# Symbols for the colours the games name; a colour not listed gets its first letter.
_SYMBOLS = {"black": "X", "white": "O", "red": "R", "blue": "B", "orange": "O"}
# The keys every view carries, which the footer says in words (or the caption does).
_COMMON_KEYS = {"game", "variant", "to_move", "outcome", "last_move"}


def _render_module() -> Any | None:
    try:
        return importlib.import_module("geniusbot.render")
    except ImportError:
        return None


def has_picture(game: str) -> bool:
    """Whether a renderer draws ``game`` (the render registry may not exist yet)."""
    module = _render_module()
    has = getattr(module, "has_renderer", None) if module else None
    try:
        return bool(has and has(game))
    except Exception:  # a broken renderer must not stop a match
        log.exception("render registry failed for %s", game)
        return False


def picture(
    view: Mapping[str, Any],
    *,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> bytes | None:
    """PNG bytes of the view, or ``None`` when no renderer draws this game or it failed."""
    if not has_picture(str(view.get("game"))):
        return None
    module = _render_module()
    try:
        return module.render_view(dict(view), players=players, clocks=clocks, title=title)  # type: ignore[union-attr]
    except Exception:
        log.exception("rendering %s failed; falling back to text", view.get("game"))
        return None


def _grid(cols: int, rows: int, cells: Mapping[str, str], marks: set[str]) -> list[str]:
    width = 2
    header = "   " + "".join(f"{chr(ord('A') + c):>{width}}" for c in range(cols))
    lines = [header]
    for row in range(rows, 0, -1):  # row 1 at the bottom, as on the pictures
        cells_text = ""
        for col in range(cols):
            name = f"{chr(ord('A') + col)}{row}"
            colour = cells.get(name)
            symbol = _SYMBOLS.get(str(colour), str(colour)[:1].upper()) if colour else "."
            if name in marks and colour:
                symbol = symbol.lower() if symbol.isupper() else symbol.upper()
            cells_text += f"{symbol:>{width}}"
        lines.append(f"{row:>2} {cells_text}")
    lines.append(header)
    return lines


def _points(cells: Mapping[str, Any] | None, size: int) -> dict[Point, Any]:
    """A view's square-name mapping keyed by :class:`Point` (the games' own text helpers want those)."""
    return {parse_point(name, size, size): value for name, value in (cells or {}).items()}


def _seat_list(seats: Any) -> str:
    return " and ".join(str(s) for s in seats or ())


# --------------------------------------------------------------------------- Tile Decklaration


def _tiles_lines(view: Mapping[str, Any]) -> list[str]:
    from geniusbot.games.allhands.tiles import grid_text

    size = int(view.get("size") or 7)
    phase = view.get("phase")
    declared = list(view.get("declared") or [])
    lines: list[str] = []
    if phase == "memorize":
        lines.append("Memorize the grid: it is hidden when the time is up.")
    elif phase == "landmines":
        sent = view.get("mines_sent") or {}
        waiting = [s for s, done in sent.items() if not done]
        lines.append(
            "Landmines: each player sends five tiles by direct message, such as `mines A1 B2 C3 E6 G7`"
            + (f"; waiting for {_seat_list(waiting)}." if waiting else ".")
        )
    elif phase == "call":
        lines.append(f"{view.get('starter')} calls the first colour, such as `call red`.")
    elif phase == "declare":
        movers = _seat_list(view.get("to_move"))
        head = f"{movers} declares a {view.get('called')} tile"
        if view.get("caller"):
            head += f" (called by {view['caller']})"
        if view.get("chain_from"):
            head += f", next to {view['chain_from']}"
        head += ", then calls a colour."
        if view.get("must_move_again"):
            head += " A mine went off: move again."
        lines.append(head)
    elif phase == "over":
        lines.append("The task is over; the grid is shown.")
    lines.append(
        f"{len(declared)} tile{'s' if len(declared) != 1 else ''} declared."
        + (f" Anomalies: {', '.join(view['anomalies'])}." if view.get("anomalies") else "")
    )
    marks = [parse_point(m, size, size) for m in view.get("marks") or ()]
    if isinstance(view.get("grid"), Mapping):
        known = _points(view["grid"], size)
    else:
        # Hidden: only the black centre and the tiles declared so far (their true colours).
        known = {parse_point(str(view.get("centre") or "D4"), size, size): "black"}
        known.update({parse_point(d["tile"], size, size): d["color"] for d in declared})
    lines += grid_text(known, marks).splitlines()
    palette = [str(c) for c in view.get("palette") or ()]
    legend = ", ".join(f"{c[:1].upper()} {c}" for c in palette)
    legend += f"; * the black centre {view.get('centre') or 'D4'}"
    if not isinstance(view.get("grid"), Mapping):
        legend += "; ? hidden"
    if marks:
        legend += "; ! marked to implode"
    lines.append(legend + ".")
    if isinstance(view.get("original_grid"), Mapping):
        lines.append("Before the implosion:")
        lines += grid_text(_points(view["original_grid"], size)).splitlines()
    if view.get("mines") is not None:
        lines.append("Your mines: " + (" ".join(view["mines"]) or "none") + ".")
    exploded = view.get("exploded") or []
    if exploded:
        gone = [f"{e['tile']} ({' and '.join(e.get('owners') or ())})" for e in exploded]
        lines.append("Mines gone off: " + ", ".join(gone) + ".")
    return lines


# --------------------------------------------------------------------------- Dueling Decks


def _decks_lines(view: Mapping[str, Any]) -> list[str]:
    from geniusbot.games.allhands.decks import board_text

    return board_text(view).splitlines()


# --------------------------------------------------------------------------- Deck Swabbing


def _swabbing_lines(view: Mapping[str, Any]) -> list[str]:
    from geniusbot.games.allhands.swabbing import board_text

    size = int(view.get("size") or 7)
    lines: list[str] = []
    if view.get("phase") == "over":
        lines.append("The task is over.")
    elif view.get("turn"):
        head = f"{view['turn']} colours two white tiles black"
        if view.get("sniper"):
            head += f"; {view['sniper']} may snipe a tile"
        lines.append(head + ".")
    if view.get("anomalies"):
        lines.append(f"Anomalies: {', '.join(view['anomalies'])}.")
    scores = view.get("scores") or {}
    word = "points" if view.get("values") else "tiles"
    lines.append(
        f"Score ({word}): "
        + ", ".join(f"{s} {n}" for s, n in scores.items())
        + f"; a tie goes to {view.get('tiebreak')}."
    )
    numbers = _points(view.get("numbers"), size) if view.get("numbers") else None
    lines += board_text(_points(view.get("board"), size), numbers).splitlines()
    legend = ". white" if not numbers else "a number: a white tile and its number"
    lines.append(f"{legend}; # black; X p1's colour; O p2's colour.")
    values = view.get("values")
    if values:
        centre = view.get("centre") or "D4"
        lines.append(f"Pyramid: a tile is worth 4 at {centre}, then 3, 2 and 1 ring by ring.")
    hook = view.get("hook")
    if hook and hook.get("from"):
        if hook.get("lifted"):
            lines.append("Hook: no move can touch the last tiles, so any move will do.")
        else:
            lines.append(f"Hook: the next move must touch {' or '.join(hook['from'])}.")
    submitted = view.get("submitted")
    if submitted:
        sent = [s for s, done in submitted.items() if done]
        if sent:
            lines.append(f"Sealed and waiting: {_seat_list(sent)}.")
    if view.get("sealed"):
        lines.append(f"Your sealed submission: {view['sealed']}.")
    return lines


# --------------------------------------------------------------------------- All Hands On Deck


def _items_words(have: Mapping[str, Any]) -> list[str]:
    overrides = int(have.get("override") or 0)
    words = ["All-In"] if have.get("all_in") else []
    if overrides:
        words.append("Override" + (f" x{overrides}" if overrides > 1 else ""))
    if have.get("clock"):
        words.append("Clock")
    return words


def _allhands_lines(view: Mapping[str, Any]) -> list[str]:
    points = view.get("points") or {}
    score = ", ".join(f"{s} {n}" for s, n in points.items())
    current = view.get("current")
    lines: list[str] = []
    if current:
        time = int(current.get("time") or 0)
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(time, f"{time}th")
        anomalies = current.get("anomalies")
        chosen = "" if anomalies is None else f"; anomalies: {', '.join(anomalies) or 'none'}"
        lines.append(
            f"Play {current.get('play')} of {view.get('plays_total')}: {current.get('title')} "
            f"({ordinal} time, worth {current.get('worth')}){chosen}. "
            f"Points: {score} (first to {view.get('target')})."
        )
        phase = view.get("phase")
        if phase == "override" and (current.get("override") or {}).get("asked"):
            lines.append(f"{current['override']['asked']}: use your Override (`use override chain rainbow`) or `pass`.")
        elif phase == "ban":
            bans = ", ".join(f"{b['seat']} {b['anomaly']}" for b in current.get("bans") or ()) or "none yet"
            lines.append(f"Bans: {bans}. Still open: {', '.join(current.get('pool') or ())}.")
            if current.get("banner"):
                lines.append(
                    f"{current['banner']} bans next ({current.get('bans_left')} to go), such as `ban {(current.get('pool') or ['chain'])[0]}`."
                )
        elif phase == "items":
            answered = [s for s, done in ((current.get("all_in") or {}).get("answered") or {}).items() if done]
            lines.append(
                "All-In: send `use all-in` or `pass` by direct message"
                + (f"; {_seat_list(answered)} answered." if answered else ".")
            )
        used = (current.get("all_in") or {}).get("used") or []
        if used:
            lines.append(f"All-In used by {_seat_list(used)}: the winner of this play scores 2 more.")
    else:
        lines.append(f"Points: {score} (first to {view.get('target')}).")
    if view.get("sealed"):
        lines.append(f"Your sealed answer: {view['sealed']}.")
    held = {seat: _items_words(have) for seat, have in (view.get("items") or {}).items()}
    if any(held.values()):
        lines.append("Items left: " + "; ".join(f"{s} {', '.join(w) or 'none'}" for s, w in held.items()) + ".")
    if isinstance(view.get("task"), Mapping):
        lines += _body(view["task"])
    return lines


# --------------------------------------------------------------------------- Tightwire

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
            symbol = _SYMBOLS.get(str(colour), str(colour)[:1].upper()) if colour else "."
            y, x = at(col, row)
            canvas[y][x] = symbol.lower() if name in marks and colour else symbol
    for a, b in lines:
        (ca, ra), (cb, rb) = sorted(((ord(a[0]) - ord("A"), int(a[1:]) - 1), (ord(b[0]) - ord("A"), int(b[1:]) - 1)))
        y, x = at(ca, ra)
        if ra == rb:
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


def _neighbours(a: str, b: str) -> bool:
    return abs(ord(a[0]) - ord(b[0])) <= 1 and abs(int(a[1:]) - int(b[1:])) <= 1


def _tightwire_lines(view: Mapping[str, Any]) -> list[str]:
    from geniusbot.games.tightwire.rules import ITEM_TITLES

    lines = [(str(ln["a"]), str(ln["b"]), bool(ln.get("slack"))) for ln in view.get("lines") or ()]
    drawn = [(a, b) for a, b, _ in lines if _neighbours(a, b)]
    out = _tightwire_grid(
        int(view["cols"]),
        int(view["rows"]),
        view.get("pieces") or {},
        drawn,
        {str(d) for d in view.get("last_path") or ()},
    )
    longer = [f"{a}-{b}{' (slack)' if slack else ''}" for a, b, slack in lines if not _neighbours(a, b)]
    if longer:
        out.append("Longer lines: " + ", ".join(longer) + ".")
    slack_drawn = [f"{a}-{b}" for a, b, slack in lines if slack and _neighbours(a, b)]
    if slack_drawn:
        out.append("Slack lines drawn above: " + ", ".join(slack_drawn) + ".")
    legend = ", ".join(f"{_SYMBOLS.get(c, c[:1].upper())} {c}" for c in (view.get("colors") or {}).values() if c)
    out.append(f"{legend}, . an empty dot; lower case: the dots of the last action.")
    draft = view.get("draft")
    if view.get("phase") == "draft" and draft:
        out.append(
            "Items still to pick: " + ", ".join(ITEM_TITLES.get(i, i) for i in draft.get("available") or ()) + "."
        )
    captured = view.get("captured") or {}
    off = [f"{n} {colour}" for colour, n in captured.items() if n]
    if off:
        out.append("Off the board, to be revived: " + ", ".join(off) + ".")
    slack_left = view.get("slack_left") or {}
    if view.get("phase") not in ("draft", "order", "over") and slack_left:
        out.append("Slack line unused: " + (_seat_list(s for s, n in slack_left.items() if n) or "nobody") + ".")
    held = {s: [ITEM_TITLES.get(i, i) for i in items] for s, items in (view.get("items") or {}).items()}
    if any(held.values()):
        out.append("Items held: " + "; ".join(f"{s} {', '.join(t) or 'none'}" for s, t in held.items()) + ".")
    return out


# --------------------------------------------------------------------------- any other game


def _plain(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value) or "none"
    return "none" if value is None else str(value)


def _generic_lines(view: Mapping[str, Any]) -> list[str]:
    """Every other key of a view as ``name: value`` prose, for a game with no board of its own."""
    return [
        f"{key.replace('_', ' ')}: {_plain(value)}" for key, value in sorted(view.items()) if key not in _COMMON_KEYS
    ]


_BODIES = {
    "tightwire": _tightwire_lines,
    "tiles": _tiles_lines,
    "decks": _decks_lines,
    "swabbing": _swabbing_lines,
    "allhands": _allhands_lines,
}


def _body(view: Mapping[str, Any]) -> list[str]:
    """The board itself, without the footer."""
    special = _BODIES.get(str(view.get("game")))
    if special is not None:
        return special(view)
    last = view.get("last_move")
    marks = {str(last)} if last else set()
    if "stones" in view and "size" in view:
        return _grid(int(view["size"]), int(view["size"]), view["stones"], marks)
    if isinstance(view.get("grid"), Mapping) and "size" in view:
        return _grid(int(view["size"]), int(view["size"]), view["grid"], marks)
    if "pieces" in view and "cols" in view:
        lines = _grid(int(view["cols"]), int(view["rows"]), view["pieces"], set(view.get("last_path") or ()))
        drawn = [f"{ln['a']}-{ln['b']}{' (slack)' if ln.get('slack') else ''}" for ln in view.get("lines", [])]
        if drawn:
            lines.append("lines: " + ", ".join(drawn))
        return lines
    return _generic_lines(view)


def text_board(view: Mapping[str, Any], *, clocks: Mapping[str, str] | None = None) -> str:
    """A plain-text board of a view (row 1 at the bottom; the last move in lower case), then a
    footer: colours, last move, who is to move, and the clocks of a timed match."""
    lines = _body(view)
    last = view.get("last_move")
    colours = view.get("colors")
    legend = []
    if isinstance(colours, Mapping):
        legend = [f"{seat} {colour}" for seat, colour in colours.items() if colour]
    footer = []
    if legend:
        footer.append(", ".join(legend))
    if last:
        footer.append(f"last move {last}")
    if view.get("to_move"):
        footer.append("to move: " + " and ".join(view["to_move"]))
    shown = [f"{s} {t}" for s, t in (clocks or {}).items() if t]
    if shown:  # an untimed match has no clocks to show
        footer.append("clocks: " + ", ".join(shown))
    if footer:
        lines.append(" | ".join(footer))
    return "\n".join(lines)
