"""Ratings on SQLite and PostgreSQL: a rated match's end and its players' new ratings land in one
transaction (a failure keeps neither); unrated, aborted and unseated matches move nothing."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import insert, update

from geniusbot.ratings import Rating, rate_match
from geniusbot.storage import NewAction, Practice, Result, SeatInfo, Store, models as m
from tests.storage.test_store import T0, new_match

WIN_P1 = Result("p1", "p1 makes five in a row; p1 wins.", "line")


async def finish(store: Store, match_id: int, result: Result = WIN_P1, *, status: str = "finished") -> None:
    record = await store.get_match(match_id)
    await store.commit_action(match_id, record.version, NewAction("host", "end"), status=status, result=result)


async def test_a_rated_match_moves_both_ratings_as_the_arithmetic_says(store: Store):
    match = await new_match(store, rated=True)
    assert match.rated
    await finish(store, match.id)
    won, lost = rate_match(Rating(), Rating(), 1.0)
    board, total = await store.leaderboard(1, "tictacfive", "standard")
    assert total == 2
    assert [(s.user_id, s.display_name, s.wins, s.losses, s.draws, s.games) for s in board] == [
        (111, "Alice", 1, 0, 0, 1),
        (222, "Bob", 0, 1, 0, 1),
    ]
    assert (board[0].rating, board[0].rd, board[0].volatility) == pytest.approx((won.rating, won.rd, won.volatility))
    assert (board[1].rating, board[1].rd) == pytest.approx((lost.rating, lost.rd))
    assert board[0].provisional and board[1].provisional
    history = await store.rating_history(1, 111)
    assert [(p.match_id, p.before, p.game) for p in history] == [(match.id, 1500.0, "tictacfive")]
    assert history[0].rating == pytest.approx(won.rating)
    assert (await store.first_seat(1, "tictacfive", "standard")).share == 1.0


async def test_the_second_match_rates_from_the_first_and_a_draw_counts_half(store: Store):
    first = await new_match(store, rated=True)
    await finish(store, first.id)
    second = await new_match(store, rated=True, channel_id=11)
    await finish(store, second.id, Result(None, "A draw.", "draw"))
    a1, b1 = rate_match(Rating(), Rating(), 1.0)
    a2, b2 = rate_match(a1, b1, 0.5)
    mine = await store.player_ratings(1, 222)
    assert [(s.game, s.wins, s.losses, s.draws) for s in mine] == [("tictacfive", 0, 1, 1)]
    assert mine[0].rating == pytest.approx(b2.rating) and mine[0].rd == pytest.approx(b2.rd)
    history = await store.rating_history(1, 111)
    assert [p.match_id for p in history] == [first.id, second.id]
    assert [p.rating for p in history] == pytest.approx([a1.rating, a2.rating])
    seat = await store.first_seat(1, "tictacfive", "standard")
    assert (seat.matches, seat.score, seat.share) == (2, 1.5, 0.75)


async def test_unrated_aborted_practice_and_unseated_matches_move_nothing(store: Store):
    unrated = await new_match(store)
    assert not unrated.rated
    await finish(store, unrated.id)
    aborted = await new_match(store, rated=True, channel_id=11)
    await finish(store, aborted.id, Result(None, "aborted by the host"), status="aborted")
    practice = await new_match(store, rated=True, channel_id=12, practice=Practice("p2", "easy"))
    # A practice match's bot seat has no member; the seat without one is never rated.
    await store.commit_action(practice.id, 0, None, status="finished", result=WIN_P1)
    console = await new_match(
        store, rated=True, guild_id=None, channel_id=None, seats=(SeatInfo("p1", "a"), SeatInfo("p2", "b"))
    )
    await finish(store, console.id)
    same = await new_match(
        store, rated=True, channel_id=13, seats=(SeatInfo("p1", "Alice", 111), SeatInfo("p2", "Alice", 111))
    )
    await finish(store, same.id)
    assert await store.leaderboard(1, "tictacfive", "standard") == ([], 0)
    assert (await store.counts())["rating_changes"] == 0


async def test_an_end_committed_again_moves_the_ratings_once(store: Store):
    match = await new_match(store, rated=True)
    await finish(store, match.id)
    await store.commit_action(match.id, (await store.get_match(match.id)).version, None, status="finished")
    board, _ = await store.leaderboard(1, "tictacfive", "standard")
    assert [s.games for s in board] == [1, 1]


async def test_a_failed_rating_keeps_the_match_unended(store: Store):
    """A rating the arithmetic cannot take (a row written wrong by hand: 1e300) makes the end's
    transaction fail; the match stays live at its version, its log without the end, and no rating moves."""
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(m.PlayerRating)
            .values(guild_id=1, game="tictacfive", variant="standard", user_id=222, display_name="Bob")
            .values(rating=1e300, rd=50.0, volatility=0.06, wins=0, losses=0, draws=0, updated_at=T0)
        )
    match = await new_match(store, rated=True)
    with pytest.raises(OverflowError):
        await finish(store, match.id)
    kept = await store.get_match(match.id)
    assert (kept.status, kept.version, kept.result, kept.finished_at) == ("live", 0, None, None)
    assert await store.actions(match.id) == []
    board, total = await store.leaderboard(1, "tictacfive", "standard")
    assert total == 1 and board[0].rating == 1e300 and board[0].games == 0
    assert (await store.counts())["rating_changes"] == 0
    # Mended, the same end lands with its ratings.
    async with store.engine.begin() as conn:
        await conn.execute(update(m.PlayerRating).values(rating=1700.0))
    await finish(store, match.id)
    assert (await store.get_match(match.id)).status == "finished"
    assert [s.games for s in (await store.leaderboard(1, "tictacfive", "standard"))[0]] == [1, 1]


async def test_an_imported_match_is_rated_only_when_the_host_says(store: Store):
    common = dict(
        game="tictacfive",
        variant="standard",
        seed=0,
        options={},
        seats=(SeatInfo("p1", "Alice", 111), SeatInfo("p2", "Bob", 222)),
        state={},
        status="finished",
        actions=[NewAction("move", "H8", "p1")],
        result=Result("p2", "p2 wins.", "line"),
        guild_id=1,
    )
    await store.import_match(digest="a" * 64, **common)
    assert await store.leaderboard(1, "tictacfive", "standard") == ([], 0)
    rated = await store.import_match(digest="b" * 64, rated=True, **common)
    assert (await store.get_match(rated.match_id)).rated
    board, _ = await store.leaderboard(1, "tictacfive", "standard")
    assert [(s.user_id, s.wins) for s in board] == [(222, 1), (111, 0)]


async def test_a_guild_rates_by_default_until_setup_says_otherwise(store: Store):
    assert (await store.get_guild_settings(5)).rated
    assert not (await store.set_guild_settings(5, rated=False)).rated
    assert not (await store.get_guild_settings(5)).rated
    assert (await store.set_guild_settings(5, pings=False)).rated is False


async def test_the_leaderboard_pages_highest_first(store: Store):
    for n in range(5):
        seats = (SeatInfo("p1", f"W{n}", 1000 + n), SeatInfo("p2", f"L{n}", 2000 + n))
        match = await new_match(store, rated=True, channel_id=100 + n, seats=seats)
        await finish(store, match.id)
    page, total = await store.leaderboard(1, "tictacfive", "standard", offset=3, limit=4)
    assert total == 10
    assert [s.display_name for s in page] == ["W3", "W4", "L0", "L1"]
    assert await store.leaderboard(1, "tictacfive", "other") == ([], 0)


@pytest.mark.postgres
async def test_two_ends_at_once_sharing_a_player_both_count_on_postgresql(postgres_db_url: str):
    """Two processes end two rated matches of the same player at the same moment: the rating rows'
    locks order them, so the second rates from the first's result and neither is lost."""
    stores = [await Store.open(postgres_db_url, migrate=False) for _ in range(2)]
    try:
        seats = [(SeatInfo("p1", "Alice", 111), SeatInfo("p2", "Bob", 222))]
        seats.append((SeatInfo("p1", "Carol", 333), SeatInfo("p2", "Alice", 111)))
        matches = [await new_match(stores[0], rated=True, channel_id=20 + i, seats=s) for i, s in enumerate(seats)]
        for _ in range(3):  # three rounds of racing ends, each on fresh matches but the first
            await asyncio.gather(*(finish(store, match.id) for store, match in zip(stores, matches)))
            matches = [
                await new_match(stores[0], rated=True, channel_id=30 + i + 10 * _, seats=s) for i, s in enumerate(seats)
            ]
        (alice,) = [s for s in (await stores[0].leaderboard(1, "tictacfive", "standard"))[0] if s.user_id == 111]
        assert (alice.wins, alice.losses) == (3, 3)
        history = await stores[0].rating_history(1, 111, game=("tictacfive", "standard"))
        assert [p.number for p in history] == [1, 2, 3, 4, 5, 6]
        for earlier, later in zip(history, history[1:]):
            assert later.before == pytest.approx(earlier.rating)  # each rated from the one before
        assert history[-1].rating == pytest.approx(alice.rating)
    finally:
        for store in stores:
            await store.close()
