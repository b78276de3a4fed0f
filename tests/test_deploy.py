"""The deployment files stay true without Docker: the Dockerfile copies what exists and runs
``geniusbot run`` as a user that is not root; compose.yaml (read as YAML, as Compose reads it)
runs PostgreSQL and bot processes whose shards cover every shard exactly once, with settings
geniusbot has; and its bot services, run as Compose runs them (the image's command, the
environment Compose gives them, their restart policy), ride out a failover: the old owner,
restarted as it was while another process holds its shard, waits as a standby and takes the shard
back when that process stops, instead of exiting in a loop."""

from __future__ import annotations

import asyncio
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import AliasChoices

from geniusbot.config import Settings
from geniusbot.storage.db import checked_url, normalize_url

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))

#: The settings of several processes on one database; compose.yaml names them before they are
#: settings of this tree (they come with sharding), and the check below then names them too.
SHARDING = {"SHARD_COUNT", "SHARD_IDS", "STANDBY"}


def setting_names() -> set[str]:
    """Every environment variable :class:`Settings` reads."""
    names = set()
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            names |= {choice.upper() for choice in alias.choices if isinstance(choice, str)}
        else:
            names.add(name.upper())
    return names


# --------------------------------------------------------------------------- the Dockerfile


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, ``(KEYWORD, arguments)``, continuation lines joined."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for line in (REPO / "Dockerfile").read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = (pending + stripped).strip()
        pending = ""
        keyword, _, arguments = whole.partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
    assert not pending, "the Dockerfile ends in a continuation line"
    return instructions


def stages() -> list[list[tuple[str, str]]]:
    """The instructions of each build stage, from its FROM."""
    found: list[list[tuple[str, str]]] = []
    for keyword, arguments in dockerfile():
        if keyword == "FROM":
            found.append([])
        assert found, "an instruction before the first FROM"
        found[-1].append((keyword, arguments))
    return found


def exec_form(arguments: str) -> list[str]:
    value = json.loads(arguments)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), arguments
    return value


def ignored(path: str) -> bool:
    """Whether .dockerignore leaves ``path`` (relative to the repository) out of the build context
    (the last matching pattern wins; ``!`` lets a path back in)."""
    excluded = False
    for line in (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith("#"):
            continue
        negated = pattern.startswith("!")
        pattern = pattern.lstrip("!").strip("/")
        parts = path.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        if pattern.startswith("**/"):
            hit = any(fnmatch.fnmatch(part, pattern[3:]) for part in parts)
        else:
            hit = any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes)
        if hit:
            excluded = not negated
    return excluded


def test_the_image_is_python_3_11_slim_built_in_two_stages() -> None:
    froms = [stage[0][1] for stage in stages()]
    assert froms == ["python:3.11-slim AS build", "python:3.11-slim"]
    runs = [arguments for stage in stages() for keyword, arguments in stage if keyword == "RUN"]
    assert all("--no-cache-dir" in run for run in runs if "pip " in run)
    assert any("rm -rf /var/lib/apt/lists/*" in run for run in runs if "apt-get install" in run)


def test_every_file_the_dockerfile_copies_exists_and_is_in_the_build_context() -> None:
    sources = []
    for stage in stages():
        for keyword, arguments in stage:
            if keyword in ("COPY", "ADD") and not arguments.startswith("--from="):
                *copied, _destination = shlex.split(arguments)
                sources += copied
    assert sources
    for source in sources:
        assert (REPO / source).exists(), source
        assert not ignored(source), f"{source} is left out of the build context by .dockerignore"
    # What building the package reads: pyproject, its readme, the packages it finds.
    assert "pyproject.toml" in sources and PYPROJECT["project"]["readme"] in sources
    assert PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"] == ["geniusbot*"] and "geniusbot" in sources
    build = stages()[0]
    assert ("RUN", "pip wheel --no-cache-dir --wheel-dir /wheels .") in build  # "." is the copied project


