"""The databases the service benchmarks run on: a fresh SQLite file, or a schema of their own on PostgreSQL."""

from __future__ import annotations

from bot.storage.database import Database


def database_on(url: str, schema: str | None) -> Database:
    """A new engine on ``url``, inside ``schema`` when there is one (PostgreSQL)."""
    if schema is None:
        return Database(url)
    return Database(url, connect_args={"server_settings": {"search_path": schema}})


async def fresh_database(url: str, schema: str | None) -> Database:
    """A fresh database (an empty schema on PostgreSQL), migrated; its engine closed again."""
    database = await postgres_schema(url, schema) if schema is not None else database_on(url, None)
    try:
        await database.upgrade()
    finally:
        await database.close()
    return database


async def postgres_schema(url: str, schema: str) -> Database:
    """An empty ``schema`` on the PostgreSQL server at ``url`` (dropped first if it was there), and
    an engine inside it."""
    admin = Database(url)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    await admin.close()
    return database_on(url, schema)


async def drop_schema(url: str, schema: str) -> None:
    admin = Database(url)
    async with admin.engine.begin() as connection:
        await connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    await admin.close()
