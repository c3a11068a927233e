"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-21 02:52:56.620504
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "guilds",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("grace_seconds", sa.Integer(), nullable=False),
        sa.Column("thread_per_table", sa.Boolean(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("default_options", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_guilds")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["players.id"], name=op.f("fk_ratings_user_id_players")),
        sa.PrimaryKeyConstraint("guild_id", "game", "user_id", name=op.f("pk_ratings")),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_ratings_guild_id_game_ordinal"), ["guild_id", "game", "ordinal"], unique=False
        )

    op.create_table(
        "tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_slot", sa.BigInteger(), nullable=True),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("action_count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["guild_id"], ["guilds.id"], name=op.f("fk_tables_guild_id_guilds")),
        sa.ForeignKeyConstraint(["host_id"], ["players.id"], name=op.f("fk_tables_host_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
        sa.UniqueConstraint("channel_slot", name=op.f("uq_tables_channel_slot")),
    )
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tables_guild_id_status"), ["guild_id", "status"], unique=False)
        batch_op.create_index(batch_op.f("ix_tables_status"), ["status"], unique=False)

    op.create_table(
        "actions",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_actions_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("table_id", "seq", name=op.f("pk_actions")),
    )
    op.create_table(
        "deadlines",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("act_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_deadlines_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_deadlines")),
    )
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deadlines_due_at"), ["due_at"], unique=False)

    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("duration_seconds", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_matches_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.UniqueConstraint("table_id", name=op.f("uq_matches_table_id")),
    )
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_matches_guild_id_finished_at"), ["guild_id", "finished_at"], unique=False)

    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("absent", sa.Boolean(), nullable=False),
        sa.Column("resigned", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_seats_table_id_tables"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["players.id"], name=op.f("fk_seats_user_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("table_id", "position", name=op.f("uq_seats_table_id_position")),
    )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seats_table_id"), ["table_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_seats_user_id"), ["user_id"], unique=False)

    op.create_table(
        "match_players",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("placement", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("resigned", sa.Boolean(), nullable=False),
        sa.Column("bids", sa.Integer(), nullable=False),
        sa.Column("bids_made", sa.Integer(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_match_players_match_id_matches"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["players.id"], name=op.f("fk_match_players_user_id_players")),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_match_players")),
    )
    with op.batch_alter_table("match_players", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_match_players_guild_id_game_user_id"), ["guild_id", "game", "user_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_match_players_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("match_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_players_user_id"))
        batch_op.drop_index(batch_op.f("ix_match_players_guild_id_game_user_id"))

    op.drop_table("match_players")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seats_user_id"))
        batch_op.drop_index(batch_op.f("ix_seats_table_id"))

    op.drop_table("seats")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_matches_guild_id_finished_at"))

    op.drop_table("matches")
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deadlines_due_at"))

    op.drop_table("deadlines")
    op.drop_table("actions")
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tables_status"))
        batch_op.drop_index(batch_op.f("ix_tables_guild_id_status"))

    op.drop_table("tables")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ratings_guild_id_game_ordinal"))

    op.drop_table("ratings")
    op.drop_table("players")
    op.drop_table("guilds")
