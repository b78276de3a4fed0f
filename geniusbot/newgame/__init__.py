"""A new game's package, written from the skeleton in :mod:`.template` (``geniusbot new-game NAME``,
:mod:`geniusbot.commands.new_game`).

It writes ``NAME/`` (or ``--dir``): a ``pyproject.toml`` with the ``geniusbot.games`` entry point,
a README with the rules, ``src/NAME/rules.py`` with a :class:`~geniusbot.games.Game` subclass (a
whole small game: take one, two or three stones, the last one wins) and ``tests/`` with its
scenarios and ``geniusbot check``. The skeleton passes ``geniusbot check NAME`` once installed
(``pip install -e NAME``), and ``geniusbot check NAME:Class`` from its ``src`` folder before.
Exit 0 when written; 2, writing nothing, for a name that cannot be a game's or a folder that is
there already.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.words import Message

# The skeleton and what writes it are imported only when they are used (json, importlib.util and
# string cost some 10 ms to import).

#: A game's name: its registry key, its entry point, its Python package.
NAME = r"[a-z][a-z0-9]{1,30}"


def class_name(name: str, title: str) -> str:
    """The class of a game: its title's words run together (``Number Guess`` -> ``NumberGuess``),
    else its name capitalised."""
    words = re.findall(r"[A-Za-z0-9]+", title)
    joined = "".join(word[:1].upper() + word[1:] for word in words)
    return joined if joined.isidentifier() and joined.isascii() and not joined[0].isdigit() else name.capitalize()


def files(name: str, title: str | None = None) -> dict[str, str]:
    """The skeleton's files of the game ``name``: relative path -> text."""
    import json
    from string import Template

    from . import template

    title = title or name.capitalize()
    values = {
        "name": name,
        "Class": class_name(name, title),
        "title": title,
        "title_py": json.dumps(title, ensure_ascii=False),
        "title_toml": json.dumps(f"{title}, a game for geniusbot."),
    }
    written = {
        "pyproject.toml": template.PYPROJECT,
        "README.md": template.README,
        f"src/{name}/__init__.py": template.INIT,
        f"src/{name}/rules.py": template.RULES,
        f"tests/test_{name}.py": template.TESTS,
    }
    return {path: Template(text).substitute(values) for path, text in written.items()}


def refusal(name: str) -> Message | None:
    """Why ``name`` cannot be a new game's (a message), or ``None``."""
    from geniusbot.games import GameError, get_game
    from geniusbot.words import Verbatim, say

    quoted = Verbatim(repr(name))
    if not re.fullmatch(NAME, name):
        return say(
            "{name} cannot be a game's name: write 2 to 31 lower-case letters and digits, a letter first "
            "(it is the game's registry name, its entry point and its Python package), such as pebbles.",
            name=quoted,
        )
    try:
        taken = get_game(name)
    except GameError:
        taken = None
    if taken is not None:
        return say("{name} is a game already ({title}); choose another name.", name=quoted, title=Verbatim(taken.title))
    import importlib.util

    if name in sys.stdlib_module_names or importlib.util.find_spec(name) is not None:
        return say("{name} is the name of a Python module already; choose another name.", name=quoted)
    return None


def write(name: str, folder: Path, title: str | None = None) -> list[Path]:
    """Write the skeleton of ``name`` into ``folder`` (which must not exist, or be empty)."""
    written = []
    for relative, text in files(name, title).items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
