"""The log keeps what it means in columns (SQLite and PostgreSQL): a timeout row logged before its
seat was written (``timeout p2``, no seat) gets its seat from the upgrade, a start logged as a
command (``start 10m``) becomes a start, and the match replays as it did, its clocks included."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import insert, select

from geniusbot.host.clock import Clock, TimeControl
from geniusbot.host.replay import replay_actions, start_game
from geniusbot.record import apply_action
from geniusbot.storage import Store, models as m
from geniusbot.storage.db import create_engine, upgrade
from tests.storage.test_outcomes import ended_match_row

AT = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
CLOCKS = Clock.new(TimeControl.parse("10m"), ["p1", "p2"]).to_dict()


async def test_a_timeout_logged_without_its_seat_gets_it_from_the_upgrade(empty_db_url: str):
    await upgrade(empty_db_url, "0008")
    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            match_id = await ended_match_row(conn, "p2 ran out of time; p1 wins.", version=2)
            logged = [(None, "command", "start 10m"), ("p1", "move", "H8"), (None, "timeout", "timeout p2")]
            for seq, (seat, kind, text) in enumerate(logged, 1):
                await conn.execute(
                    insert(m.Action).values(
                        match_id=match_id,
                        seq=seq,
                        seat=seat,
                        kind=kind,
                        text=text,
                        private=False,
                        accepted=True,
                        at=AT,
                        clocks=CLOCKS if kind == "command" else None,
                    )
                )
            await conn.execute(
                insert(m.Seat).values(
                    [
                        {"match_id": match_id, "seat": "p1", "display_name": "a"},
                        {"match_id": match_id, "seat": "p2", "display_name": "b"},
                    ]
                )
            )
    finally:
        await engine.dispose()
    await upgrade(empty_db_url)
    engine = create_engine(empty_db_url)
    try:
        async with engine.connect() as conn:
            seats = (await conn.execute(select(m.Action.kind, m.Action.seat).order_by(m.Action.seq))).all()
    finally:
        await engine.dispose()
    assert [tuple(row) for row in seats] == [("start", None), ("move", "p1"), ("timeout", "p2")]
    store = await Store.open(empty_db_url)
    try:
        record = await store.get_match(match_id)
        game = start_game(record)
        for action in await store.actions(match_id):
            apply_action(game, action)
        outcome = game.outcome()
        assert outcome is not None and outcome.winner == "p1" and str(outcome.termination) == "time"
        # The start's clocks are found by its kind: step 0 shows them.
        assert replay_actions(record, await store.actions(match_id))[0].clocks == {"p1": "10:00", "p2": "10:00"}
    finally:
        await store.close()
