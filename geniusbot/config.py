"""The bot's settings, read from the environment and from a ``.env`` file.

Every setting and its environment variable (``.env.example`` lists them with comments):

==========================  ================================================================
``DISCORD_TOKEN``           the bot account's token (optional until the bot runs)
``DATABASE_URL``            SQLAlchemy URL, or a SQLite file's path (as ``play --db`` takes it);
                            default ``sqlite+aiosqlite:///<data dir>/geniusbot.sqlite3``
``GENIUSBOT_DATA_DIR``      where the bot keeps its files; default ``./data``
``LOG_LEVEL``               DEBUG, INFO (default), WARNING, ERROR or CRITICAL
``GENIUSBOT_LANGUAGE``      the language the bot speaks: en (default), ko, qps (pseudo)
``MESSAGE_CONTENT_INTENT``  true (default): ask for the Message Content intent, moves typed in
                            the room; false: moves by /move, replies, mentions and DMs
``DISCORD_API_BASE_URL``    REST base of a Discord proxy, e.g. ``https://proxy.example/api/v10``
``DISCORD_GATEWAY_URL``     gateway of a Discord proxy, e.g. ``wss://proxy.example/``
``FONT_PATH``               a .ttf/.otf/.ttc font for the pictures' text (names in any script);
                            default: Pillow's built-in font, Latin only (the launcher checks
                            that Pillow can draw with it)
``SHARD_COUNT``             how many Discord shards the bot has in all; default: Discord's number,
                            one process serving every shard
``SHARD_IDS``               the shards this process serves, e.g. ``0,1``; default: all of them
``STANDBY``                 true: wait for the shards' owner to go, then take them over
                            (PostgreSQL only); default false
``HEALTH_LOG_SECONDS``      a health line in the log every N seconds; default 60, 0 = none
``HEALTH_PORT``             serve ``GET /healthz`` on this port (every interface); default: none
==========================  ================================================================

The environment wins over ``.env``; an empty value counts as unset.

This module imports nothing else of geniusbot (``tests/test_layers.py``): every layer may read the
settings, and the settings know none of them.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Annotated

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

#: The log levels ``LOG_LEVEL`` takes (the launcher's ``--log-level`` too: ``geniusbot.cli`` keeps
#: the same tuple, so that it checks a level without importing pydantic; a test holds them equal).
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

#: What a database URL looks like, for the sentence that refuses one.
URL_EXAMPLES = (
    "a SQLite file such as data/geniusbot.sqlite3, or a database URL such as "
    "sqlite+aiosqlite:///data/geniusbot.sqlite3 or postgresql+asyncpg://user:password@host:5432/geniusbot"
)

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9]*)(\+[A-Za-z0-9_]+)?$")


def database_url(value: str, setting: str = "DATABASE_URL") -> str:
    """``value`` as a database URL: a URL of a database geniusbot can use (SQLite, PostgreSQL)
    as written, a plain file path (``games.sqlite3``, ``/tmp/x.sqlite3``) as the SQLite database in
    that file, as ``geniusbot play --db`` takes it. Anything else is a :class:`ValueError` whose
    sentence says what a URL looks like (and shows no password)."""
    value = value.strip()
    if not value:
        raise ValueError(f"{setting} is empty; write {URL_EXAMPLES}")
    scheme, sep, _rest = value.partition("://")
    if not sep:
        return f"sqlite+aiosqlite:///{Path(value).expanduser().resolve()}"
    match = _SCHEME.match(scheme)
    if match is None or match.group(1).lower() not in ("sqlite", "postgresql", "postgres"):
        shown = f"a URL starting {scheme[:40]}://" if scheme else "a URL with nothing before ://"
        raise ValueError(f"{setting} must be {URL_EXAMPLES}; {shown} is not one geniusbot can use")
    if match.group(1).lower() == "sqlite" and _in_memory(_rest):
        raise ValueError(
            f"{setting} names an in-memory SQLite database, which keeps nothing (each connection has "
            f"its own); name a file: {URL_EXAMPLES}"
        )
    return value


def _in_memory(rest: str) -> bool:
    """Whether the part of a SQLite URL after ``://`` names no file: empty, ``/``, ``/:memory:``,
    or a ``mode=memory`` URI."""
    path, _, query = rest.partition("?")
    return path.lstrip("/") in ("", ":memory:") or "mode=memory" in query


class Settings(BaseSettings):
    """Settings of one bot process. ``Settings()`` reads the environment and ``./.env``."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
        populate_by_name=True,
    )

    discord_token: SecretStr | None = Field(
        default=None, description="The bot account's token, from the Discord Developer Portal."
    )
    data_dir: Path = Field(
        default=Path("data"),
        validation_alias=AliasChoices("GENIUSBOT_DATA_DIR", "data_dir"),
        description="Where the bot keeps its files (the default SQLite database among them).",
    )
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy async URL; default: a SQLite file in the data directory.",
    )
    log_level: str = Field(default="INFO", description="The level of the log on standard error.")
    # Named so, not ``language``: the environment's LANGUAGE is gettext's own (en_US:en).
    geniusbot_language: str = Field(
        default="en",
        description="The language the bot speaks: en, a language with a catalogue (ko), or qps (the pseudo-language).",
    )
    message_content_intent: bool = Field(
        default=True,
        description=(
            "Ask Discord for the privileged Message Content intent, so moves may be typed in the room; "
            "false = moves by /move, replies and mentions, and DMs (no intent to apply for)."
        ),
    )
    discord_api_base_url: str | None = Field(
        default=None, description="The REST base URL of a Discord proxy; None = discord.py's default."
    )
    discord_gateway_url: str | None = Field(
        default=None, description="The gateway URL of a Discord proxy; None = discord.py's default."
    )
    font_path: Path | None = Field(
        default=None,
        description=(
            "A TrueType/OpenType font file for the text on the pictures, e.g. Noto Sans CJK for "
            "Korean, Japanese and Chinese names; None = Pillow's built-in font (Latin only)."
        ),
    )

    shard_count: int | None = Field(
        default=None,
        description="How many shards the bot has in all; None = Discord's recommended number, all served here.",
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, description="The shards this process serves (needs SHARD_COUNT); None = all of them."
    )
    standby: bool = Field(
        default=False, description="Wait for the shards' locks instead of refusing to start while another holds them."
    )

    @field_validator("shard_count", mode="before")
    @classmethod
    def _shard_count(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if not text.isdigit():
                raise ValueError(f"SHARD_COUNT must be a whole number of shards (1 or more), not {value!r}")
            return int(text)
        return value

    @field_validator("shard_count")
    @classmethod
    def _positive_count(cls, value: int | None) -> int | None:
        if value is not None and value < 1:
            raise ValueError(f"SHARD_COUNT must be 1 or more, not {value}")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, int):
            return (value,)
        if not isinstance(value, str):
            return value
        parts = [p.strip() for p in value.replace(" ", ",").split(",") if p.strip()]
        if not parts or not all(p.isdigit() for p in parts):
            raise ValueError(f"SHARD_IDS must list shard numbers separated by commas, such as 0,1; not {value!r}")
        return tuple(int(p) for p in parts)

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        ids = self.shard_ids
        if ids is not None:
            if self.shard_count is None:
                raise ValueError(
                    f"SHARD_IDS ({','.join(map(str, ids))}) needs SHARD_COUNT, the number of shards in all "
                    "(the ids run from 0 to SHARD_COUNT - 1)"
                )
            outside = sorted({i for i in ids if i >= self.shard_count})
            if outside:
                raise ValueError(
                    f"SHARD_IDS names shard(s) {', '.join(map(str, outside))}, but with SHARD_COUNT={self.shard_count} "
                    f"the shards are 0 to {self.shard_count - 1}"
                )
            if len(set(ids)) != len(ids):
                raise ValueError(f"SHARD_IDS names a shard twice ({','.join(map(str, ids))}); name each once")
            self.shard_ids = tuple(sorted(ids))
        if self.standby and self.shard_count is None:
            raise ValueError("STANDBY needs SHARD_COUNT (and SHARD_IDS: the shards to stand by for)")
        return self

    @property
    def served_shards(self) -> tuple[int, ...] | None:
        """The shards this process serves, or ``None`` without shard settings (all, as Discord says)."""
        if self.shard_count is None:
            return None
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    health_log_seconds: int = Field(default=60, ge=0, description="A health line every N seconds; 0 = none.")
    health_port: int | None = Field(default=None, ge=0, le=65535, description="GET /healthz here; None = no server.")

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str | None) -> str | None:
        return None if value is None else database_url(value)

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {value!r}")
        return level

    @field_validator("geniusbot_language")
    @classmethod
    def _language_code(cls, value: str) -> str:
        code = value.strip()
        if not re.fullmatch(r"[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?", code):
            raise ValueError(f"GENIUSBOT_LANGUAGE must be a language code such as en, ko or en-US, not {value!r}")
        return code

    @field_validator("discord_api_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"DISCORD_API_BASE_URL must start with http:// or https://, not {value!r}")
        # discord.py appends paths such as "/users/@me" to the base, so a trailing slash would double.
        return value.rstrip("/")

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        if not value.startswith(("ws://", "wss://")):
            raise ValueError(f"DISCORD_GATEWAY_URL must start with ws:// or wss://, not {value!r}")
        return value

    @field_validator("font_path")
    @classmethod
    def _font_file(cls, value: Path | None) -> Path | None:
        # Whether Pillow can draw with it is the pictures' business: the launcher checks it
        # (geniusbot.render.fonts.check_font) as it reads the settings, before a command runs.
        return None if value is None else value.expanduser()

    @model_validator(mode="after")
    def _default_database(self) -> Settings:
        if not self.database_url:
            self.database_url = f"sqlite+aiosqlite:///{self.data_dir.as_posix()}/geniusbot.sqlite3"
        served = self.served_shards
        if self.database_url.startswith("sqlite") and (
            self.standby or (served is not None and self.shard_count is not None and len(served) < self.shard_count)
        ):
            raise ValueError(
                "SHARD_IDS and STANDBY split the shards over several processes, which needs PostgreSQL "
                "(DATABASE_URL=postgresql+asyncpg://...); on SQLite one process serves every shard: "
                "leave SHARD_IDS and STANDBY unset"
            )
        return self

    @property
    def log_level_number(self) -> int:
        """The log level as the ``logging`` module's number."""
        return logging.getLevelNamesMapping()[self.log_level]