def test_the_build_context_leaves_out_the_token_and_local_state() -> None:
    for path in (".env", ".env.production", ".venv/bin/python", ".git/HEAD", "data/geniusbot.sqlite3"):
        assert ignored(path), path
    for path in (
        ".env.example",
        "geniusbot/bot.py",
        "geniusbot/examples/tictacfive.txt",
        "geniusbot/migrations/env.py",
    ):
        assert not ignored(path), path


def test_the_container_runs_geniusbot_run_as_a_user_that_is_not_root() -> None:
    final = stages()[-1]
    [entrypoint] = [exec_form(a) for k, a in final if k == "ENTRYPOINT"]
    [command] = [exec_form(a) for k, a in final if k == "CMD"]
    assert entrypoint + command == ["geniusbot", "run"]
    assert PYPROJECT["project"]["scripts"]["geniusbot"] == "geniusbot.cli:main"
    [user] = [a for k, a in final if k == "USER"]
    assert user not in ("root", "0")
    assert any(
        k == "RUN" and "useradd" in a and a.split("useradd", 1)[1].split("&&")[0].split()[-1] == user for k, a in final
    )
    assert final.index(("USER", user)) > max(
        i for i, (k, _) in enumerate(final) if k == "RUN"
    )  # nothing runs as root after


def image_environment() -> dict[str, str]:
    environment: dict[str, str] = {}
    for keyword, arguments in stages()[-1]:
        if keyword == "ENV":
            for pair in shlex.split(arguments):
                name, _, value = pair.partition("=")
                environment[name] = value
    return environment


def test_the_images_settings_are_geniusbots_and_its_font_is_the_one_debian_installs() -> None:
    environment = image_environment()
    assert set(environment) - {"PYTHONUNBUFFERED"} <= setting_names()
    assert "DISCORD_TOKEN" not in environment and "DATABASE_URL" not in environment  # from the environment
    font = environment["FONT_PATH"]
    assert font == "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    assert 'ARG FONTS="fonts-dejavu-core"' in (REPO / "Dockerfile").read_text(encoding="utf-8")
    if shutil.which("dpkg") and Path(font).is_file():  # a Debian machine with the package: same path
        owner = subprocess.run(["dpkg", "-S", font], capture_output=True, text=True, check=False).stdout
        assert owner.startswith("fonts-dejavu-core:"), owner


def healthcheck_command() -> str:
    [check] = [a for k, a in stages()[-1] if k == "HEALTHCHECK"]
    options, _, command = check.partition(" CMD ")
    assert "--timeout=10s" in options  # longer than the health's own database check (5 s)
    return command


def test_the_health_check_asks_healthz_on_the_health_port_the_image_exposes() -> None:
    environment = image_environment()
    [exposed] = [a for k, a in stages()[-1] if k == "EXPOSE"]
    assert exposed == environment["HEALTH_PORT"] == "8080"
    command = healthcheck_command()
    assert command.startswith("python -c ") and "/healthz" in command and "HEALTH_PORT" in command
    assert "curl" not in command and "wget" not in command


# --------------------------------------------------------------------------- compose.yaml


def compose() -> dict[str, Any]:
    return yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))


INTERPOLATION = re.compile(r"\$\{(\w+)(?::([-?])([^}]*))?\}")


def interpolate(value: Any, environment: dict[str, str]) -> str:
    """A Compose value with its ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` filled in
    from ``environment`` (a missing ``:?`` name is an error, as Compose makes it)."""

    def fill(match: re.Match[str]) -> str:
        name, kind, rest = match.groups()
        given = environment.get(name, "")
        if given:
            return given
        assert kind != "?", f"{name} is required: {rest}"
        return rest if kind == "-" else ""

    return INTERPOLATION.sub(fill, str(value))


def bots() -> dict[str, dict[str, Any]]:
    return {name: s for name, s in compose()["services"].items() if s.get("build") == "."}


def shard_ids(value: str) -> list[int]:
    return [int(part) for part in str(value).split(",") if part.strip()]


def test_compose_runs_postgresql_with_a_volume_and_a_health_check() -> None:
    config = compose()
    db = config["services"]["db"]
    assert db["image"].startswith("postgres:")
    [volume] = db["volumes"]
    name, _, mount = volume.partition(":")
    assert name in config["volumes"] and mount == "/var/lib/postgresql/data"
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert db["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")  # no default password
    assert "ports" not in db  # reached by the bots on compose's network only


