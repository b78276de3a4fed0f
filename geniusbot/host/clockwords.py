"""The clock's words: a time control described, and what is wrong with a time control that
cannot be read (:mod:`.clock` raises them), as words as data (:mod:`geniusbot.words`)."""

from __future__ import annotations

from typing import Any

from geniusbot.words import Message, Verbatim, say, say_c, say_n


def cut(text: str, longest: int = 24, *, quoted: bool = False) -> Verbatim | Message:
    """``text`` as a message quotes it: cut, saying its length, past ``longest`` characters;
    ``quoted``: in quotes, as Python's ``repr`` writes it (``'60x'``)."""
    if len(text) <= longest:
        return Verbatim(repr(text) if quoted else text)
    start = repr(text[:longest]) if quoted else text[:longest]
    # The length in words ends the quotation: the quote that closes it follows.
    opened, closed = (start[:-1], start[-1]) if quoted else (start, "")
    return say_n(
        "{start}... ({length} character){end}",
        "{start}... ({length} characters){end}",
        n=len(text),
        start=Verbatim(opened),
        length=Verbatim(f"{len(text):,}"),
        end=Verbatim(closed),
    )


def quoted(text: str, longest: int = 24) -> Verbatim | Message:
    """:func:`_cut` in quotes."""
    return cut(text, longest, quoted=True)


def not_a_duration(text: str, whole: str) -> Message:
    """``text`` (in the spec ``whole``) reads as no duration."""
    amount = Verbatim(repr(text.strip()))
    if text.strip() == whole.strip():
        return say(
            "{amount} is not a duration; write a number with s or m, such as 60s or 5m (or none for no clock).",
            amount=amount,
        )
    return say(
        "{amount} in {spec} is not a duration; write a number with s or m, such as 60s or 5m (or none for no clock).",
        amount=amount,
        spec=Verbatim(repr(whole)),
    )


def too_long(text: str, whole: str, hours: int) -> Message:
    """``text`` (in the spec ``whole``) gives more than ``hours`` hours."""
    amount = quoted(text.strip())
    if text.strip() == whole.strip():
        return say_n(
            "{amount} is longer than a clock may give: each time in a time control may be "
            "at most {n} hour (24h, 1440m or 86400s).",
            "{amount} is longer than a clock may give: each time in a time control may be "
            "at most {n} hours (24h, 1440m or 86400s).",
            n=hours,
            amount=amount,
        )
    return say_n(
        "{amount} in {spec} is longer than a clock may give: each time in a time control may be "
        "at most {n} hour (24h, 1440m or 86400s).",
        "{amount} in {spec} is longer than a clock may give: each time in a time control may be "
        "at most {n} hours (24h, 1440m or 86400s).",
        n=hours,
        amount=amount,
        spec=quoted(whole.strip(), 40),
    )


def described(control: Any) -> Message:
    """A time control (:class:`~.clock.TimeControl`) described for players: "60 s a move, then a
    5:00 reserve"; "none" untimed."""
    from .clock import MS, format_duration

    if control.untimed:
        return say_c("clock", "none")
    per_move = Verbatim(f"{control.per_move_ms / MS:g}")
    if control.periods:
        text = say_n(
            "{n} periods of {seconds} s (byo-yomi)",
            "{n} periods of {seconds} s (byo-yomi)",
            n=control.periods,
            seconds=per_move,
        )
    else:
        text = say("{seconds} s a move", seconds=per_move) if control.per_move_ms else say("no time a move")
        if control.reserve_ms:
            reserve = Verbatim(format_duration(control.reserve_ms))
            if control.block_ms:
                block = Verbatim(f"{control.block_ms / MS:g}")
                text = say(
                    "{move}, then a {reserve} reserve spent in {block} s blocks",
                    move=text,
                    reserve=reserve,
                    block=block,
                )
            else:
                text = say("{move}, then a {reserve} reserve", move=text, reserve=reserve)
    if control.reset_each_bout:
        text = say("{clock}, the reserve reset each bout", clock=text)
    return text
