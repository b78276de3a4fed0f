"""The rules stay pure: a game's rules import only the standard library and geniusbot's rules
API; its picture may use Pillow and the drawing toolkit, and nothing of the bot, the host or the
database (the functions are :mod:`geniusbot.conformance.purity`'s, which ``geniusbot check`` runs)."""

from pathlib import Path

import pytest

import geniusbot.games
from geniusbot.conformance.purity import check_purity, foreign_imports, imported_modules, is_picture
from geniusbot.games import registry

GAMES_DIR = Path(geniusbot.games.__file__).parent


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


@pytest.mark.parametrize("name", sorted(registry()))
def test_every_registered_games_package_is_pure(name):
    # The check of `geniusbot check GAME` (purity): a plug-in's package too, its picture named by Game.picture.
    check_purity(registry()[name])
