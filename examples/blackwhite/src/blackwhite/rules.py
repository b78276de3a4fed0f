"""Black and White: nine sealed tiles each, played at the same time; only colours are shown.

Standard library, geniusbot's rules API and its words only (no Pillow, discord or asyncio); the
rules and rulings are in this package's README. The state is the tiles each seat has played, round
by round, the round being sealed now, and who won each round; the rest is derived. Every word is a
message of this package's catalogue domain, ``blackwhite`` (``docs/words.md``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from geniusbot.games import (
    Event,
    EventKind,
    Game,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotYourTurnError,
    Termination,
    other_seat,
)
from geniusbot.games.sealed import SealedRound, require_private, sealed_event
from geniusbot.words import Listing, Message, Seat, Verbatim, say, say_c, say_n

#: The catalogue domain of this game's words: its own package.
DOMAIN = "blackwhite"
#: The tiles each player holds at the start, 0 to 8; one round per tile.
TILES: tuple[int, ...] = tuple(range(9))
ROUNDS = len(TILES)
_PLAY = re.compile(r"^\s*(?:play\s+)?(\d+)\s*[.!]?\s*$", re.IGNORECASE)


def colour(tile: int) -> str:
    """The colour of a tile: even tiles (0, 2, 4, 6, 8) are black, odd ones (1, 3, 5, 7) white."""
    return "black" if tile % 2 == 0 else "white"


#: The colours, as phrases of a message.
COLOUR_WORDS = {"black": say_c("colour", "black", domain=DOMAIN), "white": say_c("colour", "white", domain=DOMAIN)}


class BlackAndWhiteEvent(StrEnum):
    """Black and White's own event kinds (a host treats them as :attr:`EventKind.INFO`)."""

    #: How to play, said when the match starts: ``data["round"]``, the first (1).
    OPENING = "opening"
    #: A seat's tile for this round is in (the room learns that, never which): ``data["seat"]``.
    PLAYED = "played"
    #: Both tiles of a round are in: ``data`` has the ``round``, the ``colors``, the ``winner`` and ``scores``.
    ROUND = "round"
    #: The game is over: ``data["tiles"]``, every tile each seat played, round by round.
    REVEAL = "reveal"


@dataclass(frozen=True)
class Tile(Move):
    """A seat plays one of its tiles this round."""

    tile: int

    def text(self) -> str:
        return f"play {self.tile}"


