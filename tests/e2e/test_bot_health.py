"""The bot's health on the loopback Discord: ``GET /healthz`` over real HTTP on a port of its own
(port 0: any free one, read back from the health object), and the health line in the log."""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import socket
import sys
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from geniusbot import health
from geniusbot.config import Settings
from geniusbot.storage import Store
from tests.e2e.botworld import TestBot, World
from tests.test_deploy import healthcheck_command


def settings(world: World, **values: Any) -> Settings:
    return Settings(_env_file=None, database_url=world.db_url, **values)  # type: ignore[call-arg]


def health_bot(world: World, **values: Any) -> TestBot:
    return TestBot(settings(world, **values), time=world.time, guild_ready_timeout=0.01)


async def get(port: int) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as response:
        return response.status, await response.json()


@pytest.mark.slow
async def test_healthz_answers_200_with_the_shards_matches_timer_lag_and_uptime(world: World) -> None:
    fake = world.fake
    async with world.running(health_bot(world, health_port=0)) as bot:
        served = health.of(bot)
        assert served is not None and served.port  # the port bound for port 0
        status, body = await get(served.port)
        assert status == 200
        assert body == {
            "ok": True,
            "ready": True,
            "database": True,
            "standby": False,
            "shards": [0],
            "shard_count": 1,
            "live_matches": 0,
            "timers_running": True,
            "timer_lag_seconds": None,  # no timer delivered yet
            "uptime_seconds": 0.0,  # the test's clock has not moved
        }
        await world.start("armslength", dmo="p2", clock="30s", options="setup=none")
        await fake.wait_for_message(world.room, predicate=lambda m: m.component("gb:choice:1:p2:red first") is not None)
        # 40 s at once: the DMO's 30 s choice runs out, and the heartbeat due 5 s after the start is
        # found 35 s late, the most overdue of the pass.
        world.time.advance(40)
        await bot.dispatcher.settle()
        status, body = await get(served.port)
        assert status == 200 and body["live_matches"] == 1
        assert body["timer_lag_seconds"] == 35.0 and body["uptime_seconds"] == 40.0
        port = served.port
    # Stopped with the bot: nothing listens there any more.
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(port)
    assert health.of(bot) is None


async def test_healthz_answers_503_before_the_bot_is_ready(world: World) -> None:
    bot = health_bot(world, health_port=0)
    served = await health.start(bot)  # as setup_hook does first: no store yet, not connected
    try:
        assert served.port
        status, body = await get(served.port)
        assert status == 503
        assert body["ok"] is False and body["ready"] is False and body["database"] is False
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{served.port}/") as response:
            assert response.status == 404  # only /healthz is served
    finally:
        await health.stop(bot)


async def test_the_health_line_is_logged_every_n_seconds_of_the_bots_clock(world: World, caplog) -> None:
    caplog.set_level(logging.INFO, logger="geniusbot.health")
    async with world.running(health_bot(world, health_log_seconds=90)) as bot:
        served = health.of(bot)
        assert served is not None and served.port is None  # no HEALTH_PORT: no server
        logged = asyncio.ensure_future(served.next_report())
        world.time.advance(89)
        await bot.dispatcher.settle()
        assert not logged.done() and not [r for r in caplog.records if r.name == "geniusbot.health"]
        world.time.advance(1)
        await asyncio.wait_for(logged, 5)
        [record] = [r for r in caplog.records if r.name == "geniusbot.health"]
        assert record.levelno == logging.INFO
        assert record.getMessage() == (
            "health: ready=yes database=ok standby=no shards=0 shard_count=1 live_matches=0 timers=running "
            "timer_lag=84.0s uptime=90s"  # the heartbeat due 5 s after the start, found at 89 s
        )


async def test_health_log_seconds_0_turns_the_line_off(world: World) -> None:
    for seconds, sleepers in ((60, [world.time.now() + timedelta(seconds=60)]), (0, [])):
        bot = health_bot(world, health_log_seconds=seconds)
        await health.start(bot)
        try:
            await asyncio.sleep(0)  # let the line's task start: it waits on the bot's clock, not real time
            assert world.time.sleepers == sleepers
        finally:
            await health.stop(bot)


