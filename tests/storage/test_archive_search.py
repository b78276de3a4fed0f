"""The archive's search (``geniusbot.storage.archive``) on both databases: each filter (player by
user id and by name, game, rule set, date range, result, tournament), all at once, and pages
newest first; and the indexes it relies on are there (revision 0014)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import inspect

from geniusbot.storage import ActionKind, MatchStatus, NewAction, Result, SeatInfo, Store
from geniusbot.storage.archive import ArchiveQuery, find_matches, player_of

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
GUILD = 7

#: (game, variant, p1, p2, winner or "draw"/"aborted", days after T0, event)
MATCHES = [
    ("tictacfive", "standard", "alice", "bob", "p1", 0, None),
    ("tictacfive", "standard", "bob", "carol", "p2", 1, "Spring Cup"),
    ("tightwire", "influx", "alice", "carol", "draw", 2, "Spring Cup"),
    ("tightwire", "classic", "dave", "alice", "p2", 40, None),
    ("tiles", "standard", "carol", "dave", "aborted", 41, None),
    ("tictacfive", "standard", "alice", "dave", "p1", 70, None),
]


async def archive(db_url: str) -> tuple[Store, list[int]]:
    moment = [T0]
    store = await Store.open(db_url, migrate=False, now=lambda: moment[0])
    ids = []
    users = {"alice": 101, "bob": 102, "carol": 103, "dave": 104}
    for n, (game, variant, p1, p2, result, days, event) in enumerate(MATCHES):
        moment[0] = T0 + timedelta(days=days)
        status = MatchStatus.ABORTED if result == "aborted" else MatchStatus.FINISHED
        winner = result if result in ("p1", "p2") else None
        done = await store.import_match(
            digest=f"d{n}",
            game=game,
            variant=variant,
            seed=n,
            options={},
            seats=[SeatInfo("p1", p1, users[p1]), SeatInfo("p2", p2, users[p2])],
            state={},
            status=status,
            actions=[NewAction(ActionKind.START, "start")],
            result=None if status == MatchStatus.ABORTED else Result(winner, "over", "other"),
            host={"imported": True, **({"event": event} if event else {})},
            guild_id=GUILD,
        )
        ids.append(done.match_id)
    # Another server's match and a console match never show in this server's archive.
    await store.import_match(
        digest="elsewhere",
        game="tictacfive",
        variant="standard",
        seed=9,
        options={},
        seats=[SeatInfo("p1", "alice", 101), SeatInfo("p2", "bob", 102)],
        state={},
        status=MatchStatus.FINISHED,
        actions=[NewAction(ActionKind.START, "start")],
        result=Result("p1", "over", "other"),
        guild_id=8,
    )
    # Nor does a match still being played.
    await store.create_match(
        guild_id=GUILD, channel_id=5, game="tictacfive", variant="standard", seed=1, options={},
        seats=[SeatInfo("p1", "alice", 101), SeatInfo("p2", "bob", 102)], state={},
    )  # fmt: skip
    return store, ids


async def found(store: Store, **filters: object) -> list[int]:
    page = await find_matches(store, ArchiveQuery(GUILD, size=100, **filters))  # type: ignore[arg-type]
    assert page.total == len(page.matches)
    return [match.id for match in page.matches]


async def test_each_filter_and_all_at_once_find_the_ended_matches_newest_first(db_url: str):
    store, ids = await archive(db_url)
    m = dict(enumerate(ids))
    try:
        assert await found(store) == [m[5], m[4], m[3], m[2], m[1], m[0]]
        assert await found(store, player=101) == [m[5], m[3], m[2], m[0]]  # alice's user id
        assert await found(store, player="carol") == [m[4], m[2], m[1]]  # a name, as a record gives it
        assert await found(store, player="Carol") == []  # a name is matched exactly
        assert await found(store, game="tightwire") == [m[3], m[2]]
        assert await found(store, game="tightwire", variant="influx") == [m[2]]
        assert await found(store, since=date(2026, 3, 2), until=date(2026, 4, 10)) == [m[3], m[2], m[1]]
        assert await found(store, result="p1") == [m[5], m[0]]
        assert await found(store, result="p2") == [m[3], m[1]]
        assert await found(store, result="draw") == [m[2]]
        assert await found(store, result="aborted") == [m[4]]
        assert await found(store, tournament="Spring Cup") == [m[2], m[1]]
        assert await found(store, player="alice", game="tictacfive", result="p1", since=date(2026, 5, 1)) == [m[5]]
        everything = await find_matches(store, ArchiveQuery(any_guild=True, player="alice", size=100))
        assert everything.total == 5  # with the other server's
        assert await found(store, player="nobody") == []
    finally:
        await store.close()


async def test_pages_go_newest_first_and_count_every_match_found(db_url: str):
    store, ids = await archive(db_url)
    try:
        pages = [await find_matches(store, ArchiveQuery(GUILD, page=n, size=4)) for n in (1, 2, 3)]
        assert [p.total for p in pages] == [6, 6, 6] and [p.pages for p in pages] == [2, 2, 2]
        assert [m.id for m in pages[0].matches] == ids[::-1][:4]
        assert [m.id for m in pages[1].matches] == ids[::-1][4:]
        assert pages[2].matches == []  # past the last page: nothing, and the count says so
        first = pages[0].matches[0]
        assert [s.display_name for s in first.seats] == ["alice", "dave"] and first.result is not None
    finally:
        await store.close()


def test_a_query_that_cannot_be_is_refused_and_a_player_is_an_id_or_a_name():
    with pytest.raises(ValueError, match="unknown result"):
        ArchiveQuery(GUILD, result="won")
    with pytest.raises(ValueError, match="a page is 1 or more"):
        ArchiveQuery(GUILD, page=0)
    with pytest.raises(ValueError, match="of 1 to 100"):
        ArchiveQuery(GUILD, size=101)
    assert player_of("123456789012345678") == 123456789012345678  # a Discord user id
    assert player_of(" alice ") == "alice" and player_of("1999") == "1999"  # a name, digits or not


async def test_the_archive_indexes_are_there(db_url: str):
    store = await Store.open(db_url, migrate=False)
    try:
        async with store.engine.connect() as conn:
            names = await conn.run_sync(
                lambda sync: {i["name"] for t in ("matches", "seats") for i in inspect(sync).get_indexes(t)}
            )
    finally:
        await store.close()
    assert {
        "ix_matches_guild_id_finished_at",
        "ix_matches_guild_id_game_variant_finished_at",
        "ix_matches_guild_id_winner_finished_at",
        "ix_seats_display_name",
    } <= names
