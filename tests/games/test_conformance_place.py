"""Conformance over every registered game (the plug-ins too): moves sent to the wrong place, and
timeouts of clocks that are not running; the checks are :mod:`geniusbot.conformance.rules`'
(``geniusbot check GAME`` runs them as ``wrong-place`` and ``stopped-clock``).

* A move is made where the game says: a legal move sent the other way (a room move by DM, a
  sealed move in the room) is refused with :class:`WrongPlaceError`, whose ``private`` says
  where it belongs, and changes nothing.
* Only a running clock runs out: a record's ``host: timeout p2`` while p2 is not to move (or
  while a timed window is open, when no clock runs) is rejected by the adjudicator and changes
  nothing; a timeout of a seat to move is taken.
"""

from __future__ import annotations

import pytest

from geniusbot.conformance import rules
from geniusbot.games import registry

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant}") for name, cls in registry().items() for variant in cls.variants
]


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_a_legal_move_sent_to_the_wrong_place_is_refused_and_says_where_it_belongs(name, variant):
    rules.check_wrong_place(registry()[name], variant)


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_a_timeout_is_taken_only_for_a_seat_whose_clock_runs(name, variant):
    rules.check_running_clock(registry()[name], variant)
