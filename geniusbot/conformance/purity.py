"""The rules stay pure: a game's modules import only the standard library, geniusbot's rules
API (:mod:`geniusbot.games`) and its words as data (:mod:`geniusbot.words`, the standard library
only until a language is asked for); its picture modules may also use Pillow and the drawing toolkit
(:mod:`geniusbot.render`); nothing of the bot, the host or the database, and no rules module
imports a picture. The source is read, not run: a branch no game reaches is read too."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from geniusbot.games import Game

from .failures import CheckFailed, expect


def game_sources(cls: type[Game]) -> list[Path]:
    """The source files of the game's package (every module under its folder), or of its one
    module when it is not in a package."""
    module = sys.modules[cls.__module__]
    package = module.__package__ or ""
    if package and package in sys.modules:
        folders = [Path(p) for p in getattr(sys.modules[package], "__path__", [])]
        if folders:
            return sorted(path for folder in folders for path in folder.rglob("*.py"))
    return [Path(module.__file__)] if module.__file__ else []


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name (a relative import is its own package's)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def relative_imports(path: Path) -> Iterator[str]:
    """The modules ``path`` imports from its own package (``from .picture import render``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            yield node.module or ""


def is_picture(path: Path, picture_module: str = "") -> bool:
    """Whether ``path`` is a picture module: its name starts with ``picture``, or it is the module
    the game's ``picture`` names."""
    last = picture_module.rpartition(".")[2]
    return path.name.startswith("picture") or (bool(last) and path.stem == last)


def foreign_imports(path: Path, picture_module: str = "") -> set[str]:
    """What ``path`` imports that its kind of module may not."""
    picture = is_picture(path, picture_module)
    allowed_packages = {"geniusbot.games", "geniusbot.words"} | ({"geniusbot.render", "PIL"} if picture else set())
    foreign = set()
    for name in imported_modules(path):
        top = name.split(".")[0]
        if top == "__future__" or (top in sys.stdlib_module_names and top != "asyncio"):
            continue
        if not any(name == allowed or name.startswith(allowed + ".") for allowed in allowed_packages):
            foreign.add(name)
    return foreign


def imports_a_picture(path: Path, picture_module: str = "") -> bool:
    """Whether a module that is not a picture imports one (by name or relatively)."""
    if is_picture(path, picture_module):
        return False
    names = imported_modules(path) | set(relative_imports(path))
    pictures = {picture_module} if picture_module else set()
    return any(re.search(r"(^|\.)picture", name) or name in pictures for name in names)


def check_purity(cls: type[Game]) -> None:
    """Every module of the game's package imports only what its kind may (above), and no module
    but a picture imports a picture."""
    picture_module = cls.picture.partition(":")[0]
    sources = game_sources(cls)
    expect(sources, f"the source of {cls.__module__} cannot be found", "install the game from its source files.")
    offenders = {}
    for path in sources:
        try:
            foreign = foreign_imports(path, picture_module)
        except (SyntaxError, UnicodeDecodeError) as error:
            raise CheckFailed(f"{path.name} cannot be read as Python ({error})") from error
        if foreign:
            offenders[path.name] = sorted(foreign)
        expect(
            not imports_a_picture(path, picture_module),
            f"{path.name} imports the picture",
            "the rules name the picture by a string (Game.picture = 'module:function') and never import it.",
        )
    expect(
        not offenders,
        "modules import what the rules may not: "
        + "; ".join(f"{name}: {', '.join(found)}" for name, found in offenders.items()),
        "the rules import the standard library, geniusbot.games and geniusbot.words only (no discord, "
        "Pillow, database, asyncio); a picture module may also import PIL and geniusbot.render.",
    )


#: An event given its kind as a string literal, or a kind compared with one (``kind=EventKind.X`` and
#: ``e.kind == Kind.X`` pass; a local ``kind = "draw"`` that names a move's action is no event kind).
LITERAL_KIND = re.compile(r"""\bkind=["']|\.kind\s*(?:==|!=|not in|in)\s*[("']""")


def check_kinds_in_source(cls: type[Game]) -> None:
    """No module of the game's package gives an event kind as a string literal, or compares a kind
    with one: random play cannot reach every branch (an item a random game never holds), the
    source can be read."""
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in game_sources(cls)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LITERAL_KIND.search(line)
    ]
    expect(
        not found,
        "event kinds are given as strings: " + "; ".join(found[:5]),
        "kind= is a member of EventKind or of the game's own StrEnum, and a kind is compared with a member.",
    )
