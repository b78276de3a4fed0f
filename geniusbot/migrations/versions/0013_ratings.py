"""Ratings: whether a match is rated (``matches.rated``) and whether /start rates by default
(``guild_settings.rated``); each player's Glicko-2 rating per guild, game and rule set
(``ratings``) and what each rated match did to it (``rating_changes``).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 21:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN on both databases: a batch on SQLite would copy ``matches`` into a new table
    # and drop the old one, and the drop cascades to every match's log.
    op.add_column('matches', sa.Column('rated', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('guild_settings', sa.Column('rated', sa.Boolean(), server_default=sa.true(), nullable=False))
    op.create_table(
        'ratings',
        sa.Column('guild_id', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('game', sa.String(length=64), nullable=False),
        sa.Column('variant', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('display_name', sa.String(length=100), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('rd', sa.Float(), nullable=False),
        sa.Column('volatility', sa.Float(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('losses', sa.Integer(), nullable=False),
        sa.Column('draws', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('guild_id', 'game', 'variant', 'user_id', name=op.f('pk_ratings')),
    )
    op.create_index(
        'ix_ratings_guild_id_game_variant_rating', 'ratings', ['guild_id', 'game', 'variant', 'rating'], unique=False
    )
    op.create_table(
        'rating_changes',
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('guild_id', sa.BigInteger(), nullable=False),
        sa.Column('game', sa.String(length=64), nullable=False),
        sa.Column('variant', sa.String(length=64), nullable=False),
        sa.Column('seat', sa.String(length=16), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('score', sa.Float(), nullable=False),
        sa.Column('rating_before', sa.Float(), nullable=False),
        sa.Column('rd_before', sa.Float(), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('rd', sa.Float(), nullable=False),
        sa.Column('volatility', sa.Float(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['match_id'], ['matches.id'], name=op.f('fk_rating_changes_match_id_matches'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('match_id', 'user_id', name=op.f('pk_rating_changes')),
    )
    op.create_index(
        'ix_rating_changes_guild_id_user_id_at', 'rating_changes', ['guild_id', 'user_id', 'at'], unique=False
    )


def downgrade() -> None:
    op.drop_index('ix_rating_changes_guild_id_user_id_at', table_name='rating_changes')
    op.drop_table('rating_changes')
    op.drop_index('ix_ratings_guild_id_game_variant_rating', table_name='ratings')
    op.drop_table('ratings')
    op.drop_column('guild_settings', 'rated')
    op.drop_column('matches', 'rated')
