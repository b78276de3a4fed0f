"""A match ended through the host keeps how it ended as data (its termination and its outcome's
values) beside the sentence the room read: ended by a move, imported, or aborted (no outcome)."""

from __future__ import annotations

from pathlib import Path

from geniusbot.host.imports import import_text
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store

RECORDS = Path(__file__).resolve().parents[1] / "records"


async def test_an_imported_match_keeps_its_outcome_as_data(store: Store):
    imported = await import_text(store, (RECORDS / "tictacfive.txt").read_text(encoding="utf-8"))
    result = (await store.get_match(imported.match_id)).result
    assert (result.winner, result.termination) == ("p1", "line")
    assert result.reason.startswith("p1") and "five in a row" in result.reason


async def test_a_match_won_by_a_move_keeps_the_games_outcome(store: Store):
    host = Host(store, RecordingTransport(), boards=False)
    started = await host.start_match("armslength", players=[Player("p1", 1, "A"), Player("p2", 2, "B")], seed=3)
    assert started.ok and started.match_id is not None
    held = host.held(started.match_id)
    assert held is not None
    game = held.game
    while not game.is_over:
        seat = game.to_move()[0]
        move = next(iter(game.legal_moves(seat)))
        assert (await host.submit(started.match_id, seat, move.text())).ok
        game = (host.held(started.match_id) or held).game
    outcome = game.outcome()
    assert outcome is not None
    result = (await store.get_match(started.match_id)).result
    assert (result.winner, result.reason) == (outcome.winner, outcome.reason)
    assert (result.termination, dict(result.data)) == (str(outcome.termination), dict(outcome.data))


async def test_an_aborted_match_keeps_no_outcome(store: Store):
    host = Host(store, RecordingTransport(), boards=False)
    started = await host.start_match("tictacfive", players=[Player("p1", 1, "A"), Player("p2", 2, "B")])
    assert started.match_id is not None and (await host.command(started.match_id, "abort")).ok
    result = (await store.get_match(started.match_id)).result
    assert (result.winner, result.termination, dict(result.data)) == (None, None, {})
