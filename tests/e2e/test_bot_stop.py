"""``geniusbot run`` stopped by Ctrl-C (SIGINT) or by a service manager (SIGTERM): it closes
cleanly and says so in one line, with no traceback (issue 12, item 1). Its start-up logs no
warning a text bot has no use for (discord.py's voice libraries), and a PostgreSQL that does
not answer at start-up is one sentence, not a retry warning a try before it."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [
        (signal.SIGINT, 130, "geniusbot: stopped (Ctrl-C); the unfinished matches resume when the bot runs again."),
        (signal.SIGTERM, 0, "geniusbot: stopped (SIGTERM); the unfinished matches resume when the bot runs again."),
    ],
)
async def test_the_run_process_stops_quietly_on_a_signal(tmp_path: Path, signum: int, code: int, line: str) -> None:
    async with FakeDiscord() as fake:
        env = dict(os.environ)
        env.update(
            DISCORD_TOKEN=fake.token,
            DISCORD_API_BASE_URL=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            DATABASE_URL=str(tmp_path / "bot.sqlite3"),  # a plain path, as play --db takes it
            GENIUSBOT_DATA_DIR=str(tmp_path / "data"),
            LOG_LEVEL="WARNING",
            PYTHONPATH=str(REPO),
        )
        process = subprocess.Popen(
            [sys.executable, "-m", "geniusbot", "run"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            await fake.wait_for_gateway("identify", timeout=60)
            await fake.wait_until(lambda: fake.find_command("start") is not None, timeout=30, what="/start registered")
            process.send_signal(signum)
            out, err = await asyncio.to_thread(process.communicate, timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(10)
    assert "Traceback" not in err, err
    assert process.returncode == code, err
    assert err.strip().splitlines()[-1] == line, err
    assert (tmp_path / "bot.sqlite3").is_file()
    # A text bot: nothing said about voice (PyNaCl, davey), nor any other warning.
    assert "voice" not in err and " WARNING " not in err, err


@pytest.mark.slow
async def test_a_postgresql_that_refuses_at_start_up_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as closed:  # bound, never listening: a connection to it is refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        async with FakeDiscord() as fake:
            env = dict(os.environ)
            env.update(
                DISCORD_TOKEN=fake.token,
                DISCORD_API_BASE_URL=fake.api_base,
                DISCORD_GATEWAY_URL=fake.gateway_url,
                DATABASE_URL=f"postgresql+asyncpg://postgres@127.0.0.1:{port}/test",
                GENIUSBOT_DATA_DIR=str(tmp_path / "data"),
                LOG_LEVEL="INFO",
                PYTHONPATH=str(REPO),
            )
            done = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "geniusbot", "run"],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
            )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("geniusbot: The database is unavailable (upgrading the schema failed 6 times: "), lines
    assert lines[-1].endswith("Check DATABASE_URL."), lines
    assert [line for line in lines if " WARNING " in line or " ERROR " in line] == [], lines
    assert "Traceback" not in done.stderr
