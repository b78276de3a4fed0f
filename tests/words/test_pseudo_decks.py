"""Dueling Decks in the pseudo-language through the host: its prizes, phases, rounds, refusals
and ending reach the room and the DMs only as its messages, bracketed and accented, the players
named; none of its English reaches them around the catalogue. (The host's own lines, "Match #1:
...", "Taken: ...", are still English.)"""

from __future__ import annotations

import random
import re

from geniusbot.games.allhands.decks import DuelingDecks
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from geniusbot.words import PSEUDO, Words

PLAYERS = [Player("p1", 1, "alice"), Player("p2", 2, "bob")]

#: English words of Dueling Decks' events, endings and refusals that must never reach a player as such.
ENGLISH = (
    "prize cards",
    "create phase",
    "play phase",
    "has sent their",
    "cards created",
    "creates",
    "played",
    "wins the round",
    "Points:",
    "wins the task",
    "reached",
    "tie-break",
    "Darkness lifts",
    "already sent",
    "Wait for",
)


def _english_left(texts: list[str]) -> list[str]:
    said = "\n".join(texts)
    return [word for word in ENGLISH if word in said]


async def test_a_whole_task_is_said_in_the_pseudo_language(store: Store):
    transport = RecordingTransport()
    host = Host(store, transport, boards=False, language=PSEUDO)
    started = await host.start_match("decks", players=PLAYERS, seed=4, clock="none", options={"anomalies": "backup"})
    assert started.ok and started.match_id is not None
    mid = started.match_id
    # A refusal is said in the language to the seat that sent it, the other seat named.
    assert (await host.submit(mid, "p1", "create 30 12", private=True)).ok
    again = await host.submit(mid, "p1", "create 1", private=True)
    assert not again.ok
    assert again.message == (
        "⟦Ýóú ĥáṽé áĺŕéáđý śéñţ ýóúŕ çŕéáţíóñś ƒóŕ ţĥíś ṕĥáśé; ţĥé ƒíŕśţ óñé śţáñđś. Ŵáíţ ƒóŕ bob.⟧"
    )
    assert (await host.submit(mid, "p2", "create 25", private=True)).ok
    assert (await host.submit(mid, "p1", "play 30", private=True)).ok
    assert (await host.submit(mid, "p2", "play 25 backup 3", private=True)).ok
    rng = random.Random(4)
    while (live := host.held(mid)) is not None and not live.game.is_over:
        seat = live.game.to_move()[0]
        move = rng.choice(list(live.game.legal_moves(seat)))
        assert (await host.submit(mid, seat, move.text(), private=True)).ok, move.text()
    room = transport.room_texts()
    said = "\n".join(room)
    assert "⟦Ţĥé ṕŕíźé çáŕđś, íñ óŕđéŕ: ⟦8⟧⟦, ⟧⟦7⟧⟦, ⟧⟦5⟧⟦, ⟧⟦6⟧⟦, ⟧⟦10⟧⟦, ⟧⟦4⟧⟦, ⟧⟦9⟧.⟧" in said
    assert "⟦alice ĥáś śéñţ ţĥéíŕ çŕéáţíóñś.⟧" in said and "⟦bob ĥáś śéñţ ţĥéíŕ ṕĺáý.⟧" in said
    assert "⟦Ŕóúñđ 1, çáŕđś çŕéáţéđ: alice çŕéáţéś ⟦30⟧⟦, ⟧⟦12⟧; bob çŕéáţéś ⟦25⟧.⟧" in said
    assert (
        "⟦Ŕóúñđ 1, ṕŕíźé 8: ⟦alice ṕĺáýéđ ⟦30⟧ = 30⟧; ⟦bob ṕĺáýéđ ⟦25⟧ + ƀáçķúṕ 3 = 28⟧; "
        "⟦alice ŵíñś ţĥé ŕóúñđ⟧. Ṕóíñţś: ⟦alice 8, bob 0⟧.⟧"
    ) in said
    # Every round is said in turn, and the task's end names its winner by name.
    rounds = [int(number) for number in re.findall(r"⟦Ŕóúñđ (\d), ṕŕíźé \d+: ", said)]
    assert len(rounds) >= 2 and rounds == list(range(1, len(rounds) + 1))
    assert re.search(r"⟦⟦(alice|bob) ŕéáçĥéđ 25 ṕóíñţś \(⟦alice [\d.]+, bob [\d.]+⟧\) áñđ ŵíñś ţĥé ţáśķ⟧\.⟧", said)
    left = _english_left(room + transport.private_texts("p1") + transport.private_texts("p2"))
    assert not left, f"{left} reached a player without the catalogue"


