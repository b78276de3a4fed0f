"""A server's board style: how a match's board is shown in its room (``board``: ``message``, a
picture with its caption per move, the default; ``card``, a Components V2 card per move;
``edited``, one card per match edited in place after every move).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07 20:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('board', sa.String(length=16), server_default='message', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('board')
