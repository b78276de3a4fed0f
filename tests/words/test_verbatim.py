"""What is written as :class:`~geniusbot.words.Verbatim` is said as it is in every language, so
the pseudo-language test cannot see English hidden in it: ``Verbatim("no such move")`` would pass
every ``unsaid`` check and reach a Korean room in English. So every literal text given to
``Verbatim`` in the code that has letters in it is listed here, each read and found to be what a
person types (a command, its options, a move's notation, a setting's name), never a sentence.
A new one fails this test until it is added to the list: write prose as a message instead.

Literals that begin with ``/`` (a slash command and its options), ``-`` (a flag) or ``<`` (a
mention) are commands or Discord's markup by their form and are not listed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.words.test_catalogue import ROOT, SOURCES

LETTERS = re.compile(r"[A-Za-z]{2,}")

#: (file, literal) of every Verbatim text with letters, and why it is not English to translate.
TYPED = {
    # setting names, as written in the environment or .env
    ("geniusbot/bot.py", "DISCORD_TOKEN"),
    ("geniusbot/bot.py", "DATABASE_URL"),
    ("geniusbot/bot.py", "DISCORD_API_BASE_URL"),
    # the form and an example of /start's options field
    ("geniusbot/cogs/__init__.py", "name=value"),
    ("geniusbot/cogs/__init__.py", "'setup=red C3 F6; blue F3 C6'"),
    ("geniusbot/cogs/admin.py", "name=value"),
    # /import's seat-order choice values
    ("geniusbot/cogs/imports.py", "first"),
    ("geniusbot/cogs/imports.py", "second"),
    # words typed in the game room
    ("geniusbot/host/chatter.py", "resign"),
    ("geniusbot/host/chatter.py", "pause"),
    ("geniusbot/host/chatter.py", "resume"),
    ("geniusbot/host/chatter.py", "abort"),
    ("geniusbot/host/chatter.py", "status"),
    ("geniusbot/host/chatter.py", "rules"),
    # the replay page's template placeholders and the command that made it
    ("geniusbot/archive/page.py", "{step}"),
    ("geniusbot/archive/page.py", "{last}"),
    ("geniusbot/archive/page.py", "{what}"),
    ("geniusbot/archive/page.py", "geniusbot replay"),
    ("geniusbot/archive/gif.py", "'geniusbot adjudicate'"),
    # moves in the games' notation
    ("geniusbot/games/allhands/swabbing.py", "snipe D4"),
    ("geniusbot/games/allhands/swabbing.py", "snipe none"),
    ("geniusbot/games/allhands/final.py", "pass"),
    ("geniusbot/games/allhands/text.py", "`mines A1 B2 C3 E6 G7`"),
    ("geniusbot/games/allhands/text.py", "`call red`"),
    ("geniusbot/games/allhands/text.py", "`use override chain rainbow`"),
    ("geniusbot/games/allhands/text.py", "`pass`"),
    ("geniusbot/games/allhands/text.py", "`use all-in`"),
    ("geniusbot/games/allhands/text.py", "`ban `"),
    ("geniusbot/games/allhands/tiles.py", "call red"),
    ("geniusbot/games/allhands/tiles.py", "D5 blue"),
    ("geniusbot/games/allhands/tiles.py", "mines A1 B2 C3 E6 G7"),
    # shell commands
    ("geniusbot/commands/__init__.py", "geniusbot "),
    ("geniusbot/commands/new_game.py", "pip install -e  && geniusbot check "),
    ("geniusbot/commands/new_game.py", "cd  && geniusbot check :"),
    ("geniusbot/commands/imports.py", "'geniusbot play '"),
    ("geniusbot/commands/db.py", "geniusbot"),
    # a slash command's option, as typed
    ("geniusbot/cogs/archive.py", "page:<number>"),
}


def verbatim_literals(path: Path) -> set[tuple[str, str]]:
    """(file, text) of each ``Verbatim`` call in ``path`` whose text is, or has, a literal with
    letters (an f-string's literal parts joined)."""
    name = path.relative_to(ROOT).as_posix()
    return {(name, text) for text in lettered_verbatims(path.read_text(encoding="utf-8"))}


def lettered_verbatims(source: str) -> set[str]:
    """The literal texts with letters given to ``Verbatim`` in ``source``, but commands, flags and mentions."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if name != "Verbatim":
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            text = arg.value
        elif isinstance(arg, ast.JoinedStr):
            text = "".join(v.value for v in arg.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
        else:
            continue
        if LETTERS.search(text) and not text.lstrip().startswith(("/", "-", "<")):
            found.add(text)
    return found


def test_every_verbatim_text_with_letters_is_one_a_person_types():
    found = set().union(*(verbatim_literals(path) for path in SOURCES))
    unread = sorted(found - TYPED)
    assert not unread, "Verbatim text not known to be typed (write prose as a message):\n" + "\n".join(
        f"{path}: {text!r}" for path, text in unread
    )


def test_the_list_names_no_text_the_code_no_longer_has():
    found = set().union(*(verbatim_literals(path) for path in SOURCES))
    assert not TYPED - found, sorted(TYPED - found)


def test_a_sentence_in_verbatim_is_caught_and_a_command_is_not():
    source = (
        "from geniusbot.words import Verbatim, words\n"
        "a = Verbatim('no such move')\n"
        "b = words.Verbatim(f'{seat} ran out of time')\n"
        "c = Verbatim(f'/resign match:{n}')\n"
        "d = Verbatim('H8')\n"
    )
    assert lettered_verbatims(source) == {"no such move", " ran out of time"}
