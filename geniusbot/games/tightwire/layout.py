"""Tightwire's boards: the named presets, and the ``setup`` option's explicit layout read and checked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from geniusbot.games.base import GameError, OptionError
from geniusbot.games.grid import parse_point
from geniusbot.games.tightwire.geometry import BoardGeometry
from geniusbot.games.tightwire.notation import COLOURS


@dataclass(frozen=True)
class BoardPreset:
    """A named board: its grid and where each colour's pieces start."""

    cols: int
    rows: int
    orange: tuple[str, ...]
    blue: tuple[str, ...]


PRESETS: dict[str, BoardPreset] = {
    # docs/rules/tightwire.md, ruling 1: the seed's picture is lost; this layout fits its worked example.
    "classic5": BoardPreset(5, 5, ("A5", "B5", "D5", "E5"), ("A1", "B1", "D1", "E1")),
    # A roomier house board with the same four pieces a side, for longer games.
    "large7": BoardPreset(7, 7, ("A7", "B7", "F7", "G7"), ("A1", "B1", "F1", "G1")),
}


def line_name(geo: BoardGeometry, pid: int) -> str:
    """Line ``pid`` as its two dots name it: ``B5-C3``."""
    i, j = geo.pairs[pid]
    return f"{geo.names[i]}-{geo.names[j]}"


def parse_layout(text: str, geo: BoardGeometry) -> tuple[dict[str, list[str]], list[int]]:
    """The pieces of each colour (dot names) and the lines (ids) the ``setup`` option lays out on
    ``geo``'s grid, or an :class:`OptionError` that says what to write."""
    layout: dict[str, list[str]] = {}
    lines: list[int] = []
    seen: dict[str, str] = {}
    for part in text.split(";"):
        words = part.split()
        if not words:
            continue
        key, rest = words[0].lower(), words[1:]
        if key in COLOURS:
            if key in layout:
                raise OptionError(f"The setup names {key} twice; list each colour once.")
            layout[key] = []
            for word in rest:
                name = _option_dot(word, geo)
                if name in seen:
                    raise OptionError(f"The setup puts two pieces on {name}; give each piece its own dot.")
                seen[name] = key
                layout[key].append(name)
        elif key == "lines":
            for word in rest:
                match = re.fullmatch(r"([A-Za-z]\d{1,2})-([A-Za-z]\d{1,2})", word)
                if not match:
                    raise OptionError(f"{word!r} is not a line; write lines as B5-C3, separated by spaces.")
                a = geo.dot_of[_option_dot(match.group(1), geo)]
                b = geo.dot_of[_option_dot(match.group(2), geo)]
                pid = _setup_line(a, b, lines, geo)
                lines.append(pid)
        else:
            raise OptionError(
                f'The setup has a part {key!r}; write it as "orange A5 B5 D5 E5; blue A1 B1 D1 E1" '
                f'with an optional "; lines B5-C3 C3-C2".'
            )
    for colour in COLOURS:
        if colour not in layout:
            raise OptionError(f'The setup places no {colour} pieces; list them as "{colour} A1 B1".')
        if len(layout[colour]) < 2:
            raise OptionError(
                f"The setup gives {colour} fewer than two pieces, and a player with one piece or none "
                f"has already lost; give each colour at least two."
            )
    return layout, lines


def _option_dot(word: str, geo: BoardGeometry) -> str:
    try:
        point = parse_point(word, geo.cols, geo.rows)
    except GameError as error:
        raise OptionError(f"In the setup: {error}") from None
    return str(point)


def _setup_line(a: int, b: int, earlier: list[int], geo: BoardGeometry) -> int:
    names = geo.names
    if a == b:
        raise OptionError(f"The setup line {names[a]}-{names[b]} joins a dot to itself; name two dots.")
    pid = geo.pair_id.get((a, b))
    if pid is None:
        over = names[geo.dots_between(a, b)[0]]
        raise OptionError(
            f"The setup line {names[a]}-{names[b]} passes over {over}; lines join dots without passing over one."
        )
    if pid in earlier:
        raise OptionError(f"The setup lists the line {names[a]}-{names[b]} twice; list it once.")
    for other in earlier:
        if geo.crossing[pid] >> other & 1:
            raise OptionError(
                f"The setup lines {line_name(geo, pid)} and {line_name(geo, other)} cross; lines may not cross."
            )
    return pid
