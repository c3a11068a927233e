"""Each refusal the Discord double makes, made as Discord makes it: status, error code, JSON body, headers.

The calls are made with plain HTTP against a running double (no bot); the double's clock is moved
forward, so 15 minutes and rate limit windows pass at once.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest

from tests.double import DiscordDouble, User
from tests.double.limits import (
    ANSWER_WITHIN,
    COMMAND_SIZE,
    TOKEN_LIFETIME,
    RateLimits,
    RouteLimit,
    command_errors,
    command_size,
)
from tests.double.scheduled_events import CREATE_EVENTS

AUTH = {"Authorization": "Bot double-token"}
ALICE = User(1000, "Alice")


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    server = DiscordDouble()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers=AUTH) as session:
        yield session


async def call(
    http: aiohttp.ClientSession, double: DiscordDouble, method: str, path: str, body: Any = None
) -> tuple[int, Any, dict[str, str]]:
    kwargs: dict[str, Any] = {} if body is None else {"json": body}
    async with http.request(method, double.base + "/api/v10" + path, **kwargs) as response:
        text = await response.text()
        data = json.loads(text) if response.content_type == "application/json" and text else text
        return response.status, data, dict(response.headers)


def callback_path(double: DiscordDouble, interaction: Any) -> str:
    return f"/interactions/{interaction.id}/{interaction.token}/callback"


def webhook_path(double: DiscordDouble, interaction: Any, rest: str = "") -> str:
    return f"/webhooks/{double.app_id}/{interaction.token}{rest}"


# ---------------------------------------------------------------------- interactions


async def test_one_answer_within_three_seconds(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    interaction = double.new_interaction(ALICE)
    status, _, _ = await call(http, double, "POST", callback_path(double, interaction), {"type": 5})
    assert status == 204
    status, body, _ = await call(http, double, "POST", callback_path(double, interaction), {"type": 5})
    assert (status, body) == (400, {"message": "Interaction has already been acknowledged.", "code": 40060})
    assert double.problems == [f"interaction {interaction.id} answered twice"]


async def test_a_late_first_answer_is_an_unknown_interaction(
    double: DiscordDouble, http: aiohttp.ClientSession
) -> None:
    interaction = double.new_interaction(ALICE)
    double.clock.advance(ANSWER_WITHIN + 0.01)
    status, body, _ = await call(http, double, "POST", callback_path(double, interaction), {"type": 5})
    assert (status, body) == (404, {"message": "Unknown interaction", "code": 10062})
    assert double.problems[0].startswith(f"interaction {interaction.id} answered after {ANSWER_WITHIN} s (3.")
    # never acknowledged, so there is nothing to follow up either
    status, body, _ = await call(http, double, "POST", webhook_path(double, interaction), {"content": "late"})
    assert (status, body) == (404, {"message": "Unknown Webhook", "code": 10015})


async def test_follow_ups_only_after_the_acknowledgement(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    interaction = double.new_interaction(ALICE)
    status, body, _ = await call(http, double, "POST", webhook_path(double, interaction), {"content": "too soon"})
    assert (status, body) == (404, {"message": "Unknown Webhook", "code": 10015})
    status, body, _ = await call(
        http, double, "PATCH", webhook_path(double, interaction, "/messages/@original"), {"content": "x"}
    )
    assert (status, body) == (404, {"message": "Unknown Webhook", "code": 10015})
    assert (await call(http, double, "POST", callback_path(double, interaction), {"type": 5}))[0] == 204
    status, body, _ = await call(http, double, "POST", webhook_path(double, interaction), {"content": "now"})
    assert status == 200 and body["content"] == "now"


async def test_a_thinking_deleted_is_answered_by_the_follow_up_after_it(
    double: DiscordDouble, http: aiohttp.ClientSession
) -> None:
    """A public "thinking" deleted to answer the person alone: the person's answer is the follow-up that comes next,
    and until it comes the click is not answered (a test reading the answer at once would find the "thinking")."""
    interaction = double.new_interaction(ALICE)
    assert (await call(http, double, "POST", callback_path(double, interaction), {"type": 5}))[0] == 204
    thinking = interaction.original
    assert thinking is not None and thinking.ephemeral_for is None
    status, _, _ = await call(http, double, "DELETE", webhook_path(double, interaction, "/messages/@original"))
    assert status == 204 and not interaction.followed_up  # no answer yet
    alone = {"content": "You opened a table a moment ago", "flags": 64}
    assert (await call(http, double, "POST", webhook_path(double, interaction), alone))[0] == 200
    assert interaction.followed_up and interaction.original is not thinking
    assert interaction.original is not None and interaction.original.ephemeral_for == ALICE.id
    assert double.public_messages() == [] and double.problems == []


async def test_a_token_works_for_fifteen_minutes(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    interaction = double.new_interaction(ALICE)
    answer = {"type": 4, "data": {"content": "hand", "flags": 64}}
    assert (await call(http, double, "POST", callback_path(double, interaction), answer))[0] == 204
    original = webhook_path(double, interaction, "/messages/@original")
    double.clock.advance(TOKEN_LIFETIME - 1)
    assert (await call(http, double, "PATCH", original, {"content": "still mine"}))[0] == 200
    followup = await call(http, double, "POST", webhook_path(double, interaction), {"content": "a follow-up"})
    assert followup[0] == 200
    double.clock.advance(2)
    expired = {"message": "Invalid Webhook Token", "code": 50027}
    assert (await call(http, double, "PATCH", original, {"content": "too late"}))[:2] == (401, expired)
    assert (await call(http, double, "GET", original))[:2] == (401, expired)
    assert (await call(http, double, "POST", webhook_path(double, interaction), {"content": "x"}))[:2] == (401, expired)
    message = webhook_path(double, interaction, f"/messages/{followup[1]['id']}")
    assert (await call(http, double, "PATCH", message, {"content": "x"}))[:2] == (401, expired)
    assert [m.content for m in double.ephemerals(ALICE)] == ["still mine"]  # nothing changed after 15 minutes
    assert [m.content for m in double.public_messages()] == ["a follow-up"]


# ---------------------------------------------------------------------- rate limits


async def test_every_reply_carries_its_bucket_and_a_full_bucket_answers_429(
    double: DiscordDouble, http: aiohttp.ClientSession
) -> None:
    path = f"/channels/{double.channel_id}/messages"
    seen = []
    for _ in range(5):
        status, _, headers = await call(http, double, "POST", path, {"content": "hi"})
        assert status == 200
        seen.append(headers)
    assert [h["X-RateLimit-Remaining"] for h in seen] == ["4", "3", "2", "1", "0"]
    assert {h["X-RateLimit-Limit"] for h in seen} == {"5"}
    assert len({h["X-RateLimit-Bucket"] for h in seen}) == 1
    assert 0 < float(seen[-1]["X-RateLimit-Reset-After"]) <= 5.0
    assert float(seen[-1]["X-RateLimit-Reset"]) > float(seen[0]["X-RateLimit-Reset"]) - 5.0
    status, body, headers = await call(http, double, "POST", path, {"content": "one too many"})
    assert status == 429
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 5.0
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Remaining"] == "0"
    assert headers["Via"]  # Discord's 429s come through its proxy (discord.py takes one without for a ban)
    # another channel is another bucket (the channel is a major parameter)
    other = double.another_server(900_000_000_000_000_777, 900_000_000_000_000_778)
    assert (await call(http, double, "POST", f"/channels/{other}/messages", {"content": "hi"}))[0] == 200
    double.clock.advance(5.0)
    status, _, headers = await call(http, double, "POST", path, {"content": "the window passed"})
    assert (status, headers["X-RateLimit-Remaining"]) == (200, "4")
    assert double.limits.limited == ["user: POST /channels/{channel_id}/messages"]


async def test_the_global_limit_of_fifty_a_second(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    double.limits.routes = {}  # no per-route limits: only the global one
    double.limits.routes[("POST", "/channels/{channel_id}/messages")] = RouteLimit(1000, 1.0)
    path = f"/channels/{double.channel_id}/messages"
    interaction = double.new_interaction(ALICE)
    for _ in range(50):
        assert (await call(http, double, "POST", path, {"content": "hi"}))[0] == 200
    # an interaction's answer is not counted
    assert (await call(http, double, "POST", callback_path(double, interaction), {"type": 5}))[0] == 204
    status, body, headers = await call(http, double, "POST", path, {"content": "the 51st"})
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Scope"] == "global" and headers["X-RateLimit-Global"] == "true"
    assert double.global_429s == 1 and double.busiest_second == 50
    double.clock.advance(1.0)
    assert (await call(http, double, "POST", path, {"content": "next second"}))[0] == 200


async def test_too_many_invalid_requests_ban_the_bot_for_an_hour(
    double: DiscordDouble, http: aiohttp.ClientSession
) -> None:
    double.limits.invalid_limit = 3  # Discord's is 10,000 in 10 minutes
    for _ in range(3):
        async with http.get(double.base + "/api/v10/users/@me", headers={"Authorization": "Bot wrong"}) as response:
            assert response.status == 401
    assert double.limits.invalid_peak == 3
    status, body, headers = await call(http, double, "GET", "/users/@me")
    assert status == 429 and isinstance(body, str) and "Via" not in headers  # Cloudflare's, not Discord's
    double.clock.advance(3600)
    assert (await call(http, double, "GET", "/users/@me"))[0] == 200


def test_invalid_answers_are_counted_in_a_ten_minute_window() -> None:
    double = DiscordDouble()
    limits: RateLimits = double.limits
    for status in (401, 403, 429, 404, 400, 200):
        limits.answered(status, None)
    limits.answered(429, "shared")  # a shared bucket's 429 is not the bot's fault
    assert len(limits.invalid) == 3
    double.clock.advance(600)
    limits.answered(403, None)
    assert len(limits.invalid) == 1 and limits.invalid_peak == 3


# ---------------------------------------------------------------------- the spec


async def test_a_body_the_spec_forbids_is_refused(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    status, body, _ = await call(http, double, "POST", f"/channels/{double.channel_id}/messages", {"content": 5})
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert double.spec_violations and "body.content" in double.spec_violations[0]
    assert double.public_messages() == []


async def test_a_path_the_spec_forbids_is_refused(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    status, body, _ = await call(http, double, "POST", "/channels/card-room/messages", {"content": "hi"})
    assert (status, body["code"]) == (400, 50035)
    assert "channel_id" in double.spec_violations[0]


async def test_a_query_the_spec_forbids_is_refused(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    interaction = double.new_interaction(ALICE)
    path = callback_path(double, interaction) + "?with_response=perhaps"
    status, _, _ = await call(http, double, "POST", path, {"type": 5})
    assert status == 400 and "with_response" in double.spec_violations[0]


async def test_unknown_fields_are_reported_not_refused(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    body = {
        "content": "hi",
        "colour": 5,
        "embeds": [{"title": "t", "flags": 0, "subtitle": "x"}],  # flags: discord.py's, allowed
        "allowed_mentions": {"parse": [], "users": [1000]},  # integer snowflakes: discord.py's, allowed
    }
    status, _, _ = await call(http, double, "POST", f"/channels/{double.channel_id}/messages", body)
    assert status == 200
    assert double.spec_violations == []
    assert double.unknown_fields == [
        "POST /channels/{channel_id}/messages: body.colour",
        "POST /channels/{channel_id}/messages: body.embeds[].subtitle",
    ]


# ---------------------------------------------------------------------- commands


def option(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "an option", **extra}


def command(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": "a command", **extra}


def test_the_size_of_a_command_counts_the_longest_localisation() -> None:
    base = command("play", options=[option("game", choices=[{"name": "Oh Hell", "value": "oh-hell"}])])
    assert command_size(base) == 4 + 9 + 4 + 9 + 7 + 7
    localised = {**base, "description_localizations": {"ja": "長い説明" * 10}}
    assert command_size(localised) == command_size(base) - 9 + 40


async def test_a_command_over_four_thousand_characters_fails_the_sync(
    double: DiscordDouble, http: aiohttp.ClientSession
) -> None:
    options = [option(f"o{i}", description="d" * 100) for i in range(25)]
    subcommands = [{"type": 1, "name": f"s{i}", "description": "d" * 100, "options": options} for i in range(2)]
    big = command("play", options=subcommands)
    assert command_size(big) > COMMAND_SIZE
    status, body, _ = await call(http, double, "PUT", f"/applications/{double.app_id}/commands", [big])
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    assert "4000" in json.dumps(body["errors"])
    assert double.commands == []


CHOICES_26 = [{"name": str(i), "value": str(i)} for i in range(26)]


@pytest.mark.parametrize(
    ("commands", "why"),
    [
        ([command("Play")], "not a valid command name"),
        ([command("play", description="")], "description is 0 characters"),
        ([command("play", description="d" * 101)], "description is 101"),
        ([command("play", options=[option(f"o{i}") for i in range(26)])], "26 options"),
        (
            [command("play", options=[option("o", choices=CHOICES_26)])],
            "26 choices",
        ),
        ([command(f"c{i}") for i in range(101)], "101 chat commands"),
        ([command("play", options=[option("a"), option("b", required=True)])], "required option after"),
        ([command("play", options=[option("a"), option("a")])], "two options of one name"),
        ([command("play"), command("play")], "two commands of one name"),
        ([command("play", name_localizations={"ja": "プ レ イ"})], "not a valid command name"),
    ],
)
def test_the_other_command_limits(commands: list[dict[str, Any]], why: str) -> None:
    errors = command_errors(commands)
    assert any(why in error for error in errors), errors


def test_commands_within_the_limits_pass() -> None:
    options = [option(f"o{i}", choices=[{"name": str(j), "value": str(j)} for j in range(25)]) for i in range(3)]
    assert command_errors([command(f"c{i}", options=options) for i in range(100)]) == []


# ---------------------------------------------------------------------- messages


def buttons(count: int, prefix: str = "b") -> list[dict[str, Any]]:
    return [{"type": 2, "style": 1, "label": "x", "custom_id": f"{prefix}{i}"} for i in range(count)]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"components": [{"type": 1, "components": buttons(1, f"r{i}")} for i in range(6)]}, "6 component rows"),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
                            *buttons(1),
                        ],
                    }
                ]
            },
            "a select shares its row",
        ),
        ({"content": "x" * 2001}, "content over 2000"),
        ({"embeds": [{"title": "t"}] * 11}, "body.embeds"),  # the spec carries this one (and the next)
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "embeds of 6001 characters"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "body.embeds[0].fields"),
    ],
)
async def test_message_limits_the_spec_does_not_carry(
    double: DiscordDouble, http: aiohttp.ClientSession, body: dict[str, Any], why: str
) -> None:
    status, answer, _ = await call(http, double, "POST", f"/channels/{double.channel_id}/messages", body)
    assert (status, answer["code"]) == (400, 50035)
    refusals = double.problems + double.spec_violations
    assert any(why in refusal for refusal in refusals), refusals
    assert double.public_messages() == []


def test_the_clock_only_moves_forward() -> None:
    double = DiscordDouble()
    before = double.clock.now()
    double.clock.advance(900)
    assert double.clock.now() - before >= 900
    with pytest.raises(ValueError, match="forward"):
        double.clock.advance(-1)


async def test_scheduled_events_are_refused_and_listed_as_discord_does(
    double: DiscordDouble, http: aiohttp.ClientSession
) -> None:
    path = f"/guilds/{double.guild_id}/scheduled-events"
    soon = datetime.now(UTC) + timedelta(hours=1)
    body = {
        "name": "Oh Hell game night",
        "privacy_level": 2,
        "scheduled_start_time": soon.isoformat(),
        "scheduled_end_time": (soon + timedelta(hours=3)).isoformat(),
        "entity_type": 3,
        "entity_metadata": {"location": "#card-room"},
    }
    double.permissions_withheld = CREATE_EVENTS
    status, data, _ = await call(http, double, "POST", path, body)
    assert (status, data["code"]) == (403, 50013)
    double.permissions_withheld = 0
    past = {**body, "scheduled_start_time": (datetime.now(UTC) - timedelta(minutes=1)).isoformat()}
    status, data, _ = await call(http, double, "POST", path, past)
    assert (status, data["code"]) == (400, 50035)
    nowhere = {key: value for key, value in body.items() if key != "entity_metadata"}
    status, data, _ = await call(http, double, "POST", path, nowhere)
    assert status == 400 and len(double.spec_violations) == 1  # Discord's spec already says so
    double.spec_violations.clear()
    assert double.scheduled_events.created == []
    status, event, _ = await call(http, double, "POST", path, body)
    assert status == 200 and event["status"] == 1 and event["entity_metadata"] == {"location": "#card-room"}
    for person in (User(1002, "Carol"), ALICE, User(1001, "Bob")):
        await double.scheduled_events.interested(int(event["id"]), person)  # no bot connected: nothing told
    status, users, _ = await call(http, double, "GET", f"{path}/{event['id']}/users?limit=2&with_member=0")
    assert status == 200 and [row["user"]["id"] for row in users] == ["1000", "1001"]
    status, users, _ = await call(http, double, "GET", f"{path}/{event['id']}/users?limit=2&after=1001")
    assert [row["user"]["id"] for row in users] == ["1002"]
    status, data, _ = await call(http, double, "GET", f"{path}/1234/users")
    assert (status, data["code"]) == (404, 10070)
    assert double.spec_violations == []
