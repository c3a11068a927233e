"""Discord's Scheduled Events, for the double: the routes the bot calls and the gateway events it hears.

- ``POST /guilds/{guild_id}/scheduled-events`` creates one (the bot needs Create Events: without it, 403
  Missing Permissions, as Discord answers); an EXTERNAL event (entity type 3) needs its location and its end,
  a start in the past is refused (400), as Discord does;
- ``GET /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}`` and ``.../users`` (the people who
  marked themselves interested, up to ``limit`` of them, after ``after``);
- ``PATCH /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}`` edits one: the bot may edit the
  events it created (with Create Events; 403 without it, or for another's event: it has no Manage Events),
  and a status only as Discord lets it change (scheduled to active or cancelled, active to completed; 400
  otherwise), heard as GUILD_SCHEDULED_EVENT_UPDATE; ``DELETE`` of the same, its own events only (204);
- a bot that IDENTIFYs with the GUILD_SCHEDULED_EVENTS intent (1 << 16) hears GUILD_SCHEDULED_EVENT_CREATE,
  _UPDATE, _DELETE and _USER_ADD, and finds its server's events in GUILD_CREATE (as discord.py caches them);
- a test acts as people in Discord's own interface: ``interested(event, user)``, ``edit(event, ...)``,
  ``cancel(event)``, ``delete(event)``.
"""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import web

if TYPE_CHECKING:
    from .server import DiscordDouble, User

API = "/api/v10"
CREATE_EVENTS = 1 << 44  # what creating a scheduled event takes since 2026-02-23 (Manage Events alone does not)
SCHEDULED_EVENTS_INTENT = 1 << 16
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
EXTERNAL = 3
AUDIT_REASON_MAX = 512
TRANSITIONS = {(SCHEDULED, ACTIVE), (ACTIVE, COMPLETED), (SCHEDULED, CANCELED)}  # the only ones Discord allows
_ids = itertools.count(1_400_000_000_000_000_000)


