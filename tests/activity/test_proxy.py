"""Discord's proxy signature (activity/proxy.py): a request Discord's proxy passed on, signed with the key whose
public half the application's page in the Developer Portal shows, is told from any other."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from nacl.signing import SigningKey

from activity.proxy import PAYLOAD, SIGNATURE, TIMESTAMP, ProxySignatures

NOW = 1_800_000_000
DISCORD = SigningKey(bytes(range(32)))  # Discord's key, as far as these tests go
SOMEONE = SigningKey(bytes(range(1, 33)))


def signed(
    key: SigningKey = DISCORD, created: Any = NOW - 5, expires: Any = NOW + 300, *, encoding: str = "hex", **extra: Any
) -> dict[str, str]:
    """The three headers Discord's proxy adds to a request: the payload (its user's context and its times), its
    timestamp, and its Ed25519 signature."""
    payload = json.dumps({"user_id": "1000", "created_at": created, "expires_at": expires, **extra}).encode()
    signature = key.sign(payload).signature
    written = signature.hex() if encoding == "hex" else base64.b64encode(signature).decode()
    return {PAYLOAD: base64.b64encode(payload).decode(), TIMESTAMP: str(created), SIGNATURE: written}


def signatures() -> ProxySignatures:
    return ProxySignatures(DISCORD.verify_key.encode().hex(), clock=lambda: float(NOW))


def test_a_request_discords_proxy_signed_is_one() -> None:
    check = signatures()
    assert check.refused(signed()) is None
    assert check.refused(signed(encoding="base64")) is None  # (Discord's JavaScript example writes it so)
    assert check.refused(signed(expires=NOW)) is None  # good to its last second


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({}, "no proxy signature"),
        ({k: v for k, v in signed().items() if k != SIGNATURE}, "no proxy signature"),
        (signed(SOMEONE), "a proxy signature not Discord's"),
        (signed(expires=NOW - 1), "an expired proxy payload"),
        ({**signed(), TIMESTAMP: str(NOW)}, "a proxy timestamp not its payload's"),
        ({**signed(), PAYLOAD: "not base64!"}, "an unreadable proxy payload"),
        ({**signed(), PAYLOAD: base64.b64encode(b"\xff\xfe").decode()}, "an unreadable proxy payload"),
        ({**signed(), PAYLOAD: base64.b64encode(b"[1, 2]").decode()}, "a proxy payload without its times"),
        (signed(created=True), "a proxy payload without its times"),
        (signed(expires="soon"), "a proxy payload without its times"),
        ({**signed(), SIGNATURE: "ab" * 10}, "an unreadable proxy signature"),
        ({**signed(), PAYLOAD: "A" * 9000}, "a proxy payload too long"),
    ],
)
def test_any_other_request_is_refused_saying_why(headers: dict[str, str], why: str) -> None:
    assert signatures().refused(headers) == why


def test_a_payload_changed_after_discord_signed_it_is_refused() -> None:
    headers = signed()
    payload = json.loads(base64.b64decode(headers[PAYLOAD]))
    payload["user_id"] = "1002"  # someone else's context, the rest kept
    headers[PAYLOAD] = base64.b64encode(json.dumps(payload).encode()).decode()
    assert signatures().refused(headers) == "a proxy signature not Discord's"


def test_a_key_that_cannot_be_an_applications_is_refused_at_once() -> None:
    for key in ("", "xyz", "ab" * 31, "g" * 64):
        with pytest.raises(ValueError, match="64 hexadecimal"):
            ProxySignatures(key)


def test_the_setting_takes_an_applications_public_key_and_nothing_else() -> None:
    from pydantic import ValidationError

    from bot.config import Settings

    key = DISCORD.verify_key.encode().hex()
    assert Settings(activity_public_key=f" {key} ").activity_public_key == key
    assert Settings(activity_public_key="").activity_public_key is None  # (the .env's empty line: off)
    with pytest.raises(ValidationError, match="64 hexadecimal characters"):
        Settings(activity_public_key="the key")
