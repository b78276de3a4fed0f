"""Practice matches: a match one seat of which the bot's practice opponent plays keeps that seat
and the opponent's level (both NULL for a match between people).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 04:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('practice_seat', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('practice_level', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('practice_level')
        batch_op.drop_column('practice_seat')