async def test_a_health_port_in_use_is_logged_and_the_bot_runs_on_without_it(world: World, caplog) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = health_bot(world, health_port=port)
        served = await health.start(bot)
        try:
            assert served.port is None
            [record] = [r for r in caplog.records if r.name == "geniusbot.health"]
            assert record.levelno == logging.ERROR
            assert f"cannot serve /healthz on port {port}" in record.getMessage()
            assert "set HEALTH_PORT to a free port" in record.getMessage()
        finally:
            await health.stop(bot)


def test_the_shards_are_read_from_discord_py_s_bot() -> None:
    intents = discord.Intents.none()
    plain = commands.Bot(command_prefix="!", intents=intents)
    one = commands.Bot(command_prefix="!", intents=intents, shard_id=1, shard_count=2)
    auto = commands.AutoShardedBot(command_prefix="!", intents=intents, shard_ids=[2, 0], shard_count=3)
    assert health.shards_of(plain) == ([0], 1)
    assert health.shards_of(one) == ([1], 2)
    assert health.shards_of(auto) == ([0, 2], 3)


async def run_healthcheck(port: int) -> int:
    """The Dockerfile's HEALTHCHECK command, run here with this Python; its exit status."""
    command = healthcheck_command()
    assert command.startswith("python ")
    process = await asyncio.create_subprocess_shell(
        shlex.quote(sys.executable) + command.removeprefix("python"),
        env={**os.environ, "HEALTH_PORT": str(port)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await asyncio.wait_for(process.wait(), 30)


@pytest.mark.slow
async def test_the_images_health_check_passes_on_a_ready_bot_and_fails_before(world: World) -> None:
    waiting = health_bot(world, health_port=0)
    served = await health.start(waiting)
    try:
        assert served.port and await run_healthcheck(served.port) != 0  # 503: not ready
    finally:
        await health.stop(waiting)
    async with world.running(health_bot(world, health_port=0)) as bot:
        served = health.of(bot)
        assert served is not None and served.port
        assert await run_healthcheck(served.port) == 0


@pytest.mark.slow
@pytest.mark.postgres
async def test_healthz_answers_503_while_the_database_refuses_connections(request, tmp_path) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    from tests.conftest import _asyncpg_kwargs, _require_postgres
    from tests.e2e.botworld import make_world
    from tests.fakediscord import FakeDiscord

    server = request.getfixturevalue("_postgres")
    _require_postgres(server)
    url = server.emptied()  # the bot migrates it at start
    name = make_url(url).database
    admin = await asyncpg.connect(**_asyncpg_kwargs(server.base_url), timeout=5)
    try:
        async with FakeDiscord() as fake:
            world = make_world(fake, tmp_path, db_url=url)
            async with world.running(health_bot(world, health_port=0)) as bot:
                served = health.of(bot)
                assert served is not None and served.port
                assert (await get(served.port))[0] == 200
                await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
                try:
                    # The bot's open connections are cut, and no new one is let in.
                    await admin.fetch("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name)
                    status, body = await get(served.port)
                    assert status == 503
                    assert body["ready"] is True and body["database"] is False and body["ok"] is False
                finally:
                    await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
                assert (await get(served.port))[0] == 200  # back as soon as the database answers
    finally:
        await admin.close()


async def test_a_standby_waiting_for_a_shard_is_healthy_while_its_database_answers(world: World) -> None:
    # STANDBY is a PostgreSQL setting (SQLite refuses it); health reads only the switch itself.
    settings = Settings(_env_file=None, database_url=world.db_url, health_port=0)  # type: ignore[call-arg]
    settings.standby = True
    bot = TestBot(settings, time=world.time)
    served = await health.start(bot)
    try:
        assert served.port
        status, body = await get(served.port)
        assert status == 503 and body["standby"] is True and body["database"] is False  # no database yet
        bot.store = await Store.open(world.db_url)
        status, body = await get(served.port)
        assert status == 200 and body["ok"] is True and body["ready"] is False and body["standby"] is True
    finally:
        await health.stop(bot)
        if bot.store is not None:
            await bot.store.close()
