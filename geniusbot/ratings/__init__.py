"""Glicko-2 ratings: the arithmetic of one rated match, and nothing else (no database, no Discord).

The steps of Glickman's Glicko-2 (rating, deviation, volatility; system constant ``TAU``) are the
``glicko2`` package's. One of them is corrected here: its volatility iteration (step 5's ``f``)
squares the player's rating where the paper squares the rating deviation, which the paper's worked
example cannot show (its player is rated 1500, which is 0 on the Glicko-2 scale).
:func:`rate_match` takes one match as one rating period for each player, each rated against the
other's rating from before the match (``docs/ratings.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

# The package ships no types; said here, not in pyproject.toml, so that a plug-in's own strict
# check, which reads this module through geniusbot's py.typed, passes too.
import glicko2  # type: ignore[import-untyped]

#: A player's first rating, deviation and volatility (the paper's suggestions).
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
#: The system constant: how much the volatility may change (the paper suggests 0.3 to 1.2).
TAU = 0.5
#: A rating is provisional while its deviation is at least this (lichess's bound).
PROVISIONAL_RD = 110.0

#: What the first seat scores: a win, a draw, a loss.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale: ``rating`` (1500 to start), ``rd`` its
    deviation, ``volatility``."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain: its deviation has not fallen below :data:`PROVISIONAL_RD`."""
        return self.rd >= PROVISIONAL_RD


class _Player(glicko2.Player):  # type: ignore[misc]  # the package ships no types
    """The package's player, with step 5's ``f`` as the paper writes it (``phi``, not ``mu``)."""

    _tau = TAU

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        phi2: float = self._Player__rd**2
        ex = math.exp(x)
        return ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / TAU**2


def rate_period(player: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """``player``'s rating after one rating period of ``games`` (each an opponent's rating and
    ``player``'s score against it: 1, 0.5 or 0). No games: step 6 alone (the deviation grows)."""
    kept: Any = _Player(player.rating, player.rd, player.volatility)
    if games:
        kept.update_player([g.rating for g, _ in games], [g.rd for g, _ in games], [score for _, score in games])
    else:
        kept.did_not_compete()
    return Rating(float(kept.rating), float(kept.rd), float(kept.vol))


def rate_match(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one match between them, ``score`` the first's (1, 0.5 or 0):
    one rating period each, against the other's rating from before the match."""
    if score not in (WIN, DRAW, LOSS):
        raise ValueError(f"a score is 1, 0.5 or 0, not {score!r}")
    return rate_period(first, [(second, score)]), rate_period(second, [(first, 1.0 - score)])


__all__ = [
    "DRAW",
    "LOSS",
    "PROVISIONAL_RD",
    "START_RATING",
    "START_RD",
    "START_VOLATILITY",
    "TAU",
    "WIN",
    "Rating",
    "rate_match",
    "rate_period",
]