class BlackAndWhite(Game):
    """Black and White: the higher tile wins the round; the room sees only the colours."""

    name = "blackwhite"
    title = "Black and White"
    aliases = ("black and white", "blackandwhite")
    picture = "blackwhite.picture:render"
    clocks = {"*": "30s+2m"}  # 30 s for each tile, then a reserve of 2 minutes for the whole match
    keywords = frozenset({"play"})
    summary = say(
        "Each player holds nine tiles, 0 to 8: the even ones (0, 2, 4, 6, 8) are black, the odd "
        "ones (1, 3, 5, 7) white. Each round both players play one tile at the same time, sent to "
        "the bot privately (by DM: play 4). When both are in, the room is told the colour of each "
        "tile and who won the round: the higher tile wins a point, equal tiles score nobody. The "
        "numbers stay secret until the game ends. A played tile is gone. After nine rounds (or once "
        "one player leads by more than the rounds left) the most points wins; equal points draw. "
        "A player whose time runs out plays their lowest tile.",
        domain=DOMAIN,
    )

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant)
        self.played: dict[str, list[int]] = {seat: [] for seat in self.seats}
        self.sealed: SealedRound[int] = SealedRound(self.seats)
        self.winners: list[str | None] = []

    def opening_events(self) -> list[Event]:
        """How a tile is sent, before the first round (nothing once the game has begun)."""
        if self.is_over or self.winners or self.sealed.any_in:
            return []
        how = say(
            "Round 1 of {rounds}: each player sends one tile, 0 to 8, to the bot privately, such as play 4.",
            domain=DOMAIN,
            rounds=ROUNDS,
        )
        return [Event.of(how, kind=BlackAndWhiteEvent.OPENING, data={"round": 1})]

    @property
    def round(self) -> int:
        """The round being played (after the last one: the number of rounds played)."""
        return len(self.winners) + (0 if self.is_over else 1)

    def hand(self, seat: str) -> list[int]:
        """The tiles ``seat`` may still play, lowest first."""
        return [t for t in TILES if t not in self.played[seat] and t != self.sealed.sealed_by(seat)]

    def scores(self) -> dict[str, int]:
        return {seat: self.winners.count(seat) for seat in self.seats}

    def to_move(self) -> tuple[str, ...]:
        """Both seats, simultaneously, until each has sealed its tile for the round."""
        return () if self.is_over else self.sealed.owed()

    def is_private(self, move: Move) -> bool:
        """Every tile is sealed: sent privately."""
        return True

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        if not self.is_over and self.sealed.has_sealed(seat):
            first = say(
                "You have played your tile for round {round}; the first one stands. Wait for {seat}.",
                domain=DOMAIN,
                round=self.round,
                seat=Seat(other_seat(seat)),
            )
            raise NotYourTurnError(first)
        self.require_turn(seat)
        match = _PLAY.match(text)
        if not match:
            raise MalformedMoveError(say("Write play and one of your tiles, 0 to 8, such as play 4.", domain=DOMAIN))
        require_private(
            private,
            say(
                "Send your tile to me privately (by direct message), not in the game room: tiles are sealed.",
                domain=DOMAIN,
            ),
        )
        number = match.group(1)
        if len(number) > 1 or int(number) not in TILES:
            raise IllegalMoveError(
                say("There is no tile {number}; the tiles are 0 to 8.", domain=DOMAIN, number=Verbatim(number))
            )
        tile, hand = int(number), self.hand(seat)
        if tile not in hand:
            raise IllegalMoveError(
                say(
                    "You have played your {tile} already; play one of your tiles left: {left}.",
                    domain=DOMAIN,
                    tile=tile,
                    left=Listing(tuple(hand)),
                )
            )
        return Tile(seat, tile)

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        movers = self.to_move()
        for mover in [s for s in movers if seat in (None, s)]:
            yield from (Tile(mover, tile) for tile in self.hand(mover))

    def play(self, move: Move) -> list[Event]:
        """Seal a tile; once both are in, reveal the round's colours and score it."""
        if not isinstance(move, Tile) or self.parse_move(move.text(), move.seat, private=True) != move:
            raise IllegalMoveError(
                say("That is not a tile you can play now; send play and a tile, such as play 4.", domain=DOMAIN)
            )
        said = say("Sealed: {move}.", domain=DOMAIN, move=Verbatim(move.text()))
        return [sealed_event(move.seat, said, move=move.text()), *self._seal(move.seat, move.tile)]

    def timeout(self, seat: str) -> list[Event]:
        """A seat whose time runs out plays its lowest tile left (the ruling: time never loses here)."""
        self.require_seat(seat)
        if self.is_over or seat not in self.to_move():
            return []
        said = say("{seat} ran out of time; their lowest tile is played for them.", domain=DOMAIN, seat=Seat(seat))
        return [Event.of(said, kind=EventKind.TIMEOUT, data={"seat": seat, "timeout": True}), *self._seal(seat)]

    def _seal(self, seat: str, tile: int | None = None) -> list[Event]:
        """Seal ``seat``'s tile (its lowest, on a timeout); resolve the round once both are in."""
        self.sealed.seal(seat, self.hand(seat)[0] if tile is None else tile)
        if self.sealed.all_in:
            return self._resolve()
        played = say("{seat} has played a tile.", domain=DOMAIN, seat=Seat(seat))
        return [Event.of(played, kind=BlackAndWhiteEvent.PLAYED, data={"seat": seat})]

    def _resolve(self) -> list[Event]:
        """Both tiles are in: score the round, say the colours, and end the game if it is decided."""
        tiles = self.sealed.reveal()
        self.sealed.clear()
        winner = None if tiles["p1"] == tiles["p2"] else max(self.seats, key=tiles.__getitem__)
        for seat in self.seats:
            self.played[seat].append(tiles[seat])
        self.winners.append(winner)
        number, scores = len(self.winners), self.scores()
        shown: dict[str, Any] = {"round": number, **{s: Seat(s) for s in self.seats}}
        for s in self.seats:
            shown |= {f"{s}_colour": COLOUR_WORDS[colour(tiles[s])], f"{s}_score": scores[s]}
        if winner:
            said = say(
                "Round {round}: {p1} played {p1_colour}, {p2} played {p2_colour}; {seat} wins the round. "
                "Score: {p1} {p1_score}, {p2} {p2_score}.",
                domain=DOMAIN,
                seat=Seat(winner),
                **shown,
            )
        else:
            said = say(
                "Round {round}: {p1} played {p1_colour}, {p2} played {p2_colour}; the tiles are equal and nobody "
                "scores. Score: {p1} {p1_score}, {p2} {p2_score}.",
                domain=DOMAIN,
                **shown,
            )
        colors = {seat: colour(tiles[seat]) for seat in self.seats}
        data = {"round": number, "colors": colors, "winner": winner, "scores": scores}
        events = [Event.of(said, kind=BlackAndWhiteEvent.ROUND, data=data)]
        left, lead = ROUNDS - number, abs(scores["p1"] - scores["p2"])
        return events + (self._finish(scores, left) if not left or lead > left else [])

    def _finish(self, scores: dict[str, int], left: int) -> list[Event]:
        most, least = max(scores.values()), min(scores.values())
        winner = None if most == least else max(self.seats, key=scores.__getitem__)
        reveal = say(
            "The tiles, round by round: {p1} {p1_tiles}; {p2} {p2_tiles}.",
            domain=DOMAIN,
            **{s: Seat(s) for s in self.seats},
            **{f"{s}_tiles": Verbatim(" ".join(map(str, self.played[s]))) for s in self.seats},
        )
        tiles = {seat: list(self.played[seat]) for seat in self.seats}
        if winner is None:
            how = say_n(
                "{p1} and {p2} won {n} round each",
                "{p1} and {p2} won {n} rounds each",
                domain=DOMAIN,
                p1=Seat("p1"),
                p2=Seat("p2"),
                n=most,
            )
        elif left:
            how = say(
                "{seat} leads {most} rounds to {least} with {left} left to play, more than {other} can make up",
                domain=DOMAIN,
                seat=Seat(winner),
                most=most,
                least=least,
                left=left,
                other=Seat(other_seat(winner)),
            )
        else:
            how = say_n(
                "{seat} won {n} round to {least}",
                "{seat} won {n} rounds to {least}",
                domain=DOMAIN,
                seat=Seat(winner),
                n=most,
                least=least,
            )
        ending = self.end(winner, Termination.POINTS, how, scores=scores, rounds=len(self.winners))
        return [Event.of(reveal, kind=BlackAndWhiteEvent.REVEAL, data={"tiles": tiles}), *ending]

    def view(self, seat: str | None = None) -> dict[str, Any]:
        """The room sees the colours, the winners and who has played this round, and how many tiles
        of each colour each seat holds; a seat sees its own tiles too; once the game is over
        everyone sees every tile."""
        played = self.played
        view: dict[str, Any] = {
            **self.base_view(),
            "round": self.round,
            "rounds_total": ROUNDS,
            "rounds": [
                {"p1": colour(played["p1"][k]), "p2": colour(played["p2"][k]), "winner": won}
                for k, won in enumerate(self.winners)
            ],
            "scores": self.scores(),
            "played": self.sealed.submitted(),
            "left": {
                s: {c: sum(1 for t in TILES if t not in played[s] and colour(t) == c) for c in ("black", "white")}
                for s in self.seats
            },
        }
        if seat in self.seats:
            sealed = self.sealed.sealed_by(seat)
            view.update(seat=seat, hand=self.hand(seat), mine=list(played[seat]), sealed=sealed)
            last = sealed if sealed is not None else (played[seat][-1] if played[seat] else None)
            view["last_move"] = None if last is None else f"play {last}"
        if self.is_over:
            view["tiles"] = {s: list(played[s]) for s in self.seats}
        return view

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        from .text import board_lines

        return board_lines(view)

    def state_dict(self) -> dict[str, Any]:
        played = {s: list(v) for s, v in self.played.items()}
        return {"played": played, "sealed": self.sealed.to_dict(), "winners": list(self.winners)}

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.played = {s: [int(t) for t in data["played"][s]] for s in self.seats}
        self.sealed = SealedRound.from_dict(data["sealed"], int)
        self.winners = list(data["winners"])
