"""The world every end-to-end test plays in: the fake Discord, its guild, room and members."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.botworld import make_world
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def world(tmp_path: Path):
    async with FakeDiscord() as fake:
        yield make_world(fake, tmp_path)
