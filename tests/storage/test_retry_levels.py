"""What the retry loop logs: a retry is a warning, except a connection the server refused or a
host not found, which every try would say again (DEBUG, the final error says it once); no try
says "retrying" when none follows."""

from __future__ import annotations

import logging
import socket

import pytest

from geniusbot.storage import StorageUnavailable, Store
from geniusbot.storage.db import create_engine
from geniusbot.storage.retry import retry_transient
from geniusbot.words import say


class RecordingSleep:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def retry_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "geniusbot.storage.retry"]


async def test_a_refused_connection_is_retried_quietly_and_said_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="geniusbot.storage.retry")
    sleep = RecordingSleep()
    with socket.socket() as closed:  # bound, never listening: a connection to it is refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        store = Store(create_engine(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/none"), sleep=sleep, retries=2)
        try:
            with pytest.raises(StorageUnavailable, match="failed 3 times"):
                await store.live_matches()
        finally:
            await store.close()
    assert len(sleep.delays) == 2
    lines = retry_lines(caplog)
    assert [level for level, _ in lines] == [logging.DEBUG, logging.DEBUG], lines
    assert all(text.endswith("; retrying") for _, text in lines)


async def test_a_dropped_connection_is_a_warning_a_retry_and_the_last_try_says_no_retrying(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="geniusbot.storage.retry")

    async def attempt(_state: object) -> None:
        raise ConnectionResetError("reset by peer")

    with pytest.raises(StorageUnavailable, match="failed 3 times"):
        await retry_transient(attempt, what=say("reading"), retries=2, sleep=RecordingSleep())
    assert retry_lines(caplog) == [
        (logging.WARNING, "storage: reading failed on try 1 (reset by peer); retrying"),
        (logging.WARNING, "storage: reading failed on try 2 (reset by peer); retrying"),
    ]
