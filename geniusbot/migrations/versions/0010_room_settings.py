"""A server's room settings: whether each match runs in a thread of its game room (``threads``,
off until ``/setup`` turns it on) and whether the player to move is pinged (``pings``, on).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('threads', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('pings', sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('pings')
        batch_op.drop_column('threads')
