"""guilds.turn_pings where a database made before migration 0003 had it lacks it

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 18:00:00.000000

Migration 0003 was changed after it had landed: the column ``guilds.turn_pings`` was added to it twenty minutes
later, where a new migration belonged. A database migrated by the four commits in between is marked 0003
without the column, so no later upgrade added it, and every read of a server's settings failed (no table
resumed, nothing could be played). This adds it where it is missing, as 0003 now makes it; elsewhere nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    columns = {column["name"] for column in sa.inspect(op.get_bind()).get_columns("guilds")}
    if "turn_pings" not in columns:
        op.add_column("guilds", sa.Column("turn_pings", sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade() -> None:
    """Nothing to undo: 0003's downgrade drops the column wherever it came from."""
