"""The store's errors in the pseudo-language: a full disk, a read-only file, a busy room, a match
that is not there, a stale or repeated commit and a database that stays away each carry their
message (``said``), raised through the store's own code paths on real SQLite, and the host says it
to a player in its language. Their English (``str(error)``, what the log keeps) is as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from geniusbot.host.imports import import_text
from geniusbot.host.live import ReplyStatus
from geniusbot.storage import (
    ActionKind,
    DuplicateSubmission,
    MatchNotFound,
    NewAction,
    RoomBusy,
    StaleVersion,
    StorageUnavailable,
    Store,
)
from geniusbot.storage.errors import StorageFault
from geniusbot.storage.retry import retry_transient
from geniusbot.words import PSEUDO, Words, say, unsaid
from tests.words.hosting import PLAYERS, pseudo_match

RECORD = (Path(__file__).resolve().parents[1] / "records" / "tictacfive.txt").read_text(encoding="utf-8")
#: The record's headers and its first move: a match that is paused, so it holds its room.
UNFINISHED = (
    "".join(f"{line}\n" for line in RECORD.splitlines() if line.startswith("[") and not line.startswith("[Result"))
    + "\np1: H8\n"
)
PSEUDO_WORDS = Words(PSEUDO)


def letters_unsaid(text: str) -> str:
    """The letters of ``text`` (said in the pseudo-language) that no message said."""
    return re.sub(r"[^A-Za-z]", "", unsaid(text))


def read_only(store: Store) -> None:
    """Every connection of the store refuses to write, with SQLite's own SQLITE_READONLY."""

    @event.listens_for(store.sync_engine, "checkout")
    def _read_only(dbapi_connection, _record, _proxy) -> None:
        dbapi_connection.execute("PRAGMA query_only = ON")


async def test_a_read_only_database_is_said_from_the_catalogue(tmp_path: Path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'ro.sqlite3'}")
    try:
        read_only(store)
        with pytest.raises(StorageFault) as raised:
            await import_text(store, RECORD)
    finally:
        await store.close()
    fault = raised.value
    said = PSEUDO_WORDS(fault.said)
    assert said.startswith("⟦⟦Ţĥé ƀóţ'ś đáţáƀáśé çáññóţ ƀé ŵŕíţţéñ") and "attempt to write a readonly database" in said
    assert not letters_unsaid(said), said
    told = PSEUDO_WORDS(fault.told(say("That move was not taken")))
    assert told.startswith("⟦⟦Ţĥáţ ḿóṽé ŵáś ñóţ ţáķéñ⟧: ⟦ţĥé ƀóţ ḿáý ñóţ ŵŕíţé íţś đáţáƀáśé⟧") and not letters_unsaid(
        told
    )
    # Its English, word for word as before.
    assert str(fault).startswith("The bot's database cannot be written: the database file, or its folder, is read-only")
    assert str(fault).endswith("(The database said: attempt to write a readonly database.)")
    assert Words()(fault.told()) == (
        "That was not done: the bot may not write its database. Ask whoever runs the bot to fix it, then try again."
    )


async def test_the_host_tells_a_player_of_a_read_only_database_in_its_language(tmp_path: Path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'ro.sqlite3'}")
    try:
        host, transport, started = await pseudo_match(store, "tictacfive")
        read_only(store)
        reply = await host.submit(started.match_id, "p1", "H8")
    finally:
        await store.close()
    assert reply.status == ReplyStatus.UNAVAILABLE
    assert reply.message.startswith("⟦⟦Ţĥáţ ḿóṽé ŵáś ñóţ ţáķéñ⟧: ⟦ţĥé ƀóţ ḿáý ñóţ ŵŕíţé íţś đáţáƀáśé⟧")
    assert not letters_unsaid(reply.message), reply.message
    for sent in transport.sent:
        assert not letters_unsaid(sent.text), sent.text


async def test_a_busy_room_is_said_from_the_catalogue(store: Store):
    host, _, _ = await pseudo_match(store, "tictacfive", channel_id=77)
    # The store refuses a second unfinished match in the room (an import's, a start's) ...
    with pytest.raises(RoomBusy) as raised:
        await import_text(store, UNFINISHED, channel_id=77)
    assert str(raised.value) == (
        "A match is already running in this room; finish or abort it first, or use another game room."
    )
    assert not letters_unsaid(PSEUDO_WORDS(raised.value.said))
    # ... and the host says it in its language.
    again = await host.start_match("tictacfive", players=list(PLAYERS), channel_id=77)
    assert not again.ok and again.message.startswith("⟦Á ḿáţçĥ íś áĺŕéáđý ŕúññíñĝ íñ ţĥíś ŕóóḿ")
    assert not letters_unsaid(again.message), again.message


async def test_a_missing_stale_or_repeated_commit_is_said_from_the_catalogue(store: Store):
    match_id = (await import_text(store, UNFINISHED)).match_id
    with pytest.raises(MatchNotFound) as missing:
        await store.get_match(match_id + 100)
    record = await store.get_match(match_id)
    with pytest.raises(StaleVersion) as stale:
        await store.commit_action(match_id, record.version - 1, NewAction(ActionKind.MOVE, "I9", "p2", key="k1"))
    await store.commit_action(match_id, record.version, NewAction(ActionKind.MOVE, "I9", "p2", key="k2"))
    with pytest.raises(DuplicateSubmission) as repeated:
        await store.commit_action(match_id, record.version + 1, NewAction(ActionKind.MOVE, "I9", "p2", key="k2"))
    for error in (missing.value, stale.value, repeated.value):
        said = PSEUDO_WORDS(error.said)
        assert said.startswith("⟦") and not letters_unsaid(said), said
        assert str(error) == Words()(error.said)
    assert str(missing.value) == f"There is no match #{match_id + 100}; check the match number and try again."


async def test_a_database_that_stays_away_is_said_from_the_catalogue():
    async def locked(_state):
        raise OperationalError("BEGIN", {}, Exception("database is locked"))

    async def no_sleep(_seconds: float) -> None:
        return None

    with pytest.raises(StorageUnavailable) as raised:
        await retry_transient(locked, what=say("reading a match"), retries=2, sleep=no_sleep)
    said = PSEUDO_WORDS(raised.value.said)
    assert said.startswith("⟦Ţĥé đáţáƀáśé íś úñáṽáíĺáƀĺé (⟦ŕéáđíñĝ á ḿáţçĥ⟧ ƒáíĺéđ 3 ţíḿéś: ")
    assert not letters_unsaid(said), said
    assert str(raised.value).startswith("The database is unavailable (reading a match failed 3 times: ")
    assert str(raised.value).endswith("; check that it is running and not locked by another program, then try again.")
