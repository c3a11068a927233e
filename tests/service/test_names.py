"""Names per server: what a player is called on one server (their nickname there) is never shown on another,
on its boards, match history, season board, tournaments or its open tables, even after a restart."""

from __future__ import annotations

from sqlalchemy import text

from bot.storage.database import Database
from bot.tables import TableService

from .conftest import Clock
from .helpers import LOBBY_MESSAGE, make_service, play_to_end, relax_limits

HOME, AWAY = 1, 2
ANN = 100
GAME = "just-make"


async def _match(service: TableService, guild: int, channel: int, names: dict[int, str], seed: int) -> None:
    users = list(names)
    info = await service.open_table(guild, channel, users[0], names[users[0]], GAME, {"target": 4})
    for user in users[1:]:
        info = await service.join(info.id, user, names[user])
    outcome = await service.start(info.id, users[0], message_id=LOBBY_MESSAGE)
    await play_to_end(service, outcome.table, seed=seed)


def _name_of(rows: list[dict[str, object]], user: int) -> object:
    return next(row["name"] for row in rows if row["user_id"] == user)


async def test_a_nickname_on_one_server_never_shows_on_another(database: Database, clock: Clock) -> None:
    service = make_service(database, clock)
    try:
        for guild in (HOME, AWAY):
            await relax_limits(service, guild)
        await service.seasons.turn_on(
            HOME, GAME, by_user=ANN, can_manage=True, length="month", channel_id=700, top_count=3
        )
        await _match(service, HOME, 600, {ANN: "Ann", 101: "Bo", 102: "Cy", 104: "Ed"}, seed=1)
        tournament = await service.tournaments.create(HOME, 610, 101, "Bo", "oh-hell")
        await service.tournaments.join(tournament.id, HOME, ANN, "Ann")
        lobby = await service.open_table(HOME, 620, 101, "Bo", GAME, {"target": 4})
        lobby = await service.join(lobby.id, ANN, "Ann")

        # On another server Ann goes by another nickname, and plays there.
        await _match(service, AWAY, 900, {ANN: "Secret Agent", 101: "Bo", 103: "Di", 104: "Ed"}, seed=2)

        async def home_names() -> set[object]:
            board = await service.leaderboard(HOME, GAME)
            [match] = await service.recent_matches(HOME, user_id=ANN)
            season = await service.seasons.current(HOME, GAME)
            assert season is not None
            shown = await service.tournaments.tournament(tournament.id)
            return {
                _name_of(list(board), ANN),
                _name_of(list(match["seats"]), ANN),
                _name_of(list(await service.seasons.board(season.id)), ANN),
                next(e.name for e in shown.entrants if e.user_id == ANN),
            }

        assert await home_names() == {"Ann"}
        assert _name_of(list(await service.leaderboard(AWAY, GAME)), ANN) == "Secret Agent"
        [away] = await service.recent_matches(AWAY, user_id=ANN)
        assert _name_of(list(away["seats"]), ANN) == "Secret Agent"
        await service.close()

        service = make_service(database, clock)  # the open lobby read again from the database
        await service.load_open_tables()
        reloaded = await service.table(lobby.id)
        assert [seat.name for seat in reloaded.seats] == ["Bo", "Ann"]
        await service.close()

        # A seat whose server kept no name for its player (a process of the version before seated them): the
        # name they were first seen by, their own, never another player's (nor an error on PostgreSQL).
        async with database.engine.begin() as connection:
            await connection.execute(text(f"DELETE FROM guild_players WHERE user_id = 101 AND guild_id = {HOME}"))
        service = make_service(database, clock)
        await service.load_open_tables()
        assert [seat.name for seat in (await service.table(lobby.id)).seats] == ["Bo", "Ann"]
        assert await home_names() == {"Ann"}

        # A new nickname on the home server is the name there from then on.
        await service.leave(lobby.id, ANN)
        await service.join(lobby.id, ANN, "Ann the Bold")
        assert await home_names() == {"Ann the Bold"}
        assert _name_of(list(await service.leaderboard(AWAY, GAME)), ANN) == "Secret Agent"
    finally:
        await service.close()
