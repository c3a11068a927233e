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
        while len(self._by_key) > MAX_SESSIONS:
            self._by_key.popitem(last=False)
        return session

    def get(self, key: str) -> Session | None:
        session = self._by_key.get(key)
        if session is None:
            return None
        if self.clock() - session.made > session.lifetime:
            del self._by_key[key]
            return None
        return session

    def drop(self, key: str) -> None:
        """Forget a session (Discord no longer lists its user in its instance): its screens must sign in again."""
        self._by_key.pop(key, None)

    def local_user_id(self, name: str) -> int:
        """A local player's id, from their name: signing in again with the same name (a tab closed and opened
        again, the table restarted) is the same player, back in their seat; the same name in two tabs is one
        player. Another name never takes the id of a session held under a different one."""
        key = same_name(name)
        digest = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
        held = {s.user_id: same_name(s.name) for s in self._by_key.values() if s.local}
        user_id = digest % (LOCAL_USERS - 1) + 1
        while held.get(user_id, key) != key:
            user_id = user_id % (LOCAL_USERS - 1) + 1
        return user_id
