"""Signing in inside Discord, against the double: the server learns the user and the place from Discord itself
(the code exchange, /users/@me, the activity instance) and refuses everything else."""

from __future__ import annotations

import json
import time

from tests.double import User
from tests.double.activity import CODE_SECONDS, OTHER_APP
from tests.double.limits import RouteLimit

from .conftest import Inside

ALICE, BOB, MALLORY = User(1000, "Alice", "en-US"), User(1001, "Bob", "en-US"), User(1002, "Mallory", "ja")


async def a_table_here(inside: Inside, host: User) -> int:
    double = inside.double
    table = await inside.service.open_table(double.guild_id, double.channel_id, host.id, host.name, "oh-hell")
    await inside.service.set_location(table.id, message_id=12345)
    return table.id


async def test_a_player_signs_in_with_discord_and_sees_the_table_of_the_instances_channel(inside: Inside) -> None:
    double = inside.double
    table_id = await a_table_here(inside, ALICE)
    instance = double.activity.launch([ALICE, BOB], double.channel_id, double.guild_id)
    status, answer = await inside.token(double.activity.authorize(BOB), instance)
    assert status == 200 and answer["user"] == {"id": str(BOB.id), "name": "Bob"} and answer["access_token"]
    bob = await inside.screen(answer["session"])
    lobby = await bob.state_where(lambda t: t["id"] == table_id)
    assert lobby["lobby"]["seated"] is False
    await bob.send(op="join", table=table_id)
    await bob.state_where(lambda t: t["lobby"]["seated"])
    assert (await inside.service.table(table_id)).seat_of(BOB.id) is not None  # Bob as Discord knows him


async def test_a_player_goes_by_their_nickname_on_the_server_as_in_its_chat(inside: Inside) -> None:
    """Where the player let the Activity read their membership, their name on a screen is their nickname on
    the instance's server, the name the chat shows: joining from a screen keeps it as the server's name for
    them. Without that scope the member route is never asked (no 403 toward the bot's ban), and where
    Discord cannot say now (a 429) the sign-in goes on with their Discord name, and the route waits."""
    double, activity = inside.double, inside.double.activity
    carol = User(1003, "Carol", "en-US", nick="Captain C")
    table_id = await a_table_here(inside, ALICE)
    instance = activity.launch([ALICE, carol], double.channel_id, double.guild_id)
    status, answer = await inside.token(activity.authorize(carol), instance)
    assert status == 200 and answer["user"] == {"id": str(carol.id), "name": "Captain C"}
    screen = await inside.screen(answer["session"])
    await screen.state_where(lambda t: t["id"] == table_id)
    await screen.send(op="join", table=table_id)
    await screen.state_where(lambda t: t["lobby"]["seated"])
    table = await inside.service.table(table_id)
    assert [seat.name for seat in table.seats] == ["Alice", "Captain C"]

    reads = activity.member_reads
    status, answer = await inside.token(activity.authorize(carol, scopes=("identify",)), instance)
    assert status == 200 and answer["user"]["name"] == "Carol" and activity.member_reads == reads

    # One call in ten minutes: the first sign-in's read used it.
    double.limits.routes[("GET", "/users/@me/guilds/{guild_id}/member")] = RouteLimit(1, 600.0)
    status, answer = await inside.token(activity.authorize(carol), instance)  # Discord asks to wait
    assert status == 200 and answer["user"]["name"] == "Carol"
    assert double.limits.limited == ["user: GET /users/@me/guilds/{guild_id}/member"]
    reads = activity.member_reads
    status, answer = await inside.token(activity.authorize(carol), instance)  # not asked again meanwhile
    assert status == 200 and answer["user"]["name"] == "Carol" and activity.member_reads == reads


async def test_codes_are_good_once_for_this_application_and_not_for_long(inside: Inside) -> None:
    activity = inside.double.activity
    instance = activity.launch([ALICE], inside.double.channel_id, inside.double.guild_id)
    status, answer = await inside.token("made-up-code-of-the-right-shape", instance)
    assert status == 403 and answer["key"] == "activity.bad_code"
    code = activity.authorize(ALICE)
    assert (await inside.token(code, instance))[0] == 200
    status, answer = await inside.token(code, instance)  # used already
    assert status == 403 and answer["key"] == "activity.bad_code"
    status, answer = await inside.token(activity.authorize(ALICE, OTHER_APP), instance)  # another app's code
    assert status == 403 and answer["key"] == "activity.bad_code"
    stale = activity.authorize(ALICE, made=time.monotonic() - CODE_SECONDS - 1)
    status, answer = await inside.token(stale, instance, language="ja")
    assert (
        status == 403
        and answer["error"]
        == "Discordでサインインを確認できませんでした。アクティビティを閉じて、もう一度開いてください。"
    )


async def test_a_user_must_be_in_a_real_instance_in_a_server(inside: Inside) -> None:
    double, activity = inside.double, inside.double.activity
    instance = activity.launch([ALICE], double.channel_id, double.guild_id)
    status, answer = await inside.token(activity.authorize(MALLORY), instance)  # not a participant
    assert status == 403 and answer["key"] == "activity.not_in_instance"
    status, answer = await inside.token(activity.authorize(MALLORY), "i-made-up")
    assert status == 403 and answer["key"] == "activity.no_instance"
    direct = activity.launch([MALLORY], 77, None)  # a direct message
    status, answer = await inside.token(activity.authorize(MALLORY), direct)
    assert status == 403 and answer["key"] == "activity.not_in_server"
    for body in ({"code": "x"}, {"code": "<script>", "instance_id": "i"}, {"code": 5, "instance_id": "i"}):
        async with inside.client.post(str(inside.http.make_url("/api/token")), json=body) as reply:
            assert reply.status == 400
    # Refused bodies are answered in JSON, in the language the body asks for where it says one: a malformed
    # code, JSON nested past the parser's depth, a body past the server's limit.
    url = str(inside.http.make_url("/api/token"))
    for raw, key, words in (
        (json.dumps({"code": "<x>", "instance_id": "i", "language": "ja"}), "activity.bad_frame", "メッセージ"),
        ("[" * 5000 + "]" * 5000, "activity.bad_frame", "could not be read"),
        (json.dumps({"code": "a" * 20_000, "instance_id": "i", "language": "ja"}), "activity.too_long", "too long"),
    ):
        async with inside.client.post(url, data=raw, headers={"Content-Type": "application/json"}) as reply:
            assert reply.status == 400 and reply.content_type == "application/json"
            answer = await reply.json()
            assert answer["key"] == key and words in answer["error"], answer
    assert activity.exchanges == 3  # malformed requests never reached Discord


async def test_an_instance_elsewhere_sees_nothing_of_this_table(inside: Inside) -> None:
    double, activity = inside.double, inside.double.activity
    table_id = await a_table_here(inside, ALICE)
    other_guild, other_channel = (
        910_000_000_000_000_777,
        double.another_server(910_000_000_000_000_777, 910_000_000_000_000_778),
    )
    elsewhere = activity.launch([MALLORY], other_channel, other_guild)
    status, answer = await inside.token(activity.authorize(MALLORY), elsewhere)
    assert status == 200
    mallory = await inside.screen(answer["session"], table=table_id)  # asks for a table of another server
    assert (await mallory.next("error"))["key"] == "activity.not_here"
    await mallory.send(op="join", table=table_id)
    assert (await mallory.next("error"))["key"] == "activity.not_here"
    assert (await inside.service.table(table_id)).seat_of(MALLORY.id) is None
    assert not [f for f in mallory.frames if f.get("type") == "state" and f.get("table")]
