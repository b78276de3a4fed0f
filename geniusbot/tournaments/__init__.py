"""Tournament formats: who plays whom in each round, byes, and the standings with their tie-breaks.
Pure functions of the players (by seed) and the games played; no database, no Discord.

Swiss rounds are paired by the FIDE Dutch system of ``py4swiss`` (bbpPairings' rules and its
matching, compiled; its pairings equal bbpPairings' own, checked by us too: bench/README.md), and
round robins by the FIDE Berger tables of ``caissify-pairings``. A game's first player is the one
the pairing gives white: seat ``p1``. Rules of each format (docs/tournaments.md):

* a bye scores a win (1); a Swiss round that cannot be paired without a rematch is not paired
  (the tournament ends there);
* a withdrawn player is paired no more, and a game against one that is
  still to be paired (round robin) is won by the opponent (a forfeit, stored as a bye's score);
* single elimination: a bracket the size of the next power of two, the top seeds given the byes;
  the winner goes on, and a drawn game sends the better seed on;
* double elimination: a player is out after a second loss (a draw is a loss for the worse seed);
  each round the unbeaten meet the unbeaten and the once-beaten meet the once-beaten (the best
  seed against the worst it has not met), until one unbeaten and one once-beaten are left: they
  meet in the final, played again if the unbeaten loses it; the lowest seed without a bye has
  the bye of an odd group;
* standings: points, then (Swiss, round robin) Buchholz (the opponents' points), then
  Sonneborn-Berger (the points of the opponents beaten, half those drawn with), then seed.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

# The packages ship no py.typed; said here, not in pyproject.toml (as geniusbot.ratings says of glicko2).
from caissify_pairings import generate_pairings  # type: ignore[import-untyped]
from py4swiss.engines import DutchEngine  # type: ignore[import-untyped]
from py4swiss.engines.common.exceptions import PairingError  # type: ignore[import-untyped]
from py4swiss.trf import ParsedTrf  # type: ignore[import-untyped]
from py4swiss.trf.codes import PlayerCode  # type: ignore[import-untyped]
from py4swiss.trf.results import RoundResult  # type: ignore[import-untyped]
from py4swiss.trf.sections import PlayerSection, XSection  # type: ignore[import-untyped]

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
SINGLE_ELIMINATION = "single_elimination"
DOUBLE_ELIMINATION = "double_elimination"
FORMATS = (SWISS, ROUND_ROBIN, SINGLE_ELIMINATION, DOUBLE_ELIMINATION)

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Game:
    """One pairing of a round: ``first`` (p1) against ``second`` (p2; ``None``: a bye), and the
    first player's score (1, 0.5, 0; ``None`` while it is played)."""

    round: int
    first: int
    second: int | None
    score: float | None = None

    @property
    def bye(self) -> bool:
        return self.second is None

    def score_of(self, player: int) -> float | None:
        """The score ``player`` made in this game (``None`` while it is played)."""
        if self.score is None:
            return None
        return self.score if player == self.first else 1.0 - self.score

    def opponent(self, player: int) -> int | None:
        return self.second if player == self.first else self.first

    def winner(self, seeds: Sequence[int]) -> int | None:
        """Who goes on in an elimination (a draw: the better seed); ``None`` while it is played."""
        if self.score is None:
            return None
        if self.second is None or self.score == WIN:
            return self.first
        if self.score == LOSS:
            return self.second
        return min((self.first, self.second), key=seeds.index)


@dataclass(frozen=True)
class Row:
    """A player's line of the standings."""

    place: int
    player: int
    points: float
    buchholz: float
    sonneborn: float
    played: int


def rounds_of(form: str, players: int, swiss_rounds: int | None = None) -> int:
    """How many rounds a tournament of ``players`` plays."""
    if form == SWISS:
        return max(1, min(swiss_rounds or math.ceil(math.log2(max(players, 2))), max(players - 1, 1)))
    if form == ROUND_ROBIN:
        return players - 1 if players % 2 == 0 else players
    if form == DOUBLE_ELIMINATION:  # at most: it ends when one player is left
        return 2 * math.ceil(math.log2(max(players, 2))) + 2
    return max(1, math.ceil(math.log2(max(players, 2))))


