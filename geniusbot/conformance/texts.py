"""The checks of what people read of a game: command names are never moves, its text board is
never JSON and is words as data (drawing lines and messages), the console's ``help`` offers a
legal move, and its picture draws every view, the same each time, with a result banner that fits.

Each ``check_*`` raises :class:`~.failures.CheckFailed` at the first thing wrong.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Mapping

from geniusbot.games import SEATS, Game, GameError, Outcome
from geniusbot.words import PSEUDO, Message, Words, unsaid

from .failures import CheckFailed, expect, where
from .playout import positions

#: The names the banner is checked with: as long as most display names.
BANNER_NAMES: Mapping[str, str] = {"p1": "Alexandra", "p2": "Sebastian"}


def check_command_names(cls: type[Game], seeds: Iterable[int] = (1, 2)) -> None:
    """No command's name (``resign``, ``pause``, ``help``...) is ever a move, in any phase: a
    player who types one is told the command instead."""
    from geniusbot.host.chatter import COMMAND_HINTS

    for variant, seed in itertools.product(cls.variants, seeds):
        for step, game in enumerate(positions(cls, variant, seed, "commands", steps=120, cap=500)):
            if game.is_over:
                break
            with where(f"rule set {variant}, seed {seed}, after {step} actions"):
                for word, seat, private in itertools.product(COMMAND_HINTS, SEATS, (False, True)):
                    try:
                        move = game.parse_move(word, seat, private=private)
                    except GameError:
                        continue
                    raise CheckFailed(
                        f"the command's name {word!r} is taken as the move {move.text()!r} of {seat}",
                        f"a move's notation must not be a command's name alone ({', '.join(sorted(COMMAND_HINTS))}).",
                    )


#: A word in a drawing line: two ASCII letters or more in a row. A drawing's letters stand alone
#: (a column's letter, a piece's, a colour's initial: ``A B C``, ``X . O``, ``b---W``).
_WORD = re.compile(r"[A-Za-z]{2,}")


def drawing_fault(line: str, seats: Iterable[str] = SEATS) -> str | None:
    """What makes ``line`` no drawing line (a text board's ``str`` line, said as it is in every
    language), or ``None``: a word (:data:`_WORD`), or a seat id standing alone (``p1``; the
    renderer names a seat only where a message has it as a :class:`~geniusbot.words.Seat`)."""
    word = _WORD.search(line)
    if word is not None:
        return f"the word {word.group()!r}"
    for seat in seats:
        if re.search(rf"(?<![A-Za-z0-9_]){re.escape(seat)}(?![A-Za-z0-9_])", line):
            return f"the seat id {seat!r}"
    return None


def check_text_boards(cls: type[Game], seed: int = 3) -> None:
    """The text board of every view (the room's, each seat's) of a random game is text for a
    person: no JSON, no quotes, no braces. Its lines are drawing lines (a ``str`` with no word and
    no seat id: :func:`drawing_fault`) and messages, its legend messages; said in the
    pseudo-language with names, nothing outside a message's brackets is a word or a seat id, and
    said in English with names, no seat id is left (the game's own board: a host's listing of a
    view's keys shows the view's data as it is)."""
    from geniusbot.host.board import text_board

    fix = "text_board(view) returns drawing lines (str: no word, no seat id) and messages (say(...), seats as Seat)."
    for variant in cls.variants:
        for step, game in enumerate(positions(cls, variant, seed, "boards", steps=80)):
            with where(f"rule set {variant}, seed {seed}, after {step} actions"):
                for seat in (None, *SEATS):
                    view = game.view(seat)
                    whose = "the room" if seat is None else seat
                    text = text_board(view)
                    expect(
                        "{" not in text and '"' not in text,
                        f"the text board of {whose} shows braces or quotes:\n{text}",
                        "text_board(view) returns lines of prose and diagrams, never JSON (None: the host lists "
                        "the view's keys).",
                    )
                    own = cls.text_board(view)
                    for line in own or ():
                        expect(
                            isinstance(line, str | Message),
                            f"a line of the text board of {whose} is a {type(line).__name__}: {line!r}",
                            fix,
                        )
                        fault = drawing_fault(line, game.seats) if isinstance(line, str) else None
                        expect(fault is None, f"the drawing line {line!r} of {whose}'s text board has {fault}", fix)
                    expect(
                        all(isinstance(colour, Message) for colour in cls.legend(view).values()),
                        f"the legend of {whose} is not messages: {cls.legend(view)!r}",
                        "legend(view) gives each seat's colour as a message (say_c('colour', 'black')).",
                    )
                    said = text_board(view, words=Words(PSEUDO, BANNER_NAMES))
                    for line in said.splitlines():
                        fault = drawing_fault(unsaid(line), game.seats)
                        expect(
                            fault is None,
                            f"said in the pseudo-language, a line of {whose}'s text board has {fault} outside "
                            f"its messages:\n{line}",
                            fix,
                        )
                    if own is not None:
                        named = text_board(view, words=Words(names=BANNER_NAMES))
                        left = [s for s in game.seats if re.search(rf"(?<![A-Za-z0-9_]){s}(?![A-Za-z0-9_])", named)]
                        expect(
                            not left,
                            f"said with the players' names, {whose}'s text board still shows {', '.join(left)}:\n{named}",
                            "a seat in a text board's message is a Seat argument, which the renderer names.",
                        )


def check_help(cls: type[Game], seed: int = 2) -> None:
    """The console's ``help`` offers a move that is legal, in every rule set at the start."""
    from geniusbot.host.hints import example_move

    for variant in cls.variants:
        with where(f"rule set {variant}"):
            game = cls.new(seed=seed, variant=variant)
            if game.window() is not None and not game.to_move():
                game.close_window()
            example = example_move(game)
            if example is None:
                raise CheckFailed(
                    "help offers no move at the start", "legal_moves() yields the moves of the seats to move."
                )
            head, _, text = example.partition(": ")
            seat = head.split()[0]
            move = game.parse_move(text, seat, private="(dm)" in head)
            expect(game.is_legal(move), f"help offers {example!r}, which is not legal")


