"""Boards for the room: a picture when ``geniusbot.render`` has a renderer, text otherwise.

The text board is the console's board and the fallback for a game no renderer draws yet. It
reads only the public view, so it can never show hidden information.
"""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)

# Symbols for the colours the games name; a colour not listed gets its first letter.
_SYMBOLS = {"black": "X", "white": "O", "red": "R", "blue": "B", "orange": "O"}


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


def text_board(view: Mapping[str, Any], *, clocks: Mapping[str, str] | None = None) -> str:
    """A plain-text board of a public view (row 1 at the bottom; the last move in lower case)."""
    lines: list[str] = []
    last = view.get("last_move")
    marks = {str(last)} if last else set()
    if "stones" in view and "size" in view:
        lines += _grid(int(view["size"]), int(view["size"]), view["stones"], marks)
    elif isinstance(view.get("grid"), Mapping) and "size" in view:
        lines += _grid(int(view["size"]), int(view["size"]), view["grid"], marks)
    elif "pieces" in view and "cols" in view:
        lines += _grid(int(view["cols"]), int(view["rows"]), view["pieces"], set(view.get("last_path") or ()))
        drawn = [f"{ln['a']}-{ln['b']}{' (slack)' if ln.get('slack') else ''}" for ln in view.get("lines", [])]
        if drawn:
            lines.append("lines: " + ", ".join(drawn))
    else:
        skip = {"game", "variant", "to_move", "outcome", "last_move"}
        lines.append(json.dumps({k: v for k, v in view.items() if k not in skip}, sort_keys=True))
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
    if clocks:
        footer.append("clocks: " + ", ".join(f"{s} {t}" for s, t in clocks.items() if t))
    if footer:
        lines.append(" | ".join(footer))
    return "\n".join(lines)
