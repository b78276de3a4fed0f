"""Submission keys: each taken action names the submission it came from (``actions.key``), unique
within its match, so that a commit whose answer was lost is found again and a submission is never
taken twice.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 22:10:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key', sa.String(length=100), nullable=True))
        batch_op.create_index('uq_actions_match_id_key', ['match_id', 'key'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.drop_index('uq_actions_match_id_key')
        batch_op.drop_column('key')
