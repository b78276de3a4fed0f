"""A match hosted in the pseudo-language for the tests of words as data: alice in p1, bob in p2,
every line recorded."""

from __future__ import annotations

from typing import Any

from geniusbot.host.match import Host, Reply
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from geniusbot.words import PSEUDO

PLAYERS = (Player("p1", 1, "alice"), Player("p2", 2, "bob"))


async def pseudo_match(
    store: Store, game: str, *, boards: bool = False, **start: Any
) -> tuple[Host, RecordingTransport, Reply]:
    """The host, its transport and the started match's reply (its ``match_id`` set)."""
    transport = RecordingTransport()
    host = Host(store, transport, boards=boards, language=PSEUDO)
    started = await host.start_match(game, players=list(PLAYERS), **start)
    assert started.ok and started.match_id is not None, started.message
    return host, transport, started
