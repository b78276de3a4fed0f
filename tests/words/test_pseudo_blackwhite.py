"""Black and White (the example plug-in) in the pseudo-language, through the host: its opening,
each sealed tile, each round, the reveal and the ending are messages of its own catalogue domain,
bracketed and accented with the players' names; its refusals too; none of its English reaches the
room or a DM around the catalogue."""

from __future__ import annotations

import pytest

from geniusbot.games import registry
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from geniusbot.words import PSEUDO

pytestmark = pytest.mark.skipif("blackwhite" not in registry(), reason="the example game is not installed")

#: English of Black and White's lines that must never reach a player as such.
ENGLISH = ("has played a tile", "wins the round", "Score:", "round by round", "rounds to", "each player sends")


async def test_black_and_white_is_said_in_the_pseudo_language(store: Store):
    transport = RecordingTransport()
    host = Host(store, transport, boards=False, language=PSEUDO)
    players = [Player("p1", 1, "alice"), Player("p2", 2, "bob")]
    started = await host.start_match("blackwhite", players=players, seed=0, clock="none")
    assert started.ok and started.match_id is not None
    refused = await host.submit(started.match_id, "p1", "play 4")  # in the room: a tile is sealed
    assert not refused.ok
    for p1, p2 in [(8, 7), (6, 5), (4, 3), (2, 1), (0, 0), (7, 2)]:
        assert (await host.submit(started.match_id, "p1", f"play {p1}", private=True)).ok
        assert (await host.submit(started.match_id, "p2", f"play {p2}", private=True)).ok
    room = "\n".join(transport.room_texts())
    dms = "\n".join(transport.private_texts("p1") + transport.private_texts("p2"))
    assert "⟦Ŕóúñđ 1 óƒ 9: éáçĥ ṕĺáýéŕ śéñđś óñé ţíĺé, 0 ţó 8, ţó ţĥé ƀóţ ṕŕíṽáţéĺý, śúçĥ áś ṕĺáý 4.⟧" in room
    assert "⟦alice ĥáś ṕĺáýéđ á ţíĺé.⟧" in room
    assert "⟦Ŕóúñđ 1: alice ṕĺáýéđ ⟦ƀĺáçķ⟧, bob ṕĺáýéđ ⟦ŵĥíţé⟧; alice ŵíñś ţĥé ŕóúñđ. Śçóŕé: alice 1, bob 0.⟧" in room
    assert "⟦Ţĥé ţíĺéś, ŕóúñđ ƀý ŕóúñđ: alice 8 6 4 2 0 7; bob 7 5 3 1 0 2.⟧" in room
    assert "⟦alice ĺéáđś 5 ŕóúñđś ţó 0 ŵíţĥ 3 ĺéƒţ ţó ṕĺáý, ḿóŕé ţĥáñ bob çáñ ḿáķé úṕ⟧" in room
    assert "⟦Śéñđ ýóúŕ ţíĺé ţó ḿé ṕŕíṽáţéĺý" in refused.message
    for word in ENGLISH:
        assert word not in room and word not in dms, f"{word!r} reached a player without the catalogue"
