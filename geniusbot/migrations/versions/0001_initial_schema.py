"""The initial schema: matches, seats, the action log, timers, posted messages, guild settings.

Revision ID: 0001
Revises:
Create Date: 2026-11-29 12:41:38.754339
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('guild_settings',
    sa.Column('guild_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('host_role_id', sa.BigInteger(), nullable=True),
    sa.PrimaryKeyConstraint('guild_id', name=op.f('pk_guild_settings'))
    )
    op.create_table('matches',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=True),
    sa.Column('channel_id', sa.BigInteger(), nullable=True),
    sa.Column('game', sa.String(length=64), nullable=False),
    sa.Column('variant', sa.String(length=64), nullable=False),
    sa.Column('seed', sa.String(length=64), nullable=False),
    sa.Column('options', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('state', sa.JSON(none_as_null=True), nullable=False),
    sa.Column('clock', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('host', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('winner', sa.String(length=16), nullable=True),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.CheckConstraint("status IN ('live', 'paused', 'finished', 'aborted')", name=op.f('ck_matches_status')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_matches'))
    )
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.create_index('ix_matches_guild_id_status_finished_at', ['guild_id', 'status', 'finished_at'], unique=False)
        batch_op.create_index('ix_matches_status', ['status'], unique=False)
        batch_op.create_index('uq_matches_channel_id_unfinished', ['channel_id'], unique=True, sqlite_where=sa.text("status IN ('live', 'paused')"), postgresql_where=sa.text("status IN ('live', 'paused')"))

    op.create_table('actions',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.String(length=16), nullable=True),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('private', sa.Boolean(), nullable=False),
    sa.Column('accepted', sa.Boolean(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('clocks', sa.JSON(none_as_null=True), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_actions_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'seq', name=op.f('pk_actions'))
    )
    op.create_table('game_rooms',
    sa.Column('guild_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('channel_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.ForeignKeyConstraint(['guild_id'], ['guild_settings.guild_id'], name=op.f('fk_game_rooms_guild_id_guild_settings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('guild_id', 'channel_id', name=op.f('pk_game_rooms'))
    )
    op.create_table('messages',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=True),
    sa.Column('channel_id', sa.BigInteger(), nullable=True),
    sa.Column('message_id', sa.BigInteger(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('delete_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('deleted', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_messages_match_id_matches'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_messages'))
    )
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.create_index('ix_messages_channel_id_message_id', ['channel_id', 'message_id'], unique=False)
        batch_op.create_index('ix_messages_deleted_delete_at', ['deleted', 'delete_at'], unique=False)
        batch_op.create_index('ix_messages_match_id', ['match_id'], unique=False)

    op.create_table('seats',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.String(length=16), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=True),
    sa.Column('display_name', sa.String(length=100), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_seats_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'seat', name=op.f('pk_seats'))
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index('ix_seats_user_id', ['user_id'], unique=False)

    op.create_table('timers',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('payload', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_timers_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_timers'))
    )
    with op.batch_alter_table('timers', schema=None) as batch_op:
        batch_op.create_index('ix_timers_due_at', ['due_at'], unique=False)
        batch_op.create_index('ix_timers_match_id', ['match_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('timers', schema=None) as batch_op:
        batch_op.drop_index('ix_timers_match_id')
        batch_op.drop_index('ix_timers_due_at')

    op.drop_table('timers')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index('ix_seats_user_id')

    op.drop_table('seats')
    with op.batch_alter_table('messages', schema=None) as batch_op:
        batch_op.drop_index('ix_messages_match_id')
        batch_op.drop_index('ix_messages_deleted_delete_at')
        batch_op.drop_index('ix_messages_channel_id_message_id')

    op.drop_table('messages')
    op.drop_table('game_rooms')
    op.drop_table('actions')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index('uq_matches_channel_id_unfinished', sqlite_where=sa.text("status IN ('live', 'paused')"), postgresql_where=sa.text("status IN ('live', 'paused')"))
        batch_op.drop_index('ix_matches_status')
        batch_op.drop_index('ix_matches_guild_id_status_finished_at')

    op.drop_table('matches')
    op.drop_table('guild_settings')
