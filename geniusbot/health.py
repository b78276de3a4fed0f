"""Every bot process's health: one line in the log every ``HEALTH_LOG_SECONDS`` (default 60; 0
turns it off), and ``GET /healthz`` on ``HEALTH_PORT`` (unset: no server) for a container's
health check or a monitor (``docs/deploy.md``).

Both say the same :class:`Report`: whether the bot is ready (connected to Discord, its guilds
received), the shards it serves, the live matches it hosts, how late the timer dispatcher
delivered its last timer, the uptime, and whether the database answers. ``/healthz`` answers
200 with the report as JSON when the bot is ready and the database answers, 503 with the same
JSON otherwise (before the bot is ready, while it starts or stops, when the database is down).
A standby (the ``STANDBY`` setting) is healthy while it waits for a shard, not ready, as long as
its database answers: waiting is its job. Once it serves a shard it reports as any owner does.

The bot starts it with :func:`start` in its ``setup_hook`` and stops it with :func:`stop` in its
``close``; :func:`of` is the running one (tests read the bound port from it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

if TYPE_CHECKING:
    from geniusbot.config import Settings
    from geniusbot.host.match import Host
    from geniusbot.host.timers import TimerDispatcher, TimeSource
    from geniusbot.storage import Store

log = logging.getLogger(__name__)

#: How long the database check may take before the database counts as unreachable.
DATABASE_TIMEOUT = 5.0

#: Where the server listens: every interface, so that a container's port can be published.
LISTEN_HOST = "0.0.0.0"


@dataclass(frozen=True)
class Report:
    """One look at the process."""

    ready: bool
    database: bool
    standby: bool
    shards: list[int]
    shard_count: int
    live_matches: int
    timers_running: bool
    timer_lag_seconds: float | None
    uptime_seconds: float

    @property
    def ok(self) -> bool:
        """Ready (or a standby, waiting for a shard) and the database answers: ``/healthz`` answers 200."""
        return (self.ready or self.standby) and self.database

    def as_json(self) -> dict[str, Any]:
        """The report as ``/healthz`` sends it, with ``ok`` first."""
        return {"ok": self.ok, **asdict(self)}

    def line(self) -> str:
        """The report as one log line."""
        lag = "none" if self.timer_lag_seconds is None else f"{self.timer_lag_seconds:.1f}s"
        return (
            f"health: ready={'yes' if self.ready else 'no'} database={'ok' if self.database else 'unreachable'} "
            f"standby={'yes' if self.standby else 'no'} "
            f"shards={','.join(map(str, self.shards))} shard_count={self.shard_count} "
            f"live_matches={self.live_matches} timers={'running' if self.timers_running else 'stopped'} "
            f"timer_lag={lag} uptime={self.uptime_seconds:.0f}s"
        )


class Watched(Protocol):
    """What the health reads of the bot it watches (:class:`geniusbot.bot.GeniusBot`, which starts
    it): its settings, time, host, timers and store, whether it stands by, is ready or closed."""

    @property
    def settings(self) -> Settings | None: ...

    @property
    def time(self) -> TimeSource: ...

    @property
    def host(self) -> Host | None: ...

    @property
    def dispatcher(self) -> TimerDispatcher | None: ...

    @property
    def store(self) -> Store | None: ...

    @property
    def standing_by(self) -> bool: ...

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...


def shards_of(bot: Any) -> tuple[list[int], int]:
    """The shard ids ``bot`` serves and the shard count, as discord.py holds them: an
    ``AutoShardedBot``'s ``shard_ids`` (or its connected ``shards``), a plain bot's ``shard_id``;
    ``[0]`` of 1 when none is set."""
    count = getattr(bot, "shard_count", None) or 1
    ids = getattr(bot, "shard_ids", None)
    if ids is None and isinstance(getattr(bot, "shards", None), dict) and bot.shards:
        ids = list(bot.shards)
    if ids is None:
        one = getattr(bot, "shard_id", None)
        ids = [one] if one is not None else [0]
    return sorted(int(i) for i in ids), int(count)


class Health:
    """The health of one bot: :meth:`report`, the log line's task and the HTTP server."""

    def __init__(self, bot: Watched, *, port: int | None, log_seconds: int) -> None:
        self.bot = bot
        self.port = port
        """The port asked for, then the port bound (0 asks for any free one); None: no server."""
        self.log_seconds = log_seconds
        self.started = bot.time.now()
        self._runner: web.AppRunner | None = None
        self._task: asyncio.Task[None] | None = None
        self._reported = asyncio.Event()

    async def report(self) -> Report:
        """The process as it is now (the database is asked, within :data:`DATABASE_TIMEOUT`)."""
        bot = self.bot
        shards, count = shards_of(bot)
        host, dispatcher = bot.host, bot.dispatcher
        live = 0 if host is None else len(host.unfinished())
        return Report(
            ready=bot.is_ready() and not bot.is_closed(),
            database=await self._database(),
            standby=bot.standing_by,
            shards=shards,
            shard_count=count,
            live_matches=live,
            timers_running=dispatcher is not None and dispatcher.running,
            timer_lag_seconds=None if dispatcher is None or dispatcher.lag is None else round(dispatcher.lag, 3),
            uptime_seconds=round((bot.time.now() - self.started).total_seconds(), 1),
        )

    async def _database(self) -> bool:
        store = self.bot.store
        if store is None:
            return False
        try:
            async with asyncio.timeout(DATABASE_TIMEOUT), store.engine.connect() as connection:
                await connection.exec_driver_sql("SELECT 1")
        except Exception as error:
            log.debug("health: the database does not answer: %s", error)
            return False
        return True

    def next_report(self) -> Awaitable[bool]:
        """Completes when the next health line has been logged (tests wait on it, with a bound)."""
        return self._reported.wait()

    # ---- life ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the log line's task and, with a port, the HTTP server (a port that cannot be
        bound is logged as an error and the bot runs on without the server)."""
        if self.log_seconds > 0:
            self._task = asyncio.create_task(self._log_every(), name="geniusbot-health")
        if self.port is None:
            return
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None)  # a probe every few seconds is no news
        await runner.setup()
        try:
            await web.TCPSite(runner, LISTEN_HOST, self.port).start()
        except OSError as error:
            await runner.cleanup()
            log.error(
                "health: cannot serve /healthz on port %s (%s); set HEALTH_PORT to a free port, or leave it "
                "empty for no server. The bot runs on without it.",
                self.port,
                error.strerror or error,
            )
            self.port = None
            return
        self._runner = runner
        self.port = runner.addresses[0][1]
        log.info("health: serving GET /healthz on port %d", self.port)

    async def stop(self) -> None:
        """Stop the task and the server."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _healthz(self, _request: web.Request) -> web.Response:
        report = await self.report()
        return web.json_response(report.as_json(), status=200 if report.ok else 503)

    async def _log_every(self) -> None:
        time = self.bot.time
        while True:
            await time.sleep_until(time.now() + timedelta(seconds=self.log_seconds))
            try:
                report = await self.report()
            except Exception:  # the log line must never stop; say what broke and go on
                log.exception("health: the report failed")
                continue
            log.log(logging.INFO if report.ok else logging.WARNING, report.line())
            reported, self._reported = self._reported, asyncio.Event()
            reported.set()


_RUNNING: weakref.WeakKeyDictionary[Any, Health] = weakref.WeakKeyDictionary()


async def start(bot: Watched) -> Health:
    """Start the health of ``bot`` with its settings (``HEALTH_PORT``, ``HEALTH_LOG_SECONDS``;
    a bot built without settings logs every 60 s and serves nothing)."""
    await stop(bot)
    settings = bot.settings
    health = Health(
        bot,
        port=settings.health_port if settings is not None else None,
        log_seconds=settings.health_log_seconds if settings is not None else 60,
    )
    _RUNNING[bot] = health
    await health.start()
    return health


async def stop(bot: Watched) -> None:
    """Stop the health of ``bot``, if started."""
    health = _RUNNING.pop(bot, None)
    if health is not None:
        await health.stop()


def of(bot: Watched) -> Health | None:
    """The running health of ``bot``."""
    return _RUNNING.get(bot)
