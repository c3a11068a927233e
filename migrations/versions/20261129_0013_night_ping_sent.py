"""game nights' pings sent: ``game_nights.ping_sent`` marks a night's ping as gone out

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29 07:10:00.000000

A night's ping was claimed by one process (``pinged_at``) and never looked at again: a process that stopped
between the claim and the ping, or a ping Discord failed, left the night's people unpinged. A ping is now marked
sent once it went out; one claimed and not sent within two minutes is claimed again while the night is ahead.
Nights claimed before this are taken as pinged (nobody is pinged twice).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite can, with a constant default), as in 0012.
    op.add_column("game_nights", sa.Column("ping_sent", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.execute("UPDATE game_nights SET ping_sent = true WHERE pinged_at IS NOT NULL")


def downgrade() -> None:
    op.drop_column("game_nights", "ping_sent")
