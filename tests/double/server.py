"""A small stand-in for Discord: its gateway (a websocket) and the REST routes the bot uses, on 127.0.0.1.

The real bot connects to it (``DISCORD_API_BASE``), so nothing of the bot is
mocked. Tests act as people: they send the payloads Discord would send (a
slash command, a button click, a select) as different users, and read back
what each person can see: the channel's messages with every edit, and each
person's own ephemeral messages.

The double holds the bot to Discord's rules and answers as Discord does when
they are broken (``limits.py``): the interaction rules (3 seconds, one
acknowledgement, 15-minute tokens), per-route and global rate limits with
their headers, the invalid-request ban, the limits of commands and messages.
Every request is also checked against Discord's OpenAPI spec (``spec.py``):
``spec_violations`` (refused with 400, as Discord does) and ``unknown_fields``
(ignored by Discord, reported here). A breach by the bot is recorded in
``problems``. Everything timed reads ``clock``, which a test can move.

A person's click or command returns once they see its answer: at once when the
bot answers with a message or an update, and when it deferred (as a busy bot
does), once it has followed the deferral up (edited or deleted the original
response, or sent a follow-up; the first follow-up after a "thinking" deferral
takes its place, as on Discord; a "thinking" deleted waits for the follow-up
that answers the person instead). So a test reads a click's answer right after
the click however slow the machine is; what the bot does after its answer (the
public table after a move, a ping) is waited for with ``wait_for``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .activity import ActivityDouble
from .clock import Clock
from .limits import (
    ALREADY_ACKNOWLEDGED,
    ANSWER_WITHIN,
    INVALID_FORM_BODY,
    UNKNOWN_INTERACTION,
    UNKNOWN_WEBHOOK,
    InteractionRules,
    RateLimits,
    command_errors,
    error_body,
    form_errors,
    message_errors,
)
from .scheduled_events import CREATE_EVENTS, ScheduledEventsDouble
from .spec import Report, discord_spec

API = "/api/v10"
ARRIVED = web.RequestKey("arrived", float)  # when a call came, on the double's clock
BODY = web.RequestKey("body", dict)  # the call's body, read once
EPHEMERAL = 64
# How long a person waits for a deferred answer to be followed up before calling it lost. Only a bot that never
# follows up waits this long; a busy one follows up in a few seconds (Discord allows 15 minutes).
FOLLOW_UP_WITHIN = 120.0
# A gateway event reaches the bot's socket at once unless the bot stopped reading it (the send then waits for room
# in the socket's buffer): past this many seconds the test fails saying so, where it would wait forever.
SEND_WITHIN = 60.0
BOT_PERMISSIONS = str(
    (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 35)  # create public threads
    | (1 << 36)  # create private threads (a duplicate night's tables)
    | (1 << 38)  # send messages in threads
    | (1 << 44)  # create events (a scheduled game night: Manage Events alone no longer creates one)
    | (1 << 28)  # manage roles (a season's role)
)
MEMBER_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 16) | (1 << 31) | (1 << 38))
MANAGE_GUILD = 1 << 5
MANAGE_ROLES = 1 << 28
ORGANISERS = 930_000_000_000_000_900  # the server's role of its managers (position 10): the roles tests name are below
BOT_ROLE = 930_000_000_000_000_950  # the bot's own role (its integration's, position 20), as Discord gives every bot
ATTACH_FILES = 1 << 15
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
MISSING_PERMISSIONS = {"message": "Missing Permissions", "code": 50013}
MISSING_ACCESS = {"message": "Missing Access", "code": 50001}
UNKNOWN_CHANNEL = {"message": "Unknown Channel", "code": 10003}
SERVICE_UNAVAILABLE = {"message": "Service Unavailable", "code": 0}
THINKING = "…thinking"  # stands for Discord's own "is thinking…" on a deferred reply, which the bot never writes

_ids = itertools.count(1_100_000_000_000_000_000)


def snowflake() -> int:
    return next(_ids)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


def reply(data: Any, status: int = 200) -> web.Response:
    """JSON exactly as Discord sends it: discord.py checks for a bare ``application/json``."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def refuse(error: tuple[int, int, str], errors: dict[str, Any] | None = None) -> web.Response:
    """Discord's answer to a call it refuses: its status, and its JSON error body."""
    return reply(error_body(error, errors), status=error[0])


def _without_files(body: dict[str, Any]) -> dict[str, Any]:
    """A body as the bot sent it (the double's parse adds the uploaded files under ``__files__``)."""
    out = {k: v for k, v in body.items() if k != "__files__"}
    if isinstance(out.get("data"), dict) and "__files__" in out["data"]:
        out["data"] = {k: v for k, v in out["data"].items() if k != "__files__"}
    return out


@dataclass
class User:
    id: int
    name: str
    locale: str = "en-US"
    manager: bool = False  # may manage the server, and roles, and holds the organisers' role
    manage_roles: bool | None = None  # None: as ``manager``
    nick: str | None = None  # their nickname on the double's servers
    create_events: bool = False  # may create events (and edit or cancel their own), without managing the server

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
        }

    def member(self, guild_id: int) -> dict[str, Any]:
        permissions = int(MEMBER_PERMISSIONS) | (MANAGE_GUILD if self.manager else 0)
        permissions |= CREATE_EVENTS if self.create_events else 0
        if self.manager if self.manage_roles is None else self.manage_roles:
            permissions |= MANAGE_ROLES
        return {
            "user": self.payload(),
            "nick": self.nick,
            "roles": [str(ORGANISERS)] if self.manager else [],
            "joined_at": now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(permissions),
        }


@dataclass
class Message:
    """A message as people see it; ``ephemeral_for`` is the only user who can see an ephemeral one."""

    id: int
    channel_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    ephemeral_for: int | None = None
    interaction_id: int | None = None
    versions: list[dict[str, Any]] = field(default_factory=list)  # every state it has shown, oldest first
    thread_id: int | None = None
    attachments: list[dict[str, Any]] = field(default_factory=list)  # id, filename, size, data

    def apply(self, body: dict[str, Any]) -> None:
        if "content" in body:
            self.content = body["content"] or ""
        if "embeds" in body:
            self.embeds = body["embeds"] or []
        if "embed" in body:
            self.embeds = [body["embed"]] if body["embed"] else []
        if "components" in body:
            self.components = body["components"] or []
        files = body.get("__files__", [])
        if "attachments" in body or files:  # Discord keeps the listed old attachments and adds the uploads
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in self.attachments if str(a["id"]) in keep]
            self.attachments = kept + [
                {"id": snowflake(), "filename": f["filename"], "size": len(f["data"]), "data": f["data"]} for f in files
            ]
        self.versions.append(
            {
                "content": self.content,
                "embeds": json.loads(json.dumps(self.embeds)),
                "components": self.components,
                "attachments": [{k: a[k] for k in ("filename", "data") if k in a} for a in self.attachments],
            }
        )

    def text(self) -> str:
        """Everything a person reads in it, as plain text."""
        parts = [self.content]
        for embed in self.embeds:
            parts.append(embed.get("title", ""))
            parts.append(embed.get("description", ""))
            for f in embed.get("fields", []):
                parts.append(f.get("name", ""))
                parts.append(f.get("value", ""))
            parts.append((embed.get("footer") or {}).get("text", ""))
        for row in self.components:
            for component in row.get("components", []):
                parts.append(component.get("label", "") or "")
                parts.append(component.get("placeholder", "") or "")
                for option in component.get("options", []):
                    parts.append(option.get("label", ""))
                    parts.append(option.get("description", "") or "")
        return "\n".join(p for p in parts if p)

    def controls(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]

    def payload(self, bot: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": bot,
            "content": self.content,
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(a["id"]),
                    "filename": a["filename"],
                    "size": a["size"],
                    "url": f"https://cdn.invalid/{a['id']}/{a['filename']}",
                    "proxy_url": f"https://cdn.invalid/{a['id']}/{a['filename']}",
                }
                for a in self.attachments
            ],
            "embeds": self.embeds,
            "pinned": False,
            "type": 0,
            "components": self.components,
            "flags": EPHEMERAL if self.ephemeral_for else 0,
        }


