"""duplicate nights: the host chooses when the comparison is posted, and each deal compared is written once;
a finished tournament keeps each entrant's place and its podium message (for /history and /stats)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 19:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("compare_after", sa.String(length=8), server_default="round", nullable=False))
        batch.add_column(sa.Column("podium_message_id", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.add_column(sa.Column("place", sa.Integer(), nullable=True))
    op.create_table(
        "tournament_deals",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_deals_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", "deal", name=op.f("pk_tournament_deals")),
    )


def downgrade() -> None:
    op.drop_table("tournament_deals")
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.drop_column("place")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("podium_message_id")
        batch.drop_column("compare_after")
