"""The package ``geniusbot.storage``: its public names, and its import staying light."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import geniusbot.storage as storage

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", storage.__all__)
def test_every_public_name_is_the_one_its_module_defines(name: str) -> None:
    module = importlib.import_module(f"geniusbot.storage.{storage._MODULE_OF[name]}")
    assert getattr(storage, name) is getattr(module, name)
    assert name in dir(storage)


def test_the_public_names_and_their_modules_agree() -> None:
    assert sorted(storage.__all__) == sorted(storage._MODULE_OF)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Repository'"):
        storage.Repository  # noqa: B018


@pytest.mark.slow
def test_the_record_format_and_the_errors_load_without_sqlalchemy() -> None:
    # The record (and `geniusbot adjudicate`) must work without a database driver: the package
    # loads the store's names only when they are asked for.
    code = (
        "import sys\n"
        "import geniusbot.storage, geniusbot.record, geniusbot.adjudicate\n"
        "from geniusbot.storage import MatchNotFound, StorageUnavailable\n"
        "assert 'sqlalchemy' not in sys.modules, sorted(m for m in sys.modules if m.startswith('sqlalchemy'))\n"
        "from geniusbot.storage import Store\n"
        "assert 'sqlalchemy' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)
