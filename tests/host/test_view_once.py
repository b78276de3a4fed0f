"""One view per action: an accepted move builds the public view once and each seat's own view at
most once, however many things show that state (the room's board and its picture, the private
views, the choice offers that Discord turns into buttons, in the room and by DM). The check is
:func:`geniusbot.conformance.hosted.check_views_once` (``geniusbot check GAME``: views-once);
that a game of perfect information shows every seat the public view (what lets the host build
no seat's own view of it) is an invariant of the random-play check, after every action."""

from __future__ import annotations

import pytest

from geniusbot.conformance.hosted import check_views_once, counted_views
from geniusbot.games import get_game, new_game, registry
from geniusbot.storage import Store


@pytest.mark.parametrize("pictures", [True, False], ids=["picture", "text"])
@pytest.mark.parametrize("name", sorted(registry()))
async def test_an_accepted_move_builds_each_view_once(store: Store, name, pictures):
    await check_views_once(store, registry()[name], pictures)


def test_the_count_is_of_outermost_calls_and_the_classes_get_their_own_view_back():
    cls = get_game("tictacfive")
    own = cls.__dict__.get("view")
    game = new_game("tictacfive", seed=1)
    with counted_views(registry()) as built:
        game.view(None)
        game.view("p1")
        game.view(None)
    assert built == {None: 2, "p1": 1}
    assert cls.__dict__.get("view") is own
    game.view(None)
    assert built == {None: 2, "p1": 1}
