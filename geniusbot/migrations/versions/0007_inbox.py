"""The inbox: direct messages (and DM button presses) handed from the bot process that received
them to the process that owns their match's shard.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 04:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('inbox',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('shard', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('seat', sa.String(length=16), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('key', sa.String(length=100), nullable=False),
    sa.Column('reply', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_inbox_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_inbox'))
    )
    with op.batch_alter_table('inbox', schema=None) as batch_op:
        batch_op.create_index('ix_inbox_key', ['key'], unique=True)
        batch_op.create_index('ix_inbox_match_id', ['match_id'], unique=False)
        batch_op.create_index('ix_inbox_shard_id', ['shard', 'id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('inbox', schema=None) as batch_op:
        batch_op.drop_index('ix_inbox_shard_id')
        batch_op.drop_index('ix_inbox_match_id')
        batch_op.drop_index('ix_inbox_key')

    op.drop_table('inbox')
