"""names per server: ``guild_players`` keeps the name each player goes by on each server

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29 00:00:00.000000

Before this a player had one name, ``players.display_name``, overwritten by their nickname on whichever server
they last sat down on: a nickname given on one server showed on every other's boards, match history,
tournaments and even its open tables. Each server now keeps its own. A player already seen on a server starts
there with the one name kept so far (the only one known); their next table or event there brings their
nickname there.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every (server, player) pair the database knows of: hosts and seats of tables, the matches and ratings they
# made, events' hosts and entrants, season ratings.
_SEEN = """
SELECT guild_id, host_id AS user_id FROM tables
UNION SELECT tables.guild_id, seats.user_id FROM seats JOIN tables ON tables.id = seats.table_id
    WHERE seats.user_id IS NOT NULL
UNION SELECT guild_id, user_id FROM match_players WHERE user_id IS NOT NULL
UNION SELECT guild_id, user_id FROM ratings
UNION SELECT guild_id, host_id FROM tournaments
UNION SELECT tournaments.guild_id, tournament_entrants.user_id FROM tournament_entrants
    JOIN tournaments ON tournaments.id = tournament_entrants.tournament_id
    WHERE tournament_entrants.user_id IS NOT NULL
UNION SELECT seasons.guild_id, season_ratings.user_id FROM season_ratings
    JOIN seasons ON seasons.id = season_ratings.season_id
"""


def upgrade() -> None:
    op.create_table(
        "guild_players",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["players.id"], name=op.f("fk_guild_players_user_id_players")),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_guild_players")),
    )
    op.execute(
        "INSERT INTO guild_players (guild_id, user_id, display_name, updated_at)"
        " SELECT seen.guild_id, seen.user_id, players.display_name, players.updated_at"
        f" FROM ({_SEEN}) AS seen JOIN players ON players.id = seen.user_id"
    )


def downgrade() -> None:
    op.drop_table("guild_players")
