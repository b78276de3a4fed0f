"""Tightwire in the pseudo-language through the host, in its three rule sets: every action,
capture, draft pick, Turn Order line, ending and refusal of the game's reaches the room bracketed
and accented, the players named; no English of the game's reaches the room or a DM around the
catalogue. (The host's own lines, and the refusals every game shares, such as "It is not your
turn", are not the game's: they are still English.)"""

from __future__ import annotations

import random
import re

import pytest

from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from geniusbot.words import PSEUDO

#: English words of Tightwire's lines that must never reach the players as such.
ENGLISH = (
    "Orange",
    "Blue",
    "draws",
    "moves",
    "loses",
    "picks",
    "receives",
    "Turn Order",
    "Woven Revive",
    "Extra Slack",
    "slack line",
    "left on the board",
    "would pass over",
    "Write a line",
    "off the board",
    "has no line",
)
PLAYERS = [Player("p1", 1, "alice"), Player("p2", 2, "bob")]
#: A line of play: the mover by colour and seat, in the pseudo-language.
ACTION = re.compile(r"^⟦⟦(Óŕáñĝé|Ɓĺúé)⟧ \((alice|bob)\) (đŕáŵś|ḿóṽéś|ŵéáṽéś|ŕéṽíṽéś|úśéś) ", re.MULTILINE)
#: Refusals of the game's, each answered in the room to the seat that typed it.
REFUSED = [
    ("draw A1-A3", "alice (p1): ⟦A1-A3 ŵóúĺđ ṕáśś óṽéŕ ţĥé đóţ A2; á ĺíñé ḿáý ñóţ ṕáśś óṽéŕ á đóţ."),
    ("hello", "alice (p1): ⟦Ŵŕíţé á ĺíñé śúçĥ áś `đŕáŵ Ɓ5-Ç3`"),
    ("draw A9-B1", "alice (p1): ⟦A9 íś óƒƒ ţĥé ƀóáŕđ; çóĺúḿñś ŕúñ Á-E áñđ ŕóŵś 1-5.⟧"),
    ("move A5-B5", "alice (p1): ⟦Ţĥéŕé íś ñó ĺíñé ƀéţŵééñ A5 áñđ B5; ţó đŕáŵ óñé ŵŕíţé `đŕáŵ A5-B5`.⟧"),
]


def assert_no_english(transport: RecordingTransport) -> None:
    for seat in ("p1", "p2"):
        for text in transport.private_texts(seat):
            for word in ENGLISH:
                assert word not in text, f"{word!r} reached {seat}'s DMs without the catalogue"
    said = "\n".join(transport.room_texts())
    for word in ENGLISH:
        assert word not in said, f"{word!r} reached the room without the catalogue"


@pytest.mark.parametrize("variant", ["classic", "influx"])
async def test_tightwire_is_said_in_the_pseudo_language(store: Store, variant: str):
    transport = RecordingTransport()
    host = Host(store, transport, boards=False, language=PSEUDO)
    started = await host.start_match("tightwire", players=PLAYERS, seed=7, clock="none", variant=variant)
    assert started.ok and started.match_id is not None
    for text, _ in REFUSED:
        assert not (await host.submit(started.match_id, "p1", text)).ok, text
    rng = random.Random(7)
    moves = 0
    while (live := host.held(started.match_id)) is not None and not live.game.is_over and moves < 200:
        seat = live.game.to_move()[0]
        move = rng.choice(list(live.game.legal_moves(seat)))
        assert (await host.submit(started.match_id, seat, move.text())).ok
        moves += 1
    said = "\n".join(transport.room_texts())
    for _, refusal in REFUSED:
        assert refusal in said
    # Every action of play came from the catalogue, the players named as they are.
    actions = ACTION.findall(said)
    assert len(actions) == moves and {who for _, who, _ in actions} == {"alice", "bob"}
    assert {(colour, who) for colour, who, _ in actions} == {("Óŕáñĝé", "alice"), ("Ɓĺúé", "bob")}
    assert re.search(r"^⟦⟦(Óŕáñĝé|Ɓĺúé)⟧ \((alice|bob)\) ĺóśéś ţĥé ṕíéçé óñ ⟦[A-E]\d⟧\.⟧$", said, re.MULTILINE)
    assert re.search(r"⟦⟦(Óŕáñĝé|Ɓĺúé)⟧ \((alice|bob)\) ĥáś óñé ṕíéçé ĺéƒţ óñ ţĥé ƀóáŕđ áñđ ĺóśéś⟧", said)
    assert_no_english(transport)