@dataclass
class Interaction:
    id: int
    token: str
    user: User
    kind: int
    channel_id: int
    message: Message | None = None  # the message a component is on
    answered: asyncio.Future[int] | None = None  # the response type, once answered
    at_original: Message | None = None  # the message "@original" names
    sent_at: float = 0.0
    followed_up: bool = False  # a deferred answer was followed up: its original edited or deleted, or a follow-up
    loading: bool = False  # answered "thinking" (deferred), and not resolved yet
    answer: Message | None = None  # a follow-up that answered a deferral in place of its original
    what: str = ""  # the command's name or the component's custom_id, for the problems said of it
    choices: list[dict[str, Any]] | None = None  # an autocomplete's answer (type 8): the choices offered

    @property
    def original(self) -> Message | None:
        """What the person sees as the answer: the message "@original" names (a reply, the message a
        component is on, a resolved "thinking"), or the follow-up that answered a deferral instead."""
        return self.answer or self.at_original


class DiscordDouble:
    def __init__(self, *, guild_id: int = 900_000_000_000_000_001, channel_id: int = 900_000_000_000_000_002) -> None:
        self.app_id = 910_000_000_000_000_001
        self.bot_processes: list[asyncio.subprocess.Process] = []  # every bot process started against it
        self.bot_user = {
            "id": str(self.app_id),
            "username": "Trick Table",
            "discriminator": "0",
            "bot": True,
            "avatar": None,
            "global_name": None,
        }
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.channels: dict[int, dict[str, Any]] = {
            channel_id: {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(guild_id),
                "name": "card-room",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "topic": None,
                "last_message_id": None,
                "rate_limit_per_user": 0,
            },
        }
        self.messages: dict[int, Message] = {}
        self.timeline: list[tuple[Message, int]] = []  # (message, version): everything shown, in order
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: list[dict[str, Any]] = []
        self.problems: list[str] = []  # breaches of Discord's rules by the bot
        self.clock = Clock()  # everything the double times; a test may move it forward
        self.rules = InteractionRules(self.clock)
        self.limits = RateLimits(self.clock)  # per-route buckets, the global limit, the invalid-request ban
        self.spec_violations: list[str] = []  # requests Discord's spec forbids (refused with 400)
        self.unknown_fields: list[str] = []  # fields the spec does not name (Discord ignores them)
        self.requests = 0  # REST calls the bot made
        self.calls: list[tuple[str, str]] = []  # every REST call the bot made: (method, path), in order
        # Channels (and threads) the bot may not see: every call to one answered 403 Missing Access, as Discord
        # answers once the bot is removed from the server or its view of the channel is taken away.
        self.channels_refused: set[int] = set()
        self.channels_deleted: set[int] = set()  # every call to one answered 404 Unknown Channel
        # The next this many messages posted in a channel or thread fail as Discord fails them now and then (503
        # Service Unavailable, which discord.py does not retry): nothing is posted.
        self.posts_failing = 0
        # The next this many messages posted are made, but their answer is lost (a 503 after the message was made,
        # as when Discord's answer or the connection fails late): the bot cannot know it was posted.
        self.posts_lost = 0
        # Messages posted with a nonce Discord should keep unique (``enforce_nonce``): the same nonce again within
        # a few minutes gets the message made the first time, and no new one (as Discord answers it).
        self.nonces: dict[str, Message] = {}
        # Threads archived (by inactivity, or a moderator's Close) and locked (a moderator's Lock), as Discord treats
        # them for a bot without Manage Threads: an archived thread's messages cannot be edited (400 50083) until it
        # is opened again (PATCH archived=false, refused while locked), a new message opens it unless it is locked;
        # a locked thread takes neither (160005, or 50083 while archived too).
        self.archived: set[int] = set()
        self.hidden_from: dict[int, set[int]] = {}  # channel id: the people who may not see it (a channel option's
        # resolved permissions for them are none)
        self.locked: set[int] = set()
        self.servers_out: set[int] = set()  # servers in an outage: READY lists them, no GUILD_CREATE follows
        self.heartbeat_interval_ms = 41250  # as Discord's HELLO says (a test of a quiet connection shortens it)
        self._quiet: set[web.WebSocketResponse] = set()  # gateway connections gone quiet (:meth:`go_quiet`)
        self.spec_seconds = 0.0  # time spent checking them against the spec
        # One thread checks calls against the spec, one at a time (its caches are built as it goes).
        self._checker = ThreadPoolExecutor(1, thread_name_prefix="double-spec")
        self.deleted: list[Message] = []  # channel messages the bot deleted
        self.threads_forbidden = False  # the bot may not create threads (a missing permission)
        self.thread_members: dict[int, set[int]] = {}  # each private thread's members (the bot's own included)
        self.attachments_forbidden = False  # the bot may not attach files (no Attach Files permission)
        self.permissions_withheld = 0  # permission bits the bot lacks in every channel (its app_permissions)
        # Shards: a connection per shard, each IDENTIFYing with [shard id, shard count]; a server's events
        # (its GUILD_CREATE, its interactions) go to its shard's connection, by Discord's rule.
        self.shard_count = 1  # what /gateway/bot recommends, and what every IDENTIFY must say
        self.guild_ids = [guild_id]  # the servers the bot is in
        self.identified: list[list[int]] = []  # the shard of every IDENTIFY, in order
        self.route_to: int | None = None  # a shard every interaction is sent to, whatever its server (misrouting)
        # Every counted REST call answered 429 with this retry_after (seconds), a bot held back (None: off).
        self.rate_limit_everything: float | None = None
        self.held_back = 0  # the calls so answered
        self._sockets: dict[int, web.WebSocketResponse] = {}
        self._seq = 0
        self._shard_ready: dict[int, asyncio.Event] = {}
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.changed = asyncio.Condition()
        self.activity = ActivityDouble(self)  # the Activity's side of Discord (activity.py)
        self.scheduled_events = ScheduledEventsDouble(self)  # Scheduled Events (scheduled_events.py)
        self.intents: dict[int, int] = {}  # each shard's intents, as IDENTIFY said
        # The gateway answers the next IDENTIFYs by closing with these codes, one each, as Discord does (4004 a
        # token it does not take, 4011 sharding required, 4000 an error of its own...); then it accepts them.
        self.close_identify_with: list[int] = []
        self.member_roles: dict[int, set[int]] = {}  # user id: the roles the bot gave them (and did not take)
        self.role_changes: dict[int, dict[str, Any]] = {}  # a role's payload fields a test sets (role_payload)
        self.roles_above_bot: set[int] = set()  # roles the bot may not give: above its own (403, as Discord)

    # ------------------------------------------------------------------ server

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._notify, self._discord, self._held_back, self._closed])
        app.router.add_get("/gateway", self._gateway)
        r = app.router
        r.add_get(API + "/users/@me", self._me)
        r.add_get(API + "/oauth2/applications/@me", self._application)
        r.add_get(API + "/gateway", self._gateway_url)
        r.add_get(API + "/gateway/bot", self._gateway_url)
        r.add_put(API + "/applications/{app}/commands", self._sync)
        r.add_put(API + "/applications/{app}/guilds/{guild}/commands", self._sync)
        r.add_post(API + "/interactions/{id}/{token}/callback", self._callback)
        r.add_post(API + "/webhooks/{app}/{token}", self._followup)
        r.add_get(API + "/webhooks/{app}/{token}/messages/{message}", self._webhook_get)
        r.add_patch(API + "/webhooks/{app}/{token}/messages/{message}", self._webhook_edit)
        r.add_delete(API + "/webhooks/{app}/{token}/messages/{message}", self._webhook_delete)
        r.add_post(API + "/channels/{channel}/messages", self._channel_send)
        r.add_get(API + "/channels/{channel}/messages/{message}", self._channel_get)
        r.add_patch(API + "/channels/{channel}/messages/{message}", self._channel_edit)
        r.add_patch(API + "/channels/{channel}", self._channel_patch)
        r.add_get(API + "/channels/{channel}", self._channel_read)
        r.add_delete(API + "/channels/{channel}/messages/{message}", self._channel_delete)
        r.add_post(API + "/channels/{channel}/messages/{message}/threads", self._thread)
        r.add_post(API + "/channels/{channel}/threads", self._thread_alone)
        r.add_put(API + "/channels/{channel}/thread-members/{user}", self._thread_member)
        self.activity.routes(r)
        self.scheduled_events.routes(r)
        r.add_put(API + "/guilds/{guild}/members/{user}/roles/{role}", self._member_role)
        r.add_delete(API + "/guilds/{guild}/members/{user}/roles/{role}", self._member_role)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        # a bot process a failed test left running would go on retrying (its database dropped) and load the
        # machine under every later test: stopped here, whatever the test did
        for process in self.bot_processes:
            if process.returncode is None:
                process.kill()
                await process.wait()
        for ws in list(self._sockets.values()):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        self._checker.shutdown(wait=False, cancel_futures=True)

    # Discord's global limit: at most this many counted REST calls in any one second (None: no limit).
    # Interaction answers and the interaction's webhook are not counted; a call over it gets a 429.
    @property
    def global_limit_per_second(self) -> int | None:
        return self.limits.global_per_second

    @global_limit_per_second.setter
    def global_limit_per_second(self, value: int | None) -> None:
        self.limits.global_per_second = value

    @property
    def global_429s(self) -> int:
        return sum(1 for refusal in self.limits.limited if refusal.startswith("global:"))

    @property
    def busiest_second(self) -> int:
        return self.limits.busiest_second

    @web.middleware
    async def _discord(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Every REST call: its rate limit buckets, then Discord's spec, then the route itself."""
        if not request.path.startswith(API + "/"):
            gateway: web.StreamResponse = await handler(request)  # the gateway's websocket
            return gateway
        self.requests += 1
        self.calls.append((request.method, request.path.removeprefix(API)))
        request[ARRIVED] = self.clock.now()
        spec = discord_spec()
        found = spec.match(request.method, request.path.removeprefix(API))
        template, parameters = (found[0].template, found[1]) if found else (request.path.removeprefix(API), {})
        refusal, headers = self.limits.enter(request.method, template, parameters)
        if refusal is not None:
            self.limits.answered(refusal.status, refusal.scope)
            if refusal.scope == "global":
                limit = self.limits.global_per_second
                self.problems.append(f"429: {request.method} {request.path} over the global limit of {limit} a second")
            if isinstance(refusal.body, str):  # banned: Cloudflare's page, not Discord's JSON
                response = web.Response(text=refusal.body, status=refusal.status, content_type="text/html")
            else:
                response = reply(refusal.body, status=refusal.status)
            response.headers.update(refusal.headers)
            return response
        body: Any = None
        if request.content_type.startswith("multipart/"):
            body = _without_files(await self._body(request))
        elif request.content_type == "application/x-www-form-urlencoded":  # OAuth2's token exchange
            body = dict(await request.post())
        elif request.body_exists:
            body = await request.json()  # read once: the route reads it again from aiohttp's copy
        report = await asyncio.get_running_loop().run_in_executor(
            self._checker, self._check_spec, request.method, request.path, dict(request.query), body
        )
        self.unknown_fields += [f"{report.operation}: {place}" for place in report.unknown]
        if report.errors:
            self.spec_violations += [f"{request.method} {request.path}: {error}" for error in report.errors]
            answer: web.StreamResponse = refuse(INVALID_FORM_BODY, form_errors(report.errors))
        else:
            answer = await handler(request)
        answer.headers.update(headers)
        self.limits.answered(answer.status, None)
        return answer

    @staticmethod
    def counted(path: str) -> bool:
        """Whether Discord counts a REST call in the bot's global limit (interaction answers it does not)."""
        if not path.startswith(API + "/"):
            return False  # the gateway's websocket
        route = path.removeprefix(API).split("/")
        if route[1] == "interactions":
            return False
        return not (route[1] == "webhooks" and len(route) > 3)  # /webhooks/{application}/{interaction token}...

    @web.middleware
    async def _held_back(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if self.rate_limit_everything is None or not self.counted(request.path):
            return await handler(request)
        self.held_back += 1
        retry_after = self.rate_limit_everything
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
        response = reply(body, status=429)
        response.headers["X-RateLimit-Limit"] = "5"
        response.headers["X-RateLimit-Remaining"] = "0"
        response.headers["X-RateLimit-Reset-After"] = str(retry_after)
        response.headers["X-RateLimit-Bucket"] = "double-held-back"
        response.headers["X-RateLimit-Scope"] = "user"
        response.headers["Retry-After"] = str(max(1, round(retry_after + 0.5)))
        response.headers["Via"] = "1.1 google"
        return response

    @web.middleware
    async def _closed(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """A call to a channel the bot may not see (403 Missing Access) or that was deleted (404 Unknown Channel);
        a message posted while ``posts_failing`` (503)."""
        route = request.path.removeprefix(API).split("/")
        if len(route) > 2 and route[1] == "channels" and route[2].isdigit():
            channel_id = int(route[2])
            if channel_id in self.channels_deleted:
                return reply(UNKNOWN_CHANNEL, status=404)
            if channel_id in self.channels_refused:
                return reply(MISSING_ACCESS, status=403)
            if self.posts_failing and request.method == "POST" and route[3:] == ["messages"]:
                self.posts_failing -= 1
                return reply(SERVICE_UNAVAILABLE, status=503)
        answer: web.StreamResponse = await handler(request)
        return answer

    def calls_to(self, channel_ids: set[int], since: int = 0) -> list[tuple[str, str]]:
        """The REST calls (from the ``since``-th on) to any of these channels or threads."""
        return [
            (method, path)
            for method, path in self.calls[since:]
            if path.startswith("/channels/") and int(path.split("/")[2]) in channel_ids
        ]

    def channels_of(self, guild_id: int) -> set[int]:
        """The server's channels and threads (deleted ones too)."""
        return {channel_id for channel_id, channel in self.channels.items() if channel["guild_id"] == str(guild_id)}

    async def remove_from_server(self, guild_id: int, *, heard: bool = True) -> None:
        """The bot kicked from a server (GUILD_DELETE without ``unavailable``): every later call to its channels is
        refused with 403 Missing Access, as Discord refuses them. ``heard`` False: while no bot was connected (no
        event; its next READY no longer lists the server)."""
        self.channels_refused |= self.channels_of(guild_id)
        if guild_id in self.guild_ids:
            self.guild_ids.remove(guild_id)
        if heard:
            await self._dispatch("GUILD_DELETE", {"id": str(guild_id)}, shard=self.shard_of(guild_id))

    async def server_unavailable(self, guild_id: int, *, heard: bool = True) -> None:
        """A server's outage (GUILD_DELETE with ``unavailable``): the bot is still in it, and a new session's READY
        lists it without its GUILD_CREATE, until :meth:`server_available`. ``heard`` False: while no bot was
        connected (no event)."""
        self.servers_out.add(guild_id)
        if heard:
            payload = {"id": str(guild_id), "unavailable": True}
            await self._dispatch("GUILD_DELETE", payload, shard=self.shard_of(guild_id))

    async def server_available(self, guild_id: int) -> None:
        """A server's outage over: it comes in whole again (GUILD_CREATE), its channels as they are now."""
        self.servers_out.discard(guild_id)
        await self._dispatch("GUILD_CREATE", self._guild_payload(guild_id), shard=self.shard_of(guild_id))

    async def delete_channel(self, channel_id: int, *, heard: bool = True) -> None:
        """A text channel deleted (CHANNEL_DELETE), with its threads: later calls to them get 404 Unknown Channel,
        and its server's GUILD_CREATE no longer lists it. ``heard`` False: while no bot was connected, or while its
        server was out (no event)."""
        channel = self.channels[channel_id]
        threads = {
            i
            for i, c in self.channels.items()
            if c.get("parent_id") == str(channel_id) and c["type"] in (PUBLIC_THREAD, PRIVATE_THREAD)
        }
        self.channels_deleted |= {channel_id, *threads}
        if heard:
            await self._dispatch("CHANNEL_DELETE", dict(channel), shard=self.shard_of(int(channel["guild_id"])))

    async def delete_thread(self, thread_id: int) -> None:
        """A thread deleted (THREAD_DELETE): later calls to it get 404 Unknown Channel."""
        thread = self.channels[thread_id]
        self.channels_deleted.add(thread_id)
        payload = {k: thread[k] for k in ("id", "guild_id", "parent_id", "type")}
        await self._dispatch("THREAD_DELETE", payload, shard=self.shard_of(int(thread["guild_id"])))

    def go_quiet(self) -> None:
        """Every open gateway connection goes quiet without closing, as over a network that drops its packets:
        no event, no heartbeat acknowledged, until the bot gives up on it and connects again (its new connection
        is answered as usual)."""
        self._quiet |= set(self._sockets.values())

    async def take_away(self) -> None:
        """Discord out of reach, as in a network outage: every open connection (the gateway's websockets, the
        bot's pooled REST connections) cut without a word, and new ones refused, until :meth:`bring_back`."""
        assert self._runner is not None and self._runner.server is not None
        for site in list(self._runner.sites):
            await site.stop()
        for handler in self._runner.server.connections:
            handler.force_close()

    async def bring_back(self) -> None:
        """Discord reachable again, at the same address."""
        assert self._runner is not None
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()

    def _check_spec(self, method: str, path: str, query: dict[str, str], body: Any) -> Report:
        """The spec's verdict on one call, in the double's checking thread: the event loop goes on serving
        other calls meanwhile (a large message takes milliseconds to validate)."""
        started = time.perf_counter()
        try:
            return discord_spec().check(method, path, query, body)
        finally:
            self.spec_seconds += time.perf_counter() - started

    @web.middleware
    async def _notify(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        async with self.changed:
            self.changed.notify_all()
        return response

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        """The request's JSON body (a multipart one's ``payload_json`` with its files), read once."""
        if BODY not in request:
            request[BODY] = await DiscordDouble._read_body(request)
        body: dict[str, Any] = request[BODY]
        return body

    @staticmethod
    async def _read_body(request: web.Request) -> dict[str, Any]:
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            body: dict[str, Any] = {}
            files = []
            async for part in reader:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                elif (part.name or "").startswith("files["):  # type: ignore[union-attr]
                    data = await part.read()  # type: ignore[union-attr]
                    files.append({"filename": part.filename, "data": bytes(data)})  # type: ignore[union-attr]
            target = body["data"] if isinstance(body.get("data"), dict) else body  # an interaction callback's message
            target["__files__"] = files
            return body
        if not request.body_exists:
            return {}
        return dict(await request.json())

    # ------------------------------------------------------------------ gateway

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    def _ready_event(self, shard: int) -> asyncio.Event:
        return self._shard_ready.setdefault(shard, asyncio.Event())

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        shard: int | None = None
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}))
        async for message in ws:
            if message.type != WSMsgType.TEXT or ws in self._quiet:
                continue
            data = json.loads(message.data)
            op = data.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op in (2, 6):
                if op == 2:
                    shard_id, count = data["d"].get("shard") or [0, 1]
                    self.identified.append([shard_id, count])
                    self.intents[shard_id] = int(data["d"].get("intents") or 0)
                    if self.close_identify_with:
                        await ws.close(code=self.close_identify_with.pop(0), message=b"closed by the double")
                        break
                    if count != self.shard_count or not 0 <= shard_id < count:
                        wanted = self.shard_count
                        self.problems.append(f"IDENTIFY as shard {shard_id} of {count}; Discord wants {wanted}")
                        await ws.close(code=4010, message=b"Invalid shard")
                        break
                else:  # RESUME: the session names its shard
                    session = str(data["d"].get("session_id", ""))
                    if not session.startswith("double-session-"):  # none was given: IDENTIFY, Discord answers
                        await ws.send_str(json.dumps({"op": 9, "d": False}))
                        continue
                    shard_id = int(session.rpartition("-")[2] or 0)
                shard = shard_id
                self._sockets[shard] = ws
                guilds = [g for g in self.guild_ids if self.shard_of(g) == shard]
                await self._dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": self.bot_user,
                        "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                        "session_id": f"double-session-{shard}",
                        "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                        "application": {"id": str(self.app_id), "flags": 0},
                        "private_channels": [],
                        "relationships": [],
                        "shard": [shard, self.shard_count],
                    },
                    shard=shard,
                )
                for guild in (g for g in guilds if g not in self.servers_out):
                    payload = self._guild_payload(guild)
                    if self.intents.get(shard, 0) & (1 << 16):  # GUILD_SCHEDULED_EVENTS
                        payload["guild_scheduled_events"] = self.scheduled_events.of_guild(guild)
                    await self._dispatch("GUILD_CREATE", payload, shard=shard)
                self._ready_event(shard).set()
        if shard is not None and self._sockets.get(shard) is ws:
            del self._sockets[shard]
            self._ready_event(shard).clear()
        return ws

    def _guild_payload(self, guild_id: int) -> dict[str, Any]:
        everyone = {
            "id": str(guild_id),
            "name": "@everyone",
            "permissions": MEMBER_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(guild_id),
            "name": "Card Club",
            "icon": None,
            "owner_id": "1",
            "roles": [everyone, self.role_payload(ORGANISERS), self.role_payload(BOT_ROLE)],
            "channels": [
                dict(c)
                for i, c in self.channels.items()
                if c["type"] == 0 and c["guild_id"] == str(guild_id) and i not in self.channels_deleted
            ],
            "threads": [],
            "members": [self._bot_member()],
            "member_count": 10,
            "features": [],
            "emojis": [],
            "stickers": [],
            "unavailable": False,
            "joined_at": now_iso(),
            "large": False,
            "presences": [],
            "voice_states": [],
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "nsfw_level": 0,
            "afk_timeout": 300,
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    def _bot_member(self) -> dict[str, Any]:
        """The bot as a member of the server: with its own role, as Discord adds every bot."""
        return {
            "user": self.bot_user,
            "nick": None,
            "roles": [str(BOT_ROLE)],
            "joined_at": now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
        }

    async def _dispatch(self, event: str, data: dict[str, Any], *, shard: int | None = None) -> None:
        """Send an event on ``shard``'s connection (default: the shard of the first server)."""
        ws = self._sockets.get(self.shard_of(self.guild_id) if shard is None else shard)
        if ws is None:
            raise RuntimeError(f"the bot is not connected (shard {shard})")
        if ws in self._quiet:  # lost on the way, as on a connection gone quiet
            return
        self._seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
        try:
            await asyncio.wait_for(ws.send_str(frame), SEND_WITHIN)
        except TimeoutError:
            raise AssertionError(
                f"{event} could not be sent for {SEND_WITHIN:.0f} s: the bot stopped reading its gateway connection"
            ) from None

    def expect_connection(self, shards: list[int] | None = None) -> None:
        """A bot is about to (re)connect ``shards`` (default: all): wait_connected waits for it, not an
        earlier one. The commands are synced again by the process that runs shard 0."""
        for shard in range(self.shard_count) if shards is None else shards:
            self._ready_event(shard).clear()
        if shards is None or 0 in shards:
            self.commands = []

    async def wait_connected(self, timeout: float = 30.0, shards: list[int] | None = None) -> None:
        chosen = list(range(self.shard_count)) if shards is None else shards
        await asyncio.wait_for(asyncio.gather(*(self._ready_event(shard).wait() for shard in chosen)), timeout)
        deadline = time.monotonic() + timeout
        while 0 in chosen and not self.commands and time.monotonic() < deadline:  # synced before the gateway
            await asyncio.sleep(0.05)

    def add_server(self, guild_id: int, channel_id: int) -> int:
        """Another server the bot is in, with a text channel (its shard's connection hears of it)."""
        self.another_server(guild_id, channel_id)
        self.guild_ids.append(guild_id)
        return channel_id

    # ------------------------------------------------------------------ REST

    async def _me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return await self.activity.user_of(request)
        if request.headers.get("Authorization") != "Bot double-token":
            return reply({"message": "401: Unauthorized", "code": 0}, status=401)
        return reply(self.bot_user)

    async def _application(self, request: web.Request) -> web.Response:
        return reply(
            {
                "id": str(self.app_id),
                "name": "Trick Table",
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.bot_user,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "team": None,
                "rpc_origins": [],
                "terms_of_service_url": None,
                "privacy_policy_url": None,
            }
        )

    async def _gateway_url(self, request: web.Request) -> web.Response:
        return reply(
            {
                "url": f"ws://127.0.0.1:{self.port}/gateway",
                "shards": self.shard_count,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def _sync(self, request: web.Request) -> web.Response:
        commands = await request.json()
        errors = command_errors(commands)
        if errors:  # Discord refuses the whole sync
            self.problems += [f"command sync: {error}" for error in errors]
            return refuse(INVALID_FORM_BODY, form_errors(errors, "APPLICATION_COMMAND_INVALID"))
        self.commands = [
            {**c, "id": str(snowflake()), "application_id": str(self.app_id), "version": "1"} for c in commands
        ]
        return reply(self.commands)

    def _check_message(self, body: dict[str, Any], where: str) -> list[str]:
        """Discord's limits of a message the spec does not carry (rows, selects, embeds' sizes...): what is
        broken, also recorded in ``problems``."""
        errors = message_errors(body)
        self.problems += [f"{where}: {error}" for error in errors]
        return errors

    def _refused_message(self, body: dict[str, Any], where: str) -> web.Response | None:
        """Discord's 400 for a message over its limits, or None."""
        errors = self._check_message(body, where)
        return refuse(INVALID_FORM_BODY, form_errors(errors)) if errors else None

    def _new_message(
        self, channel_id: int, body: dict[str, Any], *, ephemeral_for: int | None = None, interaction: int | None = None
    ) -> Message:
        message = Message(snowflake(), channel_id, ephemeral_for=ephemeral_for, interaction_id=interaction)
        self.messages[message.id] = message
        self._apply(message, body)
        return message

    def _apply(self, message: Message, body: dict[str, Any]) -> None:
        message.apply(body)
        self.timeline.append((message, len(message.versions) - 1))
        names = {a["filename"] for a in message.attachments}
        for embed in message.embeds:
            url = (embed.get("image") or {}).get("url", "")
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                self.problems.append(f"message {message.id}: an embed shows {url}, which is not attached")

    async def _callback(self, request: web.Request) -> web.Response:
        interaction = self.interactions.get(int(request.match_info["id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            return refuse(UNKNOWN_INTERACTION)
        body = await self._body(request)
        kind, data = body.get("type"), body.get("data") or {}
        if kind in (4, 7) and (refused := self._refused_message(data, f"interaction {interaction.id} answer")):
            return refused
        if self.attachments_forbidden and data.get("__files__"):
            self.problems.append(f"interaction {interaction.id} answered with a file without Attach Files")
        refusal = self.rules.answer(interaction.token, request[ARRIVED])
        if refusal == UNKNOWN_INTERACTION:
            took = request[ARRIVED] - self.rules.tokens[interaction.token].created
            self.problems.append(f"interaction {interaction.id} answered after {ANSWER_WITHIN} s ({took:.2f} s)")
            return refuse(refusal)
        if refusal is not None or interaction.answered is None or interaction.answered.done():
            named = f" ({interaction.what})" if interaction.what else ""
            self.problems.append(f"interaction {interaction.id}{named} answered twice")
            return refuse(ALREADY_ACKNOWLEDGED)
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        if kind == 4:
            interaction.at_original = self._new_message(
                interaction.channel_id,
                data,
                ephemeral_for=interaction.user.id if ephemeral else None,
                interaction=interaction.id,
            )
        elif kind == 5:
            interaction.at_original = self._new_message(
                interaction.channel_id,
                {"content": THINKING},
                ephemeral_for=interaction.user.id if ephemeral else None,
                interaction=interaction.id,
            )
            interaction.loading = True
        elif kind in (6, 7):
            if interaction.message is None:
                self.problems.append(f"interaction {interaction.id}: an update of no message")
            else:
                interaction.at_original = interaction.message
                if kind == 7:
                    self._apply(interaction.message, data)
        if kind == 12:
            self.activity.on_launch(interaction)
        if kind == 8:  # an autocomplete's choices: only to an autocomplete, at most 25, each named in 1 to 100
            choices = list(data.get("choices") or [])
            if (
                interaction.kind != 4
                or len(choices) > 25
                or any(not 1 <= len(c["name"]) <= 100 for c in choices)
                or any(isinstance(c["value"], int) and not -(2**53) < c["value"] < 2**53 for c in choices)
            ):
                self.problems.append(f"interaction {interaction.id}: choices Discord refuses: {choices}")
            interaction.choices = choices
        interaction.answered.set_result(int(kind or 0))
        if request.query.get("with_response") not in ("true", "True", "1"):
            return web.Response(status=204)
        original = interaction.at_original
        callback: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.kind,
                "response_message_id": str(original.id) if original else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(original and original.ephemeral_for),
            },
            "resource": {"type": kind},
        }
        if original is not None and kind in (4, 7):
            callback["resource"]["message"] = original.payload(self.bot_user)
        return reply(callback)

    def _interaction_of(self, request: web.Request) -> Interaction | None:
        return self.by_token.get(request.match_info["token"])

    def _refused_token(self, request: web.Request) -> web.Response | None:
        """Discord's answer to a call through an interaction's token it no longer (or not yet) takes."""
        refusal = self.rules.webhook(request.match_info["token"], request[ARRIVED])
        if refusal is None:
            return None
        self.problems.append(f"{request.method} {request.path}: {refusal[2]}")
        return refuse(refusal)

    async def _followup(self, request: web.Request) -> web.Response:
        interaction = self._interaction_of(request)
        if interaction is None or (refused := self._refused_token(request)):
            return refused or refuse(UNKNOWN_WEBHOOK)
        body = await self._body(request)
        if refused := self._refused_message(body, "follow-up"):
            return refused
        loading = interaction.at_original
        if loading is not None and interaction.loading:
            # Discord: the first follow-up after a "thinking" deferral resolves that loading message: it edits
            # it in place, and keeps the deferral's visibility whatever the follow-up's flags say.
            self._check_message(body, "follow-up")
            self._apply(loading, body)
            interaction.loading = False
            interaction.followed_up = True
            return reply(loading.payload(self.bot_user))
        ephemeral = bool(body.get("flags", 0) & EPHEMERAL)
        message = self._new_message(
            interaction.channel_id, body, ephemeral_for=interaction.user.id if ephemeral else None
        )
        answered = interaction.answered
        deferred_update = answered is not None and answered.done() and answered.result() == 6
        deleted = loading is not None and loading.id not in self.messages
        if interaction.answer is None and ((deferred_update and not interaction.followed_up) or deleted):
            interaction.answer = message  # a deferred update's, or a deleted "thinking"'s: this answers the person
        interaction.followed_up = True
        return reply(message.payload(self.bot_user))

    def _webhook_message(self, request: web.Request) -> Message | None:
        interaction = self._interaction_of(request)
        if interaction is None:
            return None
        which = request.match_info["message"]
        if which == "@original":
            return interaction.at_original
        return self.messages.get(int(which))

    def _followed_up(self, request: web.Request) -> None:
        """The bot wrote through the interaction's webhook: a deferred answer is followed up."""
        interaction = self._interaction_of(request)
        if interaction is not None:
            interaction.followed_up = True
            if request.match_info["message"] == "@original":
                interaction.loading = False

    async def _webhook_get(self, request: web.Request) -> web.Response:
        if refused := self._refused_token(request):
            return refused
        message = self._webhook_message(request)
        if message is None:
            return reply({"message": "Unknown Message", "code": 10008}, status=404)
        return reply(message.payload(self.bot_user))

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        if refused := self._refused_token(request):
            return refused
        message = self._webhook_message(request)
        if message is None:
            return reply({"message": "Unknown Message", "code": 10008}, status=404)
        body = await self._body(request)
        if refused := self._refused_message(body, "webhook edit"):
            return refused
        self._apply(message, body)
        self._followed_up(request)
        return reply(message.payload(self.bot_user))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        if refused := self._refused_token(request):
            return refused
        message = self._webhook_message(request)
        if message is not None:
            self.messages.pop(message.id, None)
        interaction = self._interaction_of(request)
        if interaction is not None and interaction.loading and request.match_info["message"] == "@original":
            # A "thinking" deleted is no answer yet: the bot does it to answer the person alone, by the follow-up
            # that comes next (replies.send). Taken as the answer, the click returned before that follow-up came,
            # and a test that read the answer at once found the deleted "thinking" on a busy machine.
            interaction.loading = False
        else:
            self._followed_up(request)
        return web.Response(status=204)

    async def _channel_send(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if channel_id not in self.channels:
            return reply({"message": "Unknown Channel", "code": 10003}, status=404)
        body = await self._body(request)
        if self.attachments_forbidden and body.get("__files__"):
            return reply(MISSING_PERMISSIONS, status=403)
        in_thread = self.channels[channel_id].get("type") in (PUBLIC_THREAD, PRIVATE_THREAD)
        if in_thread and self.permissions_withheld & SEND_MESSAGES_IN_THREADS:
            return reply(MISSING_PERMISSIONS, status=403)
        if closed := self._thread_closed(channel_id, sending=True):
            return closed
        if refused := self._refused_message(body, "new message"):
            return refused
        nonce = str(body["nonce"]) if body.get("enforce_nonce") and body.get("nonce") is not None else None
        if nonce is not None and nonce in self.nonces:
            return reply(self.nonces[nonce].payload(self.bot_user))  # posted already: the same message
        message = self._new_message(channel_id, body)
        if nonce is not None:
            self.nonces[nonce] = message
        if self.posts_lost:
            self.posts_lost -= 1
            return reply(SERVICE_UNAVAILABLE, status=503)
        if self.channels[channel_id].get("type") == PRIVATE_THREAD:  # a mention there adds the person, as Discord
            self.thread_members.setdefault(channel_id, {self.app_id}).update(self._mentioned(body))
        return reply(message.payload(self.bot_user))

    @staticmethod
    def _mentioned(body: dict[str, Any]) -> set[int]:
        """The people a new message really mentions: named in it as <@id> and let through by its allowed
        mentions (all users, where it sets none)."""
        named = {int(found) for found in re.findall(r"<@!?(\d+)>", str(body.get("content") or ""))}
        allowed = body.get("allowed_mentions")
        if allowed is None:
            return named
        if "users" in (allowed.get("parse") or []):
            return named
        return named & {int(user) for user in allowed.get("users") or []}

    async def _channel_get(self, request: web.Request) -> web.Response:
        message = self.messages.get(int(request.match_info["message"]))
        if message is None or message.ephemeral_for is not None:
            return reply({"message": "Unknown Message", "code": 10008}, status=404)
        return reply(message.payload(self.bot_user))

    def _channel_message(self, request: web.Request) -> Message | None:
        """The public message a channel route names, if it is in that channel."""
        message = self.messages.get(int(request.match_info["message"]))
        if message is None or message.ephemeral_for is not None:
            return None
        return message if message.channel_id == int(request.match_info["channel"]) else None

    def _thread_closed(self, channel_id: int, *, sending: bool = False) -> web.Response | None:
        """Discord's refusal of a message sent or edited in an archived or locked thread (a new message opens an
        archived one that is not locked)."""
        if channel_id in self.archived and (not sending or channel_id in self.locked):
            return reply({"message": "Thread is archived", "code": 50083}, status=400)
        if channel_id in self.locked:
            return reply({"message": "Thread is locked", "code": 160005}, status=400)
        self.archived.discard(channel_id)
        return None

    async def _channel_read(self, request: web.Request) -> web.Response:
        """A channel, as fetched (Unknown Channel once it is gone)."""
        channel_id = int(request.match_info["channel"])
        if channel_id not in self.channels:
            return reply({"message": "Unknown Channel", "code": 10003}, status=404)
        return reply(self._channel_payload(channel_id))

    async def _channel_patch(self, request: web.Request) -> web.Response:
        """A channel's settings changed: only a thread opened again (``archived: false``) is modelled."""
        channel_id = int(request.match_info["channel"])
        if channel_id not in self.channels:
            return reply({"message": "Unknown Channel", "code": 10003}, status=404)
        body = await self._body(request)
        if body.get("archived") is False:
            if channel_id in self.locked:  # only with Manage Threads
                return reply(MISSING_PERMISSIONS, status=403)
            self.archived.discard(channel_id)
        return reply(self._channel_payload(channel_id))

    async def _channel_edit(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return reply({"message": "Unknown Message", "code": 10008}, status=404)
        if closed := self._thread_closed(int(request.match_info["channel"])):
            return closed
        body = await self._body(request)
        if self.attachments_forbidden and body.get("__files__"):
            return reply(MISSING_PERMISSIONS, status=403)
        if refused := self._refused_message(body, "channel edit"):
            return refused
        self._apply(message, body)
        return reply(message.payload(self.bot_user))

    async def _channel_delete(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return reply({"message": "Unknown Message", "code": 10008}, status=404)
        del self.messages[message.id]
        self.deleted.append(message)
        return web.Response(status=204)

    async def _member_role(self, request: web.Request) -> web.Response:
        """``PUT``/``DELETE /guilds/{guild_id}/members/{user_id}/roles/{role_id}``: 403 without Manage Roles or for
        a role above the bot's own, as Discord answers."""
        role, user = int(request.match_info["role"]), int(request.match_info["user"])
        if self.permissions_withheld & (1 << 28) or role in self.roles_above_bot:
            return reply(MISSING_PERMISSIONS, status=403)
        held = self.member_roles.setdefault(user, set())
        if request.method == "PUT":
            held.add(role)
        else:
            held.discard(role)
        return web.Response(status=204)

    async def _thread(self, request: web.Request) -> web.Response:
        parent = int(request.match_info["channel"])
        message = self.messages.get(int(request.match_info["message"]))
        body = await self._body(request)
        if message is None:
            return reply({"message": "Unknown Message", "code": 10008}, status=404)
        if self.threads_forbidden:
            return reply({"message": "Missing Permissions", "code": 50013}, status=403)
        thread_id = message.id  # Discord gives a thread started from a message that message's id
        guild = self.channels[parent]["guild_id"] if parent in self.channels else str(self.guild_id)
        thread = self._thread_payload(thread_id, PUBLIC_THREAD, guild, parent, body)
        self.channels[thread_id] = thread
        message.thread_id = thread_id
        return reply(thread, status=201)

    def _thread_payload(
        self, thread_id: int, kind: int, guild: str, parent: int, body: dict[str, Any]
    ) -> dict[str, Any]:
        """A thread as Discord describes it (a private one says whether its members may invite others)."""
        return {
            "id": str(thread_id),
            "type": kind,
            "guild_id": guild,
            "parent_id": str(parent),
            "name": body.get("name", ""),
            "owner_id": str(self.app_id),
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": now_iso(),
                "locked": False,
                **({"invitable": bool(body.get("invitable", True))} if kind == PRIVATE_THREAD else {}),
            },
            "flags": 0,
        }

    async def _thread_alone(self, request: web.Request) -> web.Response:
        """A thread started without a message: public (11) or private (12), as Discord makes them. A private one
        is seen only by its members (the bot that made it, and those it adds) and the server's moderators."""
        parent = int(request.match_info["channel"])
        body = await self._body(request)
        if parent not in self.channels or self.channels[parent]["type"] != 0:
            return reply(UNKNOWN_CHANNEL, status=404)
        kind = int(body.get("type", PRIVATE_THREAD))
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else 1 << 35
        if self.threads_forbidden or self.permissions_withheld & needed:
            return reply(MISSING_PERMISSIONS, status=403)
        thread_id = snowflake()
        thread = self._thread_payload(thread_id, kind, self.channels[parent]["guild_id"], parent, body)
        self.channels[thread_id] = thread
        if kind == PRIVATE_THREAD:
            self.thread_members[thread_id] = {self.app_id}
        return reply(thread, status=201)

    async def _thread_member(self, request: web.Request) -> web.Response:
        """Someone added to a thread (a private one's members are who may see it)."""
        thread_id = int(request.match_info["channel"])
        thread = self.channels.get(thread_id)
        if thread is None or thread["type"] not in (PUBLIC_THREAD, PRIVATE_THREAD):
            return reply(UNKNOWN_CHANNEL, status=404)
        if self.permissions_withheld & SEND_MESSAGES_IN_THREADS:  # Discord asks for it to add someone
            return reply(MISSING_PERMISSIONS, status=403)
        self.thread_members.setdefault(thread_id, {self.app_id}).add(int(request.match_info["user"]))
        return web.Response(status=204)

    def sees(self, user_id: int, message: Message) -> bool:
        """Whether a person who is no moderator may read ``message``: an ephemeral one is its reader's alone; a
        private thread's, its members' alone; anything else in the server's channels, everyone's."""
        if message.ephemeral_for is not None:
            return message.ephemeral_for == user_id
        channel = self.channels.get(message.channel_id, {})
        if channel.get("type") == PRIVATE_THREAD:
            return user_id in self.thread_members.get(message.channel_id, set())
        return True

    # ------------------------------------------------------------------ acting as people

    def _channel_payload(self, channel_id: int) -> dict[str, Any]:
        return dict(self.channels[channel_id])

    async def new_channel(self, channel_id: int, name: str) -> int:
        """A text channel made in the server while the bot is connected (Discord tells it: CHANNEL_CREATE)."""
        self.channels[channel_id] = {**self.channels[self.channel_id], "id": str(channel_id), "name": name}
        await self._dispatch("CHANNEL_CREATE", self.channels[channel_id])
        return channel_id

    def another_server(self, guild_id: int, channel_id: int) -> int:
        """A text channel of another server the bot is in (a click there carries that server's id)."""
        self.channels[channel_id] = {**self.channels[self.channel_id], "id": str(channel_id), "guild_id": str(guild_id)}
        return channel_id

    def new_interaction(
        self, user: User, kind: int = 2, channel_id: int | None = None, message: Message | None = None
    ) -> Interaction:
        """An interaction Discord has just created (its 3 seconds and 15 minutes start now), not yet sent."""
        channel = channel_id or self.channel_id
        interaction = Interaction(snowflake(), f"token-{snowflake()}", user, kind, channel, message)
        interaction.answered = asyncio.get_running_loop().create_future()
        self.interactions[interaction.id] = interaction
        self.by_token[interaction.token] = interaction
        self.rules.created(interaction.token)
        return interaction

    async def _send_interaction(
        self,
        user: User,
        kind: int,
        data: dict[str, Any],
        channel_id: int,
        message: Message | None = None,
        timeout: float = ANSWER_WITHIN,
    ) -> Interaction:
        interaction = self.new_interaction(user, kind, channel_id, message)
        interaction.what = str(data.get("name") or data.get("custom_id") or "")
        guild_id = int(self.channels[channel_id].get("guild_id") or self.guild_id)  # a thread's, or its server's
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild_id),
            "channel_id": str(channel_id),
            "channel": self._channel_payload(channel_id),
            "member": user.member(guild_id),
            "token": interaction.token,
            "version": 1,
            "locale": user.locale,
            "guild_locale": "en-US",
            "app_permissions": str(
                int(BOT_PERMISSIONS) & ~self.permissions_withheld & ~(ATTACH_FILES if self.attachments_forbidden else 0)
            ),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.payload(self.bot_user)
        shard = self.shard_of(guild_id) if self.route_to is None else self.route_to
        assert interaction.answered is not None
        await self._dispatch("INTERACTION_CREATE", payload, shard=shard)
        try:
            await asyncio.wait_for(asyncio.shield(interaction.answered), timeout)
        except TimeoutError:
            self.problems.append(f"interaction {data.get('name') or data.get('custom_id')} was never answered")
            raise AssertionError(f"This interaction failed: no answer to {data} within {timeout} s") from None
        if interaction.answered.result() in (5, 6):  # deferred: the person waits for what follows
            try:
                await self.wait_for(lambda: interaction.followed_up, FOLLOW_UP_WITHIN)
            except AssertionError:
                what = data.get("name") or data.get("custom_id")
                self.problems.append(f"interaction {what} was deferred and never followed up")
                raise AssertionError(f"{what}: deferred, and not followed up within {FOLLOW_UP_WITHIN} s") from None
        return interaction

    async def command(
        self, who: User, name: str, sub: str | None = None, channel_id: int | None = None, **options: Any
    ) -> Interaction:
        """``/name [sub] option:value …`` as ``who`` (a User as a value is a user option; a channel option's
        value is the channel's id)."""
        command = next(c for c in self.commands if c["name"] == name)
        resolved: dict[str, dict[str, Any]] = {"users": {}, "members": {}}
        opts = []
        for key, value in options.items():
            if isinstance(value, User):  # a user option: Discord sends the id and the user in "resolved"
                resolved["users"][str(value.id)] = value.payload()
                resolved["members"][str(value.id)] = {
                    k: v for k, v in value.member(self.guild_id).items() if k != "user"
                }
                value = str(value.id)
            kind = self._option_type(command, sub, key)
            if kind == 7:  # a channel option: Discord sends the id and the channel in "resolved"
                channel = self.channels[int(value)]
                hidden = who.id in self.hidden_from.get(int(value), set())
                resolved.setdefault("channels", {})[str(value)] = {
                    **{k: channel[k] for k in ("id", "type", "name", "parent_id", "nsfw", "position")},
                    "permissions": "0" if hidden else who.member(self.guild_id)["permissions"],
                }
                value = str(value)
            if kind == 8:  # a role option: the role in "resolved"
                resolved.setdefault("roles", {})[str(value)] = self.role_payload(int(value))
                value = str(value)
            opts.append({"name": key, "type": kind, "value": value})
        data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        if resolved["users"] or resolved.get("channels") or resolved.get("roles"):
            data["resolved"] = {key: found for key, found in resolved.items() if found}
        return await self._send_interaction(who, 2, data, channel_id or self.channel_id)

    async def autocomplete(
        self, who: User, name: str, sub: str | None, focused: str, typed: str = "", **options: Any
    ) -> list[dict[str, Any]]:
        """``who`` typing ``typed`` into option ``focused`` of ``/name [sub]`` (the others as ``options``): the
        choices the bot offers (Discord sends what is typed so far as a string, whatever the option's type)."""
        command = next(c for c in self.commands if c["name"] == name)
        kind = functools.partial(self._option_type, command, sub)
        opts: list[dict[str, Any]] = [{"name": key, "type": kind(key), "value": v} for key, v in options.items()]
        opts.append({"name": focused, "type": kind(focused), "value": typed, "focused": True})
        data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        interaction = await self._send_interaction(who, 4, data, self.channel_id)
        assert interaction.choices is not None, "the autocomplete was answered with no choices"
        return interaction.choices

    def role_payload(self, role_id: int) -> dict[str, Any]:
        """A role of the server (any id a test names is one, below the bot's own role; ``role_changes`` alters
        one: its permissions, its position)."""
        if role_id == ORGANISERS:
            changes: dict[str, Any] = {"position": 10, "permissions": str(MANAGE_GUILD | MANAGE_ROLES)}
        elif role_id == BOT_ROLE:
            changes = {"position": 20, "permissions": BOT_PERMISSIONS, "managed": True}
        else:
            changes = self.role_changes.get(role_id, {})
        return {
            "id": str(role_id),
            "name": f"role-{role_id % 1000}",
            "color": 0,
            "hoist": False,
            "position": 1,
            "permissions": "0",
            "managed": False,
            "mentionable": False,
            "flags": 0,
        } | changes

    @staticmethod
    def _option_type(command: dict[str, Any], sub: str | None, name: str) -> int:
        options = command.get("options", [])
        if sub:
            options = next(o for o in options if o["name"] == sub).get("options", [])
        return int(next(o for o in options if o["name"] == name)["type"])

    async def click(self, user: User, message: Message, custom_id: str) -> Interaction:
        control = next((c for c in message.controls() if c.get("custom_id") == custom_id), None)
        if control is None:
            raise AssertionError(f"{custom_id} is not on that message: Discord would not send the click")
        if control.get("disabled"):
            raise AssertionError(f"{custom_id} is disabled: a person cannot click it")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(user, 3, data, message.channel_id, message)

    async def choose(self, user: User, message: Message, custom_id: str, values: list[str]) -> Interaction:
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return await self._send_interaction(user, 3, data, message.channel_id, message)

    def plant(self, custom_ids: list[str], channel_id: int | None = None) -> Message:
        """A public message with buttons the running bot did not make (an old build's, or forged)."""
        buttons = [{"type": 2, "style": 1, "label": cid[:80], "custom_id": cid} for cid in custom_ids]
        body = {
            "content": "an old message",
            "components": [{"type": 1, "components": buttons[i : i + 5]} for i in range(0, len(buttons), 5)],
        }
        return self._new_message(channel_id or self.channel_id, body)

    def plant_select(self, custom_id: str, values: list[str], channel_id: int | None = None) -> Message:
        """A public message with a select the running bot did not make, offering ``values`` (forged)."""
        options = [{"label": value[:100] or "-", "value": value} for value in values]
        select = {"type": 3, "custom_id": custom_id, "options": options, "min_values": 1, "max_values": 1}
        body = {"content": "an old message", "components": [{"type": 1, "components": [select]}]}
        return self._new_message(channel_id or self.channel_id, body)

    # ------------------------------------------------------------------ what people see

    def public_messages(self) -> list[Message]:
        return [m for m in self.messages.values() if m.ephemeral_for is None]

    def ephemerals(self, user: User) -> list[Message]:
        return [m for m in self.messages.values() if m.ephemeral_for == user.id]

    def latest_ephemeral(self, user: User) -> Message | None:
        mine = self.ephemerals(user)
        return mine[-1] if mine else None

    async def wait_for(self, check: Any, timeout: float = 10.0, what: str = "") -> Any:
        """Wait until ``check()`` returns something truthy (re-checked after every request the bot makes).

        ``timeout`` only matters when the bot never does it: keep it generous (a loaded machine is slow);
        ``what`` says what was awaited, for the failure."""
        deadline = time.monotonic() + timeout
        while True:
            result = check()
            if result:
                return result
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for the bot{': ' + what if what else ''} ({timeout} s)")
            async with self.changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), min(left, 0.25))
