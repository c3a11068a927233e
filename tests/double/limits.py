"""Discord's rules the double holds the bot to, with Discord's own answers when they are broken.

- **Interactions** (:class:`InteractionRules`): the first answer within 3 seconds, else 404 Unknown
  interaction (10062); one acknowledgement (a second: 400, 40060); follow-ups and edits of the answer
  only after the acknowledgement (before: 404 Unknown Webhook, 10015) and for 15 minutes (after: 401
  Invalid Webhook Token, 50027).
- **Rate limits** (:class:`RateLimits`): a bucket per route and major parameter (channel, guild, webhook
  and its token, interaction), with ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket`` on every
  answer and a 429 with ``retry_after`` and ``X-RateLimit-Scope: user`` past it; the global 50 calls a
  second (scope ``global``; interaction answers and an interaction's webhook are not counted); and the
  invalid-request limit: 10,000 answers of 401, 403 or 429 (except 429s of scope ``shared``) in 10
  minutes get the bot's address banned for an hour (every call then gets Cloudflare's 429, without
  Discord's ``Via`` header).
- **Commands** (:func:`command_errors`): names and descriptions, 25 options, 25 choices, options before
  subcommands not mixed, required before optional, 100 chat commands, and the 4,000 characters of one
  command's names, descriptions and choices (:func:`command_size`).
- **Messages** (:func:`message_errors`): what the spec does not carry: 5 action rows of at most 5
  components, a select alone in its row, 25 options a select, custom_ids of 100, labels of 80, 2,000
  characters of content, 10 embeds of at most 25 fields, 6,000 characters of embeds in all.

Times are read from a :class:`~tests.double.clock.Clock` a test can move.
"""

from __future__ import annotations

import hashlib
import math
import unicodedata
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .clock import Clock

ANSWER_WITHIN = 3.0  # seconds for the first answer to an interaction
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction's token works for follow-ups and edits
GLOBAL_PER_SECOND = 50
INVALID_LIMIT = 10_000  # 401, 403 and 429 answers...
INVALID_WINDOW = 600.0  # ...in this many seconds...
BAN_FOR = 3600.0  # ...get the address banned for an hour
COMMAND_SIZE = 4000
MOST_COMMANDS = 100  # chat input commands of one scope (global, or one server)
MOST_OPTIONS = 25
MOST_CHOICES = 25

# Discord's errors, as its JSON bodies say them.
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")
INVALID_FORM_BODY = (400, 50035, "Invalid Form Body")


def error_body(error: tuple[int, int, str], errors: Mapping[str, Any] | None = None) -> dict[str, Any]:
    _, code, message = error
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = dict(errors)
    return body


def form_errors(messages: list[str], code: str = "BASE_TYPE_INVALID") -> dict[str, Any]:
    """Discord's ``errors`` of an Invalid Form Body, here under one key (the double's wording in each)."""
    return {"_errors": [{"code": code, "message": message} for message in messages]}


# ---------------------------------------------------------------------- interactions


@dataclass
class Token:
    """What Discord knows of one interaction's token."""

    created: float
    acknowledged: bool = False


class InteractionRules:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.tokens: dict[str, Token] = {}

    def created(self, token: str) -> None:
        self.tokens[token] = Token(self.clock.now())

    def answer(self, token: str, arrived: float) -> tuple[int, int, str] | None:
        """The first answer (the callback) arrived at ``arrived``: Discord's refusal, or None."""
        known = self.tokens.get(token)
        if known is None or arrived - known.created > ANSWER_WITHIN:
            return UNKNOWN_INTERACTION
        if known.acknowledged:
            return ALREADY_ACKNOWLEDGED
        known.acknowledged = True
        return None

    def webhook(self, token: str, arrived: float) -> tuple[int, int, str] | None:
        """A follow-up, or a read, edit or delete of a message through the token: Discord's refusal, or None."""
        known = self.tokens.get(token)
        if known is None or not known.acknowledged:
            return UNKNOWN_WEBHOOK
        if arrived - known.created > TOKEN_LIFETIME:
            return INVALID_WEBHOOK_TOKEN
        return None


