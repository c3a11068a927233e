"""limits against abuse (each server's cap on open tables and on lobbies per host, /play's cooldown), turn pings

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 23:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN with constant defaults, as in 0002 (batch mode would copy ``guilds``).
    op.add_column("guilds", sa.Column("max_open_tables", sa.Integer(), server_default=sa.text("25"), nullable=False))
    op.add_column(
        "guilds", sa.Column("max_lobbies_per_host", sa.Integer(), server_default=sa.text("2"), nullable=False)
    )
    op.add_column(
        "guilds", sa.Column("play_cooldown_seconds", sa.Integer(), server_default=sa.text("10"), nullable=False)
    )
    op.add_column("guilds", sa.Column("turn_pings", sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade() -> None:
    op.drop_column("guilds", "turn_pings")
    op.drop_column("guilds", "play_cooldown_seconds")
    op.drop_column("guilds", "max_lobbies_per_host")
    op.drop_column("guilds", "max_open_tables")
