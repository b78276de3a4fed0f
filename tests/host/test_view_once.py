"""One view per action: an accepted move builds the public view once and each seat's own view at
most once, however many things show that state (the room's board and its picture, the private
views, the choice offers that Discord turns into buttons, in the room and by DM)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from geniusbot.games import Game, get_game, registry
from geniusbot.host.match import Host
from geniusbot.host.offers import choice_offer, private_choice_offers
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import MatchStatus, Store
from tests.host.support import FakeTime

PLAYERS = [Player("p1", 11, "Alice"), Player("p2", 22, "Bob")]


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str | None]]:
    """Every game class's ``view``, counted: seat (``None``: public) -> calls since the last clear.
    Only the outermost call counts (a final match's view holds its task's)."""
    calls: Counter[str | None] = Counter()
    depth = [0]
    for name in registry():
        cls = get_game(name)
        real = cls.__dict__.get("view") or cls.view

        def counted(self: Game, seat: str | None = None, *, _real=real):  # type: ignore[no-untyped-def]
            if depth[0] == 0:
                calls[seat] += 1
            depth[0] += 1
            try:
                return _real(self, seat)
            finally:
                depth[0] -= 1

        monkeypatch.setattr(cls, "view", counted)
    # The task classes of a final match are registered games too; their views inside the
    # final's are nested calls, which do not count.
    yield calls


async def refresh_choices(host: Host, match_id: int) -> None:
    """What the Discord cog does after each action: the choice offers, from the action's view."""
    live = await host.load(match_id)
    assert live is not None
    if live.status == MatchStatus.LIVE:
        view = host.views(live).public
        choice_offer(live.game, view)
        private_choice_offers(live.game, view)


@pytest.mark.parametrize("pictures", [True, False], ids=["picture", "text"])
@pytest.mark.parametrize("name", sorted(registry()))
async def test_an_accepted_move_builds_each_view_once(store: Store, built, name, pictures):
    clock = FakeTime()
    host = Host(store, RecordingTransport(), now=clock, pictures=pictures, heartbeat=0)
    rng = random.Random(name)
    match_id = None
    moves = 0
    for room in range(700, 800):
        if moves >= 10:
            break
        if match_id not in host.matches:  # none yet, or over: the next match
            reply = await host.start_match(name, players=PLAYERS, seed=room, clock="none", channel_id=room)
            assert reply.ok, reply.message
            match_id = reply.match_id
        game = host.matches[match_id].game
        if game.window() is not None and not game.to_move():
            await host.command(match_id, "close window")
            continue
        seat = rng.choice(game.to_move())
        move = rng.choice(list(itertools.islice(game.legal_moves(seat), 200)))
        built.clear()
        done = await host.submit(match_id, seat, move.text(), private=game.is_private(move))
        assert done.ok, done.message
        await refresh_choices(host, match_id)
        moves += 1
        assert built[None] == 1, (move.text(), dict(built))
        assert all(built[s] <= 1 for s in ("p1", "p2")), (move.text(), dict(built))
        if get_game(name).perfect_information:  # every seat's view is the room's
            assert set(built) == {None}, (move.text(), dict(built))
        assert set(built) <= {None, "p1", "p2"}
    assert moves >= 10


@pytest.mark.parametrize("name", [n for n in sorted(registry()) if get_game(n).perfect_information])
def test_a_game_of_perfect_information_shows_every_seat_the_public_view(name):
    """What lets the host build no seat's own view of such a game (one view a move in all)."""
    rng = random.Random(name)
    for seed in range(3):
        game = get_game(name).new(seed=seed)
        for _ in range(60):
            assert all(game.view(seat) == game.view(None) for seat in game.seats)
            if game.is_over:
                break
            seat = rng.choice(game.to_move())
            game.play(rng.choice(list(itertools.islice(game.legal_moves(seat), 200))))
