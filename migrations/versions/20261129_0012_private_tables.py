"""private tables: ``tables.private`` marks a table shown only to its players, in a private thread of its own

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29 07:00:00.000000

A duplicate night deals every table of a round the same cards. Its tables were posted in the event's channel,
where anyone (the players of a table behind included) could read a table ahead trick by trick. Each such table
is now played in a private thread that holds its message and only its players are added to; the Activity shows
it only to them. Tables opened before this stay as they were (not private).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite can, with a constant default): batch mode would copy and drop ``tables``, which
    # would cascade-delete its seats and actions.
    op.add_column("tables", sa.Column("private", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    op.drop_column("tables", "private")