def test_the_bots_serve_every_shard_exactly_once_and_the_standby_waits() -> None:
    found = bots()
    assert {"bot-0", "bot-1", "standby"} <= set(found)
    counts = {int(s["environment"]["SHARD_COUNT"]) for s in found.values()}
    assert counts == {2}
    [count] = counts
    serving = {name: s for name, s in found.items() if "profiles" not in s}
    served = sorted(i for s in serving.values() for i in shard_ids(s["environment"]["SHARD_IDS"]))
    assert served == list(range(count))  # every shard, each once
    assert all(str(s["environment"].get("STANDBY", "false")).lower() == "false" for s in serving.values())
    standby = found["standby"]
    assert standby["profiles"] == ["standby"]
    assert str(standby["environment"]["STANDBY"]).lower() == "true" and "SHARD_IDS" not in standby["environment"]
    for service in found.values():
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["env_file"] == ".env"  # DISCORD_TOKEN comes from there


def test_the_bots_settings_are_geniusbots_and_their_database_is_the_compose_one(monkeypatch) -> None:
    config = compose()
    db = config["services"]["db"]["environment"]
    names = set()
    for name, service in bots().items():
        environment = {k: interpolate(v, {"POSTGRES_PASSWORD": "s3cret"}) for k, v in service["environment"].items()}
        names |= set(environment)
        url = normalize_url(checked_url(environment["DATABASE_URL"], "DATABASE_URL"))
        assert (url.host, url.username, url.password, url.database) == (
            "db",
            db["POSTGRES_USER"],
            "s3cret",
            db["POSTGRES_DB"],
        )
        assert environment["HEALTH_PORT"] == image_environment()["HEALTH_PORT"], name
        # The values are ones the settings take (the font only where this machine has the file).
        for key in setting_names():
            monkeypatch.delenv(key, raising=False)
        for key, value in environment.items():
            if key not in SHARDING and not (key == "FONT_PATH" and not Path(value).is_file()):
                monkeypatch.setenv(key, value)
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert settings.health_port == 8080 and settings.database_url == environment["DATABASE_URL"]
    missing = names - setting_names()
    assert missing <= SHARDING, f"compose.yaml sets {sorted(missing)}, which geniusbot does not read"
    if missing & {name.upper() for name in SHARDING if name.lower() in Settings.model_fields}:
        raise AssertionError(f"{sorted(missing)}: the sharding settings are only partly there")


# --------------------------------------------------------------------------- docs/deploy.md

DEPLOY = (REPO / "docs" / "deploy.md").read_text(encoding="utf-8")


def table_names(section: str) -> set[str]:
    """The names in the first column of the first table under the heading ``section`` of docs/deploy.md."""
    text = DEPLOY.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    [table] = re.findall(r"(?:^\|.*\n)+", text, re.MULTILINE)[:1]
    rows = re.findall(r"^\| `(\w+)`(?:, `(\w+)`)? \| ", table, re.MULTILINE)
    return {name for row in rows for name in row if name}


def test_the_deploy_page_lists_every_setting() -> None:
    assert table_names("Settings") >= (setting_names() - {"DATA_DIR"}) | SHARDING


def test_the_deploy_pages_health_examples_are_what_the_bot_says() -> None:
    from geniusbot.health import Report

    report = Report(
        ready=True,
        database=True,
        standby=False,
        shards=[0],
        shard_count=2,
        live_matches=3,
        timers_running=True,
        timer_lag_seconds=0.0,
        uptime_seconds=86400.0,
    )
    [shown] = re.findall(r"```json\n(.*?)```", DEPLOY, re.DOTALL)
    assert json.loads(shown) == report.as_json()
    assert f"INFO     geniusbot.health: {report.line()}\n" in DEPLOY
    assert table_names("Watching it") == set(report.as_json()) - {"ok"}


