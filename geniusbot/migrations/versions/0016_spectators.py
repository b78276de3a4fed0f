"""A server's spectators' room (``guild_settings.spectators_channel_id``, ``/setup spectators``):
where the bot posts every secret of a match as it happens; NULL: none.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 21:45:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN: a batch on SQLite would rebuild guild_settings, and its drop cascades.
    op.add_column('guild_settings', sa.Column('spectators_channel_id', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    op.drop_column('guild_settings', 'spectators_channel_id')
