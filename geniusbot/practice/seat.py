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
import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

from geniusbot.record import GAME_KINDS, GameAction, apply_action
from geniusbot.words import Message, Verbatim, Words, say

from .engine import LEVELS, MEMORY, Budget, Choice, Knowledge, PracticeError, choose

#: The seconds kept back from the seat's clock for the submission itself.
CLOCK_MARGIN = 0.5

#: How often the seat looks for its turn while nothing else wakes it (a window that closed, a
#: timeout of the other seat).
POLL_SECONDS = 0.2


def search(knowledge: Knowledge, budget: Budget, seed: int) -> Choice:
    """The engine's move, timed by this process's own monotonic clock (run in a worker)."""
    return choose(knowledge, budget, seed=seed, now=time.monotonic)


class SeatLog:
    """What ``seat`` has seen of a stored match, kept up to date from its log: its view after
    every accepted action (a repeated view once), and, for a game of perfect information, the
    public actions. The game it plays the log through is its own and never reaches the engine.

    :meth:`add` takes the match's accepted actions (the whole list, as the store gives it) and
    plays through only those it has not seen, so a move's knowledge costs the actions since the
    last one, not the whole match again; a new :class:`SeatLog` (after a restart) replays it all.
    """

    def __init__(self, record: Any, seat: str) -> None:
        from geniusbot.host.replay import start_game

        self.record, self.seat = record, seat
        self.game = start_game(record)
        self.perfect = bool(self.game.perfect_information)
        self.applied = 0
        self.views: list[Any] = [self.game.view(seat)]
        self.public: list[GameAction] = []

    def add(self, actions: Sequence[Any]) -> None:
        """Play through the accepted ``actions`` past those already seen."""
        for action in actions[self.applied :]:
            self.applied += 1
            if action.kind not in GAME_KINDS:
                continue
            apply_action(self.game, action)
            view = self.game.view(self.seat)
            if self.views[-1] != view:
                self.views.append(view)
            self.public.append(GameAction(action.kind, action.seat, action.text, action.private))

    def knowledge(self, memory: float = 1.0) -> Knowledge:
        """The engine's :class:`Knowledge` of the seat now, for a level remembering ``memory``."""
        record = self.record
        return Knowledge(
            record.game,
            record.variant,
            dict(record.options),
            self.seat,
            list(self.views),
            # The seed and the public actions rebuild a game of perfect information only.
            seed=int(record.seed) if self.perfect else None,
            actions=list(self.public) if self.perfect else (),
            memory=memory,
        )


async def knowledge_of(store: Any, match_id: int, seat: str) -> Knowledge:
    """What ``seat`` has seen of a stored match: its view after every accepted action."""
    log = SeatLog(await store.get_match(match_id), seat)
    log.add(await store.actions(match_id, accepted_only=True))
    return log.knowledge()


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
        say: Callable[[str | Message], None] = print,
        seed: int = 0,
        budget: Budget | None = None,
    ) -> None:
        self.host, self.store, self.match_id, self.seat = host, store, match_id, seat
        self.level = level
        self.budget = budget or LEVELS[level]
        self.memory = MEMORY[level]
        self.executor = executor
        self.say = say
        self.seed = seed
        self.moves = 0
        self._lock = asyncio.Lock()
        # The count of accepted actions at which the engine last could not move: it says so once.
        self._failed_at = -1
        self._log: SeatLog | None = None
        self._poked = asyncio.Event()
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
        return dataclasses.replace(self.budget, seconds=seconds)

    async def step(self) -> bool:
        """Move if the seat is to move now; whether it moved."""
        from geniusbot.storage import MatchStatus

        async with self._lock:
            live = self.host.matches.get(self.match_id)
            if live is None or live.status != MatchStatus.LIVE or live.game.is_over:
                return False
            if self.seat not in live.game.to_move():
                return False
            actions = await self.store.actions(self.match_id, accepted_only=True)
            if len(actions) == self._failed_at:
                return False  # said once already; a new action may let it move
            if self._log is None:
                self._log = SeatLog(await self.store.get_match(self.match_id), self.seat)
            seat_log = self._log
            try:
                # In a thread: the first look after a restart plays the whole log through.
                await asyncio.to_thread(seat_log.add, actions)
            except BaseException:
                self._log = None  # half played through: the next look starts again
                raise
            knowledge = seat_log.knowledge(self.memory)
            budget = self._budget(live)
            # The position (the count of accepted actions) picks the seed and names the move:
            # the same after a restart, and one move a position however often it is submitted.
            seed = self.seed + len(actions)
            try:
                if self.executor is None:
                    choice = search(knowledge, budget, seed)
                else:
                    loop = asyncio.get_running_loop()
                    choice = await loop.run_in_executor(self.executor, search, knowledge, budget, seed)
            except PracticeError as error:
                self._failed_at = len(actions)
                await self.stuck(error)
                return False
            self.moves += 1
            reply = await self.host.submit(
                self.match_id,
                self.seat,
                choice.text,
                private=choice.private,
                key=f"bot:{self.match_id}:{self.seat}:{len(actions)}",
            )
            if reply.ok:
                await self.moved(choice)
            return bool(reply.ok)

    async def moved(self, choice: Choice) -> None:
        """The opponent's move was taken."""
        shown = say("a private move") if choice.private else Verbatim(choice.text)
        self.say(say("ok {seat} (bot): {move}", seat=Verbatim(self.seat), move=shown))

    async def stuck(self, error: PracticeError) -> None:
        """The engine cannot move in this position (said once until a new view comes)."""
        self.say(
            say(
                "The practice opponent cannot move here ({error}); resign or abort the match.",
                error=Verbatim(str(error)),
            )
        )

    async def failed(self, error: Exception) -> None:
        """A look at the match failed (the store, the worker); it is tried again."""
        said = say("The practice opponent failed ({error}); it tries again.", error=Verbatim(str(error)))
        english = Words()(said)
        if english != self._said:
            self.say(said)
        self._said = english

    def poke(self) -> None:
        """Look for the seat's turn now, not at the next poll (the other seat has just moved)."""
        self._poked.set()

    async def _watch(self) -> None:
        while not self.over:
            try:
                await self.step()
            except Exception as error:  # a failed look is tried again; the match goes on
                await self.failed(error)
            try:
                # Not asyncio.wait_for: on Python 3.11 it can swallow a cancellation that comes
                # as the poke does, and the watch would never stop.
                async with asyncio.timeout(POLL_SECONDS):
                    await self._poked.wait()
            except TimeoutError:
                pass
            self._poked.clear()

    def start(self) -> None:
        """Watch the match in the background."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._watch())

    async def stop(self) -> None:
        """Stop watching."""
        if self._task is not None:
            self.over = True  # ends the watch even if the cancellation were lost
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None


__all__ = ["BotSeat", "SeatLog", "knowledge_of", "search"]
