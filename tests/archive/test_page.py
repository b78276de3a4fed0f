"""The replay page as HTML text (no browser): one entry per step, every text escaped, nothing
loaded from anywhere, the public board of each step, and the command that writes it."""

from __future__ import annotations

import base64
import io
import json
import math
import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from geniusbot.archive import page
from geniusbot.archive.page import html_command, replay_page
from geniusbot.archive.page_steps import PageStep, record_steps
from geniusbot.host import board
from geniusbot.host.imports import import_text
from geniusbot.record import parse_record
from geniusbot.storage import ActionKind, NewAction, Store
from tests.host.sealedbid import registered

EXAMPLES = Path(__file__).resolve().parents[2] / "geniusbot" / "examples"
#: The examples without the lines they show refused: records that import whole.
WHOLE = EXAMPLES.parents[1] / "tests" / "records"


def example(name: str) -> str:
    return (EXAMPLES / f"{name}.txt").read_text(encoding="utf-8")


async def imported(store: Store, name: str, *refused: tuple[str, str]) -> int:
    """The match the whole record ``name`` becomes, with ``refused`` (seat, text) submissions
    logged as refused after it, as the host logs them: a refused submission makes no step."""
    match_id = (await import_text(store, (WHOLE / name).read_text(encoding="utf-8"))).match_id
    for seat, text in refused:
        await store.append_rejected(match_id, NewAction(ActionKind.MOVE, text, seat), "refused")
    return match_id


