"""The engine review in words: what :func:`lines` says of a :class:`~.review.Review`, as
messages (the catalogue's), for the command, the replay page and the bot."""

from __future__ import annotations

from collections.abc import Mapping

from geniusbot.games.tactics import ForcedWin
from geniusbot.words import Listing, Message, Seat, Verbatim, say, say_n

from .review import MARK_LOSS, MoveReview, Review


def percent(chance: float) -> int:
    """A chance (0 to 1) in whole percent."""
    return round(100 * chance)


def _line(win: ForcedWin) -> Verbatim:
    return Verbatim(" ".join(win.moves))


def how_sure(review: Review) -> Message:
    """How sure the review is: what is exact, how far an estimate may be off."""
    estimate = say(
        "Each value is the mover's chance of winning, estimated from {playouts} play-outs after each of up to "
        "{candidates} moves of the position, with all information known; an estimate may be off by about "
        "{spread} points in 100.",
        playouts=review.effort.playouts,
        candidates=review.effort.candidates,
        spread=percent(review.spread),
    )
    if review.tactics is None:
        return estimate
    forcing, threats = review.tactics
    return say(
        "{estimate} Forced wins are searched by the game's tactics: every forced win by up to {forcing} forcing "
        "moves (continuous fours) is found, and wins by up to {threats} threats (threes) as far as the search's "
        "answers are all that matter; a value from a forced win is exact.",
        estimate=estimate,
        forcing=forcing,
        threats=threats,
    )


def mark_said(mark: MoveReview) -> Message:
    """One marked move: what it threw away and the better move."""
    who = Seat(mark.seat)
    if mark.missed is not None:
        return say(
            "Move {index}, {who}: {move} missed a forced win by {kind}: {line}.",
            index=mark.index,
            who=who,
            move=Verbatim(mark.move),
            kind=mark.missed.kind,
            line=_line(mark.missed),
        )
    if mark.allowed is not None:
        return say(
            "Move {index}, {who}: {move} left a forced win by {kind} ({line}); better: {best} "
            "({before} in 100 rather than {after}).",
            index=mark.index,
            who=who,
            move=Verbatim(mark.move),
            kind=mark.allowed.kind,
            line=_line(mark.allowed),
            best=Verbatim(mark.best),
            before=percent(mark.best_value),
            after=percent(mark.played),
        )
    return say(
        "Move {index}, {who}: {move} threw away {loss} points in 100 of the chance of winning; better: {best} "
        "({before} in 100 rather than {after}).",
        index=mark.index,
        who=who,
        move=Verbatim(mark.move),
        loss=percent(mark.loss),
        best=Verbatim(mark.best),
        before=percent(mark.best_value),
        after=percent(mark.played),
    )


def move_said(move: MoveReview) -> Message:
    """One move's line in the full list: its value, and the better move where one was found."""
    if move.exact:
        value = say("{value} in 100, exact", value=percent(move.played))
    else:
        value = say("{value} in 100", value=percent(move.played))
    if move.best.lower() == move.move.lower() or move.loss <= 0:
        return say(
            "{index}. {who}: {move}, {value}",
            index=move.index,
            who=Seat(move.seat),
            move=Verbatim(move.move),
            value=value,
        )
    return say(
        "{index}. {who}: {move}, {value}; best found {best}, {best_value} in 100",
        index=move.index,
        who=Seat(move.seat),
        move=Verbatim(move.move),
        value=value,
        best=Verbatim(move.best),
        best_value=percent(move.best_value),
    )


def summary(review: Review) -> Message:
    """The review in one sentence: how many moves, how many marked."""
    if not review.marked:
        return say_n(
            "Engine review of {n} move: no move threw away {loss} points in 100 or more.",
            "Engine review of {n} moves: no move threw away {loss} points in 100 or more.",
            n=len(review.moves),
            loss=percent(MARK_LOSS),
        )
    return say_n(
        "Engine review of {n} move; the moves that threw away the most: {marks}.",
        "Engine review of {n} moves; the moves that threw away the most: {marks}.",
        n=len(review.moves),
        marks=Listing(tuple(say("move {index}", index=m.index) for m in review.marked_moves())),
    )


def lines(review: Review, *, every_move: bool = True) -> list[Message]:
    """The review as lines: the summary, the marks, how sure it is, then every move."""
    said = [summary(review)]
    said += [mark_said(m) for m in review.marked_moves()]
    said.append(how_sure(review))
    if every_move:
        said += [move_said(m) for m in review.moves]
    return said


def graph_said(review: Review, names: Mapping[str, str] | None = None) -> Message:
    """The graph's alt text: whose chance it draws, who was ahead at the end, the marks."""
    last = review.graph[-1] if review.graph else 0.0
    ahead = say("even") if abs(last) < 0.05 else say("{seat} ahead", seat=Seat(review.seats[0 if last > 0 else 1]))
    marks = (
        say("marked moves: {marks}", marks=Listing(tuple(say("{index}", index=m.index) for m in review.marked_moves())))
        if review.marked
        else say("no move marked")
    )
    return say(
        "A graph of {seat}'s advantage after each of {n} moves, from -100 (lost) to 100 (won); after the last "
        "move: {ahead}; {marks}.",
        seat=Seat(review.seats[0]),
        n=len(review.moves),
        ahead=ahead,
        marks=marks,
    )
