"""Imports (archive issue, item 1): a record whose every line is accepted becomes an archived match,
finished or paused; replays and exports work on it; a refused line stores nothing; the same
record twice is recognised; a paused import is resumed by a host and played on. On both databases."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from geniusbot.adjudicate import adjudicate_text
from geniusbot.host.imports import ImportRefused, decode_record, import_text, prepare
from geniusbot.host.match import Host
from geniusbot.host.replay import export_record, replay_match
from geniusbot.host.transport import RecordingTransport
from geniusbot.record import RecordError, parse_record, read_result
from geniusbot.record.file import MAX_RECORD_BYTES
from geniusbot.storage import MatchStatus

from .test_match import FakeTime

RECORDS = Path(__file__).resolve().parent.parent / "records"
WHOLE = sorted(p.name for p in RECORDS.glob("*.txt") if p.stem.rsplit("-", 1)[-1] not in ("unfinished", "refused"))


def moves(text: str) -> list[tuple[str | None, bool, str]]:
    return [(line.seat, line.private, line.text) for line in parse_record(text).lines]


def test_there_is_a_whole_record_of_every_example():
    examples = Path(__file__).resolve().parents[2] / "geniusbot" / "examples"
    assert sorted(p.name for p in examples.glob("*.txt")) == WHOLE


@pytest.mark.parametrize("name", WHOLE)
async def test_a_whole_record_becomes_a_finished_match_that_replays_and_exports_the_same(store, name):
    text = (RECORDS / name).read_text(encoding="utf-8")
    ruling = adjudicate_text(text)
    done = await import_text(store, text, guild_id=7)
    assert done.created
    match = await store.get_match(done.match_id)
    assert match.status == MatchStatus.FINISHED and match.guild_id == 7 and match.channel_id is None
    assert match.result.winner == ruling.outcome.winner and match.result.reason == ruling.outcome.reason
    record = parse_record(text)
    assert {s.seat: s.display_name for s in match.seats} == {"p1": record.header("P1"), "p2": record.header("P2")}
    steps = await replay_match(store, done.match_id)
    assert steps[-1].game == ruling.game
    exported = await export_record(store, done.match_id)
    assert moves(exported) == moves(text)
    assert read_result(parse_record(exported).header("Result")) == read_result(record.header("Result"))
    assert adjudicate_text(exported).outcome == ruling.outcome


async def test_the_same_record_twice_is_recognised_and_stored_once(store):
    text = (RECORDS / "tictacfive.txt").read_text(encoding="utf-8")
    first = await import_text(store, text, guild_id=7)
    # Spacing, comments and annotations do not make another record.
    again = await import_text(
        store, "# typed again\n" + text.replace("p1: H8", "p1:   H8   {at=2026-11-29T12:00:00Z}"), guild_id=7
    )
    assert (again.created, again.match_id) == (False, first.match_id)
    assert again.summary("") == f"This record was already imported as match #{first.match_id}; nothing was stored."
    # The record exported from the imported match is that same record.
    exported = await export_record(store, first.match_id)
    assert (await import_text(store, exported, guild_id=7)).match_id == first.match_id
    counts = await store.counts()
    assert counts["matches"] == 1 and counts["imported_records"] == 1
    # Another server, or the console, has its own archive.
    elsewhere = await import_text(store, text, guild_id=8)
    assert elsewhere.created and elsewhere.match_id != first.match_id


async def test_strict_a_record_with_a_refused_line_is_not_stored_and_the_first_refusal_is_quoted(store):
    text = (RECORDS / "tictacfive-refused.txt").read_text(encoding="utf-8")
    with pytest.raises(ImportRefused) as refused:
        await import_text(store, text, guild_id=7, strict=True)
    assert str(refused.value) == (
        "Line 14 is refused ('p2: F9'): It is not your turn; waiting for p1. "
        "Nothing was imported; correct or remove that line and import the record again."
    )
    # The shipped examples show refusals: the first one is quoted.
    example = (Path(__file__).resolve().parents[2] / "geniusbot" / "examples" / "tictacfive.txt").read_text()
    with pytest.raises(ImportRefused, match=r"^Line 27 is refused \('p1: J8'\)"):
        prepare(example, strict=True)
    assert (await store.counts())["matches"] == 0


async def test_a_refused_line_is_kept_where_it_happened_as_the_bot_keeps_a_refused_submission(store):
    text = (RECORDS / "tictacfive-refused.txt").read_text(encoding="utf-8")
    done = await import_text(store, text, guild_id=7)
    assert done.created and done.summary("/resume").endswith(
        "1 refused line is kept where it happened, as refused (line 14)."
    )
    log = await store.actions(done.match_id)
    refused = [a for a in log if not a.accepted]
    assert [(a.seq, a.line, a.seat, a.text, a.error) for a in refused] == [
        (9, 14, "p2", "F9", "It is not your turn; waiting for p1.")
    ]
    # Where it happened: after the seventh move (the start is seq 1), before the eighth.
    assert [a.text for a in log[7:10]] == ["G9", "F9", "J9"] and log[7].accepted and log[9].accepted
    match = await store.get_match(done.match_id)
    assert match.version == len(log) - 1 and match.last_seq == len(log)
    assert (await store.actions(done.match_id, accepted_only=True))[-1].text == "J9"
    # The export writes it where it stood, with its reason; read again, it is the same match.
    exported = await export_record(store, done.match_id)
    assert "p2: F9 {at=" in exported and "}  # refused: It is not your turn; waiting for p1.\n" in exported
    assert moves(exported) == moves(text)
    assert (await import_text(store, exported, guild_id=7)).match_id == done.match_id


async def test_a_record_that_stops_before_the_end_is_paused_and_a_host_resumes_it(store):
    text = (RECORDS / "tictacfive-unfinished.txt").read_text(encoding="utf-8")
    done = await import_text(store, text, users={"p1": 11, "p2": 12}, guild_id=7, channel_id=70)
    match = await store.get_match(done.match_id)
    assert match.status == MatchStatus.PAUSED and match.result is None and match.channel_id == 70
    assert [s.user_id for s in match.seats] == [11, 12]
    assert "the match is paused; /resume to play on" in done.summary("/resume")
    clock = FakeTime()
    host = Host(store, RecordingTransport(), now=clock, pictures=False)
    assert (await host.command(done.match_id, "resume")).ok
    # The record's TimeControl, with fresh clocks from the resumption.
    assert (await host.load(done.match_id)).clock.deadline("p1") == clock.t + 360
    assert (await host.submit(done.match_id, "p2", "F9")).status.name == "REJECTED"  # p1 is to move
    assert (await host.submit(done.match_id, "p1", "J9")).ok
    assert (await host.submit(done.match_id, "p2", "F9")).ok
    exported = await export_record(store, done.match_id)
    assert moves(exported) == [*moves(text), ("p1", False, "J9"), ("p2", False, "F9")]


async def test_a_record_that_cannot_be_read_stores_nothing(store):
    with pytest.raises(RecordError, match="There is no game called .parcheesi."):
        await import_text(store, '[Game "parcheesi"]\np1: e4\n')
    with pytest.raises(ImportRefused, match="is not UTF-8 text"):
        decode_record("p1: H8 \u00e9".encode("latin-1"))
    with pytest.raises(ImportRefused, match="may be at most 1024 KiB"):
        decode_record(b"#" * (MAX_RECORD_BYTES + 1))
    assert (await store.counts())["matches"] == 0


async def test_two_imports_of_one_record_at_once_store_one_match(store):
    text = (RECORDS / "tiles.txt").read_text(encoding="utf-8")
    done = await asyncio.gather(*(import_text(store, text, guild_id=7) for _ in range(3)))
    assert len({d.match_id for d in done}) == 1 and sorted(d.created for d in done) == [False, False, True]
    counts = await store.counts()
    assert counts["matches"] == 1 and counts["imported_records"] == 1


def test_a_long_refused_line_is_quoted_cut_short():
    text = (RECORDS / "tictacfive-refused.txt").read_text(encoding="utf-8")
    with pytest.raises(ImportRefused) as refused:
        prepare(text.replace("p2: F9", "p2: " + "F9" * 500), strict=True)
    quoted = str(refused.value).split("'")[1]
    assert len(quoted) == 120 and quoted.startswith("p2: F9F9") and quoted.endswith("\u2026")


async def test_a_time_control_the_clock_cannot_read_gives_a_note_and_the_games_own(store):
    done = await import_text(store, (RECORDS / "threadsoffate.txt").read_text(encoding="utf-8"))
    assert done.summary("").endswith(
        "Note: The TimeControl header '90 s a move, then 5 min reserve in 10 s blocks' is not a time control "
        f"the bot reads (such as 60s+5m); the match keeps the game's own, {done.prepared.control.spec()}."
    )
    # A paused record imported again is not pointed to /replay, which shows only ended matches.
    text = (RECORDS / "tictacfive-unfinished.txt").read_text(encoding="utf-8")
    await import_text(store, text)
    again = await import_text(store, text)
    assert again.summary("", "/replay it") == (
        f"This record was already imported as match #{again.match_id}; nothing was stored."
    )