def points(games: Iterable[Game]) -> dict[int, float]:
    """Each player's points from the scored games."""
    total: dict[int, float] = {}
    for game in games:
        for player in (game.first, game.second):
            if player is not None:
                total[player] = total.get(player, 0.0) + (game.score_of(player) or 0.0)
    return total


def _engine_players(seeds: Sequence[int], games: Sequence[Game]) -> list[dict[str, object]]:
    """The players as the pairing engine reads them: score, colours, floats and byes so far."""
    total = points(games)
    before: dict[int, dict[int, float]] = {}  # round -> points before it
    for number in sorted({g.round for g in games}):
        before[number] = points(g for g in games if g.round < number)
    rows = []
    for seed, player in enumerate(seeds, 1):
        mine = sorted((g for g in games if player in (g.first, g.second)), key=lambda g: g.round)
        colours, floats = [], []
        for game in mine:
            other = game.opponent(player)
            colours.append("none" if other is None else "white" if game.first == player else "black")
            if other is None:
                floats.append("down")
            else:
                own, theirs = before[game.round].get(player, 0.0), before[game.round].get(other, 0.0)
                floats.append("down" if own > theirs else "up" if own < theirs else "none")
        rows.append(
            {
                "id": player,
                "name": str(player),
                "score": total.get(player, 0.0),
                "rating": 3000 - seed,
                "starting_number": seed,
                "color_hist": colours,
                "float_history": floats,
                "bye_count": sum(1 for g in mine if g.bye),
            }
        )
    return rows


def _pairs(result: list[dict[str, object]]) -> list[tuple[int, int | None]]:
    out: list[tuple[int, int | None]] = []
    for row in sorted(result, key=lambda r: (bool(r.get("bye")), int(str(r["table"])))):
        black = row.get("black_id")
        out.append((int(str(row["white_id"])), None if black is None else int(str(black))))
    return out


#: A round's result as a TRF writes it: a win, a draw, a loss (the opponent's number and the
#: side before it), the pairing-allocated bye (a point), a zero-point bye (no game: withdrawn).
_RESULTS = {WIN: "1", DRAW: "=", LOSS: "0"}
_BYE, _ABSENT = "0000 - U", "0000 - Z"


def _trf(seeds: Sequence[int], active: Sequence[int], games: Sequence[Game], number: int, rounds: int) -> ParsedTrf:
    """The tournament so far as the pairing engine reads it (a TRF's players and rounds): the
    starting number is the seed; a bye is the pairing-allocated bye (a point), a round a player
    has no game in (withdrawn) a zero-point bye; the withdrawn are left out of the next round."""
    start = {player: seed for seed, player in enumerate(seeds, 1)}
    total = points(games)
    played: dict[tuple[int, int], Game] = {}
    for each in games:
        for player in (each.first, each.second):
            if player is not None:
                played[(each.round, player)] = each
    players = []
    for player in seeds:
        results = []
        for number_ in range(1, number):
            game = played.get((number_, player))
            other = None if game is None else game.opponent(player)
            score = None if game is None else game.score_of(player)
            if game is None or other is None or score is None:
                results.append(RoundResult.from_string(_ABSENT if game is None else _BYE))
                continue
            side = "w" if game.first == player else "b"
            results.append(RoundResult.from_string(f"{start[other]:>4} {side} {_RESULTS[score]}"))
        players.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=start[player],
                fide_rating=3000 - start[player],
                points_times_ten=round(10 * total.get(player, 0.0)),
                rank=start[player],
                results=results,
            )
        )
    keep = set(active)
    left = {start[p] for p in seeds if p not in keep}
    return ParsedTrf(player_sections=players, x_section=XSection(number_of_rounds=max(rounds, number), zeroed_ids=left))


