"""Dueling Decks hidden information: a sealed creation or play reaches no one but its owner
before its phase resolves, and under Darkness the room and the opponent learn only the creations
and each round's winner (and, without Pick Your Prize, the prize values) until the task ends.

Each test plays the same task twice or more with one secret changed and checks that what the room
and the opponent get (views, public events, the opponent's private events) does not change.
"""

from __future__ import annotations

from geniusbot.games.allhands.decks import ANOMALIES

from .decks_helpers import both, make, send


def seen_by(events, seat):
    """What ``seat`` (``None``: the room) is told by ``events``, as plain values."""
    return [(e.text, e.kind, dict(e.data)) for e in events if e.seats is None or (seat is not None and seat in e.seats)]


def outside_p1(game, events):
    """Everything that does not belong to p1: the room's and p2's views and events."""
    return game.view(None), game.view("p2"), seen_by(events, None), seen_by(events, "p2")


def test_a_sealed_creation_is_in_its_owners_view_only_until_the_phase_resolves():
    outsides = []
    for secret in ("create 20 15", "create 7", "create none"):
        game = make()
        events = send(game, "p1", secret)
        assert game.view("p1")["sealed"] == {"cards": [int(v) for v in secret.split()[1:] if v.isdigit()], "backup": 0}
        assert game.view("p1")["last_move"] == secret
        assert game.view(None)["sealed"] is None and game.view("p2")["sealed"] is None
        assert game.view(None)["submitted"] == {"p1": True, "p2": False}
        private = [e for e in events if not e.public]
        assert private and all(e.seats == frozenset({"p1"}) for e in private)
        assert any(secret in e.text for e in private)
        outsides.append(outside_p1(game, events))
    assert outsides[0] == outsides[1] == outsides[2]


def test_a_sealed_play_is_in_its_owners_view_only_until_the_round_resolves():
    outsides = []
    for secret in ("play 20 15", "play 15", "play none"):
        game = make()
        both(game, "create 20 15", "create 30")
        events = send(game, "p1", secret)
        assert game.view("p1")["sealed"] == {"cards": [int(v) for v in secret.split()[1:] if v.isdigit()], "backup": 0}
        outsides.append(outside_p1(game, events))
    assert outsides[0] == outsides[1] == outsides[2]


def test_once_the_round_resolves_without_darkness_both_plays_are_public():
    game = make()
    both(game, "create 20 15", "create 30")
    events = both(game, "play 15", "play 30")
    public = " ".join(e.text for e in events if e.public)
    assert "p1 played 15 = 15" in public and "p2 played 30 = 30" in public
    assert game.view(None)["history"][0]["plays"] == {
        "p1": {"cards": [15], "backup": 0},
        "p2": {"cards": [30], "backup": 0},
    }
    assert game.view(None)["hands"] == {"p1": [20], "p2": []}


def _darkness_task(anomalies, p1_play):
    """Darkness: p1 makes 20 and 15, p2 10 and 2; p1 wins round 1 with ``p1_play`` (whichever it
    is) against 10; then both create nothing, and round 2's plays are due."""
    game = make(anomalies)
    events = both(game, "create 20 15", "create 10 2")
    events += both(game, p1_play, "play 10")
    events += both(game, "create none", "create none")
    return game, events


def test_darkness_hides_the_cards_played_and_the_hands_but_not_creations_or_winners():
    outsides = []
    for secret in ("play 20", "play 15", "play 20 15"):
        game, events = _darkness_task("darkness", secret)
        view = game.view(None)
        assert view["created"][0]["cards"] == {"p1": [20, 15], "p2": [10, 2]}
        assert view["history"][0]["winner"] == "p1" and view["history"][0]["prize"] == 10
        assert view["history"][0]["plays"] == {"p1": None, "p2": None}
        assert view["history"][0]["sums"] is None and view["history"][0]["counted"] is None
        assert view["hands"] == {"p1": None, "p2": None}
        assert view["points"] == {"p1": 10, "p2": 0}  # they follow from the winners and prizes
        assert view["power"] == {"p1": 15, "p2": 38}  # it follows from the creations
        own = game.view("p1")
        assert own["history"][0]["plays"]["p1"]["cards"] == [int(v) for v in secret.split()[1:]]
        assert own["history"][0]["plays"]["p2"] is None and own["hands"]["p2"] is None
        assert game.view("p2")["hands"] == {"p1": None, "p2": [2]}
        # p1 has no card left after "play 20 15", but nobody may learn that: it is still asked.
        assert game.to_move() == ("p1", "p2")
        outsides.append(outside_p1(game, events))
    assert outsides[0] == outsides[1] == outsides[2]


