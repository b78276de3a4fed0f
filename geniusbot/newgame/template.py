"""The files of a new game's package, as templates (:class:`string.Template`: ``$name``, the
registry name; ``$Class``, the class; ``$title_py``, the title as a Python literal; ``$title``,
as prose; ``$title_toml``, as a TOML string).

The game they make is small and whole: a pile of stones, each player in turn takes one, two or
three, whoever takes the last wins. It keeps the contract (``geniusbot check`` passes on it), so
an author starts from a game that works and changes it a rule at a time.
"""

from __future__ import annotations

PYPROJECT = """\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "geniusbot-$name"
version = "0.1.0"
description = $title_toml
readme = "README.md"
requires-python = ">=3.11"
# The rules need geniusbot's rules API (geniusbot.games); a picture would need geniusbot.render.
dependencies = ["geniusbot"]

[project.optional-dependencies]
dev = ["pytest>=8", "mypy>=1.10"]

# The plug-in: geniusbot finds the game here, by this name, which must be the class's `name`.
[project.entry-points."geniusbot.games"]
$name = "$name:$Class"

[tool.setuptools.packages.find]
where = ["src"]

[tool.pytest.ini_options]
# The tests import the game from src/ whether it is installed or not.
pythonpath = ["src"]
testpaths = ["tests"]

[tool.mypy]
# geniusbot ships its annotations (py.typed): the game type-checks against them.
files = ["src", "tests"]
strict = true
"""

README = """\
# $title

A game for geniusbot, made with `geniusbot new-game $name`: a whole small game that keeps the
contract of every game, to change a rule at a time into yours.

## The rules

A pile of stones (21, or the `pile` option: 5 to 99) lies between the two players. In turn, p1
first, each takes one, two or three stones; whoever takes the last stone wins. A player whose
time runs out loses.

Notation: `take 2`, typed in the game room.

## Rulings

1. A take of more stones than are left is refused, and says how many are left.

## Working on it

```sh
pip install -e ".[dev]"          # the game, found by geniusbot through its entry point
geniusbot check $name            # the contract every game keeps: every check must pass
python -m pytest -q              # the scenarios of tests/, and the same check
mypy                             # the types, strict, against geniusbot's own annotations
geniusbot play $name             # a match in the terminal: p1: take 2
```

`geniusbot check $name` runs geniusbot's per-game checks (random games to the end, the record
replayed, moves in the wrong place, keywords, words, the text board, matches through the real
host); `geniusbot check --help` lists them.

Every sentence the game says (its events, its ending, its refusals) is a message of its own
catalogue domain, `$name`, so the bot says it in any language it has a catalogue for: a
translation goes in `src/$name/locales/<language>/LC_MESSAGES/$name.po` (geniusbot's
`docs/words.md` says how it is made). geniusbot's `docs/writing-a-game.md` says what each part of
`src/$name/rules.py` is for.
"""

INIT = '''\
"""$title, a game for geniusbot: the class its entry point names."""

from .rules import $Class as $Class

__all__ = ["$Class"]
'''