# ---------------------------------------------------------------------- rate limits


@dataclass(frozen=True)
class RouteLimit:
    limit: int
    per: float  # seconds of the bucket's window


# Per-route limits close to those Discord gives bots today (it does not publish them; bots must read the
# headers). Routes not listed here get DEFAULT_LIMIT.
ROUTE_LIMITS: dict[tuple[str, str], RouteLimit] = {
    ("POST", "/channels/{channel_id}/messages"): RouteLimit(5, 5.0),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): RouteLimit(5, 5.0),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): RouteLimit(5, 1.0),
    ("GET", "/channels/{channel_id}/messages/{message_id}"): RouteLimit(5, 1.0),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): RouteLimit(5, 5.0),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): RouteLimit(5, 2.0),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): RouteLimit(5, 2.0),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): RouteLimit(5, 2.0),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"): RouteLimit(5, 1.0),
    ("PUT", "/applications/{application_id}/commands"): RouteLimit(4, 20.0),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): RouteLimit(4, 20.0),
}
DEFAULT_LIMIT = RouteLimit(5, 1.0)
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token", "interaction_id", "interaction_token")


def counted(template: str) -> bool:
    """Whether Discord counts a call of this route in the global limit (interaction answers it does not)."""
    return not (template.startswith("/interactions/") or template.startswith("/webhooks/{webhook_id}/{webhook_token}"))


@dataclass
class Window:
    started: float
    used: int = 0


@dataclass
class Refusal:
    """A 429 (or a ban) the double answers instead of the call."""

    status: int
    body: dict[str, Any] | str
    headers: dict[str, str]
    scope: str


