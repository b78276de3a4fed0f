"""``geniusbot play GAME --vs bot``: the practice opponent at the console.

The console's few hooks (its arguments, ``--vs bot``, ``--level`` and ``--bot-seat``, are
:mod:`geniusbot.commands.play`'s): its players (the opponent's seat is named ``bot``), what the
stored match keeps of the opponent (its seat and level: the host sends nothing private to that
seat, and the archive marks the match as practice), and the opponent itself, which answers after
every line and watches the match meanwhile (a window that closes, the other seat's timeout). Its
searches run in a worker process.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from geniusbot.host.transport import Player
from geniusbot.practice.seat import BotSeat
from geniusbot.storage import Practice
from geniusbot.words import Message, Verbatim, say

#: The name the practice opponent's seat is stored under.
BOT_NAME = "bot"


def practice(bot: tuple[str, str] | None) -> Practice | None:
    """What the stored match keeps of the opponent (its seat and level); ``None`` without it."""
    return None if bot is None else Practice(bot[0], bot[1])


def players(bot: tuple[str, str] | None) -> list[Player]:
    """The console's two seats, the opponent's named :data:`BOT_NAME`."""
    return [Player(seat, None, BOT_NAME if bot and seat == bot[0] else seat) for seat in ("p1", "p2")]


class Opponent(BotSeat):
    """The practice opponent of one console match, with its worker process."""

    async def answer(self) -> None:
        """Move now if it is the opponent's turn (and again while it stays its turn)."""
        while await self.step():
            pass

    async def close(self) -> None:
        await self.stop()
        if isinstance(self.executor, ProcessPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)


async def start(
    host: Any, store: Any, match_id: int, bot: tuple[str, str] | None, tell: Callable[[str | Message], None]
) -> Opponent | None:
    """The opponent of ``match_id``, watching it and having made its first move if it is to
    move; ``None`` without ``--vs bot``."""
    if bot is None:
        return None
    seat, level = bot
    executor = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))
    opponent = Opponent(host, store, match_id, seat, level=level, executor=executor, say=tell, seed=match_id)
    tell(say("The practice opponent ({level}) plays {seat}.", level=Verbatim(level), seat=Verbatim(seat)))
    await opponent.answer()
    opponent.start()
    return opponent


async def answer(opponent: Opponent | None) -> None:
    """The opponent's answer to the line just handled."""
    if opponent is not None:
        await opponent.answer()


async def stop(opponent: Opponent | None) -> None:
    """Stop the opponent and its worker."""
    if opponent is not None:
        await opponent.close()


__all__ = ["BOT_NAME", "answer", "players", "practice", "start", "stop"]
