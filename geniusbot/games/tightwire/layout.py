"""Tightwire's boards: the named presets, and the ``setup`` option's explicit layout read and checked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from geniusbot.games.base import GameError, OptionError
from geniusbot.games.grid import parse_point
from geniusbot.games.tightwire.geometry import BoardGeometry
from geniusbot.games.tightwire.notation import COLOURS
from geniusbot.words import Verbatim, say


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
                raise OptionError(say("The setup names {colour} twice; list each colour once.", colour=Verbatim(key)))
            layout[key] = []
            for word in rest:
                name = _option_dot(word, geo)
                if name in seen:
                    raise OptionError(
                        say("The setup puts two pieces on {dot}; give each piece its own dot.", dot=Verbatim(name))
                    )
                seen[name] = key
                layout[key].append(name)
        elif key == "lines":
            for word in rest:
                match = re.fullmatch(r"([A-Za-z]\d{1,2})-([A-Za-z]\d{1,2})", word)
                if not match:
                    raise OptionError(
                        say(
                            "{text} is not a line; write lines as B5-C3, separated by spaces.",
                            text=Verbatim(repr(word)),
                        )
                    )
                a = geo.dot_of[_option_dot(match.group(1), geo)]
                b = geo.dot_of[_option_dot(match.group(2), geo)]
                pid = _setup_line(a, b, lines, geo)
                lines.append(pid)
        else:
            raise OptionError(
                say(
                    'The setup has a part {part}; write it as "orange A5 B5 D5 E5; blue A1 B1 D1 E1" '
                    'with an optional "; lines B5-C3 C3-C2".',
                    part=Verbatim(repr(key)),
                )
            )
    for colour in COLOURS:
        if colour not in layout:
            raise OptionError(
                say('The setup places no {colour} pieces; list them as "{colour} A1 B1".', colour=Verbatim(colour))
            )
        if len(layout[colour]) < 2:
            raise OptionError(
                say(
                    "The setup gives {colour} fewer than two pieces, and a player with one piece or none "
                    "has already lost; give each colour at least two.",
                    colour=Verbatim(colour),
                )
            )
    return layout, lines


def _option_dot(word: str, geo: BoardGeometry) -> str:
    try:
        point = parse_point(word, geo.cols, geo.rows)
    except GameError as error:
        assert error.said is not None  # parse_point says what to write as a message
        raise OptionError(say("In the setup: {error}", error=error.said)) from None
    return str(point)


def _setup_line(a: int, b: int, earlier: list[int], geo: BoardGeometry) -> int:
    names = geo.names
    if a == b:
        raise OptionError(
            say("The setup line {line} joins a dot to itself; name two dots.", line=Verbatim(f"{names[a]}-{names[b]}"))
        )
    pid = geo.pair_id.get((a, b))
    if pid is None:
        over = names[geo.dots_between(a, b)[0]]
        raise OptionError(
            say(
                "The setup line {line} passes over {over}; lines join dots without passing over one.",
                line=Verbatim(f"{names[a]}-{names[b]}"),
                over=Verbatim(over),
            )
        )
    if pid in earlier:
        raise OptionError(
            say("The setup lists the line {line} twice; list it once.", line=Verbatim(f"{names[a]}-{names[b]}"))
        )
    for other in earlier:
        if geo.crossing[pid] >> other & 1:
            raise OptionError(
                say(
                    "The setup lines {line} and {other} cross; lines may not cross.",
                    line=Verbatim(line_name(geo, pid)),
                    other=Verbatim(line_name(geo, other)),
                )
            )
    return pid