RULES = '''\
"""$title: the rules, pure (the standard library, geniusbot.games and geniusbot.words only: no
discord, Pillow, database, asyncio, clock or I/O).

A pile of stones lies between the players; in turn each takes one, two or three stones, and
whoever takes the last one wins. Change the rules a piece at a time and run
``geniusbot check $name`` after each change: it holds the game to the contract every game keeps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from geniusbot.games import (
    Event,
    Game,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    OptionError,
)
from geniusbot.words import Message, Seat, Verbatim, say, say_n

#: The catalogue domain of the game's words: its own package. Every sentence it says is a message
#: (say(...)) of this domain, said in the room's language with the players' names.
DOMAIN = "$name"

#: The most stones one move takes.
MOST = 3
#: The pile at the start, unless the pile option says otherwise; the option's bounds.
PILE = 21
SMALLEST, LARGEST = 5, 99

# ASCII digits only: a host reads what a player typed as NFKC (a full-width digit is an ASCII
# one), and int() would take digits of other scripts that the notation does not.
_TAKE = re.compile(r"take\\s+(\\d{1,2})", re.ASCII)


class ${Class}Event(StrEnum):
    """The game's own event kinds (a host treats them as EventKind.INFO). A value is what records
    and stored matches carry: once published, it stays."""

    #: Stones were taken: data has the seat, the stones taken and the stones left.
    TAKEN = "taken"


class ${Class}Ending(StrEnum):
    """The game's own endings, where the core's Termination names none (the class's
    terminations): a stored match keeps the value; once published, it stays."""

    #: The last stone was taken.
    LAST_STONE = "last-stone"


@dataclass(frozen=True)
class Take(Move):
    """Take ``count`` stones from the pile."""

    count: int

    def text(self) -> str:
        """The canonical notation: what a record writes and parse_move reads back to this move."""
        return f"take {self.count}"


class $Class(Game):
    """$title: take one, two or three stones; whoever takes the last stone wins."""

    name: ClassVar[str] = "$name"
    title: ClassVar[str] = $title_py
    options: ClassVar[Mapping[str, str]] = {
        "pile": f"the stones in the pile at the start, {SMALLEST} to {LARGEST} (default {PILE})"
    }
    summary: ClassVar[Message | str] = say(
        "A pile of stones lies between the players. In turn, p1 first, each takes one, two or three "
        "stones; whoever takes the last stone wins.\\n"
        "**Notation**: take 2, typed in the game room.",
        domain=DOMAIN,
    )
    # Every word of every legal move's text: the bot tells a move attempt from table talk by them.
    keywords: ClassVar[frozenset[str]] = frozenset({"take"})
    # 30 s a move, then a 2-minute reserve for the match (docs/writing-a-game.md, "Clocks").
    clocks: ClassVar[Mapping[str, str]] = {"*": "30s+2m"}
    # Every seat sees all there is: the host builds no seat's own view, and help may try a move.
    perfect_information: ClassVar[bool] = True
    # Its own endings, beside the core's Termination (LINE, TIME, POINTS ...).
    terminations = ${Class}Ending

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        # Every attribute at its empty value: a loaded game is built by __init__ and load_state.
        super().__init__(seed=seed, variant=variant)
        self.pile = PILE
        self.turn = "p1"
        self.last: str | None = None

    def setup(self, *, pile: str = "") -> None:
        """The start, from the options (and self.seed, were anything drawn at random)."""
        if pile.strip():
            if not re.fullmatch(r"\\d{1,2}", pile.strip(), re.ASCII) or not SMALLEST <= int(pile) <= LARGEST:
                raise OptionError(
                    say(
                        "The pile is a number of stones from {smallest} to {largest}, not {pile}.",
                        domain=DOMAIN,
                        smallest=SMALLEST,
                        largest=LARGEST,
                        pile=Verbatim(repr(pile)),
                    )
                )
            self.pile = int(pile)

    # ---- whose turn, what is legal --------------------------------------------------------

    def to_move(self) -> tuple[str, ...]:
        return () if self.is_over else (self.turn,)

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """The legal move ``text`` names, or a GameError whose message the player is told.

        The class of the error decides how the bot answers: a MalformedMoveError (the text is no
        move of this game at all) typed in the room may be table talk, and is answered only when
        it looks like a move (a coordinate, or a keyword or a close typo of one in three words at
        most: "take a break" is answered, "good game" ignored); an IllegalMoveError (a move, but
        not one allowed now) is always answered. Never changes the state.
        """
        self.require_turn(seat)  # NotYourTurnError: the game is over, or it is the other's turn
        self.require_room(private)  # WrongPlaceError: every move of this game is made in the room
        match = _TAKE.fullmatch(text.strip().lower())
        if match is None:
            raise MalformedMoveError(say("Write take and a number of stones, 1 to 3, such as take 2.", domain=DOMAIN))
        count, most = int(match.group(1)), min(MOST, self.pile)
        if not 1 <= count <= most:
            # A number picks the form: say_n, by the language's plural rule.
            raise IllegalMoveError(
                say_n(
                    "Take 1 to {most} stones: {n} is left.",
                    "Take 1 to {most} stones: {n} are left.",
                    domain=DOMAIN,
                    most=most,
                    n=self.pile,
                )
            )
        return Take(seat, count)

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        if self.is_over or seat not in (None, self.turn):
            return
        for count in range(1, min(MOST, self.pile) + 1):
            yield Take(self.turn, count)

    # ---- playing ----------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Apply a legal move and say what happened: a message for people (a seat is Seat("p1"),
        said with the player's name; a number an int; notation Verbatim), kind and data for programs."""
        if not isinstance(move, Take) or self.parse_move(move.text(), move.seat) != move:
            raise IllegalMoveError(
                say("That is not a move you can make now; take 1 to 3 stones, such as take 2.", domain=DOMAIN)
            )
        self.pile -= move.count
        self.last = move.text()
        taken = Event.of(
            say(
                "{seat} takes {count}; {left} left.",
                domain=DOMAIN,
                seat=Seat(move.seat),
                count=move.count,
                left=self.pile,
            ),
            kind=${Class}Event.TAKEN,
            data={"seat": move.seat, "taken": move.count, "left": self.pile},
        )
        if self.pile == 0:
            # An ending the core's Termination does not name is one of the game's own; its
            # sentence says what happened (keep it short, a picture's banner shows it whole), and
            # the verdict closes it (default "; p1 wins").
            how = say("{seat} takes the last stone", domain=DOMAIN, seat=Seat(move.seat))
            verdict = say(", and wins", domain=DOMAIN)
            return [taken, *self.end(move.seat, ${Class}Ending.LAST_STONE, how, verdict=verdict)]
        self.turn = "p2" if self.turn == "p1" else "p1"
        return [taken]

    # ---- what a seat sees -------------------------------------------------------------------

    def view(self, seat: str | None = None) -> dict[str, Any]:
        """What ``seat`` may see (None: the room), plain JSON data; here everyone sees all."""
        return {
            **self.base_view(),
            "phase": "over" if self.is_over else "take",
            "pile": self.pile,
            "last_move": self.last,
        }

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The board as lines, from the view alone: a drawing (a str, with no word and no seat id
        in it) or a message (words), never JSON."""
        pile = int(view["pile"])
        rows = [" ".join("o" * min(10, pile - start)) for start in range(0, pile, 10)]
        return [say_n("Pile: {n} stone.", "Pile: {n} stones.", domain=DOMAIN, n=pile), *rows]

    # ---- saving -----------------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        return {"pile": self.pile, "turn": self.turn, "last": self.last}

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.pile = int(data["pile"])
        self.turn = str(data["turn"])
        self.last = data["last"]
'''

