"""``geniusbot new-game NAME``: a new game's package, written from the skeleton in :mod:`.template`.

It writes ``NAME/`` (or ``--dir``): a ``pyproject.toml`` with the ``geniusbot.games`` entry point,
a README with the rules, ``src/NAME/rules.py`` with a :class:`~geniusbot.games.Game` subclass (a
whole small game: take one, two or three stones, the last one wins) and ``tests/`` with its
scenarios and ``geniusbot check``. The skeleton passes ``geniusbot check NAME`` once installed
(``pip install -e NAME``), and ``geniusbot check NAME:Class`` from its ``src`` folder before.
Exit 0 when written; 2, writing nothing, for a name that cannot be a game's or a folder that is
there already.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

# The launcher builds this parser for every command: the skeleton and what writes it are
# imported only when new-game runs (json, importlib.util and string cost some 10 ms to import).

EXIT_USAGE = 2
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


def refusal(name: str) -> str | None:
    """Why ``name`` cannot be a new game's (a sentence), or ``None``."""
    from geniusbot.games import GameError, get_game

    if not re.fullmatch(NAME, name):
        return (
            f"{name!r} cannot be a game's name: write 2 to 31 lower-case letters and digits, a letter first "
            "(it is the game's registry name, its entry point and its Python package), such as pebbles."
        )
    try:
        taken = get_game(name)
    except GameError:
        taken = None
    if taken is not None:
        return f"{name!r} is a game already ({taken.title}); choose another name."
    import importlib.util

    if name in sys.stdlib_module_names or importlib.util.find_spec(name) is not None:
        return f"{name!r} is the name of a Python module already; choose another name."
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


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``new-game`` and its arguments to the launcher's sub-commands."""
    from geniusbot.cli import NEW_GAME_HELP

    parser = commands.add_parser(
        "new-game",
        help=NEW_GAME_HELP,
        description=(
            "Write the package of a new game into NAME/ (or --dir): pyproject.toml with the geniusbot.games "
            "entry point, a README, src/NAME/rules.py with a Game subclass (a whole small game to change into "
            "yours) and tests/ with its scenarios and geniusbot check. It passes geniusbot check NAME once "
            "installed (pip install -e NAME). Exit 0 when written, 2 for a name that cannot be a game's or a "
            "folder that is there already."
        ),
    )
    parser.add_argument("name", metavar="NAME", help="the game's name: lower-case letters and digits, such as pebbles")
    parser.add_argument("--title", help="the game's human name (default: the name, capitalised)")
    parser.add_argument("--dir", metavar="DIR", help="the folder to write (default: ./NAME); it must not exist yet")
    parser.set_defaults(handler="geniusbot.newgame:command", needs_settings=False)


def command(args: argparse.Namespace) -> int:
    """Write the skeleton; the exit code."""
    problem = refusal(args.name)
    if problem is None and args.title is not None and not args.title.strip():
        problem = "--title is empty; give the game's human name, or leave --title out."
    folder = Path(args.dir or args.name)
    if problem is None and folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        problem = f"{folder} is there already; choose another --dir, or move it away."
    if problem is not None:
        print(f"geniusbot new-game: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        written = write(args.name, folder, args.title and args.title.strip())
    except OSError as error:
        print(f"geniusbot new-game: {folder} cannot be written ({error.strerror or error}).", file=sys.stderr)
        return EXIT_USAGE
    print(f"Wrote {len(written)} files in {folder}:")
    for path in written:
        print(f"  {path}")
    print(
        f"Next: pip install -e {folder} && geniusbot check {args.name} "
        f"(or, not installed: cd {folder / 'src'} && geniusbot check {args.name}:{class_name(args.name, args.title or args.name.capitalize())})."
    )
    return 0