@dataclass
class RateLimits:
    clock: Clock
    routes: dict[tuple[str, str], RouteLimit] = field(default_factory=lambda: dict(ROUTE_LIMITS))
    global_per_second: int | None = GLOBAL_PER_SECOND
    windows: dict[tuple[str, tuple[str, ...]], Window] = field(default_factory=dict)
    global_calls: deque[float] = field(default_factory=deque)
    busiest_second: int = 0  # the most counted calls seen in one second
    limited: list[str] = field(default_factory=list)  # every 429, as "scope: METHOD template"
    invalid: deque[float] = field(default_factory=deque)  # when the 401, 403 and 429 answers of the window came
    invalid_peak: int = 0  # the most invalid answers seen in one window
    banned_until: float | None = None
    invalid_limit: int = INVALID_LIMIT

    @staticmethod
    def bucket_hash(method: str, template: str) -> str:
        return hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16]

    def limit_of(self, method: str, template: str) -> RouteLimit:
        return self.routes.get((method, template), DEFAULT_LIMIT)

    def enter(self, method: str, template: str, parameters: Mapping[str, str]) -> tuple[Refusal | None, dict[str, str]]:
        """A call arrives: the refusal Discord would give (or None) and the bucket's headers for the answer."""
        now = self.clock.now()
        if self.banned_until is not None and now < self.banned_until:
            self.limited.append(f"banned: {method} {template}")
            return Refusal(429, "error code: 1015", {"Retry-After": str(math.ceil(self.banned_until - now))}, "ban"), {}
        if self.global_per_second is not None and counted(template):
            while self.global_calls and self.global_calls[0] <= now - 1.0:
                self.global_calls.popleft()
            if len(self.global_calls) >= self.global_per_second:
                retry_after = round(self.global_calls[0] + 1.0 - now, 3)
                self.limited.append(f"global: {method} {template}")
                body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": True}
                headers = {
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                    "Retry-After": str(max(1, math.ceil(retry_after))),
                    "Via": "1.1 google",  # as Discord's come (discord.py takes a 429 without it for a ban)
                }
                return Refusal(429, body, headers, "global"), {}
            self.global_calls.append(now)
            self.busiest_second = max(self.busiest_second, len(self.global_calls))
        route = self.limit_of(method, template)
        bucket = self.bucket_hash(method, template)
        key = (bucket, tuple(parameters.get(name, "") for name in MAJOR_PARAMETERS))
        window = self.windows.get(key)
        if window is None or now >= window.started + route.per:
            window = self.windows[key] = Window(now)
        reset_after = window.started + route.per - now
        if window.used >= route.limit:
            headers = self._headers(route, bucket, 0, reset_after)
            headers |= {
                "X-RateLimit-Scope": "user",
                "Retry-After": str(max(1, math.ceil(reset_after))),
                "Via": "1.1 google",
            }
            self.limited.append(f"user: {method} {template}")
            body = {"message": "You are being rate limited.", "retry_after": round(reset_after, 3), "global": False}
            return Refusal(429, body, headers, "user"), {}
        window.used += 1
        return None, self._headers(route, bucket, route.limit - window.used, reset_after)

    def _headers(self, route: RouteLimit, bucket: str, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(route.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{self.clock.wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }

    def answered(self, status: int, scope: str | None) -> None:
        """Count an invalid answer (401, 403, a 429 not of scope ``shared``) toward the ban."""
        if status not in (401, 403, 429) or scope == "shared" or scope == "ban":
            return
        now = self.clock.now()
        while self.invalid and self.invalid[0] <= now - INVALID_WINDOW:
            self.invalid.popleft()
        self.invalid.append(now)
        self.invalid_peak = max(self.invalid_peak, len(self.invalid))
        if len(self.invalid) >= self.invalid_limit:
            self.banned_until = now + BAN_FOR


# ---------------------------------------------------------------------- commands


def _longest(item: Mapping[str, Any], key: str) -> int:
    """A field's length as Discord counts it: its longest text among the default and the localisations."""
    texts = [str(item.get(key) or ""), *(item.get(f"{key}_localizations") or {}).values()]
    return max(len(text) for text in texts)


def command_size(item: Mapping[str, Any]) -> int:
    """The characters of a command (or an option) Discord counts toward 4,000: every name and description,
    of the command, its subcommands, groups and options, and every choice's name and value (the longest
    localisation of each)."""
    size = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or ():
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(command_size(option) for option in item.get("options") or ())


def _valid_name(name: str) -> bool:
    letters = all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)
    return 1 <= len(name) <= 32 and letters and name == name.lower()


def _item_errors(item: Mapping[str, Any], where: str, chat: bool) -> list[str]:
    errors = []
    for locale, name in [(None, item.get("name", "")), *(item.get("name_localizations") or {}).items()]:
        if not (_valid_name(str(name)) if chat else 1 <= len(str(name)) <= 32):
            errors.append(f"{where}: the {locale or 'default'} name {name!r} is not a valid command name")
    descriptions = [(None, item.get("description", "")), *(item.get("description_localizations") or {}).items()]
    for locale, description in descriptions:
        if chat and not 1 <= len(str(description or "")) <= 100:
            errors.append(f"{where}: the {locale or 'default'} description is {len(str(description or ''))} characters")
    options = list(item.get("options") or ())
    if len(options) > MOST_OPTIONS:
        errors.append(f"{where}: {len(options)} options (at most {MOST_OPTIONS})")
    subcommands = [o for o in options if o.get("type") in (1, 2)]
    if subcommands and len(subcommands) != len(options):
        errors.append(f"{where}: subcommands mixed with options")
    required_seen_after_optional = False
    optional = False
    for option in options:
        if option.get("required"):
            required_seen_after_optional |= optional
        else:
            optional = True
    if required_seen_after_optional:
        errors.append(f"{where}: a required option after an optional one")
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        errors.append(f"{where}: two options of one name")
    by_locale: dict[str, list[str]] = {}
    for option in options:
        for locale, name in (option.get("name_localizations") or {}).items():
            by_locale.setdefault(locale, []).append(name)
    for locale, localised in by_locale.items():
        if len(localised) != len(set(localised)):
            errors.append(f"{where}: two {locale} option names are the same")
    choices = list(item.get("choices") or ())
    if len(choices) > MOST_CHOICES:
        errors.append(f"{where}: {len(choices)} choices (at most {MOST_CHOICES})")
    if choices and item.get("autocomplete"):
        errors.append(f"{where}: choices and autocomplete together")
    for choice in choices:
        for locale, text in [(None, choice.get("name", "")), *(choice.get("name_localizations") or {}).items()]:
            if not 1 <= len(str(text)) <= 100:
                errors.append(f"{where}: a {locale or 'default'} choice name of {len(str(text))} characters")
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            errors.append(f"{where}: a choice value of {len(choice['value'])} characters")
    for option in options:
        errors += _item_errors(option, f"{where} {option.get('name')}", chat=True)
    return errors


def command_errors(commands: list[dict[str, Any]]) -> list[str]:
    """Why Discord would refuse to sync these commands (empty: it would take them)."""
    errors = []
    chat = [c for c in commands if c.get("type", 1) == 1]
    if len(chat) > MOST_COMMANDS:
        errors.append(f"{len(chat)} chat commands (at most {MOST_COMMANDS})")
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    if len(names) != len(set(names)):
        errors.append("two commands of one name")
    for command in commands:
        where = f"/{command.get('name')}"
        errors += _item_errors(command, where, chat=command.get("type", 1) == 1)
        size = command_size(command)
        if size > COMMAND_SIZE:
            errors.append(f"{where}: {size} characters of names, descriptions and choices (at most {COMMAND_SIZE})")
    return errors


# ---------------------------------------------------------------------- messages


def message_errors(body: Mapping[str, Any]) -> list[str]:
    """Discord's limits of a message that its spec does not carry."""
    errors = []
    rows = body.get("components") or []
    if len(rows) > 5:
        errors.append(f"{len(rows)} component rows")
    ids = []
    for row in rows:
        items = row.get("components", [])
        if len(items) > 5:
            errors.append(f"{len(items)} components in a row")
        for item in items:
            custom_id = item.get("custom_id", "")
            ids.append(custom_id)
            if len(custom_id) > 100:
                errors.append(f"custom_id of {len(custom_id)} characters")
            if item.get("type") in (3, 5, 6, 7, 8):
                options = item.get("options", [])
                if len(items) != 1:
                    errors.append("a select shares its row")
                if item.get("type") == 3 and not 1 <= len(options) <= 25:
                    errors.append(f"a select with {len(options)} options")
                if item.get("type") == 3 and item.get("max_values", 1) > len(options):
                    errors.append("max_values above the options")
                for option in options:
                    if len(option.get("label", "")) > 100 or len(option.get("value", "")) > 100:
                        errors.append("a select option over 100 characters")
            if len(item.get("label") or "") > 80:
                errors.append("a button label over 80 characters")
    if len(ids) != len(set(ids)):
        errors.append("duplicate custom_ids")
    if len(body.get("content") or "") > 2000:
        errors.append("content over 2000 characters")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        errors.append(f"{len(embeds)} embeds")
    total = 0
    for embed in embeds:
        title, description = embed.get("title") or "", embed.get("description") or ""
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        fields = embed.get("fields") or []
        if len(title) > 256 or len(description) > 4096 or len(footer) > 2048 or len(author) > 256:
            errors.append("an embed over a limit")
        if len(fields) > 25:
            errors.append(f"an embed of {len(fields)} fields")
        for f in fields:
            if len(f.get("name") or "") > 256 or len(f.get("value") or "") > 1024 or not f.get("value"):
                errors.append("an embed field over a limit or empty")
        total += len(title) + len(description) + len(footer) + len(author)
        total += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    if total > 6000:
        errors.append(f"embeds of {total} characters")
    return errors
