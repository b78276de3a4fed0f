"""A long ended match written straight into a store: thousands of legal Tightwire actions, as
the host would have logged them (a ``start`` command, then every move with the clocks after it),
then a resignation that ends it. Written in bulk, so a test or a benchmark has it in a moment
where playing it through the host would take minutes. And a sampler of the event loop's lag, to
hold what the archive does with such a match to a bound."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, update

from geniusbot.games import Game, get_game
from geniusbot.host.clock import Clock, TimeControl
from geniusbot.storage import ActionKind, MatchStatus, NewAction, Result, SeatInfo, Store, models as m

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
OPENING = [("p1", "draw A5-A4 and move"), ("p2", "draw A1-A2 and move"), ("p1", "draw E5-E4"), ("p2", "draw E1-E2")]


def shuttle_moves(count: int) -> list[tuple[str, str]]:
    """``count`` legal actions (as the rules write them): a few lines drawn, then each side walks one piece back and forth
    along its line (classic Tightwire lets a position come back), far from the other side's."""
    game = get_game("tightwire").new()
    moves = list(OPENING[:count])
    places = {"p1": ["A4", "A5"], "p2": ["A2", "A1"]}
    while len(moves) < count:
        seat = ("p1", "p2")[len(moves) % 2]
        here, there = places[seat]
        moves.append((seat, f"move {here}-{there}"))
        places[seat] = [there, here]
    canonical = []
    for seat, text in moves:  # every one of them is legal, and none ends the game
        move, _ = game.submit(text, seat)
        canonical.append((seat, move.text()))
    assert not game.is_over
    return canonical


def long_game(moves: Sequence[tuple[str, str]]) -> tuple[Game, list[NewAction], TimeControl]:
    """The game after ``moves`` then p2's resignation, and the log the host keeps of it."""
    game = get_game("tightwire").new()
    control = TimeControl.parse("60s")
    clock = Clock.new(control, game.seats)
    now = T0.timestamp()
    clock.sync(game.to_move(), now)
    log = [NewAction(ActionKind.START, f"start {control.spec()}", None, clocks=clock.to_dict(), at=T0)]
    for n, (seat, text) in enumerate(moves):
        now += 2 + n % 3
        move, _ = game.submit(text, seat)
        clock.sync(game.to_move(), now)
        at = datetime.fromtimestamp(now, UTC)
        log.append(NewAction(ActionKind.MOVE, move.text(), seat, clocks=clock.to_dict(), at=at))
    now += 1
    game.resign("p2")
    clock.sync((), now)
    log.append(
        NewAction(ActionKind.RESIGN, "resign", "p2", clocks=clock.to_dict(), at=datetime.fromtimestamp(now, UTC))
    )
    return game, log, control


async def store_long_match(
    store: Store,
    moves: int = 5000,
    *,
    guild_id: int | None = None,
    players: Sequence[tuple[str, int | None]] = (("alice", None), ("bob", None)),
) -> int:
    """Write an ended Tightwire match of ``moves`` moves (and a resignation) into ``store``;
    return its id. ``players`` are the display names and Discord ids of p1 and p2."""
    game, log, control = long_game(shuttle_moves(moves))
    seats = [SeatInfo(seat, name, user) for seat, (name, user) in zip(game.seats, players, strict=True)]
    start = get_game("tightwire").new()
    match = await store.create_match(
        game=game.name,
        seats=seats,
        state=start.to_dict(),
        variant=game.variant,
        seed=game.seed,
        options=game.option_values,
        guild_id=guild_id,
        clock=Clock.new(control, game.seats).to_dict(),
    )
    rows: list[dict[str, Any]] = [
        {
            "match_id": match.id,
            "seq": seq,
            "seat": action.seat,
            "kind": action.kind,
            "text": action.text,
            "private": action.private,
            "accepted": True,
            "error": None,
            "at": action.at,
            "clocks": dict(action.clocks or {}),
        }
        for seq, action in enumerate(log[:-1], start=1)
    ]
    async with store.engine.begin() as conn:
        for start_at in range(0, len(rows), 1000):
            await conn.execute(insert(m.Action), rows[start_at : start_at + 1000])
        await conn.execute(update(m.Match).where(m.Match.id == match.id).values(last_seq=len(rows)))
    outcome = game.outcome()
    assert outcome is not None
    last = log[-1]
    await store.commit_action(
        match.id,
        match.version,
        last,
        state=game.to_dict(),
        status=MatchStatus.FINISHED,
        result=Result(outcome.winner, outcome.reason),
        clock=dict(last.clocks or {}),
    )
    # The timestamps of a match played in the past, not of the moment it was written.
    async with store.engine.begin() as conn:
        finished = last.at or T0
        await conn.execute(
            update(m.Match).where(m.Match.id == match.id).values(finished_at=finished, updated_at=finished)
        )
    return match.id


@dataclass
class Lag:
    """The worst stretches the sampler saw: CPU time on the loop's thread and wall-clock lateness."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def worst(self) -> tuple[float, float]:
        return max(self.cpu, default=0.0), max(self.wall, default=0.0)


@asynccontextmanager
async def sampled(period: float = 0.002) -> AsyncIterator[Lag]:
    """A lag sampler on the running loop for the length of the block."""
    lag = Lag()

    async def sample() -> None:
        while True:
            wall, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(period)
            lag.wall.append(time.perf_counter() - wall - period)
            lag.cpu.append(time.thread_time() - cpu)

    task = asyncio.create_task(sample())
    try:
        await asyncio.sleep(period * 3)
        yield lag
    finally:
        task.cancel()
