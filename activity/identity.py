"""Who is at the screen, learned from Discord and never from the page (Discord's Activities guides:
"trust nothing the client says about who or where a user is").

The page asks the Discord client to ``authorize`` and hands us the one-time code with the instance id
the client gave it. The server then:

1. exchanges the code for the user's token with the application's secret (``POST /oauth2/token``): a code
   made for another application, used before or expired is refused by Discord;
2. reads the user with that token (``GET /users/@me``);
3. reads the activity instance with the bot's token (``GET /applications/{app}/activity-instances/{id}``):
   it must exist, list the user among its participants, and be in a server's channel, which becomes the
   screen's place: the screen only ever shows that channel's tables;
4. where the user let the Activity read their membership (the ``guilds.members.read`` scope), reads their
   nickname on that server with their token (``GET /users/@me/guilds/{guild}/member``): a player goes by the
   same name on a screen as in the server's chat. Without the scope, or where Discord cannot say now, the
   sign-in goes on with their Discord name.

Each new screen of a session asks again whether the instance still lists its user (:meth:`DiscordSignIn.recheck`),
from an answer at most ``INSTANCE_SECONDS`` old.

These calls come from the bot's own address, which Discord bans for an hour after 10,000 answers of 401, 403
or 429 in ten minutes: so they are paced for everyone together (``SIGN_INS_PER_SECOND``), and once Discord
asks to wait (a 429, or a bucket it says is empty) none is made until the wait is over; meanwhile a sign-in
is refused at once, saying how long to wait.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp

from .limits import Bucket, Clock

log = logging.getLogger(__name__)

DISCORD = "https://discord.com"
TIMEOUT = aiohttp.ClientTimeout(total=10)
TOO_MANY = "activity.too_many_sign_ins"
MEMBER_SCOPE = "guilds.members.read"  # lets the sign-in read the user's nickname on the instance's server
SIGN_INS_PER_SECOND = 1.0  # sign-ins that reach Discord, from everyone together (each is three or four calls)...
SIGN_IN_BURST = 20.0  # ...and at once (a channel's friends opening the Activity together)
INSTANCE_SECONDS = 30.0  # an instance's participants, as Discord last listed them, stand this long
MOST_INSTANCES = 10_000  # instances remembered (the least recently used forgotten past this)
DEFAULT_WAIT = 5.0  # seconds, for a 429 that says none
BAN_WAIT = 600.0  # seconds, for a 429 that is not Discord's JSON (the address banned) and says none
ALL = "*"  # the wait that holds every route: a global limit, or a ban


class SignInRefused(Exception):
    """Discord did not vouch for this sign-in; ``key`` says why, in the catalogues (``activity.*``).
    ``retry_after``: seconds to wait before trying again, where it is only a matter of waiting."""

    def __init__(self, key: str, retry_after: float | None = None) -> None:
        super().__init__(key)
        self.key = key
        self.retry_after = retry_after


@dataclass(frozen=True)
class DiscordUser:
    user_id: int
    name: str
    guild_id: int
    channel_id: int
    access_token: str  # the page authenticates the SDK with it (its scopes: identify, guilds.members.read)
    instance_id: str


@dataclass(frozen=True)
class Instance:
    """An activity instance as Discord listed it."""

    guild_id: int | None
    channel_id: int | None
    users: frozenset[int]


def _snowflake(value: Any) -> int | None:
    text = str(value) if value is not None else ""
    return int(text) if text.isascii() and text.isdigit() and 0 < len(text) <= 20 else None


def _seconds(value: Any) -> float | None:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if 0 <= seconds < 86_400 else None


class Waits:
    """Until when Discord asked us not to call a route (or any: ``ALL``)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._until: dict[str, float] = {}

    def left(self, *routes: str) -> float:
        """Seconds before all of ``routes`` may be called (0.0: now)."""
        until = max((self._until.get(route, 0.0) for route in (*routes, ALL)), default=0.0)
        return max(0.0, until - self.clock())

    def hold(self, route: str, seconds: float) -> None:
        self._until[route] = max(self._until.get(route, 0.0), self.clock() + seconds)

    def heard(self, route: str, headers: Mapping[str, str]) -> None:
        """A bucket Discord says is empty is not called until it fills again: no 429 is needed to learn it."""
        if headers.get("X-RateLimit-Remaining") == "0":
            reset_after = _seconds(headers.get("X-RateLimit-Reset-After"))
            if reset_after:
                self.hold(route, reset_after)


