"""Discord's proxy authentication: a request that came through Discord's proxy, signed by Discord.

The Activity's page is served at ``<application id>.discordsays.com``, which anyone can reach, not only from
inside Discord. Discord can sign every request its proxy passes on (optional, turned on for the application in
the Developer Portal): three headers, ``X-Discord-Proxy-Payload`` (base64 of a JSON payload with the user's
context and its ``created_at`` and ``expires_at``, Unix seconds), ``X-Signature-Timestamp`` (its
``created_at``) and ``X-Signature-Ed25519`` (the payload's Ed25519 signature by Discord, checked with the
application's public key). With ``ACTIVITY_PUBLIC_KEY`` set, the sign-in answers only requests that carry a
valid, unexpired signature (a screen's socket needs the session it gives); any other gets ``401`` and a polite
word in the reader's language, before anything costs a call to Discord or counts against the limits that the
players behind Discord's proxy share. Nothing here trusts the payload's content beyond its times: who the user
is still comes from Discord's OAuth2 sign-in (:mod:`activity.identity`).
"""

from __future__ import annotations

import base64
import binascii
import json
import string
import time
from collections.abc import Callable, Mapping

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

NOT_THROUGH_DISCORD = "activity.not_through_discord"
SIGNATURE = "X-Signature-Ed25519"
TIMESTAMP = "X-Signature-Timestamp"
PAYLOAD = "X-Discord-Proxy-Payload"
MOST_PAYLOAD = 8192  # characters of a payload read (a user's context is a few hundred)
SIGNATURE_BYTES = 64  # an Ed25519 signature
ANYONE = "anyone"  # the signer of a payload Discord signed that names no user (counted by address, as before)


class ProxySignatures:
    """Checks Discord's proxy signature on a request's headers with the application's public key (hex)."""

    def __init__(self, public_key: str, clock: Callable[[], float] = time.time) -> None:
        if len(public_key) != 64 or any(character not in string.hexdigits for character in public_key):
            raise ValueError("an application's public key is 64 hexadecimal characters")
        self._key = VerifyKey(bytes.fromhex(public_key))
        self.clock = clock  # Unix seconds

    def refused(self, headers: Mapping[str, str]) -> str | None:
        """Why the request is not one Discord's proxy signed (for the log; None: it is): a header missing or
        unreadable, its timestamp not its payload's, the payload expired, or the signature not Discord's."""
        return self.check(headers)[0]

    def signer(self, headers: Mapping[str, str]) -> str | None:
        """Whom a request Discord's proxy signed is counted against, for the limits the players behind that proxy
        would otherwise share (they all come from its few addresses): the user its payload names (``user_id``, or
        ``user.id``), else :data:`ANYONE` (counted by its address then: a token minted per request must not be a
        fresh count each time). None: not signed. Only counted by: who the player is still comes from Discord's
        OAuth2 sign-in."""
        return self.check(headers)[1]

    def check(self, headers: Mapping[str, str]) -> tuple[str | None, str | None]:
        """(why the request is not signed, None if it is; whom it is counted against, None if it is not)."""
        signature, timestamp, payload = headers.get(SIGNATURE), headers.get(TIMESTAMP), headers.get(PAYLOAD)
        if signature is None or timestamp is None or payload is None:
            return "no proxy signature", None
        if len(payload) > MOST_PAYLOAD:
            return "a proxy payload too long", None
        try:
            signed = base64.b64decode(payload, validate=True)
            data = json.loads(signed)
        except (binascii.Error, ValueError):  # (a payload not UTF-8 is a ValueError too)
            return "an unreadable proxy payload", None
        created = data.get("created_at") if isinstance(data, dict) else None
        expires = data.get("expires_at") if isinstance(data, dict) else None
        if not isinstance(created, int) or isinstance(created, bool) or created < 0:
            return "a proxy payload without its times", None
        if not isinstance(expires, int) or isinstance(expires, bool):
            return "a proxy payload without its times", None
        if str(created) != timestamp.strip():
            return "a proxy timestamp not its payload's", None
        if expires < int(self.clock()):
            return "an expired proxy payload", None
        raw = _signature(signature.strip())
        if raw is None:
            return "an unreadable proxy signature", None
        try:
            self._key.verify(signed, raw)
        except BadSignatureError:
            return "a proxy signature not Discord's", None
        assert isinstance(data, dict)
        return None, _signer(data)


def _signer(data: dict[str, object]) -> str:
    """The user a signed payload names (a snowflake, as ``user_id`` or ``user.id``), else :data:`ANYONE`."""
    user = data.get("user")
    for named in (data.get("user_id"), user.get("id") if isinstance(user, dict) else None):
        text = str(named) if isinstance(named, str | int) and not isinstance(named, bool) else ""
        if text.isascii() and text.isdigit() and len(text) < 24:
            return f"user {int(text)}"
    return ANYONE


def _signature(text: str) -> bytes | None:
    """The signature's 64 bytes, written in hex (as Discord's Python example reads it) or base64 (its JavaScript
    example); None if it is neither."""
    for decode in (bytes.fromhex, lambda t: base64.b64decode(t, validate=True)):
        try:
            raw = decode(text)
        except (ValueError, binascii.Error):
            continue
        if len(raw) == SIGNATURE_BYTES:
            return raw
    return None
