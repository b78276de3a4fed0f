"""The checks of a game hosted by the real match host on a real database: random matches with
their clocks running and their windows closed by timers, exported as a record that adjudicates
to the same game; replays that give the same steps from any snapshot; and one view built per
action.

Each ``check_*`` is a coroutine that takes an open :class:`~geniusbot.storage.Store` (the
command makes one on a temporary SQLite file) and raises :class:`~.failures.CheckFailed` at the
first thing wrong.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from geniusbot.games import Game

from .failures import CheckFailed, expect, where

if TYPE_CHECKING:
    from geniusbot.host.match import Host
    from geniusbot.host.replay import Step
    from geniusbot.storage import Store

#: The clocks' start: a fixed instant, moved only by the checks.
T0 = 1_800_000_000.0
#: The time control of the random matches: short, so that some moves come in the reserve or too late.
CLOCK = "20s+30s"
#: Actions played through the host in each random match.
HOSTED_CAP = 40


class SteppedTime:
    """Epoch seconds that move only when a check moves them."""

    def __init__(self, start: float = T0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


def players() -> list[Any]:
    from geniusbot.host.transport import Player

    return [Player("p1", 1, "Ann"), Player("p2", 2, "Ben")]


async def fire_due(host: Host, clock: SteppedTime) -> int:
    """Deliver the due timers the way the dispatcher does: the callback, then the row deleted."""
    fired = 0
    for timer in await host.store.due_timers(datetime.fromtimestamp(clock.t, UTC)):
        await host.on_timer(timer)
        await host.store.delete_timer(timer.id)
        fired += 1
    return fired


async def play_at_random(
    host: Host,
    match_id: int,
    clock: SteppedTime,
    rng: random.Random,
    *,
    cap: int,
    delays: tuple[float, ...] = (1, 3, 8, 25, 40),
) -> None:
    """Play ``cap`` random legal moves (or to the end) of the seats to move, each after one of
    ``delays`` seconds (now and then into the reserve, or past the clock); a window with nobody
    to move is waited out, and the timers due are fired as the clock moves."""
    for step in range(cap):
        with where(f"action {step + 1} through the host"):
            live = await host.load(match_id)
            if live is None:
                raise CheckFailed(f"the host lost match #{match_id}")
            game = live.game
            if game.is_over:
                break
            window = game.window()
            if window is not None and not game.to_move():
                clock.advance(window.seconds)
                await fire_due(host, clock)
                continue
            seat = rng.choice(game.to_move()) if game.to_move() else None
            moves = list(itertools.islice(game.legal_moves(seat), 5000)) if seat else []
            if not moves:
                clock.advance(5)
                await fire_due(host, clock)
                continue
            move = rng.choice(moves)
            clock.advance(rng.choice(delays))
            await fire_due(host, clock)
            now = await host.load(match_id)
            if now is None or now.game.is_over:
                break
            reply = await host.submit(match_id, move.seat, move.text(), private=game.is_private(move))
            expect(
                reply.status in ("accepted", "rejected"),
                f"the host answered {move.text()!r} with {reply.status}: {reply.message}",
            )


async def start_random_match(host: Host, cls: type[Game], variant: str, rng: random.Random) -> int:
    reply = await host.start_match(cls.name, variant=variant, seed=rng.randrange(1000), clock=CLOCK, players=players())
    if not reply.ok or reply.match_id is None:
        raise CheckFailed(f"the host refused to start a match: {reply.message}")
    return reply.match_id


async def check_hosted_play(store: Store, cls: type[Game], variant: str) -> None:
    """A random match through the host (clocks running, windows closed by their timers, some
    moves too late) exports a record whose every line the adjudicator accepts, and the
    adjudicator, the replay and the host agree on the final game."""
    from geniusbot.adjudicate import adjudicate_text
    from geniusbot.host.match import Host
    from geniusbot.host.replay import export_record, replay_match
    from geniusbot.host.transport import RecordingTransport

    rng = random.Random(f"{cls.name}:{variant}")
    clock = SteppedTime()
    host = Host(store, RecordingTransport(), now=clock, pictures=False, heartbeat=0)
    match_id = await start_random_match(host, cls, variant, rng)
    await play_at_random(host, match_id, clock, rng, cap=HOSTED_CAP)
    live = await host.load(match_id)
    if live is None:
        raise CheckFailed(f"the host lost match #{match_id}")
    final = live.game
    record = await export_record(store, match_id)
    judged = adjudicate_text(record)
    refused = [(a.line, a.text, a.error) for a in judged.actions if not a.accepted]
    expect(
        not refused,
        f"the record the host exported refuses lines when adjudicated: {refused[:3]}",
        "a move's text() must be taken again by parse_move in the same position, timeouts and windows too.",
    )
    expect(judged.game == final, "the exported record adjudicates to a different game than the host's")
    steps = await replay_match(store, match_id)
    expect(steps[-1].game == final, "the replay of the match ends in a different game than the host's")


def _same_step(got: Step, want: Step) -> None:
    expect(got.index == want.index, f"step {want.index} comes as step {got.index}")
    expect(
        got.game == want.game and got.game.view(None) == want.game.view(None),
        f"step {want.index} replays to a different game",
        "a game loaded from a snapshot (to_dict) plays on as the game it was.",
    )
    expect(
        got.game.to_move() == want.game.to_move() and got.game.outcome() == want.game.outcome(),
        f"step {want.index} has other seats to move or another outcome",
    )
    expect(got.action == want.action, f"step {want.index} has another action")
    expect(
        (got.clock.to_dict() if got.clock else None) == (want.clock.to_dict() if want.clock else None),
        f"step {want.index} has other clocks",
    )
    expect(dict(got.clocks) == dict(want.clocks) and got.at == want.at, f"step {want.index} has other clocks")


async def assert_replays_alike(store: Store, match_id: int, rng: random.Random) -> None:
    """A replay opened with snapshots every 1, 3 or 64 steps gives the steps of
    :func:`~geniusbot.host.replay.replay_match`, in any order of asking; each step's game is the
    caller's own."""
    from geniusbot.host.replay import open_replay, replay_match

    want = await replay_match(store, match_id)
    for every in (1, 3, 64):
        with where(f"snapshots every {every} steps"):
            replay = await open_replay(store, match_id, every=every)
            expect(len(replay) == len(want) and replay.last == len(want) - 1, "the replay has another number of steps")
            order = list(range(len(want)))
            rng.shuffle(order)  # a late step first takes the snapshots before it; an early one after
            for index in order:
                _same_step(replay.step(index), want[index])
            first = replay.step(0)
            first.game.resign(first.game.seats[0])
            _same_step(replay.step(0), want[0])
            expect([s.index for s in replay.steps()] == list(range(len(want))), "the steps come out of order")
            try:
                replay.step(len(want))
            except IndexError:
                pass
            else:
                raise CheckFailed("a replay gives a step past its last")


