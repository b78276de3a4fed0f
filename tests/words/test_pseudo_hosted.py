"""The pseudo-language played through the host: a game whose events are words as data (Arm's
Length) is heard in the room only as its messages, bracketed and accented, its players named; no
English of the game's reaches the room around the catalogue. (The host's own lines, and the games
not yet made of messages, are still English: this test grows with them.)"""

from __future__ import annotations

import random
import re

from geniusbot.storage import Store
from tests.words.hosting import pseudo_match

#: English words of Arm's Length's events that must never reach the room as such.
ENGLISH = ("places", "Pushed", "Knocked off", "moves first", "Type an empty square")


async def test_arms_length_is_said_in_the_pseudo_language(store: Store):
    host, transport, started = await pseudo_match(store, "armslength", seed=7, clock="none")
    rng = random.Random(7)
    moves = 0
    while (live := host.held(started.match_id)) is not None and not live.game.is_over and moves < 40:
        seat = live.game.to_move()[0]
        move = rng.choice(list(live.game.legal_moves(seat)))
        assert (await host.submit(started.match_id, seat, move.text())).ok
        moves += 1
    said = "\n".join(transport.room_texts())
    # The opening, and every move line, came from the catalogue, the players named as they are.
    assert "⟦alice ṕĺáýś ⟦ŕéđ⟧ áñđ ḿóṽéś ƒíŕśţ; bob ṕĺáýś ⟦ƀĺúé⟧." in said
    placed = re.findall(r"⟦(alice|bob) \(⟦(ŕéđ|ƀĺúé)⟧\) ṕĺáçéś [A-I]\d\.", said)
    assert len(placed) == moves and {who for who, _ in placed} == {"alice", "bob"}
    assert "⟦ Ṕúśĥéđ: ⟦" in said  # a push, a list joined by the language's separator
    for word in ENGLISH:
        assert word not in said, f"{word!r} reached the room without the catalogue"


async def test_tic_tac_five_is_said_in_the_pseudo_language(store: Store):
    host, transport, started = await pseudo_match(store, "tictacfive", seed=3, clock="none")
    for seat, text in [("p1", "H8"), ("p1", "I9"), ("p1", "J8"), ("p2", "white"), ("p2", "K8")]:
        assert (await host.submit(started.match_id, seat, text)).ok, text
    said = "\n".join(transport.room_texts())
    assert "⟦alice ṕĺáçéś ţĥé ţĥŕéé óṕéñíñĝ śţóñéś, ⟦ƀĺáçķ⟧, ⟦ŵĥíţé⟧, ⟦ƀĺáçķ⟧" in said
    assert "⟦alice ṕĺáçéś ⟦ƀĺáçķ⟧ óñ H8.⟧" in said and "⟦bob ṕĺáçéś ⟦ŵĥíţé⟧ óñ K8.⟧" in said
    assert "⟦bob ţáķéś ⟦ŵĥíţé⟧ áñđ ṕĺáçéś ţĥé ƒóúŕţĥ śţóñé; alice ṕĺáýś ⟦ƀĺáçķ⟧.⟧" in said
    for word in ("places", "opening stones", "now chooses", "takes white"):
        assert word not in said, f"{word!r} reached the room without the catalogue"


async def test_an_outcome_is_said_in_the_pseudo_language_and_kept_as_words(store: Store):
    host, transport, started = await pseudo_match(store, "tictacfive", boards=True, seed=3, clock="none")
    opening = [("p1", "H8"), ("p1", "I9"), ("p1", "J8"), ("p2", "black"), ("p1", "A1")]
    race = [("p2", "D4"), ("p1", "A3"), ("p2", "E4"), ("p1", "A5"), ("p2", "F4"), ("p1", "A7"), ("p2", "G4")]
    race += [("p1", "A9"), ("p2", "H4")]
    for seat, text in opening + race:
        assert (await host.submit(started.match_id, seat, text)).ok, text
    said = "\n".join(transport.room_texts())
    # bob took black and made five: the game's sentence and the host's result line, both words as data.
    # The last board's caption: the host's result line, the game's sentence (without its verdict)
    # said inside it.
    assert transport.sent[-1].op == "picture"
    assert transport.sent[-1].text.endswith(
        "⟦Ŕéśúĺţ: bob (p2) ŵíñś. ⟦⟦bob (⟦ƀĺáçķ⟧) ḿáķéś ⟦ƒíṽé⟧ íñ á ŕóŵ, D4 ţó H4⟧.⟧⟧"
    )
    for word in ("makes", "in a row", "wins", "Result"):
        assert word not in said, f"{word!r} reached the room without the catalogue"
    # The store keeps the outcome's words, so the archive can say it again in any language.
    record = await store.get_match(started.match_id)
    assert record.result is not None and record.result.reason == "p2 (black) makes five in a row, D4 to H4, and wins."
    assert record.result.data == {"line": ["D4", "E4", "F4", "G4", "H4"]}
