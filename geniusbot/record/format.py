"""The match record: a plain-text transcript of one game that a person can read and type.

A record is header lines, then one line per submission::

    # Comments run from '#' to the end of the line; blank lines are ignored.
    [Game "<name>"]
    [Variant "standard"]
    [Seed "0"]
    [Setup ""]
    [P1 "Alice"]
    [P2 "Bob"]
    [P1Color ""]
    [Result "p1"]

    p1: H8
    p1: H9          # the second opening stone (white)
    p2: black
    p1 (dm): play 20
    p1: H10 {at=2026-11-29T12:00:03Z p1=0:52+5:00 p2=1:00+5:00}
    host: timeout p2

* A header is ``[Name "value"]``; inside the value, ``\\"`` is a quote and ``\\\\`` a backslash.
  Any name is allowed here; :func:`game_from_record` decides which names a game takes.
* A submission is ``seat: text``. ``seat (dm): text`` is a private submission (a DM). The seats
  are ``p1`` and ``p2``; ``host`` lines carry what the host did (``timeout p1``, ``resign p2``,
  ``close window``). The parser keeps any other seat, and a line without a colon, as written:
  whether such a line counts is the adjudicator's ruling, not a format error.
* An optional trailing annotation in braces, ``{key=value key="a value"}``, carries what the host
  adds (time, clocks). The rules never see it, and records without it stay valid.
* Move text may not contain ``#`` or ``{`` (they start a comment and an annotation). A move
  line's seat and text are read in Unicode's NFKC form, as the host reads a typed move
  (:func:`geniusbot.games.typed`): ``p1: Ｈ８`` is ``p1: H8``.
* A byte-order mark (U+FEFF) at the very start of the text is not part of the record (editors
  write one); anywhere else it is text like any other, in a value, a seat or a move. A record
  whose first line begins with one is written with one more in front, so it reads back the same.

:func:`parse_record` and :func:`format_record` round-trip: formatting a parsed record and parsing
it again gives an equal :class:`Record` (line numbers are positions, not content, and are left out
of the comparison; comments and blank lines are not kept).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from geniusbot.games import Game, GameError, Outcome, default_variant, get_game, registry, typed
from geniusbot.words import Listing, Message, Verbatim, Words, say

#: The headers every record written by :func:`record_from_game` carries, in this order.
STANDARD_HEADERS: tuple[str, ...] = ("Game", "Variant", "Seed", "Setup", "P1", "P2", "P1Color", "Result")

#: Headers about the match rather than the rules: kept in the record, never passed to a game.
METADATA_HEADERS: frozenset[str] = frozenset(
    {"P1", "P2", "Result", "Date", "Event", "Site", "Round", "Annotator", "TimeControl"}
)

#: Standard headers that are game options only for the games that list them in ``Game.options``.
OPTIONAL_OPTION_HEADERS: frozenset[str] = frozenset({"P1Color", "Setup"})

#: U+FEFF, the byte-order mark: one at the very start of a record is not text (see :func:`parse_record`).
BOM = "\ufeff"

#: The seats a record line may name; ``host`` lines carry the host's own actions.
RECORD_SEATS: tuple[str, ...] = ("p1", "p2", "host")

# Option names that read better in upper case as header names (``dmo`` -> ``DMO``).
_ACRONYMS = frozenset({"dmo"})

# A header line, read in three linear steps (no pattern that backtracks over the value): its
# opening up to the value's quote, the value up to the first quote no backslash escapes, its end.
_HEADER_OPEN = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"')
_HEADER_VALUE_END = re.compile(r'\\.|"', re.DOTALL)
_HEADER_CLOSE = re.compile(r"\s*\]\s*(?:#.*)?", re.DOTALL)
_HEADER_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_ANNOTATION_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
#: The annotation keys the host writes on every line (its time, the seats' clocks).
_HOST_KEYS = {key: key for key in ("at", "p1", "p2")}
_BARE_VALUE = re.compile(r'[^\s"{}\\]*')
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


_ENGLISH = Words()


class RecordError(ValueError):
    """A record that cannot be read: a malformed header or annotation, or headers a game refuses.

    ``line_no`` is the 1-based line of the file, or ``None`` when no single line is to blame.
    Words as data (as a game's refusal is): ``refusal`` is the message without the line, ``said``
    the whole message (``line 3: ...``), which a caller says in its language; ``message`` and
    ``str(error)`` are their English.
    """

    def __init__(self, message: str | Message, line_no: int | None = None) -> None:
        self.refusal: Message = message if isinstance(message, Message) else _as_is(message)
        self.message = _ENGLISH(self.refusal)
        self.line_no = line_no
        self.said: Message = (
            self.refusal if line_no is None else say("line {line}: {refusal}", line=line_no, refusal=self.refusal)
        )
        super().__init__(_ENGLISH(self.said))


def _as_is(text: str) -> Message:
    """Words that are not (yet) a message of ours, said as they are."""
    return Message("{text}", {"text": Verbatim(text)})


@dataclass(slots=True)
class RecordLine:
    """One submission line: ``seat (dm): text {annotations}``.

    ``seat`` is ``"p1"``, ``"p2"`` or ``"host"`` (lower-cased), any other word exactly as typed,
    or ``None`` for a line with no colon. ``line_no`` is where the line stood in the file (0 for a
    line made in code); it is not part of equality.
    """

    line_no: int = field(compare=False)
    seat: str | None
    private: bool
    text: str
    annotations: dict[str, str] = field(default_factory=dict)


@dataclass
class Record:
    """Headers (in file order) and submission lines of one match."""

    headers: dict[str, str] = field(default_factory=dict)
    lines: list[RecordLine] = field(default_factory=list)
    # Where each header stood (by its name in lower case), for error messages; positions are not content.
    header_lines: dict[str, int] = field(default_factory=dict, compare=False)

    def header(self, name: str, default: str = "") -> str:
        """The value of header ``name`` (case-insensitive), or ``default`` when absent."""
        key = self._key(name)
        return self.headers[key] if key is not None else default

    def header_line(self, name: str) -> int | None:
        """The file line of header ``name`` (case-insensitive), if it was parsed from a file."""
        return self.header_lines.get(name.lower())

    def _key(self, name: str) -> str | None:
        if name in self.headers:
            return name
        lowered = name.lower()
        return next((k for k in self.headers if k.lower() == lowered), None)


# --------------------------------------------------------------------------- parsing


def parse_record(text: str) -> Record:
    """Read a record. Raises :class:`RecordError` (with the line number) for a malformed header,
    a header after the first submission, a header given twice, or a malformed annotation.

    Submission lines with an unknown seat or without a colon are kept as written (see
    :class:`RecordLine`); judging them is the adjudicator's work.
    """
    record = Record()
    # Some editors (Windows Notepad) start a UTF-8 file with a byte-order mark; it is not text.
    text = text.removeprefix(BOM)
    # Lines end at "\n" only (not at the other breaks str.splitlines knows), so that a value
    # may hold any character but a line break and still read back the same.
    for line_no, raw in enumerate(_lines(text), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            name, value = _parse_header(stripped, line_no)
            if record.lines:
                raise RecordError(
                    say(
                        "the header [{name}] comes after the moves; put every header line before the first move.",
                        name=Verbatim(name),
                    ),
                    line_no,
                )
            if (first := record.header_lines.get(lowered := name.lower())) is not None:
                raise RecordError(
                    say(
                        "the header [{name}] is given twice (first on line {first}); keep one of them.",
                        name=Verbatim(name),
                        first=first,
                    ),
                    line_no,
                )
            record.headers[name] = value
            record.header_lines[lowered] = line_no
            continue
        line = _parse_submission(stripped, line_no)
        if line is not None:
            record.lines.append(line)
    return record


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` split at "\\n", one at a time (a long record is never held twice)."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield text[start:end]
        start = end + 1
    yield text[start:]


def _parse_header(line: str, line_no: int) -> tuple[str, str]:
    opening = _HEADER_OPEN.match(line)
    value_end = None
    if opening:
        # The value ends at the first quote that no backslash escapes.
        value_end = next((m for m in _HEADER_VALUE_END.finditer(line, opening.end()) if m.group() == '"'), None)
    if opening is None or value_end is None or not _HEADER_CLOSE.fullmatch(line, value_end.end()):
        raise RecordError(
            say(
                'a header is written [Name "value"], such as [Event "Season 1"]; '
                'inside the value write \\" for a quote and \\\\ for a backslash.'
            ),
            line_no,
        )
    return opening.group(1), _unescape(line[opening.end() : value_end.start()], opening.group(1), line_no)


def _unescape(raw: str, name: str, line_no: int) -> str:
    """A header value with ``\\"`` and ``\\\\`` undone, by splitting and replacing (no callback per
    escape). Backslashes pair left to right as they are read: split at each pair, and a backslash
    left in a part must escape a quote."""
    parts = raw.split("\\\\")
    for part in parts:
        at = part.find("\\") if part.count("\\") != part.count('\\"') else -1  # only for the error
        while at >= 0:
            if part[at + 1 : at + 2] != '"':
                raise RecordError(
                    say(
                        "the header [{name}] has an unknown escape {escape}; "
                        'write \\" for a quote and \\\\ for a backslash.',
                        name=Verbatim(name),
                        escape=Verbatim("\\" + part[at + 1 : at + 2]),
                    ),
                    line_no,
                )
            at = part.find("\\", at + 2)
    return "\\".join(part.replace('\\"', '"') for part in parts)


def _parse_submission(line: str, line_no: int) -> RecordLine | None:
    body, annotations = _split_annotation(line, line_no)
    body = typed(body).strip()  # the seat and the move as the host reads them (Ｈ８ is H8)
    if not body and not annotations:
        return None
    prefix, colon, rest = body.partition(":")
    if not colon:
        return RecordLine(line_no, None, False, body, annotations or {})
    seat, private = _dm_seat(prefix.strip())
    if seat.lower() in RECORD_SEATS:
        seat = sys.intern(seat.lower())  # one string for every line's seat
    return RecordLine(line_no, seat, private, rest.strip(), annotations or {})


def _dm_seat(seat: str) -> tuple[str, bool]:
    """``p1 (dm)`` -> ``("p1", True)``; any other seat as it is, ``False``. (Read from the end:
    a pattern that tries every start position would cost the square of a long seat's length.)"""
    if not seat.endswith(")"):
        return seat, False
    opening = seat.rfind("(")
    if opening < 0 or seat[opening + 1 : -1].strip().lower() != "dm":
        return seat, False
    return seat[:opening].strip(), True


def _split_annotation(line: str, line_no: int) -> tuple[str, dict[str, str] | None]:
    """The line before its annotation and comment, and the annotation (``None`` when absent)."""
    hash_at = line.find("#")
    brace_at = line.find("{")
    if brace_at < 0 or 0 <= hash_at < brace_at:
        return (line if hash_at < 0 else line[:hash_at]), None
    annotations, end = _parse_annotation(line, brace_at + 1, line_no)
    tail = line[end:].strip()
    if tail and not tail.startswith("#"):
        raise RecordError(
            say(
                "{tail} follows the {{...}} annotation; the annotation must end the line (a '#' comment may follow).",
                tail=Verbatim(repr(tail)),
            ),
            line_no,
        )
    return line[:brace_at], annotations


def _parse_annotation(line: str, pos: int, line_no: int) -> tuple[dict[str, str], int]:
    """Parse ``key=value ...}`` from ``pos``; return the dict and the index after the ``}``."""
    result: dict[str, str] = {}
    n = len(line)
    while True:
        while pos < n and line[pos].isspace():
            pos += 1
        if pos >= n:
            raise RecordError(say("the {{...}} annotation is not closed; end it with '}}'."), line_no)
        if line[pos] == "}":
            return result, pos + 1
        key_match = _ANNOTATION_KEY.match(line, pos)
        if not key_match or key_match.end() >= n or line[key_match.end()] != "=":
            raise RecordError(
                say(
                    "an annotation is written {{key=value key=value}}, such as {{at=2026-11-29T12:00:03Z}}; "
                    'quote a value that has spaces: {{note="a value"}}.'
                ),
                line_no,
            )
        key = key_match.group(0)
        key = _HOST_KEYS.get(key, key)  # the host's few keys, on every line: held once
        pos = key_match.end() + 1
        if pos < n and line[pos] == '"':
            value, pos = _parse_quoted(line, pos + 1, line_no)
        else:
            value_match = _BARE_VALUE.match(line, pos)
            assert value_match is not None  # the pattern matches the empty string
            value, pos = value_match.group(0), value_match.end()
            if pos < n and not line[pos].isspace() and line[pos] != "}":
                raise RecordError(
                    say(
                        "the annotation value of {key} has a {char}; put the value in double quotes.",
                        key=Verbatim(key),
                        char=Verbatim(repr(line[pos])),
                    ),
                    line_no,
                )
        if key in result:
            raise RecordError(say("the annotation {key} is given twice; keep one.", key=Verbatim(key)), line_no)
        result[key] = value


def _parse_quoted(line: str, pos: int, line_no: int) -> tuple[str, int]:
    out: list[str] = []
    n = len(line)
    while pos < n:
        char = line[pos]
        if char == '"':
            return "".join(out), pos + 1
        if char == "\\":
            if pos + 1 >= n or line[pos + 1] not in '"\\':
                raise RecordError(
                    say('in a quoted annotation value write \\" for a quote and \\\\ for a backslash.'), line_no
                )
            out.append(line[pos + 1])
            pos += 2
            continue
        out.append(char)
        pos += 1
    raise RecordError(say("a quoted annotation value is not closed; end it with a double quote."), line_no)


# --------------------------------------------------------------------------- formatting


def format_record(record: Record) -> str:
    """Write ``record`` as text that :func:`parse_record` reads back to an equal record.

    Raises :class:`RecordError` (without a line number) for a value the format cannot hold:
    a header name that is not a word, a line break in a value, move text with ``#`` or ``{``.
    """
    return join_record(record.headers, (checked_line(line) for line in record.lines))


def join_record(headers: Mapping[str, str], lines: Iterable[str]) -> str:
    """The record text of ``headers`` and submission ``lines`` already written by
    :func:`checked_line` (a writer that holds many lines may keep them as text)."""
    out: list[str] = []
    for name, value in headers.items():
        if not _HEADER_NAME.match(name):
            raise RecordError(
                say("{name} cannot be a header name; use letters, digits and underscores.", name=Verbatim(repr(name)))
            )
        if "\n" in value or "\r" in value:
            raise RecordError(
                say("the header [{name}] holds a line break, which a record cannot hold.", name=Verbatim(name))
            )
        out.append(f'[{name} "{_escape(value)}"]')
    body = list(lines)
    if out and body:
        out.append("")
    text = "\n".join([*out, *body]) + "\n"
    # A byte-order mark is text anywhere but at the very start, where the reader drops one: a
    # record whose first line begins with one is written with one more in front.
    return BOM + text if text.startswith(BOM) else text


def checked_line(line: RecordLine) -> str:
    """:func:`format_line`, or :class:`RecordError` when the text would not read back the same."""
    written = format_line(line)
    # Formatting a line and reading it back must give the same line; anything else means the
    # line holds text the format cannot carry, and a record that lies is worse than an error.
    try:
        again = _parse_submission(written, line.line_no) if written.strip() else None
    except RecordError:
        again = None
    if "\n" in written or "\r" in written:
        again = None
    if again != line:
        raise RecordError(
            say("the line {line} cannot be written so that it reads back the same.", line=Verbatim(repr(written)))
        )
    return written


def format_line(line: RecordLine) -> str:
    """One submission line as the record writes it: ``p1 (dm): text {key=value}``."""
    if line.seat is None:
        written = line.text
    else:
        written = f"{line.seat}{' (dm)' if line.private else ''}: {line.text}".rstrip()
    if line.annotations:
        annotation = "{" + " ".join(f"{k}={_annotation_value(v)}" for k, v in line.annotations.items()) + "}"
        written = f"{written} {annotation}" if written else annotation
    return written


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _annotation_value(value: str) -> str:
    if value and _BARE_VALUE.fullmatch(value):
        return value
    return f'"{_escape(value)}"'


# --------------------------------------------------------------------------- records and games


def header_to_option(name: str) -> str:
    """The option name a header stands for: ``P1Color`` -> ``p1_color``, ``DMO`` -> ``dmo``."""
    return _CAMEL_BOUNDARY.sub("_", name).lower()


def option_to_header(option: str) -> str:
    """The header name of an option: ``p1_color`` -> ``P1Color``, ``dmo`` -> ``DMO``."""
    if option in _ACRONYMS:
        return option.upper()
    return "".join(part[:1].upper() + part[1:] for part in option.split("_"))


def result_text(outcome: Outcome | None) -> str:
    """The ``Result`` header for an outcome: ``p1``, ``p2``, ``draw``, or ``*`` while running."""
    if outcome is None:
        return "*"
    return outcome.winner or "draw"


def read_result(value: str) -> str | None:
    """What a ``Result`` header claims: ``"p1"``, ``"p2"``, ``"draw"``, ``"running"`` for ``*``,
    or ``None`` when it is empty or not a result this format knows.

    Accepts the forms a person may type: ``p1``, ``p1 wins``, ``1-0``, ``0-1``, ``draw``, ``1/2-1/2``.
    """
    key = " ".join(value.strip().lower().split())
    table = {
        "p1": "p1", "p1 wins": "p1", "1-0": "p1",
        "p2": "p2", "p2 wins": "p2", "0-1": "p2",
        "draw": "draw", "1/2-1/2": "draw", "½-½": "draw",
        "*": "running",
    }  # fmt: skip
    return table.get(key)


def game_options(record: Record) -> tuple[type[Game], dict[str, object]]:
    """The game class and the keyword arguments of ``new_game`` that the headers give.

    ``Game`` names the game (required). ``Seed`` (an integer, empty = 0) and ``Variant`` (empty =
    the game's default) are always taken. Any other header is passed as an option when the game
    lists its snake_case name in ``Game.options`` and its value is not empty; metadata headers
    (and ``P1Color``/``Setup`` for a game without such options) are kept but not passed; any other
    non-empty header is a :class:`RecordError` naming the header and the game.
    """
    name = record.header("Game").strip()
    if not name:
        raise RecordError(
            say(
                'the record has no [Game "..."] header; add one, such as [Game "{example}"] (the games: {games}).',
                example=Verbatim(_example_game()),
                games=Listing(tuple(Verbatim(game) for game in registry())),
            )
        )
    try:
        cls = get_game(name)
    except GameError as error:
        raise RecordError(error.said or str(error), record.header_line("Game")) from None
    seed_text = record.header("Seed").strip()
    try:
        seed = int(seed_text) if seed_text else 0
    except ValueError:
        raise RecordError(
            say("the header [Seed] must be a whole number such as 12345, not {seed}.", seed=Verbatim(repr(seed_text))),
            record.header_line("Seed"),
        ) from None
    kwargs: dict[str, object] = {"seed": seed, "variant": record.header("Variant").strip() or default_variant(name)}
    for header, value in record.headers.items():
        if header.lower() in ("game", "seed", "variant"):
            continue
        option = header_to_option(header)
        if option in cls.options:
            if value.strip():
                kwargs[option] = value
            continue
        if _is_metadata(header) or not value.strip():
            continue
        takes = Listing(tuple(Verbatim(option_to_header(o)) for o in cls.options)) if cls.options else say("no options")
        raise RecordError(
            say(
                "{game} takes no header [{header}] (it takes: {takes}); remove it or leave it empty.",
                game=Verbatim(cls.title),
                header=Verbatim(header),
                takes=takes,
            ),
            record.header_line(header),
        )
    return cls, kwargs


_KNOWN_METADATA = frozenset(known.lower() for known in METADATA_HEADERS | OPTIONAL_OPTION_HEADERS)


def _is_metadata(header: str) -> bool:
    return header.lower() in _KNOWN_METADATA


def game_from_record(record: Record) -> Game:
    """The game at its start, as the record's headers describe it (see :func:`game_options`).

    Raises :class:`RecordError` for an unknown game, a bad seed, a header the game does not take,
    or an option value the game refuses (a bad ``Setup``, an unknown ``Variant``).
    """
    cls, kwargs = game_options(record)
    try:
        return cls.new(**kwargs)  # type: ignore[arg-type]
    except GameError as error:
        raise RecordError(
            say(
                "the headers describe no game that can start: {error}",
                error=error.said or _as_is(str(error)),
            ),
            _blame(record, kwargs),
        ) from None


def _blame(record: Record, kwargs: Mapping[str, object]) -> int | None:
    """The line of the one option header passed, when there is only one to blame."""
    passed = [k for k in kwargs if k != "seed" and kwargs[k] is not None]
    if len(passed) != 1:
        return None
    option = passed[0]
    header = next((h for h in record.headers if header_to_option(h) == option), None)
    return record.header_line(header) if header else None


def record_from_game(
    game: Game,
    lines: Iterable[RecordLine | tuple[str, str] | tuple[str, str, bool]] = (),
    *,
    headers: Mapping[str, str] | None = None,
) -> Record:
    """A record of ``game``: its name, rule set, seed and options as headers, then ``lines``.

    ``lines`` are :class:`RecordLine` values or ``(seat, text)`` / ``(seat, text, private)``
    tuples, in the order they were submitted. The ``Result`` header comes from
    ``game.outcome()``. ``headers`` adds or overrides headers (``P1``, ``P2``, ``Date``...).
    Any game state works, since only the seed and options (fixed at the start) and the outcome
    are read.
    """
    values: dict[str, str] = dict.fromkeys(STANDARD_HEADERS, "")
    values["Game"] = game.name
    values["Variant"] = game.variant
    values["Seed"] = str(game.seed)
    for option, value in game.option_values.items():
        values[option_to_header(option)] = value
    values["Result"] = result_text(game.outcome())
    for name, value in (headers or {}).items():
        existing = next((k for k in values if k.lower() == name.lower()), name)
        values[existing] = value
    record_lines: list[RecordLine] = []
    for item in lines:
        if isinstance(item, RecordLine):
            record_lines.append(item)
        else:
            seat, text, *rest = item
            record_lines.append(RecordLine(0, seat, bool(rest and rest[0]), text))
    return Record(values, record_lines)


def _example_game() -> str:
    """A game's name to show in an example (the first installed)."""
    return next(iter(registry()), "name")
