"""tables' threads indexed: ``ix_tables_thread_id``

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29 20:05:00.000000

A table is never opened inside another table's thread (the chat's ``/play`` refuses a thread; an Activity
launched from a table's message in its thread asked the service to open one there): each opening asks whether
its channel is some table's thread, and the tables' screens read the tables of a thread, so ``thread_id`` is
indexed.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(op.f("ix_tables_thread_id"), "tables", ["thread_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_tables_thread_id"), table_name="tables")
