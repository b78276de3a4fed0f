"""A full disk, a read-only database and a damaged file are storage faults with a sentence that
names the cause: through the real SQLite errors (SQLITE_FULL from ``PRAGMA max_page_count`` on
the store's own connections, SQLITE_READONLY from a file opened read-only, SQLITE_CORRUPT from a
file with broken pages), at the store, the host (a player is told, no traceback) and the
command line (exit 2)."""

from __future__ import annotations

import asyncio
import io
import logging
import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import event

from geniusbot.cli import EXIT_USAGE, main
from geniusbot.console.transport import ConsoleTransport
from geniusbot.host.imports import import_text
from geniusbot.host.live import ReplyStatus
from geniusbot.host.match import Host
from geniusbot.storage import Store
from geniusbot.storage.errors import StorageFault
from tests.cli_support import clean_cli, store_record

REPO = Path(__file__).resolve().parent.parent.parent
RECORD = (REPO / "tests" / "records" / "tictacfive.txt").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


def fill_the_disk(store: Store) -> None:
    """Every connection of the store may hold no more pages than the file has now: the next write
    that needs a page fails with SQLite's own SQLITE_FULL, as on a full disk."""

    @event.listens_for(store.sync_engine, "checkout")
    def _full(dbapi_connection, _record, _proxy) -> None:
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")


def damage(path: Path) -> None:
    """Overwrite the root pages of the matches and actions tables with nonsense."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = [
            db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (n,)).fetchone()[0]
            for n in ("matches", "actions")
        ]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    with open(path, "r+b") as handle:
        for page in pages:
            handle.seek((page - 1) * size)
            handle.write(b"\x0d" + b"\xff" * 200)


@pytest.mark.slow
async def test_a_full_disk_refuses_a_move_saying_so_with_one_log_line(tmp_path, caplog):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'full.sqlite3'}")
    try:
        out = io.StringIO()
        host = Host(store, ConsoleTransport(out, None), text_boards=True, adopt=False)
        started = await host.start_match("tictacfive")
        assert started.ok, started.message
        fill_the_disk(store)
        caplog.clear()
        told = "That move was not taken: the bot's disk is full. Ask whoever runs the bot to fix it, then try again."
        with caplog.at_level(logging.WARNING):
            for _ in range(200):  # moves until the match's rows need a page more than the file may have
                game = host.matches[started.match_id].game
                move = next(iter(game.legal_moves()))
                reply = await host.submit(started.match_id, move.seat, move.text())
                if not reply.ok:
                    break
            assert (reply.status, reply.message) == (ReplyStatus.UNAVAILABLE, told)
            again = await host.submit(started.match_id, move.seat, move.text())  # nothing changed: refused alike
            assert (again.status, again.message) == (ReplyStatus.UNAVAILABLE, told)
        assert not [r for r in caplog.records if r.exc_info], "no traceback"
        assert all("disk that holds the bot's database is full" in r.getMessage() for r in caplog.records)
        assert out.getvalue().count(told) == 2  # the seat is told, once a move
        assert caplog.records  # and the log says why, in one line each
    finally:
        await store.close()


async def test_the_store_raises_a_full_disk_as_a_storage_fault(tmp_path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'full.sqlite3'}")
    try:
        fill_the_disk(store)
        with pytest.raises(StorageFault) as fault:
            for name in ("allhands", "decks", "tiles", "swabbing", "armslength"):  # until a page more is needed
                await import_text(store, (REPO / "tests" / "records" / f"{name}.txt").read_text(encoding="utf-8"))
        assert fault.value.cause == "full" and "database or disk is full" in str(fault.value)
    finally:
        await store.close()


async def test_a_read_only_database_is_named_as_such(tmp_path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'ro.sqlite3'}")
    try:

        @event.listens_for(store.sync_engine, "checkout")
        def _read_only(dbapi_connection, _record, _proxy) -> None:
            dbapi_connection.execute("PRAGMA query_only = ON")  # SQLite then answers SQLITE_READONLY

        with pytest.raises(StorageFault) as fault:
            await import_text(store, RECORD)
        assert fault.value.cause == "read-only" and "attempt to write a readonly database" in str(fault.value)
        assert str(fault.value).startswith(
            "The bot's database cannot be written: the database file, or its folder, is read-only"
        )
    finally:
        await store.close()


@pytest.mark.slow
def test_a_damaged_file_is_found_by_db_upgrade_and_refused_by_replay_with_exit_2(tmp_path, capsys):
    path = tmp_path / "damaged.sqlite3"
    asyncio.run(store_record(f"sqlite+aiosqlite:///{path}", RECORD))
    shutil.copy(path, tmp_path / "whole.sqlite3")
    damage(path)
    said = "The bot's database file is damaged; restore it from a backup (or move it aside to start with an empty one)"
    assert main(["db", "upgrade", "--url", str(tmp_path / "whole.sqlite3")]) == 0
    capsys.readouterr()
    assert main(["db", "upgrade", "--url", str(path)]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"geniusbot: {said}") and err.count("\n") == 1
    for output in ("--gif", "--html"):
        assert main(["replay", "--match", "1", "--db", str(path), output, str(tmp_path / "out")]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.startswith(f"geniusbot replay: {said}") and "unexpected" not in err
    assert not (tmp_path / "out").exists()
