"""Replays from the log, export to the record format and import back, on both databases."""

from __future__ import annotations

import pytest

from geniusbot.adjudicate import rule_on
from geniusbot.games import load
from geniusbot.host.imports import ImportRefused, import_text
from geniusbot.host.match import Host
from geniusbot.host.replay import export_record, replay_match
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.record import game_from_record, parse_record, read_result

from .sealedbid import registered
from .test_match import T0, FakeTime, fire_due

OPENING = [("p1", "H8"), ("p1", "H9"), ("p1", "H10"), ("p2", "white"), ("p2", "G9"), ("p1", "J8")]


async def played(store, clock, moves=OPENING, **kw):
    host = Host(store, RecordingTransport(), now=clock, pictures=False)
    reply = await host.start_match(
        "tictacfive", players=[Player("p1", 1, "Alice"), Player("p2", 2, "Bob")], seed=3, clock="60s+5m", **kw
    )
    for seat, text in moves:
        clock.advance(7)
        assert (await host.submit(reply.match_id, seat, text)).ok, text
    return host, reply.match_id


async def test_replay_gives_every_state_with_its_clocks(store):
    clock = FakeTime()
    host, match_id = await played(store, clock)
    await host.submit(match_id, "p2", "H8")  # refused: makes no step
    steps = await replay_match(store, match_id)
    assert len(steps) == 1 + len(OPENING)
    assert steps[0].game.view()["stones"] == {} and steps[0].clock.control.spec() == "60s+5m"
    assert [s.action.text for s in steps[1:]] == ["H8", "H9", "H10", "white", "G9", "J8"]
    assert steps[3].game.to_move() == ("p2",)
    assert steps[-1].game == (await host.load(match_id)).game
    assert steps[-1].at.timestamp() == T0 + 7 * len(OPENING)
    assert steps[1].clocks == {"p1": "1:00 +5:00", "p2": "1:00 +5:00"}


async def test_export_is_a_record_the_adjudicator_replays_to_the_same_game(store):
    clock = FakeTime()
    host, match_id = await played(store, clock)
    clock.advance(400)
    await fire_due(host, clock)  # p2's warnings, then its clock runs out
    text = await export_record(store, match_id)
    record = parse_record(text)
    assert record.header("P1") == "Alice" and record.header("TimeControl") == "60s+5m"
    assert record.header("Result") == "p1"
    assert record.lines[0].text == "H8" and record.lines[0].annotations["at"] == "2027-01-15T08:00:07Z"
    assert record.lines[0].annotations["p1"] == "1:00+5:00"
    assert (record.lines[-1].seat, record.lines[-1].text) == ("host", "timeout p2")
    game = game_from_record(record)
    for line in record.lines:
        assert rule_on(game, line) is None, line  # the host's line read as a record's, not split here
    assert game == (await host.load(match_id)).game


async def test_import_stores_the_record_and_replays_the_same(store):
    clock = FakeTime()
    host, match_id = await played(store, clock)
    await host.command(match_id, "resign", seat="p2")
    text = await export_record(store, match_id)
    lines = text.splitlines(keepends=True)
    g9 = next(i for i, line in enumerate(lines) if line.startswith("p2: G9"))
    # With strict, a record with a refused line is refused whole, the refusal quoted; nothing is stored.
    with pytest.raises(ImportRefused) as refused:
        refusing = "".join(lines[: g9 + 1] + ["p2: G9  # a refused line\n"] + lines[g9 + 1 :])
        await import_text(store, refusing, strict=True)
    assert "('p2: G9')" in str(refused.value) and "not your turn" in str(refused.value).lower()
    assert (await store.counts())["matches"] == 1
    new_id = (await import_text(store, text)).match_id
    imported = await store.get_match(new_id)
    assert imported.status == "finished" and imported.result.winner == "p1"
    assert load(imported.state) == (await host.load(match_id)).game
    assert all(a.accepted for a in await store.actions(new_id))
    steps = await replay_match(store, new_id)
    assert steps[-1].game == (await host.load(match_id)).game
    assert steps[1].clocks == {"p1": "1:00+5:00", "p2": "1:00+5:00"}
    assert await export_record(store, new_id) == text.replace(f"match #{match_id}", f"match #{new_id}")


async def test_an_unfinished_import_is_paused_and_can_be_resumed(store):
    clock = FakeTime()
    _, match_id = await played(store, clock, moves=OPENING[:3])
    text = await export_record(store, match_id)
    assert '[Result "*"]' in text.splitlines()  # as the README says of a match still running
    assert read_result(parse_record(text).header("Result")) == "running"
    new_id = (await import_text(store, text)).match_id
    assert (await store.get_match(new_id)).status == "paused"
    host = Host(store, RecordingTransport(), now=clock, pictures=False)
    assert (await host.command(new_id, "resume")).ok
    assert (await host.load(new_id)).clock.deadline("p2") == clock.t + 360
    assert (await host.submit(new_id, "p2", "black")).ok


async def test_private_submissions_export_as_dm_lines(store):
    clock = FakeTime()
    with registered():
        host = Host(store, RecordingTransport(), now=clock, pictures=False)
        match_id = (await host.start_match("sealedbid", clock="30s")).match_id
        await host.submit(match_id, "p1", "bid 4", private=True)
        clock.advance(31)
        await fire_due(host, clock)
        record = parse_record(await export_record(store, match_id))
        assert [(l.seat, l.private, l.text) for l in record.lines] == [
            ("p1", True, "bid 4"),
            ("host", False, "timeout p2"),
        ]
        steps = await replay_match(store, match_id)
        assert steps[-1].game.view()["scores"] == {"p1": 1, "p2": 0}


async def test_a_submission_the_bot_refused_is_a_comment_of_the_export_and_a_note_of_the_replay(store):
    from geniusbot.archive.steps import from_store

    clock = FakeTime()
    host, match_id = await played(store, clock, moves=OPENING[:2])
    refusal = await host.submit(match_id, "p2", "H8")  # not p2's turn: refused, logged
    assert not refusal.ok
    clock.advance(7)
    assert (await host.submit(match_id, "p1", "H10")).ok
    await host.command(match_id, "resign", seat="p2")
    text = await export_record(store, match_id)
    lines = [line for line in text.splitlines() if line and not line.startswith("[")]
    # Where it happened, after H9 and before H10; a comment, since the live rules read it in the room's moment.
    assert lines[2].startswith("# refused: p2: H8 (") and lines[3].startswith("p1: H10 ")
    game = game_from_record(parse_record(text))
    for line in parse_record(text).lines:
        assert rule_on(game, line) is None, line
    steps = await from_store(store, match_id)
    assert [(index, [note.text for note in notes]) for index, notes in steps.refused.items()] == [(2, ["H8"])]
    note = steps.refused[2][0]
    assert note.line is None and note.seat == "p2" and note.shown  # a public move of a game that hides nothing
