"""Message texts: an intent to post a text keeps the text's digest and when it was written, so a
restart can find the text on a medium where a text message cannot carry a key.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 23:25:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.add_column(sa.Column('text_digest', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('intended_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.drop_column('intended_at')
        batch_op.drop_column('text_digest')
