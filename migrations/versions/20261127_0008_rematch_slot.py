"""a rematch holds its finished table's place while it is open: one open rematch of a table at a time

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 12:10:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ALTER TABLE and CREATE INDEX, no batch: SQLite's batch mode copies a table and drops the old one,
    # and dropping ``tables`` would delete every seat and action with it (ON DELETE CASCADE).
    op.add_column("tables", sa.Column("rematch_slot", sa.Integer(), nullable=True))
    op.create_index(op.f("ix_tables_rematch_slot"), "tables", ["rematch_slot"], unique=True)


def downgrade() -> None:
    op.drop_index(op.f("ix_tables_rematch_slot"), table_name="tables")
    op.drop_column("tables", "rematch_slot")
