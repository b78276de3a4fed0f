"""The card around a board: the title and player rows at the top, the status or outcome at the
bottom, and the names and the outcome banner they show.

A game's picture draws its board between :data:`HEADER_HEIGHT` and the :data:`FOOTER_HEIGHT` band
at the bottom, builds its rows with :func:`player_rows`, and ends with :func:`draw_header` and
:func:`draw_footer` (the banner from :func:`outcome_line`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image, ImageDraw

from geniusbot.words import ENGLISH, PSEUDO, Argument, Message, Seat, Verbatim, Words, say, say_c
from geniusbot.words.render import languages
from geniusbot.words.stored import with_spoken_names

from .fonts import drawable_name, font_path, has_glyph
from .palette import ink
from .sprites import Sprite, paste_centred, triangle_right
from .text import draw_text, fit_text, text_width


def seat_name(seat: str | None, players: Mapping[str, str] | None) -> str:
    """The display name of ``seat`` as the boards' font can draw it (:func:`drawable_name`): the
    host's name for it, else "Player 1" / "Player 2" (what :func:`card_words` names the seats)."""
    if seat is None:
        return "nobody"
    if players and players.get(seat):
        return drawable_name(str(players[seat]), seat)
    return {"p1": "Player 1", "p2": "Player 2"}.get(seat, seat)


def card_words(language: str = ENGLISH, players: Mapping[str, str] | None = None) -> Words:
    """The words a card speaks with: ``language`` where the font draws it (:func:`drawn_language`),
    each seat named by :func:`seat_name` (its player's name as the font can draw it, else
    "Player 1"), in the label form "Ann (p1)" where names would be ambiguous (as
    :class:`~geniusbot.words.Words` does everywhere)."""
    return _card_words(language, tuple((players or {}).items()), font_path())


@functools.lru_cache(maxsize=256)
def _card_words(language: str, players: tuple[tuple[str, str], ...], font: str | None) -> Words:
    """:func:`card_words`, made once for a language, the players' names and the boards' font
    (which decides what can be drawn): a match draws its card on every move with the same names,
    and a :class:`Words` is never changed once made."""
    named = dict(players)
    seats = dict.fromkeys(("p1", "p2", *named))
    return Words(drawn_language(language), {seat: seat_name(seat, named) for seat in seats}, remember=True)


def drawn_language(language: str) -> str:
    """``language``, or English where the boards' font cannot draw its letters (Korean needs a font
    with Hangul, FONT_PATH): a picture never loses its words to missing glyphs. The pseudo-language
    is drawn as it is (its accents dropped where the font lacks them)."""
    if languages(language)[-1] in (ENGLISH, PSEUDO):
        return language
    return language if _draws(language, font_path()) else ENGLISH


@functools.lru_cache(maxsize=32)
def _draws(language: str, font: str | None) -> bool:
    """Whether the font ``font`` (the boards' own) draws every letter of a sentence in ``language``."""
    sample = Words(language)(say("{seat} wins", seat=Verbatim("")))
    return all(has_glyph(char) for char in sample if not char.isspace())


def words_of(words: Words | Mapping[str, str] | None) -> Words:
    """The words a picture's line is said with: ``words`` as given, or, given the players' names
    (or nothing), the card's English words of them (:func:`card_words`)."""
    return words if isinstance(words, Words) else card_words(players=words)


def said_line(said: Message | None, words: Words | Mapping[str, str] | None) -> str:
    """A picture's line (its status under the board) said by :func:`words_of` ``words``; "" for none."""
    return words_of(words)(said) if said is not None else ""


def named(seat: str) -> Message:
    """A seat's name alone, as a message (a player row's name; bracketed in the pseudo-language)."""
    return say("{seat}", seat=Seat(seat))