TESTS = '''\
"""$title's rules as scenarios, one test a rule and a ruling, and the contract every game keeps."""

from __future__ import annotations

import pytest

from geniusbot.cli import main
from geniusbot.games import (
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    OptionError,
    WrongPlaceError,
)
from geniusbot.words import PSEUDO, Words

from $name import $Class
from $name.rules import ${Class}Ending


def test_the_players_take_turns_and_each_take_shrinks_the_pile() -> None:
    game = $Class.new()
    _, events = game.submit("take 3", "p1")
    assert game.pile == 18 and game.to_move() == ("p2",)
    assert [e.text for e in events] == ["p1 takes 3; 18 left."]
    # Said as a message: in the pseudo-language (every message bracketed), with the player's name.
    assert events[0].said is not None
    assert Words(PSEUDO, names={"p1": "ann"})(events[0].said) == "⟦ann ţáķéś 3; 18 ĺéƒţ.⟧"


def test_whoever_takes_the_last_stone_wins() -> None:
    game = $Class.new(pile="5")
    game.submit("take 3", "p1")
    game.submit("take 2", "p2")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "p2" and outcome.termination == ${Class}Ending.LAST_STONE
    assert outcome.reason == "p2 takes the last stone, and wins."
    assert game.to_move() == ()


def test_a_take_of_more_stones_than_are_left_is_refused_and_says_how_many_are_left() -> None:
    game = $Class.new(pile="5")
    game.submit("take 3", "p1")
    with pytest.raises(IllegalMoveError, match="2 are left") as refused:
        game.parse_move("take 3", "p2")
    assert refused.value.said is not None  # a message, said in the room's language


def test_each_refusal_has_the_class_that_tells_the_host_how_to_answer_and_changes_nothing() -> None:
    game = $Class.new()
    before = game.to_dict()
    with pytest.raises(IllegalMoveError):  # a move, not allowed now: always answered
        game.parse_move("take 4", "p1")
    with pytest.raises(MalformedMoveError):  # no move at all: may be table talk in the room
        game.parse_move("good game", "p1")
    with pytest.raises(NotYourTurnError):
        game.parse_move("take 1", "p2")
    with pytest.raises(WrongPlaceError):  # sent by DM: every move is made in the room
        game.parse_move("take 1", "p1", private=True)
    assert game.to_dict() == before


@pytest.mark.parametrize("pile", ["4", "100", "many", "²"])
def test_a_pile_option_out_of_bounds_is_refused(pile: str) -> None:
    with pytest.raises(OptionError):
        $Class.new(pile=pile)


def test_the_game_keeps_the_contract_of_every_game() -> None:
    # geniusbot check: random games to the end, the record replayed, the host, the text board...
    assert main(["check", "$name:$Class"]) == 0
'''
