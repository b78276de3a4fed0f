"""The log keeps what it means in its columns, not in its text: a timeout row (``timeout p1``,
written with no seat before) gets the seat whose clock ran out, and a match's start (a
``command`` row ``start SPEC`` before) is of its own kind, ``start``, so that nothing reads
either back from the text.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07 12:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # 'timeout ' is eight characters: the seat is the rest of the text.
    op.execute(
        "UPDATE actions SET seat = substr(text, 9) "
        "WHERE kind = 'timeout' AND seat IS NULL AND text LIKE 'timeout %'"
    )
    op.execute("UPDATE actions SET kind = 'start' WHERE kind = 'command' AND text LIKE 'start%'")


def downgrade() -> None:
    op.execute("UPDATE actions SET kind = 'command' WHERE kind = 'start'")
    op.execute("UPDATE actions SET seat = NULL WHERE kind = 'timeout'")
