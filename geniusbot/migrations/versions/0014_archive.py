"""The archive: an imported record's refused lines keep their line number (``actions.line``),
and the indexes the archive's filters use (game and rule set, result, a player's name), so that
a server with 100,000 archived matches lists a page of them in milliseconds.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07 21:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('line', sa.Integer(), nullable=True))
    op.create_index('ix_matches_guild_id_finished_at', 'matches', ['guild_id', 'finished_at'])
    op.create_index(
        'ix_matches_guild_id_game_variant_finished_at', 'matches', ['guild_id', 'game', 'variant', 'finished_at']
    )
    op.create_index('ix_matches_guild_id_winner_finished_at', 'matches', ['guild_id', 'winner', 'finished_at'])
    op.create_index('ix_seats_display_name', 'seats', ['display_name'])


def downgrade() -> None:
    op.drop_index('ix_seats_display_name', table_name='seats')
    op.drop_index('ix_matches_guild_id_winner_finished_at', table_name='matches')
    op.drop_index('ix_matches_guild_id_game_variant_finished_at', table_name='matches')
    op.drop_index('ix_matches_guild_id_finished_at', table_name='matches')
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.drop_column('line')
