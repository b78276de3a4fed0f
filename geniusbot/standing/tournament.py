"""A tournament's pictures, posted after every round: the standings (place, player, points and
the tie-breaks of its format) as a table, and for an elimination the bracket (each round's games
side by side; a single elimination's as a tree). Each comes with its alt text, said line by line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from geniusbot.storage.tournaments import FINISHED, Entry, Pairing, TournamentRecord
from geniusbot.tournaments import DOUBLE_ELIMINATION, SINGLE_ELIMINATION, Game, Row, standings
from geniusbot.words import Message, Verbatim, Words, say, say_c

from . import Card
from .pictures import WIDTH, BracketGame, Column, TableRow, bracket_picture, table_picture

ELIMINATIONS = (SINGLE_ELIMINATION, DOUBLE_ELIMINATION)


def number(value: float) -> str:
    """A score as shown: ``2``, ``1.5``."""
    return str(int(value)) if value == int(value) else f"{value:g}"


def standings_card(
    words: Words, *, title: Message, form: str, rows: Sequence[Row], names: Mapping[int, str], key: str = ""
) -> Card:
    """The standings as a table: a Swiss or round robin with Buchholz and Sonneborn-Berger, an
    elimination with the games played."""
    said = words(title)
    elimination = form in ELIMINATIONS
    heads = [
        words(say_c("standings column", "Place")),
        words(say_c("standings column", "Player")),
        words(say_c("standings column", "Points")),
    ]
    if elimination:
        heads.append(words(say_c("standings column", "Games")))
        columns: tuple[Column, ...] = (Column(60), Column(84, "l", words=True), Column(470), Column(WIDTH - 40))
    else:
        heads += [words(say_c("standings column", "Buchholz")), words(say_c("standings column", "S-B"))]
        columns = (Column(60), Column(84, "l", words=True), Column(400), Column(500), Column(WIDTH - 40))
    table = []
    lines: list[Message] = []
    for row in rows:
        name = names.get(row.player, str(row.player))
        cells = [str(row.place), name, number(row.points)]
        if elimination:
            cells.append(str(row.played))
            lines.append(
                say("{place}. {player}: {points}", place=row.place, player=Verbatim(name), points=Verbatim(cells[2]))
            )
        else:
            cells += [number(row.buchholz), number(row.sonneborn)]
            lines.append(
                say(
                    "{place}. {player}: {points} (Buchholz {buchholz}, Sonneborn-Berger {sonneborn})",
                    place=row.place,
                    player=Verbatim(name),
                    points=Verbatim(cells[2]),
                    buchholz=Verbatim(cells[3]),
                    sonneborn=Verbatim(cells[4]),
                )
            )
        table.append(TableRow(tuple(cells), marked=row.place == 1))
    png = table_picture(said, heads, table, [], columns)
    alt = "\n".join([said, *(words(line) for line in lines)])
    return Card(png, alt, f"standings-{key}.png" if key else "standings.png")


def _score(game: Game, player: int) -> str:
    score = game.score_of(player)
    return "" if score is None else "½" if score == 0.5 else number(score)


def bracket_card(
    words: Words,
    *,
    title: Message,
    form: str,
    seeds: Sequence[int],
    games: Sequence[Game],
    names: Mapping[int, str],
    key: str = "",
) -> Card:
    """An elimination's games round by round (a single elimination's as a tree), the winners marked."""
    said = words(title)
    numbers = sorted({g.round for g in games})
    rounds: list[list[BracketGame]] = []
    lines: list[str] = [said]
    for number_ in numbers:
        drawn: list[BracketGame] = []
        lines.append(words(say("Round {round}:", round=number_)))
        for game in (g for g in games if g.round == number_):
            first = names.get(game.first, str(game.first))
            if game.second is None:
                drawn.append(BracketGame((first, ""), None, 0))
                lines.append(words(say("{player} has a bye (a point).", player=Verbatim(first))))
                continue
            second = names.get(game.second, str(game.second))
            winner = game.winner(seeds)
            drawn.append(
                BracketGame(
                    (first, _score(game, game.first)),
                    (second, _score(game, game.second)),
                    None if winner is None else 0 if winner == game.first else 1,
                )
            )
            if winner is None:
                lines.append(words(say("{first} against {second}", first=Verbatim(first), second=Verbatim(second))))
            else:
                lines.append(
                    words(
                        say(
                            "{first} against {second}: {winner} goes on",
                            first=Verbatim(first),
                            second=Verbatim(second),
                            winner=Verbatim(names.get(winner, str(winner))),
                        )
                    )
                )
        rounds.append(drawn)
    heads = [words(say("Round {round}", round=n)) for n in numbers]
    png = bracket_picture(said, heads, rounds, tree=form == SINGLE_ELIMINATION)
    return Card(png, "\n".join(lines), f"bracket-{key}.png" if key else "bracket.png")


def games_of(pairings: Sequence[Pairing]) -> list[Game]:
    """The pairings as the formats read them."""
    return [Game(p.round, p.first_id, p.second_id, p.score) for p in pairings]


def seeds_of(entries: Sequence[Entry]) -> list[int]:
    """The players, the first seed first."""
    return [e.user_id for e in sorted(entries, key=lambda e: e.seed or 0)]


def names_of(entries: Sequence[Entry]) -> dict[int, str]:
    return {e.user_id: e.display_name for e in entries}


def title_of(tournament: TournamentRecord, pairings: Sequence[Pairing]) -> Message:
    """The standings' heading: after which round, or final."""
    if tournament.status == FINISHED:
        return say("Tournament #{number}: final standings.", number=tournament.id)
    done = max((p.round for p in pairings if p.score is not None), default=0)
    return say(
        "Tournament #{number}: standings after round {round} of {rounds}.",
        number=tournament.id,
        round=done,
        rounds=tournament.rounds or 0,
    )


def table(tournament: TournamentRecord, entries: Sequence[Entry], pairings: Sequence[Pairing]) -> list[Row]:
    """The standings of a tournament now."""
    seeds = [e.user_id for e in sorted(entries, key=lambda e: e.seed or 0)]
    withdrawn = {e.user_id for e in entries if e.withdrawn}
    return standings(tournament.format, seeds, games_of(pairings), withdrawn)


def cards(
    tournament: TournamentRecord, entries: Sequence[Entry], pairings: Sequence[Pairing], words: Words, key: str = ""
) -> list[Card]:
    """The tournament's pictures now: the standings, and an elimination's bracket once it has games
    (``key``: what the cards' file names carry)."""
    names = names_of(entries)
    made = [
        standings_card(
            words,
            title=title_of(tournament, pairings),
            form=tournament.format,
            rows=table(tournament, entries, pairings),
            names=names,
            key=key,
        )
    ]
    if tournament.format in ELIMINATIONS and pairings:
        made.append(
            bracket_card(
                words,
                title=say("Tournament #{number}: the bracket", number=tournament.id),
                form=tournament.format,
                seeds=seeds_of(entries),
                games=games_of(pairings),
                names=names,
                key=key,
            )
        )
    return made