def stored_english_with_names(text: str, words: Words) -> str:
    """``text``, an outcome's plain English as a match stored it before outcomes were messages,
    with its seat ids replaced by the card's names, as the host's result line names them
    (:func:`geniusbot.words.stored.with_spoken_names`). For stored strings only: every new
    sentence names its seats with :class:`~geniusbot.words.Seat`."""
    return with_spoken_names(text, words.names)


class Banner(str):
    """The text of a result banner, which knows whether it announces a draw (drawn on its own
    colour, whatever the language's words for it)."""

    draw: bool

    def __new__(cls, text: str, *, draw: bool) -> Banner:
        banner = super().__new__(cls, text)
        banner.draw = draw
        return banner


class Ending(Protocol):
    """What the banner reads of how a game ended: :class:`geniusbot.games.Outcome` is one (the
    picture reads it from the view, ``Outcome.from_dict(view["outcome"])``; the toolkit reads no
    game)."""

    @property
    def winner(self) -> str | None:
        """The winning seat, ``None`` for a draw."""

    @property
    def verdict(self) -> str:
        """The words that close the sentence with who wins ("; p1 wins"), or ""."""

    @property
    def reason(self) -> str:
        """The whole sentence: how the game ended and who wins."""

    @property
    def detail(self) -> str:
        """How the game ended, for a line that has just said who wins."""

    @property
    def said_how(self) -> Message | None:
        """How the game ended, as a message (``None`` where the game gave plain English)."""

    @property
    def said_verdict(self) -> Message | None:
        """The words that close the sentence with who wins, as a message, or ``None``."""


def outcome_line(
    ended: Ending | None,
    words: Words | Mapping[str, str] | None,
    *,
    how_names_winner: bool = False,
) -> Banner | None:
    """The banner text for how the game ended (its ``Outcome``), or ``None`` while the game runs;
    said by the card's ``words`` (or, given the players' names, by English :func:`card_words`).

    A draw: "Draw: " and the whole sentence. A win: the whole sentence (:attr:`Ending.reason`)
    when its verdict says who wins ("; p1 wins", ", and wins"), so the winner is named once;
    without a verdict the game's sentence says who wins or who loses, so the banner says who wins
    before how it ended ("Ann wins: Ben has no legal action and loses"), unless the picture's game
    words every ending with who wins (``how_names_winner``: "Ann wins the task, 12 to 9").
    """
    if ended is None:
        return None
    if not isinstance(words, Words):
        words = card_words(ENGLISH, words)
    if ended.said_how is None:
        return _stored_banner(ended, words, how_names_winner=how_names_winner)
    how = ended.said_how
    clause = say("{how}{verdict}", how=how, verdict=ended.said_verdict) if ended.said_verdict else how
    if ended.winner is None:
        return _banner(words, None, words(clause).strip())
    if ended.verdict or how_names_winner:
        return _banner(words, None, words(clause).strip(), ended.winner)
    return _banner(words, ended.winner, words(how).strip())


def _stored_banner(ended: Ending, words: Words, *, how_names_winner: bool) -> Banner:
    """The banner of an ending a match stored as plain English (before outcomes were messages)."""
    if ended.winner is None or ended.verdict or how_names_winner:
        sentence, head = ended.reason, None
    else:
        sentence, head = ended.detail, ended.winner
    text = stored_english_with_names(sentence, words).strip().rstrip(".")
    return _banner(words, head, text, ended.winner if head is None else None, draw=ended.winner is None)


def _banner(
    words: Words, head: str | None, text: str, winner: str | None = None, *, draw: bool | None = None
) -> Banner:
    """A banner: "Draw: ..." (no winner, no head), "Ann wins: ..." (``head`` the winner), or the
    text alone (the sentence names ``winner``); "Draw" or "Ann wins" where the text says nothing."""
    is_draw = (head is None and winner is None) if draw is None else draw
    if is_draw:
        said = words(say("Draw: {result}", result=Verbatim(text)) if text else say("Draw"))
    elif head is not None:
        said = words(
            say("{seat} wins: {how}", seat=Seat(head), how=Verbatim(text))
            if text
            else say("{seat} wins", seat=Seat(head))
        )
    else:
        said = text or words(say("{seat} wins", seat=Seat(winner or "")))
    return Banner(said, draw=is_draw)