async def check_replay_steps(store: Store, cls: type[Game], variant: str) -> None:
    """A random match's replay gives the same steps from snapshots as from the start."""
    from geniusbot.host.match import Host
    from geniusbot.host.transport import RecordingTransport

    rng = random.Random(f"{cls.name}:{variant}:replay")
    clock = SteppedTime()
    host = Host(store, RecordingTransport(), now=clock, pictures=False, heartbeat=0)
    match_id = await start_random_match(host, cls, variant, rng)
    await play_at_random(host, match_id, clock, rng, cap=30, delays=(1, 3, 8, 25))
    await assert_replays_alike(store, match_id, rng)


@contextmanager
def counted_views(classes: Mapping[str, type[Game]]) -> Iterator[Counter[str | None]]:
    """Every class's ``view``, counted while the block runs: seat (``None``: the room's) -> calls.
    Only the outermost call counts (a game whose view holds another game's)."""
    calls: Counter[str | None] = Counter()
    depth = [0]
    saved = {cls: cls.__dict__.get("view") for cls in classes.values()}
    for cls in saved:
        real = cls.view

        def counted(self: Game, seat: str | None = None, *, _real: Any = real) -> Any:
            if depth[0] == 0:
                calls[seat] += 1
            depth[0] += 1
            try:
                return _real(self, seat)
            finally:
                depth[0] -= 1

        cls.view = counted  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        for cls, own in saved.items():
            if own is None:
                del cls.view
            else:
                cls.view = own  # type: ignore[method-assign]


async def check_views_once(
    store: Store, cls: type[Game], pictures: bool, moves: int = 10, rooms: range = range(700, 800)
) -> None:
    """An accepted move builds the room's view once and each seat's at most once (none for a
    game of perfect information), however many things show that state: the board and its
    picture, the private views, the choice offers. The matches are played in ``rooms`` (one
    store holds one running match a room)."""
    from geniusbot.games import registry
    from geniusbot.host.match import Host
    from geniusbot.host.offers import choice_offer, private_choice_offers
    from geniusbot.host.transport import RecordingTransport
    from geniusbot.storage import MatchStatus

    host = Host(store, RecordingTransport(), now=SteppedTime(), pictures=pictures, heartbeat=0)
    rng = random.Random(cls.name)
    match_id: int | None = None
    made = 0
    with counted_views({**registry(), cls.name: cls}) as built:
        for room in rooms:
            if made >= moves:
                break
            if match_id is None or match_id not in host.matches:  # none yet, or over: the next match
                reply = await host.start_match(cls.name, players=players(), seed=room, clock="none", channel_id=room)
                if not reply.ok or reply.match_id is None:
                    raise CheckFailed(f"the host refused to start a match: {reply.message}")
                match_id = reply.match_id
            game = host.matches[match_id].game
            if game.window() is not None and not game.to_move():
                await host.command(match_id, "close window")
                continue
            seat = rng.choice(game.to_move())
            move = rng.choice(list(itertools.islice(game.legal_moves(seat), 200)))
            built.clear()
            done = await host.submit(match_id, seat, move.text(), private=game.is_private(move))
            expect(done.ok, f"the host refused the legal move {move.text()!r}: {done.message}")
            live = await host.load(match_id)
            if live is not None and live.status == MatchStatus.LIVE:  # what the Discord cog offers after it
                view = host.views(live).public
                choice_offer(live.game, view)
                private_choice_offers(live.game, view)
            made += 1
            with where(f"after {move.text()!r}"):
                expect(
                    built[None] == 1,
                    f"the room's view was built {built[None]} times for one move",
                    "choosing(view) and the hooks the host calls take the view they are given; they do not "
                    "call view() again.",
                )
                expect(all(built[s] <= 1 for s in ("p1", "p2")), f"a seat's view was built twice: {dict(built)}")
                if cls.perfect_information:
                    expect(set(built) == {None}, f"a seat's own view was built: {dict(built)}")
                expect(set(built) <= {None, "p1", "p2"}, f"views of other seats were built: {dict(built)}")
    expect(made >= moves, f"only {made} moves were made")
