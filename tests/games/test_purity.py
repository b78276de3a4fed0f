"""The rules stay pure: a game's rules import only the standard library and geniusbot's rules
API; its picture may use Pillow and the drawing toolkit, and nothing of the bot, the host or the
database."""

import ast
import sys
from pathlib import Path

import geniusbot.games

GAMES_DIR = Path(geniusbot.games.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def is_picture(path: Path) -> bool:
    return path.name.startswith("picture")


def foreign_imports(path: Path) -> set[str]:
    """What ``path`` imports that its kind of module may not."""
    allowed_packages = {"geniusbot.games"} | ({"geniusbot.render", "PIL"} if is_picture(path) else set())
    foreign = set()
    for name in imported_modules(path):
        top = name.split(".")[0]
        if top == "__future__" or (top in sys.stdlib_module_names and top != "asyncio"):
            continue
        if not any(name == allowed or name.startswith(allowed + ".") for allowed in allowed_packages):
            foreign.add(name)
    return foreign


def test_rules_import_only_the_standard_library_and_pictures_only_pillow_and_the_toolkit():
    offenders = {}
    for path in sorted(GAMES_DIR.rglob("*.py")):
        foreign = foreign_imports(path)
        if foreign:
            offenders[str(path.relative_to(GAMES_DIR))] = sorted(foreign)
    assert offenders == {}


def test_the_check_sees_a_foreign_import(tmp_path):
    rules = tmp_path / "rules.py"
    rules.write_text(
        "import discord\nfrom PIL import Image\nimport json\nimport asyncio\nfrom geniusbot.host import board\n"
    )
    assert foreign_imports(rules) == {"discord", "PIL", "asyncio", "geniusbot.host"}
    picture = tmp_path / "picture.py"
    picture.write_text(
        "from PIL import Image\nfrom geniusbot.render import layout\nfrom geniusbot.storage import Store\n"
    )
    assert foreign_imports(picture) == {"geniusbot.storage"}


def test_a_rules_module_never_imports_a_picture():
    for path in sorted(GAMES_DIR.rglob("*.py")):
        if not is_picture(path):
            assert not any(".picture" in name for name in imported_modules(path)), path
