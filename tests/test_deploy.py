"""The deployment files stay true without Docker: the Dockerfile copies what exists and runs
``geniusbot run`` as a user that is not root; compose.yaml (read as YAML, as Compose reads it)
runs PostgreSQL and bot processes whose shards cover every shard exactly once, with settings
geniusbot has."""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

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
