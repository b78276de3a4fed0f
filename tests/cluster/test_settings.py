"""The shard settings: SHARD_COUNT, SHARD_IDS and STANDBY, read and checked like every setting."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from geniusbot.config import Settings

POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/geniusbot"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    for name in ("SHARD_COUNT", "SHARD_IDS", "STANDBY", "DATABASE_URL", "GENIUSBOT_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_without_shard_settings_one_process_serves_every_shard():
    settings = Settings()
    assert settings.shard_count is None and settings.shard_ids is None and not settings.standby
    assert settings.served_shards is None


def test_shard_ids_are_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", " 3, 1 ")
    monkeypatch.setenv("DATABASE_URL", POSTGRES)
    monkeypatch.setenv("STANDBY", "true")
    settings = Settings()
    assert (settings.shard_count, settings.shard_ids, settings.standby) == (4, (1, 3), True)
    assert settings.served_shards == (1, 3)


def test_a_count_alone_serves_every_shard_even_on_sqlite(monkeypatch):
    monkeypatch.setenv("SHARD_COUNT", "3")
    assert Settings().served_shards == (0, 1, 2)
    monkeypatch.setenv("SHARD_IDS", "0,1,2")
    assert Settings().served_shards == (0, 1, 2)


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"SHARD_IDS": "1"}, "SHARD_IDS (1) needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_COUNT=2 the shards are 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "names a shard twice"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "separated by commas, such as 0,1"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be 1 or more"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"STANDBY": "true", "DATABASE_URL": POSTGRES}, "STANDBY needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "needs PostgreSQL"),
        ({"SHARD_COUNT": "1", "STANDBY": "true"}, "needs PostgreSQL"),
    ],
)
def test_bad_shard_settings_are_refused_with_what_to_do(monkeypatch, env, said):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert said in str(refused.value)
