"""Players' standing, from the archive: a leaderboard page and a player's profile, each as a
picture with its alt text and, for the profile, the recent matches as lines of text.

Everything here is said with the :class:`~geniusbot.words.Words` it is given (the bot's
language for a public answer, the member's for one only they read); the pictures are drawn by
:mod:`.pictures`. The ratings' rules (Glicko-2, the provisional bound, the first seat) are in
``docs/ratings.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from geniusbot.ratings import PROVISIONAL_RD, START_RATING
from geniusbot.storage import FirstSeat, MatchRecord, RatingPoint, Standing
from geniusbot.words import Listing, Message, Verbatim, Words, say, say_c, say_n

from .pictures import WIDTH, Column, TableRow, graph_picture, table_picture

#: Players on a leaderboard page.
PAGE_SIZE = 10
#: The mark of a provisional rating, after the number.
PROVISIONAL_MARK = "?"
#: The seat whose score the leaderboard measures (the record's first).
FIRST_SEAT = "p1"


@dataclass(frozen=True)
class Card:
    """A picture to attach: its PNG, its alt text and its file name."""

    png: bytes
    alt: str
    filename: str


def rating_text(standing: Standing) -> str:
    """A rating as shown: a whole number, with :data:`PROVISIONAL_MARK` while provisional."""
    shown = str(round(standing.rating))
    return shown + PROVISIONAL_MARK if standing.provisional else shown


def game_name(titles: Mapping[str, str], game: str, variant: str) -> Message:
    """A game and rule set as a leaderboard names them: ``Title (rule set)``."""
    return say("{game} ({variant})", game=Verbatim(titles.get(game, game)), variant=Verbatim(variant))


def pages_of(total: int) -> int:
    """How many leaderboard pages ``total`` rated players fill (one at least)."""
    return max(1, -(-total // PAGE_SIZE))


def provisional_note() -> Message:
    """What the provisional mark means."""
    return say(
        "{mark} marks a provisional rating: its deviation is still {bound} or more.",
        mark=Verbatim(PROVISIONAL_MARK),
        bound=int(PROVISIONAL_RD),
    )


def first_seat_note(first: FirstSeat) -> Message | None:
    """What the archive measures of the first seat's advantage, once a match is rated."""
    if first.share is None:
        return None
    return say_n(
        "Seat {seat} scored {percent}% of the points in {n} rated match (50% is no advantage).",
        "Seat {seat} scored {percent}% of the points in {n} rated matches (50% is no advantage).",
        seat=Verbatim(FIRST_SEAT),
        percent=round(100 * first.share),
        n=first.matches,
    )


def leaderboard_card(
    words: Words, *, game: Message, standings: Sequence[Standing], offset: int, total: int, first: FirstSeat
) -> Card:
    """One page of a leaderboard (``standings`` from rank ``offset + 1``) as a picture."""
    page, pages = offset // PAGE_SIZE + 1, pages_of(total)
    title = words(say("Leaderboard: {game}", game=game))
    heads = [
        words(say_c("leaderboard column", "Rank")),
        words(say_c("leaderboard column", "Player")),
        words(say_c("leaderboard column", "Rating")),
        words(say_c("leaderboard column", "Games")),
    ]
    rows = [
        TableRow((str(offset + i + 1), s.display_name, rating_text(s), str(s.games)), marked=i == 0 and offset == 0)
        for i, s in enumerate(standings)
    ]
    notes = [
        say_n(
            "Page {page} of {pages}: {n} rated player.",
            "Page {page} of {pages}: {n} rated players.",
            page=page,
            pages=pages,
            n=total,
        ),
        provisional_note(),
    ]
    if (seat := first_seat_note(first)) is not None:
        notes.append(seat)
    columns = (Column(60), Column(84, "l", words=True), Column(470), Column(WIDTH - 40))
    png = table_picture(title, heads, rows, [words(n) for n in notes], columns)
    listed = [
        say_n(
            "{rank}. {player}, {rating}, {n} game",
            "{rank}. {player}, {rating}, {n} games",
            rank=offset + i + 1,
            player=Verbatim(s.display_name),
            rating=Verbatim(rating_text(s)),
            n=s.games,
        )
        for i, s in enumerate(standings)
    ]
    head = say("{title}, page {page} of {pages}:", title=Verbatim(title), page=page, pages=pages)
    alt = "\n".join(words(line) for line in [head, *listed, *notes[1:]])
    return Card(png, alt, f"leaderboard-page{page}.png")