class DiscordSignIn:
    def __init__(
        self,
        client_id: int,
        client_secret: str,
        bot_token: str,
        api_base: str | None = None,
        *,
        clock: Clock = time.monotonic,
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot = bot_token
        self.api = (api_base or DISCORD).rstrip("/") + "/api/v10"
        self._http: aiohttp.ClientSession | None = None
        self.clock = clock
        self.waits = Waits(clock)
        self.pace = Bucket(SIGN_INS_PER_SECOND, SIGN_IN_BURST, clock)
        self._instances: OrderedDict[str, tuple[float, Instance | None]] = OrderedDict()  # None: no such instance
        self._reading: dict[str, asyncio.Future[Instance | None]] = {}
        self._asking: set[asyncio.Future[str | None]] = set()  # instances asked again in the background

    def _client(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def close(self) -> None:
        for asking in self._asking:
            asking.cancel()
        if self._http is not None:
            await self._http.close()

    async def sign_in(self, code: str, instance_id: str) -> DiscordUser:
        # Every route a sign-in needs must be free before its one-time code is spent on the first.
        wait = self.waits.left("token", "user", "instance")
        if wait > 0:
            raise SignInRefused(TOO_MANY, wait)
        if not self.pace.take():
            raise SignInRefused(TOO_MANY, self.pace.wait())
        try:
            token, scopes = await self._exchange(code)
            user_id, name = await self._user(token)
            instance = await self._instance(instance_id, user_id)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise SignInRefused("activity.discord_unreachable") from error
        if instance is None:
            raise SignInRefused("activity.no_instance")
        if user_id not in instance.users:
            raise SignInRefused("activity.not_in_instance")
        if instance.guild_id is None or instance.channel_id is None:  # a direct message has no table
            raise SignInRefused("activity.not_in_server")
        if MEMBER_SCOPE in scopes:
            name = await self._nickname(token, instance.guild_id) or name
        return DiscordUser(user_id, name, instance.guild_id, instance.channel_id, token, instance_id)

    async def recheck(self, instance_id: str, user_id: int, channel_id: int) -> str | None:
        """Why a signed-in user may no longer open a screen (the catalogue's key), or None: the instance still
        lists them, in the same channel. Where Discord cannot be asked now (unreachable, or it asked us to
        wait) the last answer stands, and without one the sign-in does."""
        try:
            instance = await self._instance(instance_id, user_id, recheck=True)
        except (SignInRefused, aiohttp.ClientError, TimeoutError, ValueError) as why:
            log.info("could not check activity instance %s again (%s): the sign-in stands", instance_id, why)
            known = self._instances.get(instance_id)
            if known is None:
                return None
            instance = known[1]
        return _why_not(instance, user_id, channel_id)

    def still_listed(self, instance_id: str, user_id: int, channel_id: int) -> str | None:
        """:meth:`recheck`'s answer from what is known now, without waiting on Discord (asked on every frame of
        an open screen, so a move never waits on Discord, nor on its outage): None where nothing known says no.
        An answer older than ``INSTANCE_SECONDS`` is asked again meanwhile, one read at a time per instance, and
        serves the frames after it."""
        known = self._instances.get(instance_id)
        stale = known is None or self.clock() - known[0] >= INSTANCE_SECONDS
        if stale and instance_id not in self._reading and self.waits.left("instance") <= 0:
            asking = asyncio.ensure_future(self.recheck(instance_id, user_id, channel_id))
            self._asking.add(asking)
            asking.add_done_callback(self._asking.discard)
        return None if known is None else _why_not(known[1], user_id, channel_id)

    async def confirmed(self, instance_id: str, user_id: int, channel_id: int) -> str | None:
        """:meth:`still_listed`'s no, asked of Discord again now rather than taken from an answer kept (which may
        have caught a player's client between two connections): an open screen ends only on Discord's own word.
        Where Discord cannot be asked now (unreachable, or it asked us to wait), the player plays on."""
        if self.waits.left("instance") > 0:
            return None
        reading = self._reading.get(instance_id)
        if reading is None:
            reading = asyncio.ensure_future(self._read_instance(instance_id))
            self._reading[instance_id] = reading
            reading.add_done_callback(lambda done: self._read(instance_id, done))
        try:
            instance = await asyncio.shield(reading)
        except (SignInRefused, aiohttp.ClientError, TimeoutError, ValueError) as why:
            log.info("could not confirm activity instance %s (%s): the screen goes on", instance_id, why)
            return None
        return _why_not(instance, user_id, channel_id)

    async def _heard(self, route: str, reply: aiohttp.ClientResponse) -> None:
        """Note what Discord said of its rate limits; on a 429, hold the route (every route, for a global
        limit or a ban) as long as Discord asked, and refuse this sign-in saying so."""
        self.waits.heard(route, reply.headers)
        if reply.status != 429:
            return
        body: Any = None
        if reply.content_type == "application/json":
            try:
                body = await reply.json()
            except ValueError:
                body = None
        said = [_seconds(reply.headers.get("Retry-After"))]
        if isinstance(body, dict):
            said.append(_seconds(body.get("retry_after")))
        known = [seconds for seconds in said if seconds is not None]
        everything = (
            not isinstance(body, dict)  # not Discord's JSON: Cloudflare's page, the address banned
            or body.get("global") is True
            or reply.headers.get("X-RateLimit-Global", "").lower() == "true"
            or reply.headers.get("X-RateLimit-Scope") == "global"
        )
        wait = max(known) if known else BAN_WAIT if not isinstance(body, dict) else DEFAULT_WAIT
        self.waits.hold(ALL if everything else route, wait)
        log.warning(
            "Discord asked the Activity's sign-in to wait %.1f s (%s): no call until then",
            wait,
            "every route" if everything else route,
        )
        raise SignInRefused(TOO_MANY, wait)

    async def _exchange(self, code: str) -> tuple[str, frozenset[str]]:
        """The user's token, and the scopes they granted it."""
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self._client().post(f"{self.api}/oauth2/token", data=form) as reply:
            await self._heard("token", reply)
            if reply.status == 401:  # the application's id or secret, not the code: the operator must act
                log.error("Discord refused the Activity's client id or secret (ACTIVITY_CLIENT_ID/SECRET)")
            if reply.status in (400, 401):
                raise SignInRefused("activity.bad_code")
            reply.raise_for_status()
            body = await reply.json()
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not token:
            raise SignInRefused("activity.bad_code")
        scope = body.get("scope")
        return token, frozenset(scope.split() if isinstance(scope, str) else ())

    async def _user(self, token: str) -> tuple[int, str]:
        async with self._client().get(f"{self.api}/users/@me", headers={"Authorization": f"Bearer {token}"}) as reply:
            await self._heard("user", reply)
            if reply.status == 401:
                raise SignInRefused("activity.bad_code")
            reply.raise_for_status()
            body = await reply.json()
        user_id = _snowflake(body.get("id")) if isinstance(body, dict) else None
        if user_id is None:
            raise SignInRefused("activity.bad_code")
        name = body.get("global_name") or body.get("username") or str(user_id)
        return user_id, str(name)

    async def _nickname(self, token: str, guild_id: int) -> str | None:
        """The user's nickname on server ``guild_id`` (None: they have none there, or Discord cannot say now,
        or asked to wait: never a reason to refuse the sign-in)."""
        if self.waits.left("member") > 0:
            return None
        address = f"{self.api}/users/@me/guilds/{guild_id}/member"
        try:
            async with self._client().get(address, headers={"Authorization": f"Bearer {token}"}) as reply:
                await self._heard("member", reply)
                if reply.status != 200:
                    log.info("Discord did not give a signed-in user's nickname (%s): their name is used", reply.status)
                    return None
                body = await reply.json()
        except (SignInRefused, aiohttp.ClientError, TimeoutError, ValueError) as why:
            log.info("could not read a signed-in user's nickname (%s): their name is used", why)
            return None
        nick = body.get("nick") if isinstance(body, dict) else None
        return nick if isinstance(nick, str) and nick.strip() else None

    async def _instance(self, instance_id: str, user_id: int, *, recheck: bool = False) -> Instance | None:
        """The instance (None: Discord has none such for this application). A recent answer serves everyone
        who opens the instance meanwhile: anew where it does not list ``user_id`` (they may just have joined),
        except on a recheck, where that answer stands for its time; one read at a time per instance."""
        known = self._instances.get(instance_id)
        if known is not None and self.clock() - known[0] < INSTANCE_SECONDS:
            self._instances.move_to_end(instance_id)
            if recheck or (known[1] is not None and user_id in known[1].users):
                return known[1]
        reading = self._reading.get(instance_id)
        if reading is None:
            wait = self.waits.left("instance")
            if wait > 0:
                raise SignInRefused(TOO_MANY, wait)
            reading = asyncio.ensure_future(self._read_instance(instance_id))
            self._reading[instance_id] = reading
            reading.add_done_callback(lambda done: self._read(instance_id, done))
        return await asyncio.shield(reading)  # a screen that goes meanwhile does not cancel the others' read

    def _read(self, instance_id: str, done: asyncio.Future[Instance | None]) -> None:
        self._reading.pop(instance_id, None)
        if done.cancelled() or done.exception() is not None:  # (retrieved: every waiter may have gone)
            return
        self._instances[instance_id] = (self.clock(), done.result())
        self._instances.move_to_end(instance_id)
        while len(self._instances) > MOST_INSTANCES:
            self._instances.popitem(last=False)

    async def _read_instance(self, instance_id: str) -> Instance | None:
        url = f"{self.api}/applications/{self.client_id}/activity-instances/{instance_id}"
        async with self._client().get(url, headers={"Authorization": f"Bot {self._bot}"}) as reply:
            await self._heard("instance", reply)
            if reply.status == 404:
                return None
            reply.raise_for_status()
            body = await reply.json()
        if not isinstance(body, dict) or _snowflake(body.get("application_id")) != self.client_id:
            return None
        location = body.get("location") or {}
        location = location if isinstance(location, dict) else {}
        users = frozenset(u for u in (_snowflake(u) for u in body.get("users") or []) if u is not None)
        return Instance(_snowflake(location.get("guild_id")), _snowflake(location.get("channel_id")), users)


def _why_not(instance: Instance | None, user_id: int, channel_id: int) -> str | None:
    """Why ``instance`` (None: Discord has none such) no longer lets ``user_id`` play in ``channel_id``."""
    if instance is None:
        return "activity.no_instance"
    if user_id not in instance.users or instance.channel_id != channel_id:
        return "activity.not_in_instance"
    return None
