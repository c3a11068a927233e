"""Starting the bot: a missing or rejected token explains itself in one paragraph and exits non-zero."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from aiohttp import web

from bot.__main__ import main as bot_main
from tests.double import BotProcess, DiscordDouble
from tests.double.bot_process import ROOT


async def run_bot(env: dict[str, str], tmp_path: Path) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode or 0, output.decode()


async def test_no_token(tmp_path: Path) -> None:
    code, output = await run_bot(
        {"DISCORD_TOKEN": "", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db"}, tmp_path
    )
    assert code == 2
    assert "none is set" in output and "Reset Token" in output and "Traceback" not in output


async def test_a_rejected_token(double: DiscordDouble, tmp_path: Path) -> None:
    env = {
        "DISCORD_TOKEN": "wrong",
        "DISCORD_API_BASE": double.base,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
    }
    code, output = await run_bot(env, tmp_path)
    assert code == 2
    assert "rejected" in output and "Traceback" not in output


async def test_a_bad_setting(tmp_path: Path) -> None:
    code, output = await run_bot({"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "not-a-number"}, tmp_path)
    assert code == 2 and "DEV_GUILD_ID" in output and "Traceback" not in output


async def test_discord_out_of_reach(tmp_path: Path) -> None:
    env = {
        "DISCORD_TOKEN": "x",
        "DISCORD_API_BASE": "http://127.0.0.1:9",  # nothing listens there
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
    }
    code, output = await run_bot(env, tmp_path)
    assert code == 2 and "Could not reach Discord" in output and "Traceback" not in output, output
    assert len([line for line in output.splitlines() if "Could not" in line]) == 1


# Close codes after which Discord says not to reconnect, and what the bot then says (one paragraph each).
NOT_TO_RECONNECT = {
    4004: "Discord rejected the one that is set",
    4011: "code 4011 (sharding required)",
    4012: "code 4012 (invalid API version)",
    4013: "code 4013 (invalid intents)",
    4014: "this bot asks for no privileged intents",
}


@pytest.mark.parametrize("close_code", sorted(NOT_TO_RECONNECT))
async def test_a_gateway_closed_not_to_reconnect(double: DiscordDouble, tmp_path: Path, close_code: int) -> None:
    """Discord closes the gateway after IDENTIFY with a code not to reconnect after: one paragraph saying what to
    do, status 2, no traceback, and no second attempt (discord.py's ConnectionClosed went up as a traceback)."""
    env = {
        "DISCORD_TOKEN": "double-token",
        "DISCORD_API_BASE": double.base,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
    }
    double.close_identify_with = [close_code] * 5
    code, output = await run_bot(env, tmp_path)
    assert code == 2, output
    assert NOT_TO_RECONNECT[close_code] in output and "Traceback" not in output, output
    assert len(double.identified) == 1


async def test_a_shard_discord_does_not_take(double: DiscordDouble, tmp_path: Path) -> None:
    """SHARD_COUNT=1 where Discord wants 2 shards: the gateway closes with 4010 (invalid shard), and the bot says
    which settings to check (with their values) and exits with status 2."""
    double.shard_count = 2
    env = {
        "DISCORD_TOKEN": "double-token",
        "DISCORD_API_BASE": double.base,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
        "SHARD_COUNT": "1",
    }
    code, output = await run_bot(env, tmp_path)
    assert code == 2, output
    assert "code 4010 (invalid shard)" in output and "SHARD_COUNT=1, SHARD_IDS=unset" in output, output
    assert "Traceback" not in output and len(double.identified) == 1


async def test_a_gateway_closed_for_a_while_is_reconnected(
    double: DiscordDouble, database_url: str, tmp_path: Path
) -> None:
    """A close code Discord allows reconnecting after (4000, an unknown error) does not stop the bot: discord.py
    connects again by itself (5 s later: it spaces out a shard's IDENTIFYs), and the bot runs on."""
    double.close_identify_with = [4000]
    process = BotProcess(double, database_url, tmp_path / "bot.log")
    try:
        await process.start()
        assert double.close_identify_with == [] and len(double.identified) >= 2
    finally:
        assert await process.stop() == 0
    assert "Traceback" not in process.log()


class FailingDiscord(DiscordDouble):
    """Discord in an outage behind its proxy: 503 to the login call, or to the command sync."""

    def __init__(self, failing: str) -> None:
        super().__init__()
        self.failing = failing

    async def _me(self, request: web.Request) -> web.Response:
        if self.failing == "login":
            return web.Response(status=503, text="upstream connect error", content_type="text/plain")
        return await super()._me(request)

    async def _sync(self, request: web.Request) -> web.Response:
        if self.failing == "sync":
            return web.Response(status=503, text="upstream connect error", content_type="text/plain")
        return await super()._sync(request)


@pytest.mark.parametrize(
    ("failing", "call"), [("login", "GET /api/v10/users/@me"), ("sync", "PUT /api/v10/applications/")]
)
async def test_discord_failing_at_start(tmp_path: Path, failing: str, call: str) -> None:
    """Discord answers 503 to logging in or to the command sync: one paragraph (try again in a while), status 2,
    no traceback (discord.py's DiscordServerError went up as one)."""
    double = FailingDiscord(failing)
    await double.start()
    try:
        env = {
            "DISCORD_TOKEN": "double-token",
            "DISCORD_API_BASE": double.base,
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
        }
        code, output = await run_bot(env, tmp_path)
    finally:
        await double.stop()
    assert code == 2, output
    assert f"Discord answered 503 Service Unavailable to {call}" in output and "in a while" in output, output
    assert "Traceback" not in output


async def test_an_unknown_log_level(tmp_path: Path) -> None:
    code, output = await run_bot({"DISCORD_TOKEN": "x", "LOG_LEVEL": "LOUD"}, tmp_path)
    assert code == 2 and "LOG_LEVEL" in output and "'LOUD' is not a log level" in output
    assert "Traceback" not in output


async def test_shard_settings_that_do_not_fit(tmp_path: Path) -> None:
    for env, said in (
        ({"SHARD_IDS": "1"}, "SHARD_IDS needs SHARD_COUNT too"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-5"}, "SHARD_COUNT=2 with SHARD_IDS=0-5: shard ids run from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "SHARD_IDS: 'one' is not a shard id or a range such as 0-3"),
        # the other shard in another process, on the same SQLite file: neither would hear of the other's moves
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "SQLite serves one process; use PostgreSQL"),
    ):
        code, output = await run_bot({"DISCORD_TOKEN": "x", **env}, tmp_path)
        assert code == 2 and said in output and "Traceback" not in output, output


