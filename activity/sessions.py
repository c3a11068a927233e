"""Who a screen is and where: a session the server made after it learned the user itself.

A session names a user (their id and name, as the server learned them: from Discord with the
user's token, or from the local sign-in) and the place the screen is in (a server and channel, as
Discord's activity instance says, or a local room). The page holds only the session's random key.

A Discord session also keeps its activity instance: each new screen asks Discord again that the instance
still lists the user (:meth:`activity.identity.DiscordSignIn.recheck`), and it lasts ``DISCORD_SECONDS`` at
most (a new sign-in, which the page makes on every load, gives a new one).
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass

from bot.tables.names import readable_name

from .limits import Clock

LOCAL_GUILD = 1  # local tables' server: no Discord server has so small an id (snowflakes are far larger)
LOCAL_USERS = 2**22  # local players' ids are below this: no Discord user's id is
MAX_SESSIONS = 20_000
SESSION_SECONDS = 12 * 3600  # a local session (a person's own machine: no one to ask again)
DISCORD_SECONDS = 4 * 3600  # a Discord session: its user's place in the instance is only as sure as the last check
NAME_MAX = 32


@dataclass(frozen=True)
class Session:
    key: str
    user_id: int
    name: str
    guild_id: int
    channel_id: int
    local: bool
    made: float
    instance_id: str | None = None  # the Discord activity instance it was signed in from (None: local, or none)

    @property
    def lifetime(self) -> float:
        return SESSION_SECONDS if self.local else DISCORD_SECONDS


def clean_name(name: str) -> str:
    """A display name as the service keeps it (:func:`bot.tables.readable_name`), cut to ``NAME_MAX``."""
    return readable_name(name)[:NAME_MAX]


def same_name(name: str) -> str:
    """A name as it identifies a local player: ``Ａｌｉｃｅ`` and ``alice`` are one."""
    return unicodedata.normalize("NFKC", clean_name(name)).casefold()


class Sessions:
    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._by_key: OrderedDict[str, Session] = OrderedDict()
        # local player id -> the name (as ``same_name``) its sessions hold it under, and how many sessions: kept
        # with the sessions, so a local sign-in finds a free id without reading every session
        self._local: dict[int, tuple[str, int]] = {}
        self._local_ids: dict[str, int] = {}  # and back: a held name's id
        self.clock = clock

    def make(
        self,
        user_id: int,
        name: str,
        guild_id: int,
        channel_id: int,
        *,
        local: bool,
        instance_id: str | None = None,
    ) -> Session:
        key = secrets.token_urlsafe(24)
        session = Session(key, user_id, name, guild_id, channel_id, local, self.clock(), instance_id)
        self._by_key[session.key] = session
        if local:
            held = self._local.get(user_id)
            if held is None:
                self._local[user_id] = (same_name(name), 1)
                self._local_ids[same_name(name)] = user_id
            else:
                self._local[user_id] = (held[0], held[1] + 1)
        while len(self._by_key) > MAX_SESSIONS:
            self._forget(self._by_key.popitem(last=False)[1])
        return session

    def _forget(self, session: Session) -> None:
        """A session is gone: its local id is free once no other session holds it."""
        held = self._local.get(session.user_id) if session.local else None
        if held is None:
            return
        if held[1] <= 1:
            del self._local[session.user_id]
            self._local_ids.pop(held[0], None)
        else:
            self._local[session.user_id] = (held[0], held[1] - 1)

    def get(self, key: str) -> Session | None:
        session = self._by_key.get(key)
        if session is None:
            return None
        if self.clock() - session.made > session.lifetime:
            del self._by_key[key]
            self._forget(session)
            return None
        return session

    def drop(self, key: str) -> None:
        """Forget a session (Discord no longer lists its user in its instance): its screens must sign in again."""
        session = self._by_key.pop(key, None)
        if session is not None:
            self._forget(session)

    def local_user_id(self, name: str) -> int:
        """A local player's id, from their name: signing in again with the same name (a tab closed and opened
        again, the table restarted) is the same player, back in their seat; the same name in two tabs is one
        player (even where the id the name hashes to was taken when they first came, and is free now). Another
        name never takes the id of a session held under a different one."""
        key = same_name(name)
        if key in self._local_ids:  # held: their id, wherever it was found (not always where the name hashes)
            return self._local_ids[key]
        digest = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
        user_id = digest % (LOCAL_USERS - 1) + 1
        while self._local.get(user_id, (key, 0))[0] != key:
            user_id = user_id % (LOCAL_USERS - 1) + 1
        return user_id