# --------------------------------------------------------------------------- compose.yaml, run
#
# A bot service run as Compose runs its container: the image's command (or the service's), the
# environment Compose gives it (the image's ENV, then the service's env_file, then its
# environment, interpolated from the project's .env), and its restart policy applied to every
# exit. What a container has that this machine does not is put in its place: the `db` service's
# address is the test server's, each container's /data, home and port 8080 are its own (a folder,
# a free port), and Discord is the loopback fake, named in the .env as a Discord proxy would be.

#: How long a test gives a process to start, or a shard to change hands, on a busy machine.
COMPOSE_WAIT = 90.0


def restarts(policy: str, code: int, stopped: bool) -> bool:
    """Whether Docker restarts a container that exited with ``code`` under ``restart: policy``
    (``stopped``: by ``docker compose stop``, which no policy undoes)."""
    name, _, _limit = str(policy).partition(":")
    if stopped or name == "no":
        return False
    if name == "on-failure":
        return code != 0
    assert name in ("always", "unless-stopped"), f"restart: {policy} is not a Docker restart policy"
    return True


def seconds_of(duration: str) -> float:
    """A Compose duration such as ``30s``, ``1m30s`` or ``500ms``, in seconds."""
    units = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001, "us": 1e-6}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", str(duration))
    assert parts and "".join(n + u for n, u in parts) == str(duration), duration
    return sum(float(n) * units[u] for n, u in parts)


