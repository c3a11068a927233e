"""seasons per game (their plans, seasons and season ratings) and scheduled game nights

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 16:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "season_plans",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("length", sa.String(length=16), nullable=False),
        sa.Column("span_days", sa.Integer(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("top_role_id", sa.BigInteger(), nullable=True),
        sa.Column("top_count", sa.Integer(), nullable=False),
        sa.Column("changed_by", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "game", name=op.f("pk_season_plans")),
    )
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("announce_claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("announced_message_id", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
        sa.UniqueConstraint("guild_id", "game", "number", name=op.f("uq_seasons_guild_id_game_number")),
        sa.UniqueConstraint("guild_id", "game", "name", name=op.f("uq_seasons_guild_id_game_name")),
    )
    op.create_index(op.f("ix_seasons_ends_at"), "seasons", ["ends_at"], unique=False)
    op.create_table(
        "season_ratings",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_season_ratings_season_id_seasons"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["players.id"], name=op.f("fk_season_ratings_user_id_players")),
        sa.PrimaryKeyConstraint("season_id", "user_id", name=op.f("pk_season_ratings")),
    )
    op.create_index(
        op.f("ix_season_ratings_season_id_ordinal"), "season_ratings", ["season_id", "ordinal"], unique=False
    )
    op.create_table(
        "game_nights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("event_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=True),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("host_name", sa.String(length=100), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("pinged_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_nights")),
        sa.UniqueConstraint("event_id", name=op.f("uq_game_nights_event_id")),
    )
    op.create_index(op.f("ix_game_nights_status_starts_at"), "game_nights", ["status", "starts_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_game_nights_status_starts_at"), table_name="game_nights")
    op.drop_table("game_nights")
    op.drop_index(op.f("ix_season_ratings_season_id_ordinal"), table_name="season_ratings")
    op.drop_table("season_ratings")
    op.drop_index(op.f("ix_seasons_ends_at"), table_name="seasons")
    op.drop_table("seasons")
    op.drop_table("season_plans")