@dataclass(frozen=True)
class PlayerRow:
    """What one player's row of the card shows."""

    seat: str
    name: str
    symbol: Sprite | None  # the player's stone, if they have a colour yet
    detail: str  # e.g. "black", "red · first", "knocked off 3/10"
    clock: str | None
    to_move: bool


ROW_HEIGHT = 54
TITLE_HEIGHT = 46
FOOTER_HEIGHT = 62
HEADER_HEIGHT = TITLE_HEIGHT + 2 * ROW_HEIGHT + 8
NAME_SIZE = 30
DETAIL_SIZE = 25
TITLE_SIZE = 25
STATUS_SIZE = 27
#: A banner that takes two lines: its type sizes, largest first, and the distance between the lines.
BANNER_SIZES = (22, 20)
BANNER_PITCH = 27


def draw_header(canvas: Image.Image, title: str, rows: Sequence[PlayerRow]) -> None:
    """The title line and the two player rows at the top of the card."""
    width = canvas.width
    draw = ImageDraw.Draw(canvas)
    draw_text(canvas, (22, TITLE_HEIGHT / 2 + 2), fit_text(title, TITLE_SIZE, width - 44), TITLE_SIZE, fg="muted")
    for k, row in enumerate(rows):
        top = TITLE_HEIGHT + k * ROW_HEIGHT
        mid = top + ROW_HEIGHT / 2
        bg = "band" if row.to_move else "page"
        if row.to_move:
            draw.rectangle([0, top + 2, width - 1, top + ROW_HEIGHT - 3], fill=ink("band"))
            triangle_right(draw, (24, mid), 22, ink("accent"))
        x = 48
        if row.symbol is not None:
            paste_centred(canvas, row.symbol, (x + 18, mid))
        x += 46
        right = width - 22
        if row.clock:
            right -= draw_text(canvas, (right, mid), row.clock, NAME_SIZE, fg="text", bg=bg, bold=True, anchor="r")
            right -= 22
        if row.detail:
            # The detail may use what a short name leaves; a long name still keeps half the row.
            room = max((right - x) // 2, right - x - text_width(row.name, NAME_SIZE, True) - 18)
            detail = fit_text(row.detail, DETAIL_SIZE, max(0, room))
            right -= draw_text(canvas, (right, mid), detail, DETAIL_SIZE, fg="muted", bg=bg, anchor="r")
            right -= 18
        name = fit_text(row.name, NAME_SIZE, max(0, right - x), True)
        draw_text(canvas, (x, mid), name, NAME_SIZE, fg="text", bg=bg, bold=True)


def draw_footer(canvas: Image.Image, status: str, banner: str | None) -> None:
    """The bottom line: the outcome as a banner (:func:`outcome_line`) once the game is over, else
    the status. A draw's banner is drawn on its own colour."""
    width, height = canvas.size
    top = height - FOOTER_HEIGHT
    mid = top + FOOTER_HEIGHT / 2
    if banner is not None:
        draw = banner.draw if isinstance(banner, Banner) else banner.startswith("Draw")
        bg = "draw_banner" if draw else "accent"
        ImageDraw.Draw(canvas).rectangle([0, top + 4, width - 1, height - 1], fill=ink(bg))
        size, lines = banner_lines(banner, width - 40)
        if len(lines) == 1:
            draw_text(canvas, (width / 2, mid + 2), lines[0], size, fg="banner_text", bg=bg, bold=True, anchor="m")
        else:
            # The second line first: the first line's box then covers only the empty top of the
            # second's, never the first's own descenders.
            for row in (1, 0):
                y = mid + 2 + (row - 0.5) * BANNER_PITCH
                draw_text(canvas, (width / 2, y), lines[row], size, fg="banner_text", bg=bg, bold=True, anchor="m")
    elif status:
        text = fit_text(status, STATUS_SIZE, width - 44)
        draw_text(canvas, (22, mid), text, STATUS_SIZE, fg="text")


def _break_rank(lines: tuple[str, str], size: int) -> tuple[int, int]:
    """How good a break of a banner into two lines is: after a sentence or clause first, then the
    most even (the longer line the shorter)."""
    end = lines[0][-1:]
    return (0 if end in ".:;" else 1 if end == "," else 2), max(text_width(x, size, True) for x in lines)


def banner_lines(banner: str, room: int) -> tuple[int, list[str]]:
    """The banner's type size and lines: one line at :data:`NAME_SIZE` or :data:`STATUS_SIZE`
    when it fits ``room`` pixels, else two lines at :data:`BANNER_SIZES` (the whole sentence,
    broken at a word, after a sentence or clause where it can be), so the end of a verdict ("12 to
    9") is never cut. Only a banner too long for two lines at the smallest size is cut."""
    for size in (NAME_SIZE, STATUS_SIZE):
        if text_width(banner, size, True) <= room:
            return size, [banner]
    words = banner.split(" ")
    breaks = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    for size in BANNER_SIZES:
        fitting = [b for b in breaks if max(text_width(line, size, True) for line in b) <= room]
        if fitting:
            # After a full stop, colon or semicolon if one fits, else after a comma; then the most even.
            best = min(fitting, key=lambda lines: _break_rank(lines, size))
            return size, list(best)
    size = BANNER_SIZES[-1]
    if not breaks:
        return size, [fit_text(banner, size, room, True)]
    first, rest = min(breaks, key=lambda b: abs(text_width(b[0], size, True) - room))
    return size, [fit_text(first, size, room, True), fit_text(rest, size, room, True)]


def player_rows(
    view: Mapping[str, Any],
    words: Words,
    clocks: Mapping[str, str] | None,
    symbol: Callable[[str, str], Sprite | None],
    detail: Callable[[str], Message | None],
    *,
    order: Sequence[str] = ("p1", "p2"),
) -> list[PlayerRow]:
    """The two player rows, built from the view with the renderer's symbol and detail, said by
    the card's ``words``.

    ``symbol(seat, background)`` gives the seat's stone drawn on the row's background colour;
    ``detail(seat)`` the small words beside the name (``None`` for none).
    """
    movers = set(view.get("to_move") or ())
    rows = []
    for seat in order:
        to_move = seat in movers and not view.get("outcome")
        said = detail(seat)
        rows.append(
            PlayerRow(
                seat=seat,
                name=words(named(seat)),
                symbol=symbol(seat, "band" if to_move else "page"),
                detail=words(said) if said is not None else "",
                clock=(clocks or {}).get(seat),
                to_move=to_move,
            )
        )
    return rows


def dotted(parts: Sequence[Argument]) -> Message | None:
    """Phrases in a row after middle dots ("red · first · 0/10 knocked off"), or ``None`` for none."""
    if not parts:
        return None
    said: Argument = parts[0]
    for part in parts[1:]:
        said = say("{first} · {then}", first=said, then=part)
    return said if isinstance(said, Message) else say_c("written as it is", "{text}", text=said)


def title_of(title: str | None, game: Message) -> Argument:
    """What heads the card: the host's ``title`` (said already, kept as it is), else the game's name."""
    return Verbatim(title) if title else game


def heading(words: Words, head: Argument, *parts: Argument) -> str:
    """The title line: ``head`` (:func:`title_of`), then each of ``parts`` after a middle dot
    ("Match #3 · move 12"), said by the card's ``words``."""
    for part in parts:
        head = say("{title} · {part}", title=head, part=part)
    if isinstance(head, Verbatim):
        return head.text
    assert isinstance(head, Message)
    return words(head)