def pair_swiss(
    seeds: Sequence[int], active: Sequence[int], games: Sequence[Game], number: int, rounds: int
) -> list[tuple[int, int | None]]:
    """Round ``number``'s pairings of the ``active`` players (the bye last): the Dutch system;
    none when the round cannot be paired (every pairing left would be a rematch)."""
    try:
        found = DutchEngine.generate_pairings(_trf(seeds, active, games, number, rounds))
    except PairingError:
        return []
    pairs: list[tuple[int, int | None]] = [(seeds[p.white - 1], seeds[p.black - 1]) for p in found if p.black]
    return pairs + [(seeds[p.white - 1], None) for p in found if not p.black]


def pair_round_robin(seeds: Sequence[int], active: Sequence[int], number: int) -> list[tuple[int, int | None]]:
    """Round ``number``'s pairings by the Berger tables of the whole field (its seeds): a game
    against a withdrawn player is given to the other as a bye; two withdrawn players play nothing."""
    players = _engine_players(seeds, [])
    result = generate_pairings(
        system="round_robin",
        players=players,
        previous_pairings=set(),
        round_number=number,
        total_rounds=rounds_of(ROUND_ROBIN, len(seeds)),
    )
    keep = set(active)
    out: list[tuple[int, int | None]] = []
    for first, second in _pairs(result):
        here = [p for p in (first, second) if p is not None and p in keep]
        if len(here) == 2:
            out.append((first, second))
        elif here:
            out.append((here[0], None))
    return out