def _reply(data: Any, status: int = 200) -> web.Response:
    """JSON exactly as Discord sends it: discord.py checks for a bare ``application/json``."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _when(text: str) -> datetime:
    found = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return found if found.tzinfo else found.replace(tzinfo=UTC)


class ScheduledEventsDouble:
    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.events: dict[int, dict[str, Any]] = {}
        self.interested_users: dict[int, list[User]] = {}
        self.created: list[dict[str, Any]] = []  # every event the bot created, as created
        self.edits: list[tuple[int, dict[str, Any], str | None]] = []  # the bot's edits: event, body, audit reason
        self.deleted: list[dict[str, Any]] = []  # the events the bot deleted

    def routes(self, router: web.UrlDispatcher) -> None:
        router.add_post(API + "/guilds/{guild}/scheduled-events", self._create)
        router.add_get(API + "/guilds/{guild}/scheduled-events/{event}", self._get)
        router.add_get(API + "/guilds/{guild}/scheduled-events/{event}/users", self._users)
        router.add_patch(API + "/guilds/{guild}/scheduled-events/{event}", self._edit)
        router.add_delete(API + "/guilds/{guild}/scheduled-events/{event}", self._delete)

    # ------------------------------------------------------------------ the bot's calls

    async def _create(self, request: web.Request) -> web.Response:
        double = self.double
        guild_id = int(request.match_info["guild"])
        if guild_id not in double.guild_ids:
            return _reply({"message": "Unknown Guild", "code": 10004}, status=404)
        if double.permissions_withheld & CREATE_EVENTS:
            return _reply({"message": "Missing Permissions", "code": 50013}, status=403)
        body = await double._body(request)
        start = _when(body["scheduled_start_time"])
        errors = []
        if start <= datetime.fromtimestamp(double.clock.wall(), UTC):
            errors.append("scheduled_start_time: Cannot schedule event in the past.")
        if body.get("entity_type") == EXTERNAL and (
            not (body.get("entity_metadata") or {}).get("location") or not body.get("scheduled_end_time")
        ):
            errors.append("entity_metadata: an external event needs a location and an end time")
        if errors:
            return _reply({"message": "Invalid Form Body", "code": 50035, "errors": errors}, status=400)
        event_id = next(_ids)
        event = {
            "id": str(event_id),
            "guild_id": str(guild_id),
            "channel_id": body.get("channel_id"),
            "creator_id": str(double.app_id),
            "creator": double.bot_user,
            "name": body["name"],
            "description": body.get("description"),
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": body.get("scheduled_end_time"),
            "privacy_level": body.get("privacy_level", 2),
            "status": SCHEDULED,
            "entity_type": body.get("entity_type"),
            "entity_id": None,
            "entity_metadata": body.get("entity_metadata"),
            "user_count": 0,
            "image": None,
        }
        self.events[event_id] = event
        self.interested_users[event_id] = []
        self.created.append(dict(event))
        await self._tell("GUILD_SCHEDULED_EVENT_CREATE", event, guild_id)
        return _reply(event)

    async def _get(self, request: web.Request) -> web.Response:
        event = self.events.get(int(request.match_info["event"]))
        if event is None or event["guild_id"] != request.match_info["guild"]:
            return _reply({"message": "Unknown Guild Scheduled Event", "code": 10070}, status=404)
        return _reply(event)

    async def _edit(self, request: web.Request) -> web.Response:
        double = self.double
        event = self.events.get(int(request.match_info["event"]))
        if event is None or event["guild_id"] != request.match_info["guild"]:
            return _reply({"message": "Unknown Guild Scheduled Event", "code": 10070}, status=404)
        if event["creator_id"] != str(double.app_id) or double.permissions_withheld & CREATE_EVENTS:
            return _reply({"message": "Missing Permissions", "code": 50013}, status=403)
        body = await double._body(request)
        if "status" in body and (event["status"], body["status"]) not in TRANSITIONS:
            errors = [f"status: a {event['status']} event cannot become {body['status']}"]
            return _reply({"message": "Invalid Form Body", "code": 50035, "errors": errors}, status=400)
        for key in ("name", "description", "scheduled_start_time", "scheduled_end_time", "status"):
            if key in body:
                event[key] = body[key]
        header = request.headers.get("X-Audit-Log-Reason")
        reason = None if header is None else unquote(header)
        if reason is not None and len(reason) > AUDIT_REASON_MAX:
            self.double.problems.append(f"an audit-log reason of {len(reason)} characters (Discord takes 512)")
        self.edits.append((int(event["id"]), dict(body), reason))
        await self._tell("GUILD_SCHEDULED_EVENT_UPDATE", event, int(event["guild_id"]))
        return _reply(event)

    async def _delete(self, request: web.Request) -> web.Response:
        event = self.events.get(int(request.match_info["event"]))
        if event is None or event["guild_id"] != request.match_info["guild"]:
            return _reply({"message": "Unknown Guild Scheduled Event", "code": 10070}, status=404)
        if event["creator_id"] != str(self.double.app_id) or self.double.permissions_withheld & CREATE_EVENTS:
            return _reply({"message": "Missing Permissions", "code": 50013}, status=403)
        self.deleted.append(dict(event))
        await self.delete(int(event["id"]))
        return web.Response(status=204)

    async def _users(self, request: web.Request) -> web.Response:
        event_id = int(request.match_info["event"])
        if event_id not in self.events or self.events[event_id]["guild_id"] != request.match_info["guild"]:
            return _reply({"message": "Unknown Guild Scheduled Event", "code": 10070}, status=404)
        limit = int(request.query.get("limit", "100"))
        after = int(request.query.get("after", "0"))
        people = sorted((u for u in self.interested_users[event_id] if u.id > after), key=lambda u: u.id)[:limit]
        with_member = request.query.get("with_member") in ("true", "True", "1")
        answer = []
        for user in people:
            row: dict[str, Any] = {"guild_scheduled_event_id": str(event_id), "user": user.payload()}
            if with_member:
                row["member"] = user.member(int(request.match_info["guild"]))
            answer.append(row)
        return _reply(answer)

    # ------------------------------------------------------------------ people in Discord's interface

    async def interested(self, event_id: int, user: User) -> None:
        event = self.events[event_id]
        self.interested_users[event_id].append(user)
        event["user_count"] = len(self.interested_users[event_id])
        data = {"guild_scheduled_event_id": str(event_id), "user_id": str(user.id), "guild_id": event["guild_id"]}
        await self._tell("GUILD_SCHEDULED_EVENT_USER_ADD", data, int(event["guild_id"]))

    async def edit(self, event_id: int, *, start: datetime | None = None, status: int | None = None) -> None:
        event = self.events[event_id]
        if start is not None:
            event["scheduled_start_time"] = start.isoformat()
        if status is not None:
            event["status"] = status
        await self._tell("GUILD_SCHEDULED_EVENT_UPDATE", event, int(event["guild_id"]))

    async def cancel(self, event_id: int) -> None:
        await self.edit(event_id, status=CANCELED)

    async def delete(self, event_id: int) -> None:
        event = self.events.pop(event_id)
        await self._tell("GUILD_SCHEDULED_EVENT_DELETE", event, int(event["guild_id"]))

    def of_guild(self, guild_id: int) -> list[dict[str, Any]]:
        """What GUILD_CREATE carries for a bot with the intent."""
        return [dict(e) for e in self.events.values() if e["guild_id"] == str(guild_id) and e["status"] <= ACTIVE]

    async def _tell(self, name: str, data: dict[str, Any], guild_id: int) -> None:
        shard = self.double.shard_of(guild_id)
        if self.double.intents.get(shard, 0) & SCHEDULED_EVENTS_INTENT:
            await self.double._dispatch(name, data, shard=shard)
