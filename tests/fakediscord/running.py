"""Run a real discord.py client against a FakeDiscord for the length of a ``with`` block."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import discord

    from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound="discord.Client")


class _ErrorCollector(logging.Handler):
    """Keeps the ERROR records discord.py logs (exceptions in event handlers, views, commands)
    and records each on the fake as ``bot_error``, so a test can ``wait_for("bot_error")``."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.fake._record("bot_error", record)


@asynccontextmanager
async def running(
    fake: FakeDiscord, client: ClientT, *, timeout: float = 5.0, fail_on_logged_errors: bool = True
) -> AsyncIterator[ClientT]:
    """Start ``client`` against ``fake``, wait for ``on_ready``, and close it cleanly on exit.

    The client should be built with a small ``guild_ready_timeout`` (discord.py waits that long
    after the last GUILD_CREATE before ``on_ready``). If the client's task dies, its exception is
    raised here; with ``fail_on_logged_errors`` an exception discord.py swallowed and logged (an
    error in an event handler, a view callback, a command) fails the block at exit.
    """
    ready = asyncio.Event()
    had_own = "on_ready" in vars(client)
    previous = getattr(client, "on_ready", None)

    async def on_ready() -> None:
        # Client.dispatch looks the handler up on the instance, so this wraps any on_ready.
        ready.set()
        if previous is not None:
            await previous()

    collector = _ErrorCollector(fake)
    logger = logging.getLogger("discord")
    logger.addHandler(collector)
    client.on_ready = on_ready  # type: ignore[method-assign]
    task = asyncio.create_task(client.start(fake.token), name="fake-discord-client")
    waiter = asyncio.create_task(ready.wait())
    try:
        done, _ = await asyncio.wait({task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()
            raise RuntimeError("the client stopped before it was ready")
        if waiter not in done:
            raise TimeoutError(f"the client was not ready after {timeout}s\n{fake.describe_recent()}")
        failed = True
        try:
            yield client
            failed = False
        finally:
            await client.close()
            try:
                await asyncio.wait_for(task, timeout)
            except asyncio.CancelledError:
                pass
            except Exception:
                if not failed:
                    raise
        if fail_on_logged_errors and collector.records:
            details = "\n".join(
                collector.format(r) + ("\n" + logging.Formatter().formatException(r.exc_info) if r.exc_info else "")
                for r in collector.records
            )
            raise AssertionError(f"the bot logged {len(collector.records)} error(s):\n{details}")
    finally:
        waiter.cancel()
        if not task.done():
            task.cancel()
        logger.removeHandler(collector)
        if had_own:
            client.on_ready = previous  # type: ignore[method-assign]
        else:
            del client.on_ready
