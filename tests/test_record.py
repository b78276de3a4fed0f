"""The match record format: parsing, formatting, round trips, every RecordError, game headers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import get_game, new_game, typed
from geniusbot.record import (
    STANDARD_HEADERS,
    Record,
    RecordError,
    RecordLine,
    format_line,
    format_record,
    game_from_record,
    game_options,
    header_to_option,
    option_to_header,
    parse_record,
    read_result,
    record_from_game,
    result_text,
)

SAMPLE = """\
# A match typed by hand.
[Game "armslength"]
[Variant "standard"]   # the only rule set
[Seed "12"]
[Event "Season \\"3\\", DM7A \\\\ room"]

p1: E4
P2 (DM): play 20   {at=2026-11-29T12:00:03Z p1=0:52+5:00 note="two words"}

   # an indented comment
H9
p3: A1
p1:
"""


# --------------------------------------------------------------------------- parsing


def test_headers_are_read_in_order_with_escapes_undone():
    record = parse_record(SAMPLE)
    assert list(record.headers) == ["Game", "Variant", "Seed", "Event"]
    assert record.headers["Event"] == 'Season "3", DM7A \\ room'
    assert record.headers["Variant"] == "standard"
    assert record.header_line("Seed") == 4


def test_submission_lines_keep_seat_privacy_text_annotations_and_line_numbers():
    record = parse_record(SAMPLE)
    assert [(ln.line_no, ln.seat, ln.private, ln.text) for ln in record.lines] == [
        (7, "p1", False, "E4"),
        (8, "p2", True, "play 20"),
        (11, None, False, "H9"),
        (12, "p3", False, "A1"),
        (13, "p1", False, ""),
    ]
    assert record.lines[1].annotations == {"at": "2026-11-29T12:00:03Z", "p1": "0:52+5:00", "note": "two words"}
    assert record.lines[0].annotations == {}


def test_comments_and_blank_lines_are_ignored_and_a_trailing_comment_is_cut():
    record = parse_record('[Game "x"] # about the game\n\n# whole line\np1: H8 # trailing\n')
    assert record.headers == {"Game": "x"}
    assert [(ln.seat, ln.text) for ln in record.lines] == [("p1", "H8")]


def test_a_hash_inside_a_header_value_or_annotation_is_not_a_comment():
    record = parse_record('[Event "Round #3"]\np1: H8 {note="#1" tag=a#b}\n')
    assert record.headers["Event"] == "Round #3"
    assert record.lines[0].annotations == {"note": "#1", "tag": "a#b"}


def test_a_comment_before_a_brace_makes_the_brace_part_of_the_comment():
    record = parse_record("p1: H8 # see {this}\n")
    assert record.lines[0].text == "H8" and record.lines[0].annotations == {}


def test_a_record_without_annotations_is_valid_and_header_lookup_ignores_case():
    record = parse_record('[game "armslength"]\np1: E4\n')
    assert record.header("Game") == "armslength"
    assert record.header("Seed") == "" and record.header("Seed", "0") == "0"


def test_crlf_line_ends_are_read():
    record = parse_record('[Game "x"]\r\np1: H8\r\n')
    assert record.headers == {"Game": "x"} and record.lines[0].text == "H8"


def test_a_byte_order_mark_at_the_start_is_not_text():
    record = parse_record('\ufeff[Game "x"]\np1: H8\n')
    assert record.headers == {"Game": "x"} and record.header_line("Game") == 1


def test_host_and_seat_names_are_lower_cased_but_unknown_seats_are_kept_as_typed():
    record = parse_record("HOST: timeout p1\nAlice: H8\nP1(dm): x\n")
    assert [(ln.seat, ln.private) for ln in record.lines] == [("host", False), ("Alice", False), ("p1", True)]


def test_a_move_line_is_read_in_nfkc_form_and_headers_and_annotations_as_written():
    record = parse_record('[P1 "Ｈａｎａ"]\nｐ１ (ｄｍ)：ｍｉｎｅｓ Ａ１ Ｂ２ {note="Ｈ８"}\np2: Ｈ８\n')
    assert record.headers == {"P1": "Ｈａｎａ"}
    assert [(ln.seat, ln.private, ln.text) for ln in record.lines] == [("p1", True, "mines A1 B2"), ("p2", False, "H8")]
    assert record.lines[0].annotations == {"note": "Ｈ８"}


def test_an_annotation_alone_on_a_line_is_a_line_without_a_seat():
    record = parse_record("{at=1}\n{}\n")
    assert [(ln.seat, ln.text, ln.annotations) for ln in record.lines] == [(None, "", {"at": "1"})]


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "line_no", "words"),
    [
        ("[Game tictacfive]\n", 1, 'written [Name "value"]'),
        ('\n[Game "tictacfive"\n', 2, 'written [Name "value"]'),
        ('[1Game "x"]\n', 1, 'written [Name "value"]'),
        ('[Game "x" "y"]\n', 1, 'written [Name "value"]'),
        ('[Event "The "Genius""]\n', 1, 'write \\" for a quote'),
        ('[Event "C:\\dir"]\n', 1, "unknown escape \\d"),
        ('[Game "x"]\np1: H8\n[Seed "1"]\n', 3, "comes after the moves"),
        ('[Game "x"]\n[game "y"]\n', 2, "given twice (first on line 1)"),
        ("p1: H8 {at=1\n", 1, "not closed"),
        ("p1: H8 {at}\n", 1, "{key=value key=value}"),
        ("p1: H8 {=1}\n", 1, "{key=value key=value}"),
        ("p1: H8 {at=1} H9\n", 1, "'H9' follows the {...} annotation"),
        ("p1: H8 {at=1 at=2}\n", 1, "annotation at is given twice"),
        ('p1: H8 {note="open}\n', 1, "quoted annotation value is not closed"),
        ('p1: H8 {note="a\\x"}\n', 1, 'write \\" for a quote'),
        ('p1: H8 {note=a"b}\n', 1, "put the value in double quotes"),
        ("p1: H8 {note=a{b}\n", 1, "put the value in double quotes"),
    ],
)
def test_every_malformed_header_or_annotation_is_a_record_error_with_its_line(text, line_no, words):
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert caught.value.line_no == line_no
    assert str(caught.value).startswith(f"line {line_no}: ")
    assert words in str(caught.value)


@pytest.mark.parametrize(
    "record",
    [
        Record({"Bad Name": "x"}),
        Record({"Event": "two\nlines"}),
        Record({}, [RecordLine(0, "p1", False, "H8 # not a comment")]),
        Record({}, [RecordLine(0, "p1", False, "H8 {x}")]),
        Record({}, [RecordLine(0, None, False, "p1: H8")]),
        Record({}, [RecordLine(0, None, True, "H8")]),
        Record({}, [RecordLine(0, None, False, "")]),
        Record({}, [RecordLine(0, "p1", False, " H8")]),
        Record({}, [RecordLine(0, "p1", False, "H8", {"bad key": "1"})]),
        Record({}, [RecordLine(0, "p1", False, "H8", {"at": "a\nb"})]),
    ],
)
def test_format_refuses_what_would_not_read_back_the_same(record):
    with pytest.raises(RecordError) as caught:
        format_record(record)
    assert caught.value.line_no is None


# --------------------------------------------------------------------------- formatting and round trips


def test_format_writes_headers_a_blank_line_and_the_lines():
    record = Record(
        {"Game": "armslength", "Event": 'say "hi" \\o/'},
        [
            RecordLine(0, "p1", False, "E4"),
            RecordLine(0, "p2", True, "play 20", {"at": "2026-11-29T12:00:03Z", "note": "two words", "e": ""}),
            RecordLine(0, None, False, "H9"),
            RecordLine(0, "host", False, "timeout p1"),
        ],
    )
    assert format_record(record) == (
        '[Game "armslength"]\n'
        '[Event "say \\"hi\\" \\\\o/"]\n'
        "\n"
        "p1: E4\n"
        'p2 (dm): play 20 {at=2026-11-29T12:00:03Z note="two words" e=""}\n'
        "H9\n"
        "host: timeout p1\n"
    )
    assert parse_record(format_record(record)) == record


def test_format_line_of_an_empty_move():
    assert format_line(RecordLine(0, "p1", False, "")) == "p1:"
    assert parse_record("p1:\n").lines == [RecordLine(1, "p1", False, "")]


def test_the_sample_round_trips_and_its_text_is_a_fixed_point():
    record = parse_record(SAMPLE)
    text = format_record(record)
    assert parse_record(text) == record
    assert format_record(parse_record(text)) == text


def test_line_numbers_are_not_part_of_equality():
    assert RecordLine(3, "p1", False, "H8") == RecordLine(9, "p1", False, "H8")
    assert RecordLine(3, "p1", False, "H8") != RecordLine(3, "p1", True, "H8")


_no_break = st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), max_size=12)
_header_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True)
# A move line is read in NFKC form (Ｈ８ is H8), so the lines drawn are in that form already.
_move_text = (
    st.text(st.characters(blacklist_characters="\n\r#{", blacklist_categories=("Cs",)), max_size=12)
    .map(lambda text: typed(text).strip())
    .filter(lambda text: not set(text) & set("\n\r#{"))
)


@st.composite
def records(draw) -> Record:
    names = draw(st.lists(_header_names, max_size=6, unique_by=str.lower))
    headers = {name: draw(_no_break) for name in names}
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        seat = draw(st.sampled_from(["p1", "p2", "host", "Alice", "", None]))
        text = draw(_move_text)
        if seat is None and (":" in text or not text or text.startswith("[")):
            text = "H8"
        private = seat is not None and draw(st.booleans())
        keys = draw(st.lists(st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,6}", fullmatch=True), max_size=3, unique=True))
        annotations = {key: draw(_no_break) for key in keys}
        lines.append(RecordLine(0, seat, private, text, annotations))
    return Record(headers, lines)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(records())
def test_any_record_round_trips(record):
    text = format_record(record)
    again = parse_record(text)
    assert again == record
    assert format_record(again) == text


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_any_text_parses_or_raises_record_error(text):
    try:
        record = parse_record(text)
    except RecordError as error:
        assert error.line_no is not None and 1 <= error.line_no <= text.count("\n") + 1
        return
    # What parses formats, and reads back the same, unless the text held what the format refuses.
    try:
        written = format_record(record)
    except RecordError:
        return
    assert parse_record(written) == record


# --------------------------------------------------------------------------- headers and games


@pytest.mark.parametrize(
    ("header", "option"),
    [
        ("P1Color", "p1_color"),
        ("Setup", "setup"),
        ("DMO", "dmo"),
        ("Dmo", "dmo"),
        ("TimeControl", "time_control"),
        ("p1_color", "p1_color"),
        ("Board", "board"),
    ],
)
def test_header_names_map_to_snake_case_options(header, option):
    assert header_to_option(header) == option


@pytest.mark.parametrize(("option", "header"), [("p1_color", "P1Color"), ("setup", "Setup"), ("dmo", "DMO")])
def test_options_map_back_to_header_names(option, header):
    assert option_to_header(option) == header
    assert header_to_option(option_to_header(option)) == option


@pytest.mark.parametrize(
    ("value", "meaning"),
    [
        ("p1", "p1"),
        ("P2 wins", "p2"),
        ("1-0", "p1"),
        ("0-1", "p2"),
        ("draw", "draw"),
        ("1/2-1/2", "draw"),
        ("*", "running"),
        ("", None),
        ("maybe", None),
    ],
)
def test_result_header_values(value, meaning):
    assert read_result(value) == meaning


def test_result_text_of_outcomes():
    game = new_game("armslength", setup="red A1; blue H8")
    assert result_text(game.outcome()) == "*"
    game.resign("p1")
    assert result_text(game.outcome()) == "p2"


def _armslength(headers: str) -> str:
    return '[Game "armslength"]\n' + headers + "\np1: E4\n"


def test_headers_the_game_lists_become_options_and_metadata_is_kept_but_not_passed():
    record = parse_record(
        _armslength(
            '[Seed "5"]\n[Variant ""]\n[Setup "red C3 F6; blue F3 C6"]\n[P1Color "blue"]\n'
            '[P1 "Alice"]\n[P2 "Bob"]\n[Result ""]\n[Date "2026-11-29"]\n[Event "S1"]\n[Site "Discord"]\n'
            '[Round "7"]\n[Annotator "Eve"]\n[TimeControl "60s+5m"]\n[DMO ""]'
        )
    )
    cls, kwargs = game_options(record)
    assert cls is get_game("armslength")
    assert kwargs == {"seed": 5, "variant": None, "setup": "red C3 F6; blue F3 C6", "p1_color": "blue"}
    game = game_from_record(record)
    assert game == new_game("armslength", seed=5, setup="red C3 F6; blue F3 C6", p1_color="blue")
    assert record.headers["P1"] == "Alice"


def test_missing_seed_means_seed_zero_and_the_dmo_header_reaches_the_game():
    game = game_from_record(parse_record(_armslength('[DMO "p2"]')))
    assert game.seed == 0 and game.to_move() == ("p2",)


def test_a_game_that_takes_no_setup_keeps_an_empty_or_filled_setup_header_as_metadata():
    # Setup and P1Color are standard headers: a game without such options ignores them.
    cls, kwargs = game_options(parse_record('[Game "armslength"]\n[Setup ""]\n[P1Color ""]\n'))
    assert kwargs == {"seed": 0, "variant": None}


@pytest.mark.parametrize(
    ("headers", "line_no", "words"),
    [
        ("", None, 'no [Game "..."] header'),
        ('[Game ""]', None, 'no [Game "..."] header'),
        ('[Game "chess"]', 1, "There is no game called 'chess'"),
        ('[Game "armslength"]\n[Seed "twelve"]', 2, "[Seed] must be a whole number"),
        ('[Game "armslength"]\n[Board "big"]', 2, "Arm's Length takes no header [Board]"),
        ('[Game "armslength"]\n[Variant "blitz"]', 2, "no rule set 'blitz'"),
        ('[Game "armslength"]\n[Setup "red Z9"]', 2, "the headers describe no game that can start"),
        ('[Game "armslength"]\n[P1Color "green"]', 2, "red or blue"),
    ],
)
def test_headers_that_describe_no_game_are_record_errors(headers, line_no, words):
    with pytest.raises(RecordError) as caught:
        game_from_record(parse_record(headers + "\n"))
    assert caught.value.line_no == line_no
    assert words in str(caught.value)


def test_an_empty_header_the_game_does_not_take_is_ignored():
    game = game_from_record(parse_record('[Game "armslength"]\n[Board ""]\n'))
    assert game.name == "armslength"


def test_record_from_game_writes_the_standard_headers_then_options_then_extras():
    game = new_game("armslength", seed=9, setup="red C3; blue F6", dmo="p1")
    record = record_from_game(
        game, [("p1", "red first"), ("p1", "E4"), ("p2", "x", True)], headers={"p1": "Alice", "Date": "2026-11-29"}
    )
    assert list(record.headers)[: len(STANDARD_HEADERS)] == list(STANDARD_HEADERS)
    assert record.headers["Game"] == "armslength" and record.headers["Seed"] == "9"
    assert record.headers["Setup"] == "red C3; blue F6" and record.headers["DMO"] == "p1"
    assert record.headers["P1"] == "Alice" and record.headers["Date"] == "2026-11-29"
    assert record.headers["Result"] == "*" and record.headers["P1Color"] == ""
    assert record.lines[2] == RecordLine(0, "p2", True, "x")
    again = parse_record(format_record(record))
    assert again == record
    assert game_from_record(again) == new_game("armslength", seed=9, setup="red C3; blue F6", dmo="p1")


def test_a_record_of_threads_of_fate_by_name_plays_the_fate_rule_set():
    from geniusbot.record import game_from_record, parse_record

    record = parse_record('[Game "Threads of Fate"]\n[Seed "3"]\n')
    assert game_from_record(record).variant == "fate"


# --------------------------------------------------------------------------- byte-order marks

BOM = "\ufeff"
_with_bom = st.text(st.sampled_from([BOM, "a", " ", '"', "\\", "=", "}", ":", "p", "1"]), max_size=8)


@st.composite
def records_with_byte_order_marks(draw) -> Record:
    """Records with U+FEFF anywhere in their values: header values, seats, moves, annotations."""
    names = draw(st.lists(_header_names, max_size=2, unique_by=str.lower))
    headers = {name: draw(_with_bom) for name in names}
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        seat = draw(st.sampled_from(["p1", "host", BOM, f"{BOM}p1", f"p{BOM}1", f"Al{BOM}ice", None]))
        text = draw(_with_bom.map(lambda t: t.replace(":", "").replace("}", "").strip()))
        if seat is None and not text:
            text = f"{BOM}H8"
        private = seat is not None and draw(st.booleans())
        annotations = {"at": draw(_with_bom)} if draw(st.booleans()) else {}
        lines.append(RecordLine(0, seat, private, text, annotations))
    return Record(headers, lines)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(records_with_byte_order_marks())
def test_a_record_with_byte_order_marks_in_its_values_round_trips(record):
    # A byte-order mark is text wherever it stands but at the very start of the file: a record
    # whose text would begin with one is written with one more, which the reader drops.
    try:
        text = format_record(record)
    except RecordError:
        return  # a line the format cannot carry (the same with or without the marks)
    assert parse_record(text) == record
    if not text.startswith(BOM):
        assert parse_record(BOM + text) == record  # an editor's own mark in front changes nothing


def test_a_record_that_begins_with_a_byte_order_mark_in_its_first_line_reads_back_the_same():
    record = Record({}, [RecordLine(0, None, False, f"{BOM}H8"), RecordLine(0, f"{BOM}p1", False, "x")])
    text = format_record(record)
    assert text.startswith(BOM + BOM)
    assert parse_record(text) == record
