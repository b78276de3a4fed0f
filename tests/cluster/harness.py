"""Real ``geniusbot run`` processes on one fake Discord and one PostgreSQL database, each serving
some of the bot's shards, with the test's clock in a file they all read."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from geniusbot.cluster.ownership import asyncpg_dsn
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeInteraction, FakeMessage, FakeUser

REPO = Path(__file__).resolve().parents[2]

#: How long a process may take to start on a busy machine (import, migrate, log in, identify).
START_TIMEOUT = 90.0


class BotProcess:
    """``python -m geniusbot run`` with shard settings, its output in ``<name>.log``."""

    def __init__(
        self,
        cluster: Cluster,
        name: str,
        *,
        shards: str | None,
        standby: bool = False,
        count: int | None = -1,
        db_url: str | None = None,
        environment: dict[str, str] | None = None,
    ) -> None:
        self.cluster = cluster
        self.name = name
        self.shards = shards
        self.log = cluster.tmp_path / f"{name}.log"
        fake = cluster.fake
        env = dict(os.environ)
        for unset in ("SHARD_COUNT", "SHARD_IDS", "STANDBY"):
            env.pop(unset, None)
        env.update(
            DISCORD_TOKEN=fake.token,
            DISCORD_API_BASE_URL=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            DATABASE_URL=db_url or cluster.db_url,
            GENIUSBOT_DATA_DIR=str(cluster.tmp_path / "data"),
            GENIUSBOT_TEST_TIME_FILE=str(cluster.time_file),
            LOG_LEVEL="INFO",
            PYTHONPATH=str(REPO),
        )
        count = cluster.shard_count if count == -1 else count
        if count is not None:
            env["SHARD_COUNT"] = str(count)
        if shards is not None:
            env["SHARD_IDS"] = shards
        if standby:
            env["STANDBY"] = "true"
        env.update(environment or {})
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "geniusbot", "run"],
                cwd=cluster.tmp_path,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def signal(self, signum: int) -> None:
        """Send ``signum`` (SIGSTOP freezes the process, SIGCONT thaws it)."""
        self.process.send_signal(signum)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown at all."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    async def stop(self) -> int:
        """SIGTERM, and wait for the clean close."""
        if self.alive:
            self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.to_thread(self.process.wait, 30)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9

    async def exited(self, timeout: float = START_TIMEOUT) -> int:
        """The exit code, once the process has ended by itself."""
        return await asyncio.to_thread(self.process.wait, timeout)

    async def serving(self, shard: int, *, since: int = 0, timeout: float = START_TIMEOUT) -> None:
        """Wait until this process has logged that it serves ``shard`` and the shard has identified."""
        fake = self.cluster.fake

        def ready() -> bool:
            if not self.alive:
                raise AssertionError(f"{self.name} ended with {self.process.returncode}:\n{self.text()}")
            return "serving shard(s)" in self.text() and any(
                s.connection is not None and s.seq > 1 for s in fake.shard_sessions(shard)
            )

        await poll(ready, timeout, f"{self.name} serving shard {shard}")


async def poll(condition, timeout: float, what: str) -> None:
    """Wait for ``condition()`` (a process's log file, a subprocess: nothing to await), checked
    every 50 ms of the event loop, which also serves the fake meanwhile."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


@dataclass
class Room:
    """A guild on a given shard, with its game room."""

    guild: FakeGuild
    room: FakeChannel


@dataclass
class Cluster:
    """The fake, the database, the clock file, the players and the processes of one test."""

    fake: FakeDiscord
    tmp_path: Path
    db_url: str
    shard_count: int
    owner: FakeUser
    alice: FakeUser
    bob: FakeUser
    rooms: dict[int, Room] = field(default_factory=dict)
    processes: list[BotProcess] = field(default_factory=list)
    now: float = 1_800_000_000.0

    @property
    def time_file(self) -> Path:
        return self.tmp_path / "now"

    def set_time(self, seconds: float) -> None:
        self.now = seconds
        temporary = self.time_file.with_suffix(".tmp")
        temporary.write_text(str(seconds))
        temporary.replace(self.time_file)

    def advance(self, seconds: float) -> None:
        self.set_time(self.now + seconds)

    def start(
        self,
        name: str,
        shards: str | None,
        *,
        standby: bool = False,
        count: int | None = -1,
        db_url: str | None = None,
        environment: dict[str, str] | None = None,
    ) -> BotProcess:
        """A process serving ``shards`` ("0,1"; None: every shard) of ``count`` (default: the
        cluster's; None: no SHARD_COUNT at all, the process of a database of its own), on the
        cluster's database or at ``db_url`` (the same database through a proxy), with
        ``environment`` over the harness's settings."""
        process = BotProcess(
            self, name, shards=shards, standby=standby, count=count, db_url=db_url, environment=environment
        )
        self.processes.append(process)
        return process

    async def owners(self) -> tuple[BotProcess, BotProcess]:
        """Two processes, ``zero`` and ``one``, serving shards 0 and 1, once both are serving."""
        zero, one = self.start("zero", "0"), self.start("one", "1")
        await zero.serving(0)
        await one.serving(1)
        return zero, one

    async def commands_ready(self) -> None:
        """Wait until the bot's slash commands are registered (``/start`` among them)."""
        fake = self.fake
        await fake.wait_until(lambda: fake.find_command("start") is not None, timeout=30, what="/start")

    async def query(self, sql: str, *args: object) -> object:
        """One value read from the cluster's database, on a connection of the test's own."""
        conn = await asyncpg.connect(asyncpg_dsn(self.db_url))
        try:
            return await conn.fetchval(sql, *args)
        finally:
            await conn.close()

    async def end_sessions(self, application_name: str) -> int:
        """End the database sessions whose name is ``LIKE`` that (as a server restart would); how
        many there were."""
        ended = await self.query(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name LIKE $1 AND datname = current_database()",
            application_name,
        )
        return int(ended)  # type: ignore[call-overload]

    async def start_match(self, shard: int, game: str = "tictacfive", **options: object) -> str:
        """``/start`` in the room of ``shard``'s guild; the bot's answer to the host."""
        where = self.rooms[shard]
        given = {"game": game, "first": self.alice, "second": self.bob, **options}
        interaction = await self.fake.slash(self.owner, where.guild, where.room, "start", given)
        return await self.answer(interaction)

    async def answer(self, interaction: FakeInteraction, timeout: float = 30) -> str:
        response = await self.fake.wait_for_response(interaction, timeout=timeout)
        if response.type == 5:
            return (await self.fake.wait_for_followup(interaction, timeout=timeout)).content
        return (response.data or {}).get("content", "")

    async def say(self, shard: int, user: FakeUser, text: str, timeout: float = 30) -> FakeMessage:
        """``user`` types ``text`` in ``shard``'s room; the bot's next message there with a picture."""
        room = self.rooms[shard].room
        await self.fake.user_says(room, user, text)
        return await self.fake.wait_for_message(room, predicate=lambda m: bool(m.attachments), timeout=timeout)

    def bot_lines(self, shard: int) -> list[str]:
        """What the bot posted in ``shard``'s room, in order."""
        return [m.content for m in self.fake.messages(self.rooms[shard].room) if m.author.id == self.fake.bot_user.id]

    async def close(self) -> None:
        for process in self.processes:
            if process.alive:
                await process.stop()

    def tracebacks(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.text()}" for p in self.processes if "Traceback" in p.text())


def make_cluster(fake: FakeDiscord, tmp_path: Path, db_url: str, shard_count: int = 2) -> Cluster:
    """A guild with a game room on each shard, the same host and two players in each."""
    owner, alice, bob = (fake.create_user(n) for n in ("owner", "alice", "bob"))
    cluster = Cluster(fake, tmp_path, db_url, shard_count, owner, alice, bob)
    for shard in range(shard_count):
        guild = fake.create_guild(f"Shard {shard}", owner=owner, shard=(shard, shard_count))
        room = fake.create_channel(guild, f"room-{shard}")
        for user in (alice, bob):
            fake.add_member(guild, user)
        cluster.rooms[shard] = Room(guild, room)
    cluster.set_time(cluster.now)
    return cluster


async def eventually(check, timeout: float, what: str) -> None:
    """Wait until the coroutine function ``check()`` returns true (a row another process commits)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)
