"""Discord's side of an Activity, for the double: OAuth2 codes and tokens, users by token, activity instances.

- ``authorize(user)`` is what the Discord client's ``authorize`` gives the page: a code for this application
  and user, good once and for ``CODE_SECONDS``; ``POST /oauth2/token`` exchanges it with the application's
  secret (a wrong secret, another application's code, a used or expired code: ``400 invalid_grant``);
- ``GET /users/@me`` with ``Bearer <token>`` is that user; ``GET /users/@me/guilds/{guild}/member`` their
  membership of a server the double knows (their ``nick`` there), where the code granted
  ``guilds.members.read`` (else ``403 Missing Access``);
- ``GET /applications/{app}/activity-instances/{id}`` (the bot's token) is an instance: where it runs and who
  is in it; ``launch(...)`` makes one, and so does a ``LAUNCH_ACTIVITY`` answer (callback type 12).
"""

from __future__ import annotations

import itertools
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from .server import DiscordDouble, Interaction, User

API = "/api/v10"
CODE_SECONDS = 600.0
SECRET = "double-client-secret"
OTHER_APP = 920_000_000_000_000_001  # another application, with its own secret
OTHER_SECRET = "other-client-secret"
SCOPES = ("identify", "guilds.members.read")  # what the page asks for
_launches = itertools.count(1_300_000_000_000_000_000)


def _reply(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status)


@dataclass
class Code:
    app_id: int
    user: User
    made: float
    used: bool = False
    scopes: tuple[str, ...] = SCOPES


@dataclass
class Instance:
    instance_id: str
    guild_id: int | None
    channel_id: int
    users: list[int] = field(default_factory=list)
    app_id: int = 0


class ActivityDouble:
    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.secrets = {double.app_id: SECRET, OTHER_APP: OTHER_SECRET}
        self.codes: dict[str, Code] = {}
        self.tokens: dict[str, tuple[int, User, tuple[str, ...]]] = {}  # access token → (application, user, scopes)
        self.instances: dict[str, Instance] = {}
        self.exchanges = 0  # token exchanges asked for
        self.instance_reads = 0  # activity instances read
        self.member_reads = 0  # a user's own membership of a server read with their token
        self.launched: list[Instance] = []  # instances made by LAUNCH_ACTIVITY answers

    def routes(self, router: web.UrlDispatcher) -> None:
        router.add_post(API + "/oauth2/token", self._token)
        router.add_get(API + "/applications/{app}/activity-instances/{instance}", self._instance)
        router.add_get(API + "/users/@me/guilds/{guild}/member", self._member)

    # ------------------------------------------------------------------ what a test does as Discord's client

    def authorize(
        self, user: User, app_id: int | None = None, *, made: float | None = None, scopes: tuple[str, ...] = SCOPES
    ) -> str:
        """The code the client's ``authorize`` gives, for the ``scopes`` the user granted."""
        code = secrets.token_urlsafe(16)
        when = time.monotonic() if made is None else made
        self.codes[code] = Code(app_id or self.double.app_id, user, when, scopes=scopes)
        return code

    def launch(
        self,
        users: list[User],
        channel_id: int,
        guild_id: int | None,
        app_id: int | None = None,
        instance_id: str | None = None,
    ) -> str:
        instance = Instance(
            instance_id or f"i-{next(_launches)}-gc-{guild_id}-{channel_id}",
            guild_id,
            channel_id,
            [u.id for u in users],
            app_id or self.double.app_id,
        )
        self.instances[instance.instance_id] = instance
        return instance.instance_id

    def on_launch(self, interaction: Interaction) -> None:
        """The bot answered an interaction with LAUNCH_ACTIVITY: the user is now in the channel's instance."""
        channel = interaction.channel_id
        guild_id = int(self.double.channels.get(channel, {}).get("guild_id") or self.double.guild_id)
        here = next((i for i in self.instances.values() if i.channel_id == channel), None)
        if here is None:
            here = self.instances[self.launch([interaction.user], channel, guild_id)]
        elif interaction.user.id not in here.users:
            here.users.append(interaction.user.id)
        self.launched.append(here)

    # ------------------------------------------------------------------ the routes

    async def _token(self, request: web.Request) -> web.Response:
        self.exchanges += 1
        form = await request.post()
        invalid = _reply({"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}, 400)
        try:
            app_id = int(str(form.get("client_id", "")))
        except ValueError:
            return _reply({"error": "invalid_client"}, 401)
        if self.secrets.get(app_id) != form.get("client_secret"):
            return _reply({"error": "invalid_client"}, 401)
        if form.get("grant_type") != "authorization_code":
            return _reply({"error": "unsupported_grant_type"}, 400)
        code = self.codes.get(str(form.get("code", "")))
        if code is None or code.used or code.app_id != app_id or time.monotonic() - code.made > CODE_SECONDS:
            return invalid
        code.used = True
        token = secrets.token_urlsafe(24)
        self.tokens[token] = (app_id, code.user, code.scopes)
        return _reply(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": "r",
                "scope": " ".join(code.scopes),
            }
        )

    async def user_of(self, request: web.Request) -> web.Response:
        """``GET /users/@me`` with a user's Bearer token (the bot's own token is the server's)."""
        header = request.headers.get("Authorization", "")
        held = self.tokens.get(header.removeprefix("Bearer "))
        if held is None:
            return _reply({"message": "401: Unauthorized", "code": 0}, 401)
        user = held[1]
        return _reply(
            {"id": str(user.id), "username": user.name.lower(), "global_name": user.name, "discriminator": "0"}
        )

    async def _member(self, request: web.Request) -> web.Response:
        """``GET /users/@me/guilds/{guild}/member`` with a user's Bearer token: their membership of that server."""
        self.member_reads += 1
        held = self.tokens.get(request.headers.get("Authorization", "").removeprefix("Bearer "))
        if held is None:
            return _reply({"message": "401: Unauthorized", "code": 0}, 401)
        if "guilds.members.read" not in held[2]:
            return _reply({"message": "Missing Access", "code": 50001}, 403)
        guild = request.match_info["guild"]
        known = {str(self.double.guild_id)} | {str(c.get("guild_id")) for c in self.double.channels.values()}
        if guild not in known:
            return _reply({"message": "Unknown Guild", "code": 10004}, 404)
        return _reply(held[1].member(int(guild)))

    async def _instance(self, request: web.Request) -> web.Response:
        self.instance_reads += 1
        if request.headers.get("Authorization") != "Bot double-token":
            return _reply({"message": "401: Unauthorized", "code": 0}, 401)
        app_id = int(request.match_info["app"])
        instance = self.instances.get(request.match_info["instance"])
        if instance is None or instance.app_id != app_id or app_id != self.double.app_id:
            return _reply({"message": "Unknown Application Activity Instance", "code": 10096}, 404)
        location = {
            "id": f"gc-{instance.guild_id}-{instance.channel_id}",
            "kind": "gc" if instance.guild_id else "pc",
            "channel_id": str(instance.channel_id),
            "guild_id": str(instance.guild_id) if instance.guild_id else None,
        }
        return _reply(
            {
                "application_id": str(instance.app_id),
                "instance_id": instance.instance_id,
                "launch_id": str(next(_launches)),
                "location": location,
                "users": [str(u) for u in instance.users],
            }
        )
