"""The practice opponent at a host: one seat of a match played by the engine.

:class:`BotSeat` watches a match; whenever its seat is to move it builds the seat's
:class:`~geniusbot.practice.engine.Knowledge` from the match's log (its own views after every
accepted action, and for a game of perfect information the seed and the actions), asks the
engine in a worker process so that the event loop never waits on a search, and submits the move
through the host as a player's move (a private one by the private path). Its clock runs like a
player's: the search is given the level's seconds, never more than the seat's clock has left.
Because everything it knows is rebuilt from the stored log, a match it plays survives a restart.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from .engine import LEVELS, Budget, Choice, Knowledge, PracticeError, choose

#: The seconds kept back from the seat's clock for the submission itself.
CLOCK_MARGIN = 0.5

#: How often the seat looks for its turn while nothing else wakes it (a window that closed, a
#: timeout of the other seat).
POLL_SECONDS = 0.2


def search(knowledge: Knowledge, budget: Budget, seed: int) -> Choice:
    """The engine's move, timed by this process's own monotonic clock (run in a worker)."""
    return choose(knowledge, budget, seed=seed, now=time.monotonic)


async def knowledge_of(store: Any, match_id: int, seat: str) -> Knowledge:
    """What ``seat`` has seen of a stored match: its view after every accepted action."""
    from geniusbot.host.replay import GAME_HOST_KINDS, replay_actions
    from geniusbot.storage import ActionKind

    record = await store.get_match(match_id)
    actions = await store.actions(match_id, accepted_only=True)
    views: list[Any] = []
    for step in replay_actions(record, actions):
        view = step.game.view(seat)
        if not views or views[-1] != view:
            views.append(view)
    game = replay_actions(record, [])[0].game
    if not game.perfect_information:
        return Knowledge(record.game, record.variant, dict(record.options), seat, views)
    public: list[tuple[str, str | None, str, bool]] = []
    for action in actions:
        if action.kind in (ActionKind.MOVE, ActionKind.PRIVATE):
            public.append(("move", action.seat, action.text, action.private))
        elif action.kind in GAME_HOST_KINDS:
            kind = {ActionKind.TIMEOUT: "timeout", ActionKind.RESIGN: "resign"}.get(action.kind, "window")
            seat_of = action.seat if action.seat is not None else action.text.split()[-1]
            public.append((kind, seat_of if kind != "window" else None, action.text, False))
    return Knowledge(
        record.game, record.variant, dict(record.options), seat, views, seed=int(record.seed), actions=public
    )


class BotSeat:
    """The engine playing ``seat`` of ``match_id`` at ``host``, at ``level``.

    ``budget`` replaces the level's (tests give a tiny iteration budget). What it has to say
    goes through :meth:`moved`, :meth:`stuck` and :meth:`failed`, which call ``say`` here and
    are the Discord opponent's to say its own way.
    """

    def __init__(
        self,
        host: Any,
        store: Any,
        match_id: int,
        seat: str,
        *,
        level: str = "normal",
        executor: Executor | None = None,
        say: Callable[[str], None] = print,
        seed: int = 0,
        budget: Budget | None = None,
    ) -> None:
        self.host, self.store, self.match_id, self.seat = host, store, match_id, seat
        self.level = level
        self.budget = budget or LEVELS[level]
        self.executor = executor
        self.say = say
        self.seed = seed
        self.moves = 0
        self._lock = asyncio.Lock()
        # The number of views at which the engine last could not move: it says so once.
        self._failed_at = -1
        self._said = ""
        self._task: asyncio.Task[None] | None = None
        #: Set once the match is over (by a subclass that knows): the watch ends.
        self.over = False

    def _budget(self, live: Any) -> Budget:
        seconds = self.budget.seconds
        deadline = live.clock.deadline(self.seat) if live.clock is not None else None
        if deadline is not None:
            left = max(0.05, deadline - self.host.now() - CLOCK_MARGIN)
            seconds = left if seconds is None else min(seconds, left)
        return Budget(self.budget.iterations, seconds)

    async def step(self) -> bool:
        """Move if the seat is to move now; whether it moved."""
        from geniusbot.storage import MatchStatus

        async with self._lock:
            live = self.host.matches.get(self.match_id)
            if live is None or live.status != MatchStatus.LIVE or live.game.is_over:
                return False
            if self.seat not in live.game.to_move():
                return False
            knowledge = await knowledge_of(self.store, self.match_id, self.seat)
            if len(knowledge.views) == self._failed_at:
                return False  # said once already; a new view may let it move
            budget = self._budget(live)
            seed = self.seed + self.moves
            try:
                if self.executor is None:
                    choice = search(knowledge, budget, seed)
                else:
                    loop = asyncio.get_running_loop()
                    choice = await loop.run_in_executor(self.executor, search, knowledge, budget, seed)
            except PracticeError as error:
                self._failed_at = len(knowledge.views)
                await self.stuck(error)
                return False
            self.moves += 1
            reply = await self.host.submit(
                self.match_id,
                self.seat,
                choice.text,
                private=choice.private,
                key=f"bot:{self.match_id}:{len(knowledge.views)}:{self.moves}",
            )
            if reply.ok:
                await self.moved(choice)
            return bool(reply.ok)

    async def moved(self, choice: Choice) -> None:
        """The opponent's move was taken."""
        shown = "a private move" if choice.private else choice.text
        self.say(f"ok {self.seat} (bot): {shown}")

    async def stuck(self, error: PracticeError) -> None:
        """The engine cannot move in this position (said once until a new view comes)."""
        self.say(f"The practice opponent cannot move here ({error}); resign or abort the match.")

    async def failed(self, error: Exception) -> None:
        """A look at the match failed (the store, the worker); it is tried again."""
        said = f"The practice opponent failed ({error}); it tries again."
        if said != self._said:
            self.say(said)
        self._said = said

    async def _watch(self) -> None:
        while not self.over:
            try:
                await self.step()
            except Exception as error:  # a failed look is tried again; the match goes on
                await self.failed(error)
            await asyncio.sleep(POLL_SECONDS)

    def start(self) -> None:
        """Watch the match in the background."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._watch())

    async def stop(self) -> None:
        """Stop watching."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None


__all__ = ["BotSeat", "knowledge_of", "search"]
