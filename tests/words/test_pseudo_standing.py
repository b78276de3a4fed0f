"""The standing in the pseudo-language: every word of a leaderboard page, a player's ratings, their
rating graph, the pictures' alt text and a recent match's line comes from the catalogue. Drawn
numbers are notation; a player's name is theirs, in every language."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from geniusbot.render.fonts import empty_caches
from geniusbot.render.text import listening
from geniusbot.standing import game_name, history_card, leaderboard_card, ratings_card, recent_line
from geniusbot.storage import FirstSeat, MatchRecord, RatingPoint, Result, SeatInfo, Standing
from geniusbot.words import PSEUDO, Words, unsaid

NOTATION = re.compile(r"[0-9]+\??")
NAMES = {"alice", "bob"}
AT = datetime(2026, 12, 7, 21, 0, tzinfo=UTC)
TITLES = {"g": "Game"}


def letters_unsaid(text: str) -> str:
    return re.sub(r"[^A-Za-z]", "", unsaid(text))


def standings() -> list[Standing]:
    return [
        Standing(1, "alice", "g", "v", 1662.3, 90.0, 0.06, 3, 1, 0),
        Standing(2, "bob", "g", "v", 1337.7, 290.0, 0.06, 0, 2, 1),
    ]


def test_the_standing_pictures_and_their_alt_text_are_said_in_the_pseudo_language():
    words = Words(PSEUDO)
    empty_caches()
    with listening() as heard:
        cards = [
            leaderboard_card(
                words,
                game=game_name(TITLES, "g", "v"),
                standings=standings(),
                offset=0,
                total=2,
                first=FirstSeat(3, 2.5),
            ),
            ratings_card(words, player="alice", standings=standings()[:1], titles=TITLES),
            history_card(
                words,
                player="alice",
                game=game_name(TITLES, "g", "v"),
                history=[RatingPoint(1, AT, "g", "v", 1, 1500.0, 1662.3, 290.0)],
            ),
        ]
    assert heard
    for text, notation in heard:
        if notation:
            assert NOTATION.fullmatch(text), text
        elif text not in NAMES:
            assert text.startswith("⟦") and not letters_unsaid(text), text
    for card in cards:
        assert card.alt.startswith("⟦")
        for line in card.alt.split("\n"):
            assert not letters_unsaid(line), line
    # English reads as the e2e test reads it.
    english = leaderboard_card(
        Words(), game=game_name(TITLES, "g", "v"), standings=standings(), offset=0, total=2, first=FirstSeat(3, 2.5)
    )
    assert english.alt.split("\n")[1:3] == ["1. alice, 1662, 4 games", "2. bob, 1338?, 3 games"]


def test_a_recent_match_line_is_said_in_the_pseudo_language():
    record = MatchRecord(
        id=4,
        guild_id=1,
        channel_id=10,
        game="g",
        variant="v",
        seed=0,
        options={},
        status="finished",
        state={},
        clock=None,
        host=None,
        version=3,
        last_seq=3,
        created_at=AT,
        updated_at=AT,
        finished_at=AT,
        result=Result("p2", "bob wins."),
        seats=(SeatInfo("p1", "alice", 1), SeatInfo("p2", "bob", 2)),
        rated=True,
    )
    change = RatingPoint(4, AT, "g", "v", 1, 1500.0, 1337.7, 290.0)
    line = Words(PSEUDO)(recent_line(record, 1, TITLES, change))
    assert not letters_unsaid(line), line
    assert Words()(recent_line(record, 1, TITLES, change)) == (
        "Match #4, Game (v) against bob: lost, rating 1500 to 1338 (in <#10>; /replay match:4)"
    )
