"""The host and ratings (SQLite and PostgreSQL): a rated match's end moves its players' ratings in
the commit that ends it; a match started unrated, a practice match, an imported record and an
aborted match move nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from geniusbot.host.imports import import_text
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.ratings import Rating, rate_match
from geniusbot.storage import Practice, Store
from tests.host.support import FakeTime

RECORDS = Path(__file__).resolve().parent.parent / "records"
GUILD = 9
ALICE, BOB = Player("p1", 11, "Alice"), Player("p2", 22, "Bob")


@pytest.fixture
def host(store: Store, transport: RecordingTransport, clock: FakeTime) -> Host:
    return Host(store, transport, now=clock, pictures=False)


async def start(host: Host, room: int, players=(ALICE, BOB), **kw) -> int:
    reply = await host.start_match("tictacfive", players=players, seed=5, channel_id=room, guild_id=GUILD, **kw)
    assert reply.ok, reply.message
    assert reply.match_id is not None
    return reply.match_id


async def test_a_rated_match_that_ends_moves_the_ratings_with_its_end(host: Host):
    match_id = await start(host, 700, rated=True)
    assert (await host.store.get_match(match_id)).rated
    assert await host.store.leaderboard(GUILD, "tictacfive", "standard") == ([], 0)  # nothing until it ends
    assert (await host.command(match_id, "resign", seat="p2")).ok
    board, total = await host.store.leaderboard(GUILD, "tictacfive", "standard")
    won, lost = rate_match(Rating(), Rating(), 1.0)
    assert total == 2
    assert [(s.display_name, s.wins, s.losses) for s in board] == [("Alice", 1, 0), ("Bob", 0, 1)]
    assert [s.rating for s in board] == pytest.approx([won.rating, lost.rating])
    # A second rated match, the other way round, rates from the first.
    again = await start(host, 701, rated=True)
    assert (await host.command(again, "resign", seat="p1")).ok
    a2, b2 = rate_match(won, lost, 0.0)
    history = await host.store.rating_history(GUILD, 11)
    assert [p.match_id for p in history] == [match_id, again]
    assert [p.rating for p in history] == pytest.approx([won.rating, a2.rating])
    (bob,) = await host.store.player_ratings(GUILD, 22)
    assert (bob.rating, bob.wins, bob.losses) == (pytest.approx(b2.rating), 1, 1)


async def test_unrated_practice_aborted_and_imported_matches_move_nothing(host: Host):
    unrated = await start(host, 700)  # a host's start is unrated unless it says (/start reads /setup)
    assert not (await host.store.get_match(unrated)).rated
    assert (await host.command(unrated, "resign", seat="p2")).ok
    aborted = await start(host, 701, rated=True)
    assert (await host.command(aborted, "abort")).ok
    bot = Player("p2", None, "bot")
    practice = await start(host, 702, players=(ALICE, bot), rated=True, practice=Practice("p2", "easy"))
    assert not (await host.store.get_match(practice)).rated  # never, whatever the caller asks
    assert (await host.command(practice, "resign", seat="p1")).ok
    text = (RECORDS / "tictacfive.txt").read_text(encoding="utf-8")
    imported = await import_text(host.store, text, guild_id=GUILD, users={"p1": 11, "p2": 22})
    assert not (await host.store.get_match(imported.match_id)).rated
    assert await host.store.leaderboard(GUILD, "tictacfive", "standard") == ([], 0)
    assert (await host.store.counts())["rating_changes"] == 0
    # A host may rate an import: then it counts.
    rated = await import_text(host.store, text, guild_id=GUILD + 1, users={"p1": 11, "p2": 22}, rated=True)
    assert (await host.store.get_match(rated.match_id)).rated
    assert (await host.store.leaderboard(GUILD + 1, "tictacfive", "standard"))[1] == 2