def banner_fits(banner: str, width: int) -> bool:
    """Whether a picture ``width`` pixels wide shows ``banner`` whole (on one line, or two at the
    smallest banner size), rather than cut with an ellipsis."""
    from geniusbot.render.layout import banner_lines

    _, lines = banner_lines(banner, width - 40)
    return " ".join(lines) == banner


def check_picture(cls: type[Game], seeds: Iterable[int] = (1, 2)) -> None:
    """A game with a picture draws the views of random games (the room's, each seat's; every
    tenth position and the last) without an error, the room's the same bytes twice; every ending
    met (the end, and a resignation and a timeout on copies) gives a result banner the picture
    shows whole. A game without a picture passes."""
    if not cls.picture:
        return
    for variant, seed in itertools.product(cls.variants, seeds):
        rng = random.Random(f"picture:{cls.name}:{variant}:{seed}")
        for step, game in enumerate(positions(cls, variant, seed, "picture")):
            if step % 10 and not game.is_over:
                continue
            with where(f"rule set {variant}, seed {seed}, after {step} actions"):
                _check_drawn(game)
                if game.is_over:
                    _check_banner(game)
                    continue
                endings = [_ended(game, "resign", rng.choice(SEATS))]
                endings += [_ended(game, "timeout", seat) for seat in game.to_move()[:1]]
                for ended in endings:
                    if ended is not None and ended.is_over:
                        _check_banner(ended)


def _check_drawn(game: Game) -> None:
    from geniusbot.pictures import render_view

    for seat in (None, *SEATS):
        view = dict(game.view(seat))
        drawn = render_view(view, players=BANNER_NAMES)
        if seat is None:
            expect(
                drawn == render_view(view, players=BANNER_NAMES),
                "the picture of the room's view differs when drawn twice",
                "draw from the view alone: no clock, no global random generator, no set's order.",
            )


def _check_banner(ended: Game) -> None:
    from geniusbot.pictures import render_image
    from geniusbot.render.layout import outcome_line

    view = dict(ended.view(None))
    width = render_image(view, players=BANNER_NAMES).width
    banner = outcome_line(Outcome.from_dict(view["outcome"]), BANNER_NAMES) or ""
    expect(
        banner_fits(banner, width),
        f"the result banner {banner!r} does not fit the picture ({width} px wide: two lines at 20 px, with "
        "names of 9 letters) and is cut",
        "shorten the ending's words (Game.end's how and verdict): the banner is the whole sentence, on one "
        "line or two, in the picture's width less 40 px.",
    )


def _ended(game: Game, how: str, seat: str) -> Game | None:
    """A copy of ``game`` after ``seat``'s resignation or timeout (``how``), or ``None`` if refused."""
    copy = game.copy()
    try:
        copy.resign(seat) if how == "resign" else copy.timeout(seat)
    except GameError:
        return None
    return copy
