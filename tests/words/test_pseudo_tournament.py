"""A tournament's posts in the pseudo-language: every word of a round's pairings and of the
standings (Swiss, elimination, final) comes from the catalogue; names and numbers are notation."""

from __future__ import annotations

import re

from geniusbot.cogs.tournament_run import round_text, standings_text
from geniusbot.storage.tournaments import FINISHED, RUNNING, Entry, Pairing, TournamentRecord
from geniusbot.words import PSEUDO, Words, unsaid

NAMES = ("alice", "bob", "carol")


def tournament(form: str = "swiss", status: str = RUNNING) -> TournamentRecord:
    return TournamentRecord(7, 1, 10, 99, "tictacfive", "standard", None, form, 2, status, None, None, 1)


ENTRIES = [Entry(i, name, 1500.0, i, False) for i, name in enumerate(NAMES, 1)]
PAIRINGS = [
    Pairing(1, 1, 1, 2, 555, 9, 1.0, None),
    Pairing(1, 2, 3, None, None, None, 1.0, None),
]


def letters_unsaid(text: str) -> str:
    """The letters a line says outside the catalogue's brackets, names and room mentions left out."""
    text = re.sub(r"<#\d+>", "", unsaid(text))
    for name in NAMES:
        text = text.replace(name, "")
    return re.sub(r"[^A-Za-z]", "", text)


def test_a_rounds_pairings_and_the_standings_are_said_in_the_pseudo_language():
    words = Words(PSEUDO)
    texts = [
        round_text(tournament(), ENTRIES, PAIRINGS, words),
        standings_text(tournament(), ENTRIES, PAIRINGS, words),
        standings_text(tournament(status=FINISHED), ENTRIES, PAIRINGS, words),
        standings_text(tournament("single_elimination"), ENTRIES, PAIRINGS, words),
    ]
    for text in texts:
        for line in text.split("\n"):
            assert line.startswith("⟦") or line[:1].isdigit(), line
            assert not letters_unsaid(line), line


def test_the_english_reads_as_the_room_reads_it():
    words = Words()
    assert round_text(tournament(), ENTRIES, PAIRINGS, words).split("\n") == [
        "Tournament #7, round 1:",
        "alice against bob in <#555>",
        "carol has a bye (a point).",
    ]
    assert standings_text(tournament(), ENTRIES, PAIRINGS, words).split("\n") == [
        "Tournament #7: standings after round 1 of 2.",
        "1. alice: 1 (Buchholz 0, Sonneborn-Berger 0)",
        "1. carol: 1 (Buchholz 0, Sonneborn-Berger 0)",
        "3. bob: 0 (Buchholz 1, Sonneborn-Berger 0)",
    ]
