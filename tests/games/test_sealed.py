"""The sealed round (``geniusbot.games.sealed``): who owes a submission, one submission a seat,
nothing revealed until all are in, what a view may show, and the stored shape."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from geniusbot.games import EventKind, WrongPlaceError, load, registry
from geniusbot.games.sealed import SealedRound, require_private, sealed_event
from geniusbot.words import say


def test_a_new_round_owes_every_seat_asked_in_the_order_asked():
    sealed: SealedRound[int] = SealedRound(("p2", "p1"))
    assert sealed.seats == ("p2", "p1") and sealed.owed() == ("p2", "p1")
    assert not sealed.any_in and not sealed.all_in
    assert sealed.submitted() == {"p2": False, "p1": False}


def test_a_seat_that_seals_leaves_the_seats_owed_and_the_round_resolves_when_all_are_in():
    sealed: SealedRound[int] = SealedRound(("p1", "p2"))
    sealed.seal("p2", 7)
    assert sealed.owed() == ("p1",) and sealed.any_in and not sealed.all_in
    assert sealed.has_sealed("p2") and not sealed.has_sealed("p1")
    assert sealed.submitted() == {"p1": False, "p2": True}
    sealed.seal("p1", 0)  # a falsy submission is a submission
    assert sealed.owed() == () and sealed.all_in
    assert list(sealed.reveal().items()) == [("p1", 0), ("p2", 7)]


def test_nothing_is_revealed_before_all_are_in():
    sealed: SealedRound[str] = SealedRound(("p1", "p2"))
    sealed.seal("p1", "play 4")
    with pytest.raises(ValueError, match="waits for"):
        sealed.reveal()


def test_a_second_submission_a_seat_not_asked_and_none_are_refused():
    sealed: SealedRound[int] = SealedRound(("p1",))
    sealed.seal("p1", 3)
    with pytest.raises(ValueError, match="already"):
        sealed.seal("p1", 4)
    with pytest.raises(ValueError, match="not asked"):
        sealed.seal("p2", 4)
    with pytest.raises(ValueError, match="never None"):
        SealedRound[int](("p1",)).seal("p1", None)  # type: ignore[arg-type]
    assert sealed.sealed_by("p1") == 3


def test_a_viewer_sees_its_own_submission_and_the_room_none():
    sealed: SealedRound[str] = SealedRound(("p1", "p2"))
    sealed.seal("p1", "secret")
    assert sealed.sealed_by("p1") == "secret"
    assert sealed.sealed_by("p2") is None  # not in yet
    assert sealed.sealed_by(None) is None  # the room
    assert sealed.sealed_by("p3") is None  # not asked


def test_clear_asks_the_same_seats_again_and_open_asks_others():
    sealed: SealedRound[int] = SealedRound(("p1", "p2"))
    sealed.seal("p1", 1)
    sealed.clear()
    assert sealed.owed() == ("p1", "p2") and not sealed.any_in
    sealed.open(("p2",))
    assert sealed.seats == ("p2",) and sealed.owed() == ("p2",)
    sealed.open(())
    assert sealed.owed() == () and sealed.all_in and sealed.submitted() == {}


def test_the_stored_shape_is_each_seat_asked_with_its_submission_or_none():
    sealed: SealedRound[tuple[int, ...]] = SealedRound(("p1", "p2"))
    sealed.seal("p2", (20, 15))
    stored = sealed.to_dict(list)
    assert stored == {"p1": None, "p2": [20, 15]} and sealed.to_dict() == {"p1": None, "p2": (20, 15)}
    again = SealedRound.from_dict(stored, tuple)
    assert again == sealed and again.owed() == ("p1",) and again.sealed_by("p2") == (20, 15)
    assert SealedRound.from_dict({"p1": False}, bool).all_in  # False is a submission, None is not
    assert SealedRound.from_dict(None, int) == SealedRound.from_dict({}, int) == SealedRound()


def test_a_round_copies_by_pickle_and_is_not_hashable():
    sealed: SealedRound[int] = SealedRound(("p1", "p2"))
    sealed.seal("p1", 5)
    copy = pickle.loads(pickle.dumps(sealed))
    assert copy == sealed and copy is not sealed
    copy.seal("p2", 6)
    assert sealed.owed() == ("p2",)
    assert sealed != {"p1": 5} and repr(sealed) == "SealedRound({'p1': 5, 'p2': None})"
    with pytest.raises(TypeError):
        hash(sealed)


def test_a_sealed_submission_typed_in_the_room_is_refused_with_the_games_words():
    refusal = say("Send your tile to me privately.")
    require_private(True, refusal)
    with pytest.raises(WrongPlaceError) as caught:
        require_private(False, refusal)
    assert caught.value.private is True and str(caught.value) == "Send your tile to me privately."


def test_the_confirmation_goes_to_its_sender_alone():
    event = sealed_event("p2", say("Sealed: {move}.", move=4), move="play 4")
    assert event.seats == frozenset({"p2"}) and event.kind is EventKind.SEALED
    assert list(event.data.items()) == [("seat", "p2"), ("move", "play 4")] and event.text == "Sealed: 4."


# --------------------------------------------------------------------------- the games' sealed rounds

#: States saved mid-round by each game before it kept a SealedRound, what each seat's view showed
#: of the round, and what timing out the seats owed, one by one, said next.
SAVED = json.loads((Path(__file__).parent / "sealed_states.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", sorted(SAVED))
def test_a_state_saved_before_the_sealed_round_loads_shows_and_plays_on_as_it_did(case):
    saved, views, after = SAVED[case]["saved"], SAVED[case]["views"], SAVED[case]["after_timeouts"]
    if saved["game"] not in registry():
        pytest.skip("the example game is not installed")
    game = load(saved)
    assert game.to_dict() == saved  # the stored shape is the one saved before
    for who, shown in views.items():
        view = game.view(None if who == "None" else who)
        if "all_in" in shown:
            view = dict(view, all_in=view["current"]["all_in"])
        assert json.loads(json.dumps({key: view[key] for key in shown})) == shown, who
    events = []
    while game.to_move() and len(events) < 40:
        events += [[e.text, sorted(e.seats) if e.seats else None, str(e.kind)] for e in game.timeout(game.to_move()[0])]
        if game.is_over or (game.name != "allhands" and game.window() is None and not game.to_move()):
            break
        if game.name == "allhands" and game.phase == "task":
            break
    assert events == after