def ratings_card(words: Words, *, player: str, standings: Sequence[Standing], titles: Mapping[str, str]) -> Card:
    """A player's rating in each game and rule set, with wins, losses and draws, as a picture."""
    title = words(say("{player}: ratings in this server", player=Verbatim(player)))
    heads = [
        words(say_c("profile column", "Game")),
        words(say_c("profile column", "Rating")),
        words(say_c("profile column", "Won")),
        words(say_c("profile column", "Lost")),
        words(say_c("profile column", "Drawn")),
    ]
    rows = [
        TableRow(
            (words(game_name(titles, s.game, s.variant)), rating_text(s), str(s.wins), str(s.losses), str(s.draws))
        )
        for s in standings
    ]
    columns = (Column(24, "l", words=True), Column(400), Column(470), Column(540), Column(WIDTH - 30))
    png = table_picture(title, heads, rows, [words(provisional_note())], columns)
    listed = [
        say(
            "{game}: {rating}, {wins} won, {losses} lost, {draws} drawn",
            game=game_name(titles, s.game, s.variant),
            rating=Verbatim(rating_text(s)),
            wins=s.wins,
            losses=s.losses,
            draws=s.draws,
        )
        for s in standings
    ]
    alt = "\n".join(words(line) for line in [say("{title}:", title=Verbatim(title)), *listed])
    return Card(png, alt, "ratings.png")


def history_card(words: Words, *, player: str, game: Message, history: Sequence[RatingPoint]) -> Card:
    """A player's rating in one game and rule set after each rated match, as a line graph that
    starts at the rating before the first."""
    values = [history[0].before if history else START_RATING, *(p.rating for p in history)]
    title = words(say("{player}: rating in {game}", player=Verbatim(player), game=game))
    png = graph_picture(title, values, words(say_c("graph axis", "rated matches")))
    alt = say(
        "{title}, from {first} after each rated match: {ratings}.",
        title=Verbatim(title),
        first=round(values[0]),
        ratings=Listing(tuple(Verbatim(str(round(v))) for v in values[1:])),
    )
    return Card(png, words(alt), "rating-history.png")


def recent_line(record: MatchRecord, user_id: int, titles: Mapping[str, str], change: RatingPoint | None) -> Message:
    """One of a player's recent matches: what, against whom, how it went, how to see it again."""
    seat = record.seat_of(user_id)
    others = [s.display_name for s in record.seats if s.seat != seat]
    if record.result is None or record.result.winner is None:
        how = say_c("match result for a player", "drawn")
    elif record.result.winner == seat:
        how = say_c("match result for a player", "won")
    else:
        how = say_c("match result for a player", "lost")
    line = say(
        "Match #{match}, {game} against {opponent}: {result}",
        match=record.id,
        game=game_name(titles, record.game, record.variant),
        opponent=Verbatim(", ".join(others)),
        result=how,
    )
    if change is not None:
        line = say(
            "{line}, rating {before} to {after}",
            line=line,
            before=round(change.before),
            after=round(change.rating),
        )
    place = Verbatim(f"/replay match:{record.id}")
    if record.channel_id is not None:
        return say("{line} (in {room}; {replay})", line=line, room=Verbatim(f"<#{record.channel_id}>"), replay=place)
    return say("{line} ({replay})", line=line, replay=place)


def rule_sets_refusal(title: str, variants: Sequence[str], default: str) -> Message:
    """A rule set the game lacks: its rule sets, which to give, and what leaving it out plays."""
    return say(
        "{game} has the rule sets {variants}: give one of them as the variant option, or leave it out for {default}.",
        game=Verbatim(title),
        variants=Verbatim(", ".join(variants)),
        default=Verbatim(default),
    )