class Page(HTMLParser):
    """What a test reads of a page: the move list's entries (each its link's text), the refused
    lines under them (by step), every src/href, the JSON data."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.entries: list[str] = []
        self.links: list[str] = []
        self.scripts: dict[str, str] = {}
        self.refused: dict[int, list[str]] = {}
        self._entry: list[str] | None = None
        self._refused: list[str] | None = None
        self._script: str | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in ("src", "href", "action", "data", "poster"):
            if found.get(name) is not None:
                self.links.append(str(found[name]))
        if tag == "a" and found.get("data-step") is not None:
            self._entry = []
        if tag == "p" and found.get("class") == "refused":
            self._refused = []
        if tag == "script":
            self._script = found.get("id") or ""
            self.scripts[self._script] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._entry is not None:
            self.entries.append("".join(self._entry).strip())
            self._entry = None
        if tag == "p" and self._refused is not None:
            self.refused.setdefault(len(self.entries) - 1, []).append("".join(self._refused))
            self._refused = None
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._entry is not None:
            self._entry.append(data)
        if self._refused is not None:
            self._refused.append(data)
        if self._script is not None:
            self.scripts[self._script] += data

    def data(self, name: str) -> list[dict]:
        return json.loads(self.scripts[name])


def test_a_page_has_one_move_list_entry_per_step_in_order_and_the_result() -> None:
    match = record_steps(parse_record(example("tictacfive")))
    text = replay_page(match.steps, title=match.title, result=match.result, names=match.names)
    read = Page(text)
    # The start and one step per accepted line: the record's two refused lines make none.
    assert len(match.steps) == 19
    assert read.entries[0] == "0. the start"
    assert read.entries[1] == "1. Hyunmin (p1): H8"
    assert read.entries[4] == "4. Dongmin (p2): white"
    assert len(read.entries) == len(read.data("steps")) == len(match.steps)
    assert "Result: " in text and "Hyunmin" in match.result
    assert "<title>Tic-Tac-Five: Hyunmin vs Dongmin" in text


def test_each_step_shows_the_picture_of_its_public_view() -> None:
    record = parse_record(example("tiles"))
    match = record_steps(record)
    read = Page(replay_page(match.steps, title=match.title, result=match.result, names=match.names))
    frames, steps = read.data("frames"), read.data("steps")
    # Played again by hand: the picture of step 3 is the public view after three accepted lines.
    from geniusbot.adjudicate import rule_on
    from geniusbot.record import game_from_record

    game = game_from_record(record)
    accepted = 0
    for line in record.lines:
        if rule_on(game, line) is None:
            accepted += 1
        if accepted == 3:
            break
    expected = board.picture(game.view(None), players=match.names)
    assert expected is not None
    shown = frames[steps[3]["f"]]["png"]
    assert shown.startswith("data:image/png;base64,")
    with Image.open(io.BytesIO(base64.b64decode(shown.split(",", 1)[1]))) as image:
        assert image.tobytes() == Image.open(io.BytesIO(expected)).convert(image.mode).tobytes()


def test_a_board_is_compacted_pixel_for_pixel() -> None:
    match = record_steps(parse_record(example("tictacfive")))
    picture = match.steps[5].picture
    assert picture is not None
    # The room's picture of the same view, as the host encodes it for a message (zlib level 2).
    from geniusbot.adjudicate import rule_on
    from geniusbot.record import game_from_record

    record = parse_record(example("tictacfive"))
    game = game_from_record(record)
    accepted = 0
    for line in record.lines:
        accepted += rule_on(game, line) is None
        if accepted == 5:
            break
    room = board.picture(game.view(None), players=match.names)
    assert room is not None
    assert len(picture) < len(room) * 0.8
    with Image.open(io.BytesIO(room)) as original, Image.open(io.BytesIO(picture)) as smaller:
        assert original.size == smaller.size
        assert original.convert("RGB").tobytes() == smaller.convert("RGB").tobytes()


def test_a_private_submission_is_listed_as_sent_never_with_its_text() -> None:
    match = record_steps(parse_record(example("tiles")))
    text = replay_page(match.steps, title=match.title, result=match.result, names=match.names)
    read = Page(text)
    assert "2. Eunji (p1) sent a private submission" in read.entries
    assert "3. Doyoon (p2) sent a private submission" in read.entries
    # The mines went by direct message: neither player's tiles are anywhere in the page.
    assert "A1 C6 E2 F5 G7" not in text and "B3 D5 E6 F2 G1" not in text
    assert all(not s.text for s in match.steps if s.private)


def test_a_game_without_a_picture_shows_its_public_text_board() -> None:
    record = '[Game "sealedbid"]\n[Seed "1"]\n[P1 "Ann"]\n[P2 "Bo"]\np1 (dm): bid 7\np2 (dm): bid 3\n'
    with registered():
        match = record_steps(parse_record(record))
        read = Page(replay_page(match.steps, title=match.title, result=match.result, names=match.names))
    frames, steps = read.data("frames"), read.data("steps")
    assert all("png" not in frame for frame in frames)
    after_one = frames[steps[1]["f"]]["text"]
    assert "bid in: p1" in after_one and "7" not in after_one  # the bid is sealed until both are in
    assert '<pre id="board-text">' in replay_page(match.steps, title="t", result="r")


def test_every_text_is_escaped_and_no_script_can_be_closed_early() -> None:
    hostile = '<script>alert("x")</script> & </script><img src=https://evil.example/x.png>'
    record = example("tictacfive").replace('[P1 "Hyunmin"]', f'[P1 "{hostile.replace(chr(34), chr(92) + chr(34))}"]')
    match = record_steps(parse_record(record))
    assert match.names["p1"] == hostile
    text = replay_page(match.steps, title=f"Title {hostile}", result=match.result, names=match.names)
    assert "<script>alert" not in text and "<img src=https" not in text
    assert text.count("</script>") == 3  # the page's own three scripts, none closed by a name
    read = Page(text)
    assert read.entries[1] == f"1. {hostile} (p1): H8"
    assert read.data("steps")[1]["t"] == f"{hostile} (p1): H8"


@pytest.mark.parametrize("name", ["tictacfive", "tiles", "decks"])
def test_the_page_loads_nothing_from_anywhere(name: str) -> None:
    match = record_steps(parse_record(example(name)))
    text = replay_page(match.steps, title=match.title, result=match.result, names=match.names)
    assert not re.search(r"https?://", text)
    assert Page(text).links and all(link.startswith(("data:", "#")) for link in Page(text).links)
    assert "default-src 'none'" in text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text


def test_a_board_two_steps_share_is_in_the_page_once() -> None:
    picture = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    )
    steps = [
        PageStep(0, None, "", False, picture, ""),
        PageStep(1, "p1", "", True, picture, ""),
        PageStep(2, "p2", "", True, picture + b"x", ""),
    ]
    read = Page(replay_page(steps, title="t", result="r"))
    assert len(read.data("frames")) == 2
    assert [s["f"] for s in read.data("steps")] == [0, 0, 1]


def test_the_clocks_of_each_step_are_on_the_page() -> None:
    record = (EXAMPLES.parents[1] / "tests" / "records" / "tictacfive-unfinished.txt").read_text(encoding="utf-8")
    match = record_steps(parse_record(record))
    steps = Page(replay_page(match.steps, title=match.title, result=match.result, names=match.names)).data("steps")
    assert any(s["c"].startswith("Clocks: ") and "0:41+5:00" in s["c"] for s in steps)
    assert steps[0]["c"] == ""
    assert match.result == "The game has not ended."


@pytest.mark.slow
def test_the_command_writes_the_page_of_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "page.html"
    assert page.main([str(EXAMPLES / "tictacfive.txt"), "--html", str(out)]) == 0
    assert len(Page(out.read_text(encoding="utf-8")).entries) == 19
    assert f"Wrote {out}" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["missing.txt"], "cannot read 'missing.txt'"),
        ([], "give a record FILE, or --match N"),
        (["--match", "1"], "--match needs --db URL"),
        (["--match", "1", "--db", "nowhere.sqlite3"], "there is no database file"),
    ],
)
def test_the_command_says_what_is_wrong_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], said: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert page.main([*argv, "--html", "out.html"]) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "out.html").exists()


@pytest.mark.slow
async def test_the_page_of_a_stored_match_and_a_refusal_for_one_still_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'archive.sqlite3'}"
    store = await Store.open(url)
    try:
        finished = await imported(store, "tictacfive.txt", ("p1", "J8"), ("p2", "M8"))
        paused = await imported(store, "tictacfive-unfinished.txt")
    finally:
        await store.close()
    out = tmp_path / "match.html"
    args = page.build_parser().parse_args(["--match", str(finished), "--db", url, "--html", str(out)])
    assert await html_command(args) == 0
    read = Page(out.read_text(encoding="utf-8"))
    assert len(read.entries) == 19 and read.entries[1] == "1. Hyunmin (p1): H8"
    assert f"<title>Match #{finished}, Tic-Tac-Five: Hyunmin vs Dongmin</title>" in out.read_text(encoding="utf-8")

    args = page.build_parser().parse_args(["--match", str(paused), "--db", url, "--html", str(tmp_path / "no.html")])
    assert await html_command(args) == 2
    assert f"Match #{paused} is still being played" in capsys.readouterr().err
    assert not (tmp_path / "no.html").exists()
    # A stored match with private submissions: listed as sent, their text nowhere in the page.
    store = await Store.open(url)
    try:
        hidden = await imported(store, "tiles.txt", ("p1", "mines A1 C6 E2 F5 G7"))
    finally:
        await store.close()
    args = page.build_parser().parse_args(["--match", str(hidden), "--db", url, "--html", str(out)])
    assert await html_command(args) == 0
    text = out.read_text(encoding="utf-8")
    assert "2. Eunji (p1) sent a private submission" in Page(text).entries
    assert "A1 C6 E2 F5 G7" not in text and "B3 D5 E6 F2 G1" not in text

    args = page.build_parser().parse_args(["--match", "99", "--db", url, "--html", str(tmp_path / "no.html")])
    assert await html_command(args) == 2
    assert "there is no match #99" in capsys.readouterr().err


def test_the_result_is_not_on_the_page_before_the_last_step() -> None:
    match = record_steps(parse_record(example("tictacfive")))
    text = replay_page(match.steps, title=match.title, result=match.result, names=match.names)
    # The page opens at step 0: its result line is empty; the result rides with the last step.
    assert '<p id="result" hidden></p>' in text
    body = text.split('<script type="application/json"', 1)[0]
    assert match.result not in body and "Result:" not in body
    steps = Page(text).data("steps")
    assert steps[-1]["r"] == match.result and all("r" not in step for step in steps[:-1])


def test_a_board_keeps_a_least_scale_so_its_text_stays_readable() -> None:
    match = record_steps(parse_record(example("allhands")))
    text = replay_page(match.steps, title=match.title, result=match.result, names=match.names)
    frames = Page(text).data("frames")
    assert all(
        frame["h"] == Image.open(io.BytesIO(base64.b64decode(frame["png"].split(",", 1)[1]))).height
        for frame in frames[:3]
    )
    height = frames[0]["h"]
    assert f'style="max-height:max(80vh, {math.ceil(height * page.MIN_SCALE)}px)"' in text


@pytest.mark.slow
async def test_the_page_of_a_practice_match_says_it_was_one(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'archive.sqlite3'}"
    store = await Store.open(url)
    try:
        number = await imported(store, "tictacfive.txt")
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "archive.sqlite3") as db:  # as /practice stores it
        db.execute("update matches set practice_seat = 'p2', practice_level = 'normal' where id = ?", (number,))
    out = tmp_path / "match.html"
    args = page.build_parser().parse_args(["--match", str(number), "--db", url, "--html", str(out)])
    assert await html_command(args) == 0
    assert (
        f"<title>Match #{number}, Tic-Tac-Five, practice (bot at normal): Hyunmin vs Dongmin</title>"
        in out.read_text(encoding="utf-8")
    )


def test_a_match_too_long_for_a_picture_of_every_step_shows_its_text_boards_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from geniusbot.archive import page_steps

    from .longrecord import long_record

    record = parse_record(long_record(30))
    monkeypatch.setattr(page_steps, "PICTURE_STEPS", 32)  # 30 moves, the resignation, the start
    assert all(step.picture is not None for step in record_steps(record).steps)
    monkeypatch.setattr(page_steps, "PICTURE_STEPS", 31)
    match = record_steps(record)
    assert len(match.steps) == 32
    assert all(step.picture is None and step.board for step in match.steps)
    assert "too long for a picture of every step" in match.note and "up to 31 steps" in match.note
    text = page.page_of(match)
    read = Page(text)
    frames, steps = read.data("frames"), read.data("steps")
    assert all("png" not in frame for frame in frames)
    assert frames[steps[5]["f"]]["text"] == match.steps[5].board
    assert '<p id="note">This match is too long' in text
    assert "Step 0 of 31" in text and len(read.entries) == 32


@pytest.mark.slow
def test_the_page_of_a_40000_move_record_is_written_well_within_a_minute(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each board was drawn and compacted (some 40 ms a step): 2,000 moves took 65 s, 40,000 would
    # have taken half an hour for a page of 700 MB. A bound, not a measure (bench/bench_replay.py).
    import time

    from .longrecord import long_record

    path = tmp_path / "long.txt"
    path.write_text(long_record(40_000), encoding="utf-8")
    out = tmp_path / "long.html"
    started = time.monotonic()
    assert page.main([str(path), "--html", str(out)]) == 0
    assert time.monotonic() - started < 60
    said = capsys.readouterr().out
    assert "40002 steps" in said and "text boards" in said
    text = out.read_text(encoding="utf-8")
    assert len(text) < 20_000_000
    read = Page(text)
    assert len(read.entries) == 40_002 and read.entries[-1] == "40001. host: resign p2"
    assert read.data("steps")[-1]["r"] == "Result: bob resigned; alice wins."


async def test_a_stored_match_page_shows_every_step_as_its_replay_does(tmp_path: Path) -> None:
    # The page plays the log through once; /replay rebuilds each step from a snapshot. Past two
    # snapshots (every 64 steps), each step is the same: its text, its clocks, its board.
    from geniusbot.archive.page_steps import match_steps
    from geniusbot.host.replay import open_replay, record_line
    from tests.host.longmatch import store_long_match

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'archive.sqlite3'}")
    try:
        number = await store_long_match(store, 150)
        match = await match_steps(store, number)
        replay = await open_replay(store, number)
    finally:
        await store.close()
    assert len(match.steps) == len(replay) == 152 and not match.note
    names = dict(match.names)
    for n, shown in enumerate(match.steps):
        step = replay.step(n)
        assert shown.index == n and shown.clocks == step.clocks
        if step.action is not None:  # as a record writes it: "host: resign p2"
            line = record_line(step.action, {})
            assert (shown.seat, shown.text) == (line.seat, line.text)
        expected = board.picture(step.game.view(None), players=names)
        assert expected is not None and shown.picture is not None
        with Image.open(io.BytesIO(shown.picture)) as drawn, Image.open(io.BytesIO(expected)) as room:
            assert drawn.tobytes() == room.convert(drawn.mode).tobytes()
    assert match.steps[-1].text == "resign p2" and match.result == "Result: bob resigned; alice wins."
