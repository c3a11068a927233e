"""a turn timer kept at an older version by a write that was no move (a table placed again while in play) fires again

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 18:30:00.000000

Before this, placing a table in play (a tournament's table, a table message posted again, a thread recorded
after the start) moved the table's version on and left its deadline at the old one, which the timers take for
a deadline a move replaced: nobody on turn was reminded or played for until the next move. Such a deadline is
the turn timer of the table as it is (every move replaces it in the move's own transaction), so it takes the
table's version.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "UPDATE deadlines SET version = (SELECT tables.version FROM tables WHERE tables.id = deadlines.table_id)"
        " WHERE version < (SELECT tables.version FROM tables WHERE tables.id = deadlines.table_id"
        " AND tables.status = 'playing')"
    )


def downgrade() -> None:
    """Nothing to undo: the deadlines are as the code before this would have written them after a move."""
