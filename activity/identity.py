"""Who is at the screen, learned from Discord and never from the page (Discord's Activities guides:
"trust nothing the client says about who or where a user is").

The page asks the Discord client to ``authorize`` and hands us the one-time code with the instance id
the client gave it. The server then:

1. exchanges the code for the user's token with the application's secret (``POST /oauth2/token``): a code
   made for another application, used before or expired is refused by Discord;
2. reads the user with that token (``GET /users/@me``);
3. reads the activity instance with the bot's token (``GET /applications/{app}/activity-instances/{id}``):
   it must exist, list the user among its participants, and be in a server's channel, which becomes the
   screen's place: the screen only ever shows that channel's tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp

DISCORD = "https://discord.com"
TIMEOUT = aiohttp.ClientTimeout(total=10)


class SignInRefused(Exception):
    """Discord did not vouch for this sign-in; ``key`` says why, in the catalogues (``activity.*``)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class DiscordUser:
    user_id: int
    name: str
    guild_id: int
    channel_id: int
    access_token: str  # the page authenticates the SDK with it (its scope: identify)


def _snowflake(value: Any) -> int | None:
    text = str(value) if value is not None else ""
    return int(text) if text.isascii() and text.isdigit() and 0 < len(text) <= 20 else None


class DiscordSignIn:
    def __init__(self, client_id: int, client_secret: str, bot_token: str, api_base: str | None = None) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot = bot_token
        self.api = (api_base or DISCORD).rstrip("/") + "/api/v10"
        self._http: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def sign_in(self, code: str, instance_id: str) -> DiscordUser:
        try:
            token = await self._exchange(code)
            user = await self._user(token)
            return await self._place(token, user, instance_id)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise SignInRefused("activity.discord_unreachable") from error

    async def _exchange(self, code: str) -> str:
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self._client().post(f"{self.api}/oauth2/token", data=form) as reply:
            if reply.status in (400, 401):
                raise SignInRefused("activity.bad_code")
            reply.raise_for_status()
            body = await reply.json()
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not token:
            raise SignInRefused("activity.bad_code")
        return token

    async def _user(self, token: str) -> tuple[int, str]:
        async with self._client().get(f"{self.api}/users/@me", headers={"Authorization": f"Bearer {token}"}) as reply:
            if reply.status == 401:
                raise SignInRefused("activity.bad_code")
            reply.raise_for_status()
            body = await reply.json()
        user_id = _snowflake(body.get("id")) if isinstance(body, dict) else None
        if user_id is None:
            raise SignInRefused("activity.bad_code")
        name = body.get("global_name") or body.get("username") or str(user_id)
        return user_id, str(name)

    async def _place(self, token: str, user: tuple[int, str], instance_id: str) -> DiscordUser:
        url = f"{self.api}/applications/{self.client_id}/activity-instances/{instance_id}"
        async with self._client().get(url, headers={"Authorization": f"Bot {self._bot}"}) as reply:
            if reply.status == 404:
                raise SignInRefused("activity.no_instance")
            reply.raise_for_status()
            body = await reply.json()
        if not isinstance(body, dict) or _snowflake(body.get("application_id")) != self.client_id:
            raise SignInRefused("activity.no_instance")
        users = {_snowflake(u) for u in body.get("users") or []}
        if user[0] not in users:
            raise SignInRefused("activity.not_in_instance")
        location = body.get("location") or {}
        guild_id, channel_id = _snowflake(location.get("guild_id")), _snowflake(location.get("channel_id"))
        if guild_id is None or channel_id is None:  # a direct message has no table
            raise SignInRefused("activity.not_in_server")
        return DiscordUser(user[0], user[1], guild_id, channel_id, token)