def dotenv(path: Path) -> dict[str, str]:
    """A .env file's ``NAME=value`` lines, as Compose reads them."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Container:
    """One service's container: started, restarted by its policy, stopped as Compose does; its
    output, every run's, in one log (``docker compose logs``)."""

    def __init__(self, name: str, service: dict[str, Any], project: Path, database_url: str, time_file: Path) -> None:
        self.name = name
        self.service = service
        self.policy = str(service.get("restart", "no"))
        self.grace = seconds_of(service.get("stop_grace_period", "10s"))
        final = stages()[-1]
        [entrypoint] = [exec_form(a) for k, a in final if k == "ENTRYPOINT"]
        [command] = [exec_form(a) for k, a in final if k == "CMD"]
        given = service.get("command")
        self.command = entrypoint + (shlex.split(given) if isinstance(given, str) else list(given or command))
        # Compose's order: the image's ENV, the env_file, then the service's environment.
        dotenv_values = dotenv(project / ".env")
        environment = dict(image_environment())
        environment.update(dotenv(project / service["env_file"]))
        environment.update({k: interpolate(v, dotenv_values) for k, v in service["environment"].items()})
        self.compose_environment = dict(environment)
        # In the container's place: the database service's address, its own /data and port.
        url = normalize_url(checked_url(environment["DATABASE_URL"], "DATABASE_URL"))
        assert url.host == "db" and "db" in compose()["services"], url
        server = normalize_url(checked_url(database_url, "the test database"))
        environment["DATABASE_URL"] = url.set(
            host=server.host,
            port=server.port,
            username=server.username,
            password=server.password,
            database=server.database,
        ).render_as_string(hide_password=False)
        home = project / name
        (home / "data").mkdir(parents=True)
        environment["GENIUSBOT_DATA_DIR"] = str(home / "data")
        self.health_port = free_port()
        environment["HEALTH_PORT"] = str(self.health_port)
        if not Path(environment.get("FONT_PATH", "")).is_file():
            environment.pop("FONT_PATH", None)  # the image installs it; this machine may not have it
        # The loopback fake's clock stands still unless the test moves it (as in tests/cluster).
        environment["GENIUSBOT_TEST_TIME_FILE"] = str(time_file)
        bin_dir = str(Path(sys.executable).parent)
        self.environment = {
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "HOME": str(home),
            "PYTHONPATH": str(REPO),  # the image installs this tree
            **environment,
        }
        self.cwd = home
        self.log = project / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts: list[int] = []  # the log's size at each start
        self.exits: list[int] = []
        self.stopped = False
        self._supervisor: asyncio.Task[None] | None = None

    def start(self) -> None:
        executable = shutil.which(self.command[0], path=self.environment["PATH"])
        assert executable, f"{self.command[0]} is not installed"
        with self.log.open("ab") as out:
            self.starts.append(out.tell())
            self.process = subprocess.Popen(
                [executable, *self.command[1:]],
                cwd=self.cwd,
                env=self.environment,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def up(self) -> Container:
        """``docker compose up -d``: start it, and restart it by its policy whenever it exits."""
        self.start()
        self._supervisor = asyncio.ensure_future(self._supervise())
        return self

    async def _supervise(self) -> None:
        # Docker waits 100 ms and more before a restart; at once is the harder case here.
        while self.process is not None:
            code = await asyncio.to_thread(self.process.wait)
            self.exits.append(code)
            if not restarts(self.policy, code, self.stopped):
                return
            self.start()

    @property
    def runs(self) -> int:
        return len(self.starts)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def text(self, run: int = -1) -> str:
        """What run ``run`` (0 the first, -1 the last) wrote."""
        data = self.log.read_bytes()
        begin = self.starts[run]
        end = self.starts[run + 1] if run not in (-1, len(self.starts) - 1) else len(data)
        return data[begin:end].decode(errors="replace")

    async def stop(self) -> int:
        """``docker compose stop``: SIGTERM, SIGKILL after the grace period; no restart after."""
        self.stopped = True
        code = 0
        while self.process is not None:
            process = self.process
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            try:
                code = await asyncio.to_thread(process.wait, self.grace)
            except subprocess.TimeoutExpired:
                process.kill()
                code = await asyncio.to_thread(process.wait)
            if self._supervisor is not None:
                await asyncio.wait_for(self._supervisor, 10)
            if self.process is process:  # not restarted in between
                break
        return code

    def health_check(self) -> int:
        """The image's HEALTHCHECK command, run with the container's environment: its exit code."""
        command = healthcheck_command()
        assert command.startswith("python -c ")
        script = shlex.split(command)[2]
        return subprocess.run(
            [sys.executable, "-c", script], env=self.environment, capture_output=True, timeout=30, check=False
        ).returncode


async def shard_locks(cluster: Any) -> dict[int, str]:
    """Who holds each shard's advisory lock: the holding session's application_name, by shard."""
    import asyncpg

    from geniusbot.cluster.ownership import PROJECT_KEY, asyncpg_dsn

    conn = await asyncpg.connect(asyncpg_dsn(cluster.db_url))
    try:
        rows = await conn.fetch(
            "SELECT l.objid::int AS shard, a.application_name AS name FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
            "AND l.classid::bigint = $1 AND l.objsubid = 2 AND a.datname = current_database()",
            PROJECT_KEY,
        )
    finally:
        await conn.close()
    return {row["shard"]: row["name"] for row in rows}


@pytest.mark.postgres
@pytest.mark.slow
async def test_an_owner_compose_restarts_after_a_failover_waits_as_a_standby_and_takes_over(
    postgres_db_url: str, tmp_path: Path
) -> None:
    from tests.cluster.harness import make_cluster, poll
    from tests.e2e.botworld import PNG_MAGIC
    from tests.fakediscord import FakeDiscord

    services = bots()
    # What the failover below relies on: the old owner is restarted, whatever its exit, with its
    # own settings; the standby serves no shard of its own.
    assert restarts(services["bot-1"]["restart"], 2, stopped=False)
    count = int(services["bot-1"]["environment"]["SHARD_COUNT"])
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url, shard_count=count)
        project = tmp_path / "project"
        project.mkdir()
        (project / ".env").write_text(
            f"DISCORD_TOKEN={fake.token}\nPOSTGRES_PASSWORD=s3cret\n"
            f"DISCORD_API_BASE_URL={fake.api_base}\nDISCORD_GATEWAY_URL={fake.gateway_url}\n",
            encoding="utf-8",
        )
        containers = {
            name: Container(name, service, project, postgres_db_url, cluster.time_file)
            for name, service in services.items()
        }
        bot_1 = containers["bot-1"]
        assert bot_1.compose_environment["SHARD_IDS"] == "1" and "STANDBY" not in bot_1.compose_environment

        def serving(container: Container, shard: int) -> bool:
            if container.exits and not container.alive:
                raise AssertionError(f"{container.name} exited {container.exits}:\n{container.text()}")
            return f"serving shard(s) {shard} of {count}" in container.text() and any(
                s.connection is not None and s.seq > 1 for s in fake.shard_sessions(shard)
            )

        try:
            # docker compose --profile standby up -d
            bot_0, bot_1 = containers["bot-0"].up(), bot_1.up()
            await poll(lambda: serving(bot_0, 0), COMPOSE_WAIT, "bot-0 serving shard 0")
            await poll(lambda: serving(bot_1, 1), COMPOSE_WAIT, "bot-1 serving shard 1")
            standby = containers["standby"].up()
            await poll(lambda: "standby: waiting for any of shard(s) 0, 1" in standby.text(), COMPOSE_WAIT, "standby")
            await cluster.commands_ready()
            assert (await cluster.start_match(1, clock="60s")).startswith("Match #1 has started")
            board = await cluster.say(1, cluster.alice, "H8")
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)

            # The failover: bot-1's lock session ends (a server restart, an administrator), so it
            # stops at once (exit 2); the standby takes shard 1, and Docker restarts bot-1 as it was.
            ended = await cluster.query(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name LIKE 'geniusbot%shards 1 of 2' AND datname = current_database()"
            )
            assert ended == 1
            await poll(lambda: bot_1.runs >= 2, COMPOSE_WAIT, "bot-1 restarted")
            assert bot_1.exits[0] == 2 and "lost the locks of shard(s) 1 of 2" in bot_1.text(0)
            await poll(lambda: "serving shard(s) 1 of 2" in standby.text(), COMPOSE_WAIT, "the standby serving")

            # The restarted bot-1 waits as a standby: it does not exit, and holds no shard.
            def waiting() -> bool:
                return "standby: waiting for shard(s) 1" in bot_1.text() or bot_1.runs > 2 or not bot_1.alive

            await poll(waiting, COMPOSE_WAIT, "the restarted bot-1 waiting")
            assert bot_1.runs == 2 and bot_1.alive, (
                f"bot-1 was restarted {bot_1.runs - 1} time(s), exiting {bot_1.exits}: a crash loop\n{bot_1.text()}"
            )
            assert "shard(s) 1 of 2 are served by another bot process on this database" in bot_1.text()
            held = await shard_locks(cluster)
            assert sorted(held) == [0, 1] and held[0].endswith(" lock shards 0 of 2"), held
            assert held[1].endswith(" lock shards 0,1 of 2"), held  # the standby's, not bot-1's
            # Healthy while it waits (Docker's health check passes), and says it is a standby.
            await poll(lambda: "health: serving GET /healthz" in bot_1.text(), COMPOSE_WAIT, "bot-1's /healthz")
            assert await asyncio.to_thread(bot_1.health_check) == 0
            report = await asyncio.to_thread(
                lambda: json.loads(
                    urllib.request.urlopen(f"http://127.0.0.1:{bot_1.health_port}/healthz", timeout=10).read()
                )
            )
            assert report["standby"] is True and report["ready"] is False, report

            # docker compose stop standby: bot-1 takes its shard back and resumes the match.
            mark = fake.mark()
            assert await standby.stop() == 0
            await poll(lambda: serving(bot_1, 1), COMPOSE_WAIT, "the restarted bot-1 serving shard 1")
            back = await fake.wait_for_message(
                cluster.rooms[1].room,
                predicate=lambda m: m.content.startswith("The bot is back"),
                since=mark,
                timeout=30,
            )
            assert "the clocks were stopped meanwhile" in back.content, back.content
            board = await cluster.say(1, cluster.alice, "H9")
            assert board.content.startswith("alice places white on H9."), board.content
            assert bot_1.runs == 2 and bot_1.alive and bot_0.runs == 1
            logs = {name: c.log.read_text(errors="replace") for name, c in containers.items() if c.runs}
            assert not [name for name, text in logs.items() if "Traceback" in text], logs
        finally:
            for container in containers.values():
                if container.process is not None and not container.stopped:
                    await container.stop()