async def test_darkness_lifting_is_said_in_the_pseudo_language(store: Store):
    transport = RecordingTransport()
    host = Host(store, transport, boards=False, language=PSEUDO)
    started = await host.start_match(
        "decks", players=PLAYERS, seed=2, clock="none", options={"anomalies": "darkness, pick-your-prize"}
    )
    assert started.ok and started.match_id is not None
    for seat, text in [("p1", "create 50"), ("p2", "create 50"), ("p1", "play 50"), ("p2", "play 50")]:
        assert (await host.submit(started.match_id, seat, text, private=True)).ok, text
    room = transport.room_texts()
    said = "\n".join(room)
    # Only the round's winner is told (here nobody: a split), then the tie-break's rule and its seat.
    assert "⟦Ŕóúñđ 1: ⟦á ţíé: ţĥé ṕŕíźé íś śṕĺíţ⟧.⟧" in said
    assert (
        "⟦⟦Ɓóţĥ ŕéáçĥéđ 25 ṕóíñţś áţ óñçé (⟦alice 25, bob 25⟧); "
        "⟦ñó ŕóúñđ ŵáś ŵóñ óúţŕíĝĥţ, śó ţĥé ţíé-ƀŕéáķ ĝóéś ţó bob⟧: bob ŵíñś ţĥé ţáśķ⟧.⟧"
    ) in said
    # Darkness lifts: one line a round, each said in the language, the players named.
    assert (
        "⟦Đáŕķñéśś ĺíƒţś: éṽéŕý ŕóúñđ áś íţ ŵáś ṕĺáýéđ.\n"
        "⟦Ŕóúñđ 1 (ṕŕíźé 50): ⟦alice ⟦50⟧ = 50⟧; ⟦bob ⟦50⟧ = 50⟧; ţíé.⟧\n"
        "Ṕóíñţś: ⟦alice 25, bob 25⟧.⟧"
    ) in said
    left = _english_left(room + transport.private_texts("p1") + transport.private_texts("p2"))
    assert not left, f"{left} reached a player without the catalogue"


def test_darkness_lifting_says_each_round_on_a_line_of_its_own():
    game = DuelingDecks.new(seed=2, anomalies="darkness")
    for seat, text in [("p1", "create 20"), ("p2", "create 10"), ("p1", "play 20"), ("p2", "play 10")]:
        game.play(game.parse_move(text, seat, private=True))
    for seat, text in [("p1", "create none"), ("p2", "create 5"), ("p1", "play none"), ("p2", "play 5")]:
        game.play(game.parse_move(text, seat, private=True))
    reveal = game.resign("p1")[-1]
    assert reveal.said is not None
    assert reveal.text == (
        "Darkness lifts: every round as it was played.\n"
        "Round 1 (prize 7): p1 20 = 20; p2 10 = 10; p1.\n"
        "Round 2 (prize 4): p1 no cards = 0; p2 5 = 5; p2.\n"
        "Points: p1 7, p2 4."
    )
    assert Words(PSEUDO, names={"p1": "alice", "p2": "bob"})(reveal.said).split("\n") == [
        "⟦Đáŕķñéśś ĺíƒţś: éṽéŕý ŕóúñđ áś íţ ŵáś ṕĺáýéđ.",
        "⟦⟦Ŕóúñđ 1 (ṕŕíźé 7): ⟦alice ⟦20⟧ = 20⟧; ⟦bob ⟦10⟧ = 10⟧; alice.⟧",
        "⟦Ŕóúñđ 2 (ṕŕíźé 4): ⟦alice ⟦ñó çáŕđś⟧ = 0⟧; ⟦bob ⟦5⟧ = 5⟧; bob.⟧⟧",
        "Ṕóíñţś: ⟦alice 7, bob 4⟧.⟧",
    ]
