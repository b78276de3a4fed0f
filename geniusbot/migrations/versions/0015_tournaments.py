"""Tournaments: a tournament (``tournaments``), its players (``tournament_players``), the rounds it
opened (``tournament_rounds``) and each round's pairings (``tournament_pairings``).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 22:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'tournaments',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('guild_id', sa.BigInteger(), nullable=False),
        sa.Column('channel_id', sa.BigInteger(), nullable=False),
        sa.Column('host_id', sa.BigInteger(), nullable=False),
        sa.Column('game', sa.String(length=64), nullable=False),
        sa.Column('variant', sa.String(length=64), nullable=False),
        sa.Column('clock', sa.String(length=64), nullable=True),
        sa.Column('format', sa.String(length=32), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('signup_deadline', sa.DateTime(timezone=True), nullable=True),
        sa.Column('message_id', sa.BigInteger(), nullable=True),
        sa.Column('current_round', sa.Integer(), server_default='0', nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments')),
    )
    op.create_table(
        'tournament_players',
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('display_name', sa.String(length=100), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=True),
        sa.Column('withdrawn', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['tournament_id'],
            ['tournaments.id'],
            name=op.f('fk_tournament_players_tournament_id_tournaments'),
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('tournament_id', 'user_id', name=op.f('pk_tournament_players')),
    )
    op.create_table(
        'tournament_rounds',
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['tournament_id'],
            ['tournaments.id'],
            name=op.f('fk_tournament_rounds_tournament_id_tournaments'),
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('tournament_id', 'number', name=op.f('pk_tournament_rounds')),
    )
    op.create_table(
        'tournament_pairings',
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('board', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('first_id', sa.BigInteger(), nullable=False),
        sa.Column('second_id', sa.BigInteger(), nullable=True),
        sa.Column('channel_id', sa.BigInteger(), nullable=True),
        sa.Column('match_id', sa.Integer(), nullable=True),
        sa.Column('score', sa.Float(), nullable=True),
        sa.Column('note', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ['match_id'], ['matches.id'], name=op.f('fk_tournament_pairings_match_id_matches'), ondelete='SET NULL'
        ),
        sa.ForeignKeyConstraint(
            ['tournament_id'],
            ['tournaments.id'],
            name=op.f('fk_tournament_pairings_tournament_id_tournaments'),
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('tournament_id', 'round', 'board', name=op.f('pk_tournament_pairings')),
        sa.UniqueConstraint('match_id', name=op.f('uq_tournament_pairings_match_id')),
    )


def downgrade() -> None:
    op.drop_table('tournament_pairings')
    op.drop_table('tournament_rounds')
    op.drop_table('tournament_players')
    op.drop_table('tournaments')
