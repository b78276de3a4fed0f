"""Languages: a server's room language (``guild_settings.language``, set by ``/setup language``;
NULL: the server's own, see docs/bot.md) and the language each match speaks, fixed at its start
(``matches.language``; NULL for a match started before, which speaks the bot's language).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07 21:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=16), nullable=True))
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('language')
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('language')