#: Threads of Fate's final match (geniusbot/examples/threadsoffate.txt): the draft, Turn Order, play.
FATE = [
    ("p1", "pick turn order"),
    ("p2", "pick woven revive"),
    ("p1", "first"),
    ("p1", "draw B5-B4 and move"),
    ("p2", "draw D1-D2 and move"),
    ("p1", "draw B4-B3 and move"),
    ("p2", "draw A1-B3"),
    ("p1", "draw A1-D5"),
    ("p2", "draw B1-B2 and move"),
    ("p1", "draw A5-A4 and move"),
    ("p2", "draw D2-C3 and move"),
    ("p1", "draw D5-D4 and move"),
    ("p2", "revive E3"),
    ("p1", "draw B3-C4 and move"),
    ("p2", "draw C3-D4"),
    ("p1", "draw E5-D2 and move"),
    ("p2", "woven revive C2"),  # refused: C2 has no line at it
    ("p2", "revive C2"),
    ("p1", "draw A4-A3 and move"),
    ("p2", "draw C2-D2"),
    ("p1", "slack C2-D4"),
    ("p2", "draw D2-E1"),
    ("p1", "move D2-C2"),
    ("p2", "move E1-D2"),
    ("p1", "move D4-C3"),
    ("p2", "draw B2-C2"),
    ("p1", "draw B2-C3"),
]


async def test_threads_of_fate_is_said_in_the_pseudo_language(store: Store):
    transport = RecordingTransport()
    host = Host(store, transport, boards=False, language=PSEUDO)
    started = await host.start_match("tightwire", players=PLAYERS, seed=0, clock="none", variant="fate")
    assert started.ok and started.match_id is not None
    assert not (await host.submit(started.match_id, "p1", "hello")).ok
    for seat, text in FATE:
        accepted = (await host.submit(started.match_id, seat, text)).ok
        assert accepted is (text != "woven revive C2"), text
        if text == "pick woven revive":
            assert not (await host.submit(started.match_id, "p1", "draw B5-C3")).ok
    live = host.held(started.match_id)
    assert live is None or live.game.is_over
    said = "\n".join(transport.room_texts())
    # The draft and Turn Order: the items are phrases, the seats the players' names.
    assert "alice (p1): ⟦Ţĥé íţéḿś áŕé ƀéíñĝ đŕáƒţéđ; ŵŕíţé óñé óƒ ⟦`pick turn order`⟧⟦, ⟧⟦`pick extra slack`⟧" in said
    assert "⟦alice ṕíçķś ⟦Ţúŕñ Óŕđéŕ⟧.⟧" in said
    assert "⟦bob ṕíçķś ⟦Ŵóṽéñ Ŕéṽíṽé⟧.⟧" in said
    assert "⟦alice ŕéçéíṽéś ţĥé ĺáśţ íţéḿ, ⟦Éxţŕá Śĺáçķ Ţĥŕéáđ⟧.⟧" in said
    assert "⟦alice ĥóĺđś ⟦Ţúŕñ Óŕđéŕ⟧: `ƒíŕśţ` ţó ḿóṽé ƒíŕśţ, óŕ `śéçóñđ` ţó ĺéţ bob ḿóṽé ƒíŕśţ.⟧" in said
    assert "alice (p1): ⟦Ýóú ĥóĺđ ⟦Ţúŕñ Óŕđéŕ⟧: ŵŕíţé `ƒíŕśţ` ţó ḿóṽé ƒíŕśţ óŕ `śéçóñđ` ţó ĺéţ bob ḿóṽé ƒíŕśţ.⟧" in said
    assert "⟦alice úśéś ⟦Ţúŕñ Óŕđéŕ⟧: alice (⟦Óŕáñĝé⟧) ḿóṽéś ƒíŕśţ.⟧" in said
    # Play: every action, the captures, the refused Woven Revive and the ending.
    assert len(ACTION.findall(said)) == len(FATE) - 4
    assert "⟦⟦Óŕáñĝé⟧ (alice) đŕáŵś B5-B4 áñđ ḿóṽéś B5 ţó B4.⟧" in said
    assert "⟦⟦Ɓĺúé⟧ (bob) ŕéṽíṽéś á ṕíéçé óñ E3.⟧" in said
    assert "⟦⟦Óŕáñĝé⟧ (alice) đŕáŵś ţĥé śĺáçķ ĺíñé C2-D4.⟧" in said
    assert "⟦⟦Ɓĺúé⟧ (bob) ĺóśéś ţĥé ṕíéçé óñ ⟦A1⟧.⟧" in said
    assert "bob (p2): ⟦C2 ĥáś ñó ĺíñé áţ íţ; ţĥé ⟦Ŵóṽéñ Ŕéṽíṽé⟧ ṕĺáçéś á ṕíéçé óñ áñ éḿṕţý đóţ" in said
    assert "⟦⟦Ɓĺúé⟧ (bob) ĥáś óñé ṕíéçé ĺéƒţ óñ ţĥé ƀóáŕđ áñđ ĺóśéś⟧" in said
    assert_no_english(transport)
