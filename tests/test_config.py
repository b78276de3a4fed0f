"""Settings from the environment and from .env (monkeypatched environment: the real thing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from geniusbot.config import Settings

VARIABLES = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "GENIUSBOT_DATA_DIR",
    "LOG_LEVEL",
    "GENIUSBOT_LANGUAGE",
    "MESSAGE_CONTENT_INTENT",
    "DISCORD_API_BASE_URL",
    "DISCORD_GATEWAY_URL",
    "FONT_PATH",
)

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    # Settings() reads ./.env: run each test where no stray .env can be.
    monkeypatch.chdir(tmp_path)


def test_defaults():
    settings = Settings()
    assert settings.discord_token is None
    assert settings.data_dir == Path("data")
    assert settings.database_url == "sqlite+aiosqlite:///data/geniusbot.sqlite3"
    assert settings.log_level == "INFO"
    assert settings.discord_api_base_url is None and settings.discord_gateway_url is None
    assert settings.font_path is None
    assert settings.geniusbot_language == "en"
    assert settings.message_content_intent is True


def test_every_setting_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    monkeypatch.setenv("GENIUSBOT_DATA_DIR", "/srv/geniusbot")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("GENIUSBOT_LANGUAGE", "ko")
    monkeypatch.setenv("MESSAGE_CONTENT_INTENT", "false")
    monkeypatch.setenv("DISCORD_API_BASE_URL", "http://127.0.0.1:8080/api/v10/")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:8080/gateway")
    settings = Settings()
    assert settings.discord_token is not None and settings.discord_token.get_secret_value() == "abc.def"
    assert "abc.def" not in repr(settings)
    assert settings.database_url == "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    assert settings.data_dir == Path("/srv/geniusbot")
    assert settings.log_level == "DEBUG" and settings.log_level_number == 10
    assert settings.geniusbot_language == "ko"
    assert settings.message_content_intent is False
    assert settings.discord_api_base_url == "http://127.0.0.1:8080/api/v10"
    assert settings.discord_gateway_url == "ws://127.0.0.1:8080/gateway"


def test_the_default_database_follows_the_data_directory(monkeypatch):
    monkeypatch.setenv("GENIUSBOT_DATA_DIR", "/var/lib/geniusbot")
    assert Settings().database_url == "sqlite+aiosqlite:////var/lib/geniusbot/geniusbot.sqlite3"


def test_dot_env_is_read_and_the_environment_wins(monkeypatch, tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=WARNING\nGENIUSBOT_DATA_DIR=state\n")
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    settings = Settings()
    assert settings.discord_token is not None and settings.discord_token.get_secret_value() == "from-file"
    assert settings.log_level == "ERROR"
    assert settings.database_url == "sqlite+aiosqlite:///state/geniusbot.sqlite3"


def test_empty_values_count_as_unset(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.setenv("DATABASE_URL", "")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "")
    settings = Settings()
    assert settings.discord_token is None and settings.discord_gateway_url is None
    assert settings.database_url == "sqlite+aiosqlite:///data/geniusbot.sqlite3"


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of"),
        ("GENIUSBOT_LANGUAGE", "Korean please", "must be a language code such as en, ko or en-US"),
        ("DISCORD_API_BASE_URL", "discord.example/api", "must start with http:// or https://"),
        ("DISCORD_GATEWAY_URL", "https://gateway.example", "must start with ws:// or wss://"),
    ],
)
def test_bad_values_are_refused_with_what_to_write(monkeypatch, name, value, words):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as caught:
        Settings()
    assert words in str(caught.value)


def test_env_example_lists_every_setting():
    example = (Path(__file__).parent.parent / ".env.example").read_text(encoding="utf-8")
    written = {line.split("=", 1)[0].lstrip("# ").strip() for line in example.splitlines() if "=" in line}
    assert set(VARIABLES) <= written


@pytest.mark.skipif(not DEJAVU.is_file(), reason=f"no DejaVu Sans at {DEJAVU} on this machine")
def test_a_font_file_is_read(monkeypatch):
    monkeypatch.setenv("FONT_PATH", str(DEJAVU))
    assert Settings().font_path == DEJAVU.resolve()


def test_a_font_path_is_read_as_written_and_checked_by_the_launcher(monkeypatch, tmp_path):
    # Whether Pillow can draw with it is the renderer's to say: the launcher checks it as it reads
    # the settings (tests/test_cli.py, test_a_bad_font_path_is_refused_with_the_reason).
    monkeypatch.setenv("FONT_PATH", "~/fonts/none.ttf")
    assert Settings().font_path == Path("~/fonts/none.ttf").expanduser()


def test_the_log_levels_are_the_launchers():
    from geniusbot import cli, config

    assert config.LOG_LEVELS == cli.LOG_LEVELS


def test_the_environments_own_language_variable_is_not_the_bots(monkeypatch):
    # LANGUAGE is gettext's ("en_US:en" on many machines); the bot's language is GENIUSBOT_LANGUAGE only.
    monkeypatch.setenv("LANGUAGE", "en_US:en")
    assert Settings().geniusbot_language == "en"
    monkeypatch.setenv("GENIUSBOT_LANGUAGE", "qps")
    assert Settings().geniusbot_language == "qps"
