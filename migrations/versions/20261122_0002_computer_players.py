"""computer players: seat levels, hints per table, the guild's computer pace

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 10:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite can, with a constant default): batch mode would copy and drop
    # ``guilds``, which the other tables' foreign keys refuse once there is data.
    op.add_column("guilds", sa.Column("computer_pace_ms", sa.Integer(), server_default=sa.text("1000"), nullable=False))
    op.add_column("tables", sa.Column("hints", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column("seats", sa.Column("computer_level", sa.String(length=16), nullable=True))
    # Computers seated before levels existed play as the strong player from now on.
    op.execute("UPDATE seats SET computer_level = 'strong' WHERE user_id IS NULL")


def downgrade() -> None:
    op.drop_column("seats", "computer_level")
    op.drop_column("tables", "hints")
    op.drop_column("guilds", "computer_pace_ms")