def test_darkness_with_pick_your_prize_hides_the_prize_values_and_the_points():
    outsides = []
    for secret in ("play 20", "play 15", "play 20 15"):  # prizes of 15, 13 and 15
        game, events = _darkness_task("darkness, pick-your-prize", secret)
        for seat in (None, "p1", "p2"):
            view = game.view(seat)
            assert view["points"] == {"p1": None, "p2": None}
            assert view["history"][0]["prize"] is None and view["history"][0]["points"] is None
            assert view["prizes"] == [None] * 7
        outsides.append(outside_p1(game, events))
    assert outsides[0] == outsides[1] == outsides[2]


def test_darkness_hides_backup_uses():
    outsides = []
    for secret in ("play 20", "play 20 backup 3", "play 15 backup 1"):
        game, events = _darkness_task("darkness, backup", secret)
        assert game.view(None)["backups_left"] == {"p1": None, "p2": None}
        assert game.view("p2")["backups_left"]["p1"] is None
        assert game.view("p1")["backups_left"]["p1"] == (2 if "backup" not in secret else 1)
        outsides.append(outside_p1(game, events))
    assert outsides[0] == outsides[1] == outsides[2]


def test_darkness_still_skips_a_seat_with_no_power_left_since_everyone_knows_it():
    game = make("darkness")
    both(game, "create 30 20", "create 10")
    both(game, "play 30", "play 10")
    assert game.to_move() == ("p2",)  # p1 has spent all 50 power: a public fact


def test_darkness_lifts_at_the_end_of_the_task():
    game = make("darkness, pick-your-prize, backup")
    both(game, "create 30 20", "create 10")
    events = both(game, "play 30 20 backup 2", "play 10")  # avg 20: p1 scores 20
    events += send(game, "p2", "create 40")  # p1 has no power left: skipped
    events += both(game, "play none backup 3", "play 40")  # a prize of 40: p2 wins with 20
    assert game.is_over and game.outcome().winner == "p2"
    reveal = [e for e in events if e.kind == "reveal"]
    assert reveal and reveal[0].public and "Darkness lifts" in reveal[0].text
    assert "p1 30, 20 + backup 2 = 52" in reveal[0].text
    view = game.view(None)
    assert view["history"][0]["plays"]["p1"] == {"cards": [30, 20], "backup": 2}
    assert view["history"][1]["prize"] == 40 and view["points"] == {"p1": 20, "p2": 40}
    assert view["hands"] == {"p1": [], "p2": []}


def test_darkness_lifts_when_a_player_resigns():
    game = make("darkness")
    both(game, "create 30", "create 10")
    both(game, "play 30", "play 10")
    events = game.resign("p2")
    assert game.outcome().winner == "p1"
    assert any(e.kind == "reveal" and "p1 30 = 30" in e.text for e in events)
    assert game.view(None)["history"][0]["plays"]["p1"]["cards"] == [30]


def test_no_view_or_event_outside_darkness_shows_a_play_of_the_other_seat_before_its_round():
    for anomalies in ("", ",".join(a for a in ANOMALIES if a != "darkness")):
        outsides = []
        for secret in ("play 9", "play 9 8", "play none"):
            game = make(anomalies)
            both(game, "create 9 8", "create 5")
            events = send(game, "p1", secret)
            outsides.append(outside_p1(game, events))
        assert outsides[0] == outsides[1] == outsides[2]