async def test_an_unsupported_database(tmp_path: Path) -> None:
    code, output = await run_bot({"DISCORD_TOKEN": "x", "DATABASE_URL": "mysql://me:secret@db/bot"}, tmp_path)
    assert code == 2 and "DATABASE_URL" in output and "a mysql database" in output
    assert "secret" not in output and "Traceback" not in output


async def test_a_database_out_of_reach(double: DiscordDouble, tmp_path: Path) -> None:
    env = {
        "DISCORD_TOKEN": "double-token",
        "DISCORD_API_BASE": double.base,
        "DATABASE_URL": "postgresql://postgres@127.0.0.1:9/nothing",  # nothing listens there
    }
    double.expect_connection()
    code, output = await run_bot(env, tmp_path)
    assert code == 2 and "Could not open the database" in output and "Traceback" not in output, output


async def test_a_local_table_on_a_port_already_taken(tmp_path: Path) -> None:
    """``python -m bot --local`` where the port is in use says so in one paragraph (and how to choose another),
    exits with status 2, and shows no traceback; a new database's migrations are not listed line by line."""
    taken = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    port = taken.sockets[0].getsockname()[1]
    try:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "--local",
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT), "ACTIVITY_PORT": str(port), "ACTIVITY_HOST": "127.0.0.1"},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await asyncio.wait_for(process.communicate(), 60)
    finally:
        taken.close()
        await taken.wait_closed()
    text = output.decode()
    assert process.returncode == 2, text
    assert f"Could not serve the card table on 127.0.0.1:{port}" in text and "ACTIVITY_PORT" in text, text
    assert "Traceback" not in text and "Running upgrade" not in text, text


def test_help_is_asked_for_and_a_wrong_word_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot --help`` prints what it can do and exits 0; a word it does not know prints the same, on the
    error stream, and exits 2."""
    for words, status in ((["--help"], 0), (["-h"], 0), (["--locall"], 2)):
        assert bot_main(words) == status, words
        out, err = capsys.readouterr()
        said = out if status == 0 else err
        assert "python -m bot --local" in said and "usage" in said, said
