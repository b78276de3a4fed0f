"""Message intents: ``messages.message_id`` may be NULL, for a row written before its message is posted.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 22:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.alter_column('message_id', existing_type=sa.BigInteger(), nullable=True)


def downgrade() -> None:
    # An intent never filled in names no message: nothing of it can be kept.
    op.execute("DELETE FROM messages WHERE message_id IS NULL")
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.alter_column('message_id', existing_type=sa.BigInteger(), nullable=False)
