"""Imported records: the digest of each record imported as a match, so a second import is recognised.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 22:50:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('imported_records',
    sa.Column('scope', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_imported_records_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('scope', 'digest', name=op.f('pk_imported_records'))
    )
    with op.batch_alter_table('imported_records', schema=None) as batch_op:
        batch_op.create_index('ix_imported_records_match_id', ['match_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('imported_records', schema=None) as batch_op:
        batch_op.drop_index('ix_imported_records_match_id')

    op.drop_table('imported_records')
