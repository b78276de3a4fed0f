"""Sealed moves are searched as sealed: the seat that answers cannot see the move it answers.

The game below is the smallest where this decides the move. Both seats seal at once. The guesser
(p2) names a door, a, b or c. The hider (p1) hides behind a door, or stays out (``out``, a
draw). A hider found loses, a hider not found wins. Sealed, hiding wins two times in three
against a guesser who cannot see the hider's choice, better than the draw of staying out. A
search that let the guesser see the hider's sealed move would find every hider and stay out.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from geniusbot.games import (
    Event,
    Game,
    IllegalMoveError,
    Move,
    NotYourTurnError,
    Termination,
    register,
    unregister,
)
from geniusbot.practice import LEVELS, Budget, Knowledge, choose

DOORS = ("a", "b", "c")


@dataclass(frozen=True)
class Seal(Move):
    choice: str

    def text(self) -> str:
        return self.choice


class HideAndGuess(Game):
    """p1 hides behind one of three doors or stays out; p2 guesses a door; both sealed."""

    name = "hideandguess"
    title = "Hide and Guess"

    def setup(self, **options: str) -> None:
        self.sealed: dict[str, str | None] = dict.fromkeys(self.seats, None)

    def to_move(self) -> tuple[str, ...]:
        if self.is_over:
            return ()
        return tuple(s for s in self.seats if self.sealed[s] is None)

    def is_private(self, move: Move) -> bool:
        return True

    def choices(self, seat: str) -> tuple[str, ...]:
        return (*DOORS, "out") if seat == "p1" else DOORS

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        self.require_seat(seat)
        if seat not in self.to_move():
            raise NotYourTurnError("You have sealed your choice.")
        if text not in self.choices(seat):
            raise IllegalMoveError(f"Choose one of: {', '.join(self.choices(seat))}.")
        return Seal(seat, text)

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        for mover in self.to_move():
            if seat in (None, mover):
                for choice in self.choices(mover):
                    yield Seal(mover, choice)

    def play(self, move: Move) -> list[Event]:
        assert isinstance(move, Seal) and self.is_legal(move)
        self.sealed[move.seat] = move.choice
        hider, guess = self.sealed["p1"], self.sealed["p2"]
        if hider is None or guess is None:
            return []
        if hider == "out":
            return self.end(None, Termination.POINTS, "the hider stayed out")
        found = hider == guess
        return self.end("p2" if found else "p1", Termination.POINTS, "found" if found else "not found")

    def view(self, seat: str | None = None) -> Mapping[str, Any]:
        view: dict[str, Any] = {
            **self.base_view(),
            "last_move": None,
            "in": {s: v is not None for s, v in self.sealed.items()},
        }
        if seat in self.seats:
            view["sealed"] = self.sealed[seat]
        return view

    def state_dict(self) -> dict[str, Any]:
        return {"sealed": dict(self.sealed)}

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.sealed = dict(data["sealed"])

    @classmethod
    def determinize(
        cls, seat: str, views: Sequence[Mapping[str, Any]], rng: random.Random, **options: str
    ) -> Game | None:
        game = cls.new(seed=0)
        other = "p2" if seat == "p1" else "p1"
        if views[-1]["in"][other]:
            game.sealed[other] = rng.choice(game.choices(other))
        return game


@pytest.fixture
def hide_and_guess() -> Iterator[type[HideAndGuess]]:
    register(HideAndGuess)
    yield HideAndGuess
    unregister(HideAndGuess.name)


def test_a_sealed_move_is_searched_as_one_the_other_seat_cannot_see(hide_and_guess):
    game = hide_and_guess.new(seed=0)
    knowledge = Knowledge(game.name, game.variant, {}, "p1", [game.view("p1")])
    hidden = [choose(knowledge, Budget(256), seed=seed).text for seed in range(6)]
    assert all(choice in DOORS for choice in hidden), hidden


class LazyGuess(HideAndGuess):
    """Hide and Guess whose play-out policy guesses door a, every time, and says it is a fair
    picture of the guesser."""

    name = "lazyguess"
    title = "Lazy Guess"
    answers_by_policy = True

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        return Seal(seat, "a") if seat == "p2" and seat in self.to_move() else None


class UndeclaredLazyGuess(LazyGuess):
    """The same policy, not declared a picture of the guesser."""

    name = "lazyundeclared"
    title = "Lazy Guess, undeclared"
    answers_by_policy = False


@pytest.fixture
def lazy_guesses() -> Iterator[tuple[type[LazyGuess], type[LazyGuess]]]:
    for cls in (LazyGuess, UndeclaredLazyGuess):
        register(cls)
    yield LazyGuess, UndeclaredLazyGuess
    for cls in (LazyGuess, UndeclaredLazyGuess):
        unregister(cls.name)


def _hider_choices(cls: type[Game], budget: Budget) -> list[str]:
    game = cls.new(seed=0)
    knowledge = Knowledge(game.name, game.variant, {}, "p1", [game.view("p1")])
    return [choose(knowledge, budget, seed=seed).text for seed in range(12)]


def test_easy_and_normal_hide_from_the_guesser_the_policy_pictures(lazy_guesses):
    lazy, _ = lazy_guesses
    for level in ("easy", "normal"):
        hidden = _hider_choices(lazy, LEVELS[level])
        assert set(hidden) <= {"b", "c"}, (level, hidden)


def test_hard_searches_the_guessers_answers_so_door_a_is_no_safer_than_another(lazy_guesses):
    lazy, _ = lazy_guesses
    assert not LEVELS["hard"].modelled
    hidden = _hider_choices(lazy, LEVELS["hard"])
    assert "a" in hidden and set(hidden) <= set(DOORS), hidden


def test_a_game_that_does_not_declare_its_policy_a_picture_has_its_answers_searched_at_every_level(lazy_guesses):
    _, undeclared = lazy_guesses
    modelled = _hider_choices(undeclared, Budget(32, modelled=True))
    assert modelled == _hider_choices(undeclared, Budget(32))
    assert "a" in modelled
