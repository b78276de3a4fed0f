"""Random positions of the games the practice opponent plays, with what each seat has seen."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from geniusbot.games import Game, get_game
from geniusbot.practice import Knowledge
from geniusbot.record import ActionKind, GameAction, host_action

#: Every game and rule set (and, for Tile Decklaration, sets of anomalies) the opponent plays.
CASES: list[tuple[str, str | None, dict[str, str]]] = [
    ("tictacfive", None, {}),
    ("armslength", None, {}),
    ("tightwire", "classic", {}),
    ("tightwire", "influx", {}),
    ("tightwire", "fate", {}),
    ("tiles", None, {}),
    ("tiles", None, {"anomalies": "landmine"}),
    ("tiles", None, {"anomalies": "chain,implode,landmine,rainbow,rectangle-adverse"}),
    ("decks", None, {}),
    ("decks", None, {"anomalies": "backup,darkness,overshadow"}),
    ("decks", None, {"anomalies": "darkness,pick-your-prize,revolution"}),
    ("swabbing", None, {}),
    ("swabbing", None, {"anomalies": "snipe,hook"}),
    ("swabbing", None, {"anomalies": "linear,pyramid,unique,snipe"}),
    ("allhands", None, {"items": "p1 all-in override; p2 clock all-in override"}),
]


def case_id(case: tuple[str, str | None, dict[str, str]]) -> str:
    name, variant, options = case
    return "-".join([name, variant or "", options.get("anomalies", "")]).strip("-").replace(",", "+")


class Match:
    """A game played on, with the views each seat saw and the public actions."""

    def __init__(self, name: str, variant: str | None, options: dict[str, str], seed: int) -> None:
        self.game: Game = get_game(name).new(seed=seed, variant=variant, **options)
        self.options = options
        self.actions: list[GameAction] = []
        self.views: dict[str, list[Any]] = {seat: [] for seat in self.game.seats}
        self.look()

    def look(self) -> None:
        for seat, seen in self.views.items():
            view = self.game.view(seat)
            if not seen or seen[-1] != view:
                seen.append(view)

    def knowledge(self, seat: str) -> Knowledge:
        game = self.game
        if game.perfect_information:
            return Knowledge(
                game.name, game.variant, self.options, seat, list(self.views[seat]), game.seed, list(self.actions)
            )
        return Knowledge(game.name, game.variant, self.options, seat, list(self.views[seat]))

    def play(self, text: str, seat: str, private: bool) -> None:
        self.game.submit(text, seat, private=private)
        self.actions.append(GameAction(ActionKind.MOVE, seat, text, private))
        self.look()

    def random_move(self, seat: str, rng: random.Random) -> tuple[str, bool]:
        move = self.game.rollout_move(seat, rng)
        if move is None:
            move = rng.choice(list(self.game.legal_moves(seat)))
        return move.text(), self.game.is_private(move)

    def positions(self, rng: random.Random, limit: int = 200) -> Iterator[str]:
        """Play random moves on; yield the seat to move at each position (windows closed)."""
        for _ in range(limit):
            if self.game.is_over:
                return
            if not self.game.to_move():
                self.game.close_window()
                self.actions.append(host_action(ActionKind.WINDOW))
                self.look()
                continue
            seat = self.game.to_move()[0]
            yield seat
            if self.game.is_over or seat not in self.game.to_move():
                continue
            text, private = self.random_move(seat, rng)
            self.play(text, seat, private)
