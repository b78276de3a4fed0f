"""What the launcher's tests share: a clean environment for ``geniusbot`` commands run in-process,
the same command in a real subprocess, and a record stored in a database as an imported match."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from geniusbot import cli
from geniusbot.host.imports import import_text
from geniusbot.storage import Store

REPO = Path(__file__).resolve().parent.parent
#: Settings a developer's shell may hold that would change what a command does.
SETTINGS = ("LOG_LEVEL", "DATABASE_URL", "FONT_PATH")


def clean_cli(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *, data_dir: bool = True) -> Iterator[None]:
    """For an autouse fixture: no stray settings, the working folder ``tmp_path``, the data folder
    ``tmp_path/data`` (or none set, with ``data_dir=False``), and the root logger and the launcher's
    logging as they were before the test."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    if data_dir:
        monkeypatch.setenv("GENIUSBOT_DATA_DIR", str(tmp_path / "data"))
    else:
        monkeypatch.delenv("GENIUSBOT_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    root = logging.getLogger()
    handlers, level, done = list(root.handlers), root.level, getattr(cli.configure_logging, "done", False)
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    cli.configure_logging.done = done  # type: ignore[attr-defined]


def run_geniusbot(tmp_path: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m geniusbot ARGS`` in a real process in ``tmp_path``, its data folder ``tmp_path/data``."""
    environ = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    environ.update(PYTHONPATH=str(REPO), GENIUSBOT_DATA_DIR=str(tmp_path / "data"), **env)
    return subprocess.run(
        [sys.executable, "-m", "geniusbot", *args],
        cwd=tmp_path,
        env=environ,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def store_record(url: str, text: str, guild_id: int | None = None) -> int:
    """Import the record ``text`` into the database at ``url``; the new match's id."""
    store = await Store.open(url)
    try:
        return (await import_text(store, text, guild_id=guild_id)).match_id
    finally:
        await store.close()
