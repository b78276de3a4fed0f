"""Outcomes as data: an ended match keeps how it ended (the termination, such as ``line`` or
``time``, or a game's own) and the outcome's plain values (the seat that ran out of time, the
scores) beside its winner and sentence. NULL for a match that ended before they were kept, and
for an aborted one (it has no outcome).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07 12:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('termination', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('outcome', sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('outcome')
        batch_op.drop_column('termination')