def bracket(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` (a power of two) in the order they meet: 1, 8, 4, 5, ..."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def pair_elimination(
    seeds: Sequence[int], active: Sequence[int], games: Sequence[Game], number: int
) -> list[tuple[int, int | None]]:
    """Round ``number``'s games of a single elimination: round 1 by the bracket (the top seeds
    get the byes), then the winners of neighbouring games; a withdrawn player's opponent has a bye."""
    keep = set(active)
    if number == 1:
        size = 2 ** math.ceil(math.log2(max(len(seeds), 2)))
        order = [seeds[s - 1] if s <= len(seeds) else None for s in bracket(size)]
        field: list[int | None] = order
    else:
        last = sorted((g for g in games if g.round == number - 1), key=lambda g: _slot(g, games))
        field = [g.winner(seeds) for g in last]
    out: list[tuple[int, int | None]] = []
    for i in range(0, len(field), 2):
        here = [p for p in field[i : i + 2] if p is not None and p in keep]
        if len(here) == 2:
            out.append((here[0], here[1]))
        elif here:
            out.append((here[0], None))
    return out


def _slot(game: Game, games: Sequence[Game]) -> int:
    """Where a game stands in its round's bracket: the order it was paired in."""
    return [g for g in games if g.round == game.round].index(game)


def losses(seeds: Sequence[int], games: Iterable[Game]) -> dict[int, int]:
    """Each player's lost games in an elimination (a bye is no game; a draw: the worse seed's loss)."""
    lost = dict.fromkeys(seeds, 0)
    for game in games:
        winner = game.winner(seeds)
        if winner is not None and game.second is not None:
            loser = game.second if winner == game.first else game.first
            lost[loser] = lost.get(loser, 0) + 1
    return lost


def _pair_group(group: list[int], seeds: Sequence[int], games: Sequence[Game]) -> list[tuple[int, int | None]]:
    """The best seed against the worst it has not met, down the group; an odd group's bye (last)
    to its lowest seed without one."""
    group = sorted(group, key=seeds.index)
    bye: list[tuple[int, int | None]] = []
    if len(group) % 2:
        had = {g.first for g in games if g.bye}
        lone = next((p for p in reversed(group) if p not in had), group[-1])
        group.remove(lone)
        bye.append((lone, None))
    met = {frozenset((g.first, g.second)) for g in games if g.second is not None}
    out: list[tuple[int, int | None]] = []
    while group:
        best = group.pop(0)
        other = next((p for p in reversed(group) if frozenset((best, p)) not in met), group[-1])
        group.remove(other)
        out.append((best, other))
    return out + bye


def pair_double(
    seeds: Sequence[int], active: Sequence[int], games: Sequence[Game], number: int
) -> list[tuple[int, int | None]]:
    """Round ``number``'s games of a double elimination (see the module's rules)."""
    lost = losses(seeds, games)
    alive = [p for p in seeds if p in set(active) and lost.get(p, 0) < 2]
    unbeaten = [p for p in alive if lost.get(p, 0) == 0]
    beaten = [p for p in alive if lost.get(p, 0) == 1]
    if len(alive) < 2:
        return []
    if len(unbeaten) <= 1 and len(beaten) <= 1:
        return [(alive[0], alive[1])]  # the final (again, if the unbeaten lost it)
    pairs = _pair_group(unbeaten, seeds, games) + _pair_group(beaten, seeds, games)
    return [p for p in pairs if p[1] is not None] + [p for p in pairs if p[1] is None]


def champion(seeds: Sequence[int], games: Sequence[Game], rounds: int) -> int | None:
    """The winner of a single elimination once its last round is scored."""
    final = [g for g in games if g.round == rounds]
    return final[0].winner(seeds) if len(final) == 1 else None


def standings(form: str, seeds: Sequence[int], games: Sequence[Game], withdrawn: Collection[int] = ()) -> list[Row]:
    """The standings, best first (see the module's rules; in a double elimination a ``withdrawn``
    player counts as out)."""
    total = points(games)
    lost = losses(seeds, games)
    buchholz: dict[int, float] = dict.fromkeys(seeds, 0.0)
    sonneborn: dict[int, float] = dict.fromkeys(seeds, 0.0)
    played: dict[int, int] = dict.fromkeys(seeds, 0)
    reached: dict[int, int] = dict.fromkeys(seeds, 0)
    for game in games:
        for player in (game.first, game.second):
            if player is None:
                continue
            reached[player] = max(reached.get(player, 0), game.round + (game.winner(seeds) == player))
            other, score = game.opponent(player), game.score_of(player)
            if score is None:
                continue
            played[player] = played.get(player, 0) + 1
            if other is not None:
                buchholz[player] = buchholz.get(player, 0.0) + total.get(other, 0.0)
                sonneborn[player] = sonneborn.get(player, 0.0) + score * total.get(other, 0.0)

    def key(player: int) -> tuple[float, ...]:
        if form == SINGLE_ELIMINATION:
            return (-reached[player], -total.get(player, 0.0), seeds.index(player))
        if form == DOUBLE_ELIMINATION:
            return (
                2 if player in withdrawn else lost[player],
                -reached[player],
                -total.get(player, 0.0),
                seeds.index(player),
            )
        return (-total.get(player, 0.0), -buchholz[player], -sonneborn[player], seeds.index(player))

    ranked = sorted(seeds, key=key)
    rows: list[Row] = []
    for i, player in enumerate(ranked):
        tied = rows and key(ranked[i - 1])[:-1] == key(player)[:-1]
        place = rows[-1].place if tied else i + 1
        rows.append(Row(place, player, total.get(player, 0.0), buchholz[player], sonneborn[player], played[player]))
    return rows


def pair(
    form: str, seeds: Sequence[int], active: Sequence[int], games: Sequence[Game], number: int, rounds: int
) -> list[tuple[int, int | None]]:
    """Round ``number``'s pairings in format ``form``."""
    if form == SWISS:
        return pair_swiss(seeds, active, games, number, rounds)
    if form == ROUND_ROBIN:
        return pair_round_robin(seeds, active, number)
    if form == DOUBLE_ELIMINATION:
        return pair_double(seeds, active, games, number)
    return pair_elimination(seeds, active, games, number)
