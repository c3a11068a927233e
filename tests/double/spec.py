"""Every request the bot makes, checked against Discord's own OpenAPI description of API v10.

``spec/openapi.json.gz`` is ``specs/openapi.json`` of ``discord/discord-api-spec`` at the commit named in
``spec/README.md``, kept as test data. For each request the double finds its operation (method and path
template), then:

1. **The spec's own rules** (:meth:`Spec.check`): the path's and the query's parameters and the JSON body
   (or a multipart request's ``payload_json``) are validated with ``jsonschema`` (JSON Schema 2020-12, the
   dialect of OpenAPI 3.1; the spec's ``$ref``s are resolved by ``referencing``). A request the spec
   forbids is one Discord refuses with 400 Invalid Form Body.
2. **A strict pass** (:meth:`Spec.unknown`): every field the request sends must be one the spec names,
   as if every object schema said ``additionalProperties: false`` (open maps, such as localisations,
   stay open). Discord ignores unknown fields, so these are not refused, only reported; a field the bot
   sends that the spec does not know is a field that does nothing, or a typo.

What discord.py itself always sends and Discord accepts, though the spec says otherwise, is listed in
:data:`SNOWFLAKES_AS_INTEGERS` and :data:`KNOWN_EXTRAS`: that is the whole allowlist.

Validators are compiled once per operation and cached; the spec is read once per process.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_FILE = Path(__file__).with_name("spec") / "openapi.json.gz"
URI = "https://discord.com/api/v10/openapi.json"
API = "/api/v10"

# Where discord.py sends a snowflake as a JSON integer (Discord takes either); a path names the keys from
# the body's top, "[]" standing for any item of a list. These are turned into strings before validation.
SNOWFLAKES_AS_INTEGERS: tuple[tuple[str, ...], ...] = (
    ("allowed_mentions", "users", "[]"),
    ("allowed_mentions", "roles", "[]"),
    ("attachments", "[]", "id"),
    ("data", "allowed_mentions", "users", "[]"),  # an interaction callback's message
    ("data", "allowed_mentions", "roles", "[]"),
    ("data", "attachments", "[]", "id"),
)

# Fields discord.py always sends that the spec does not name, by (method, path template) ("*": every one),
# and where in the body. Discord ignores them.
KNOWN_EXTRAS: dict[tuple[str, str], tuple[tuple[str, ...], ...]] = {
    ("*", "*"): (
        ("embeds", "[]", "flags"),  # discord.Embed.to_dict() carries the embed's flags
        ("data", "embeds", "[]", "flags"),
    ),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): (("tts",),),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): (("tts",),),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): (("tts",),),
    # an interaction's answer that edits its message (type 7) carries tts, as the edits do
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"): (("data", "tts"),),
    ("PUT", "/applications/{application_id}/commands"): (("[]", "nsfw"),),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): (("[]", "nsfw"),),
}


# Operations Discord documents (its OAuth2 guide) that its OpenAPI description leaves out: the Activity's
# sign-in exchanges a code for a token here, with a form body (client id, secret, grant type, code).
OUTSIDE_THE_SPEC = {("POST", "/oauth2/token")}


@dataclass
class Report:
    """What the spec says of one request: ``errors`` (Discord would refuse it) and ``unknown`` fields."""

    operation: str | None
    errors: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


@dataclass
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    literal_segments: int
    parameters: dict[str, tuple[str, dict[str, Any]]]  # name: (where, schema)
    body: dict[str, Any] | None  # the schema of an application/json body
    body_pointer: str | None


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _pattern(template: str) -> re.Pattern[str]:
    parts = [
        f"(?P<{part[1:-1]}>[^/]+)" if part.startswith("{") and part.endswith("}") else re.escape(part)
        for part in template.split("/")
    ]
    return re.compile("^" + "/".join(parts) + "$")


class Spec:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.registry: Registry[Any] = Registry().with_resource(URI, DRAFT202012.create_resource(document))
        self.operations: dict[str, list[Operation]] = {}
        self._by_identity: dict[int, tuple[dict[str, Any], Draft202012Validator]] = {}
        self._inlined: dict[str, dict[str, Any]] = {}  # a $ref: the schema it names, dereferenced
        for template, item in document["paths"].items():
            shared = item.get("parameters", [])
            for method, operation in item.items():
                if method == "parameters":
                    continue
                parameters: dict[str, tuple[str, dict[str, Any]]] = {}
                for parameter in [*shared, *operation.get("parameters", [])]:
                    parameters[parameter["name"]] = (parameter["in"], parameter.get("schema", {}))
                content = (operation.get("requestBody") or {}).get("content", {})
                pointer = None
                if "application/json" in content:
                    pointer = "/".join(
                        [
                            "#",
                            "paths",
                            _escape(template),
                            method,
                            "requestBody",
                            "content",
                            "application~1json",
                            "schema",
                        ]
                    )
                self.operations.setdefault(method.upper(), []).append(
                    Operation(
                        method.upper(),
                        template,
                        _pattern(template),
                        sum(1 for p in template.split("/") if p and not p.startswith("{")),
                        parameters,
                        content.get("application/json", {}).get("schema"),
                        pointer,
                    )
                )
        for operations in self.operations.values():  # "/messages/@original" before "/messages/{message_id}"
            operations.sort(key=lambda o: -o.literal_segments)

    # ------------------------------------------------------------------ finding and compiling

    def match(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation a request is for (``path`` without ``/api/v10``), and its path parameters."""
        for operation in self.operations.get(method.upper(), ()):
            found = operation.pattern.match(path)
            if found:
                return operation, found.groupdict()
        return None

    @functools.cache  # noqa: B019 - one Spec lives as long as the process
    def validator(self, pointer: str) -> Draft202012Validator:
        """A validator of the schema at ``pointer`` (a "#/..." reference into the spec), compiled once."""
        return self._inline(self._lookup(pointer))

    def _inline(self, schema: dict[str, Any]) -> Draft202012Validator:
        """A validator of a schema of the spec, compiled once: the spec's own schemas are known by identity
        (the document lives as long as the process). Its ``$ref``s are resolved ahead (``_dereferenced``):
        following them at every step was most of the time of a validation."""
        validator = self._by_identity.get(id(schema))
        if validator is None or validator[0] is not schema:
            validator = (schema, Draft202012Validator(self._dereferenced(schema), registry=self.registry))
            self._by_identity[id(schema)] = validator
        return validator[1]

    def _lookup(self, pointer: str) -> Any:
        node: Any = self.document
        for token in pointer.removeprefix("#/").split("/"):
            node = node[token.replace("~1", "/").replace("~0", "~")]
        return node

    def _dereferenced(self, node: Any) -> Any:
        """``node`` with every ``$ref`` replaced by the schema it names: the same dict for the same
        reference, so recursive schemas (a container of components) become a cycle, not an endless copy.
        A ``$ref`` with sibling keywords becomes an ``allOf`` with them, as 2020-12 reads it."""
        if isinstance(node, list):
            return [self._dereferenced(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            ref = node["$ref"]
            target = self._inlined.get(ref)
            if target is None:
                target = self._inlined[ref] = {}
                target.update(self._dereferenced(self._lookup(ref)))
            siblings = {k: self._dereferenced(v) for k, v in node.items() if k != "$ref"}
            return {"allOf": [target], **siblings} if siblings else target
        return {
            k: v if k in ("enum", "const", "default", "examples") else self._dereferenced(v) for k, v in node.items()
        }

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - the bot sends the same message again and again
    def _body_errors(self, pointer: str, body: str) -> list[str]:
        errors = self.validator(pointer).iter_errors(json.loads(body))
        return [
            f"body{_where(e.absolute_path)}: {_short(e)}" for e in sorted(errors, key=lambda e: list(e.absolute_path))
        ]

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            ref = schema["$ref"]
            node: Any = self.document
            for token in ref.removeprefix("#/").split("/"):
                node = node[token.replace("~1", "/").replace("~0", "~")]
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**node, **siblings} if siblings else node
        return schema

    # ------------------------------------------------------------------ the checks

    def check(self, method: str, path: str, query: Mapping[str, str], body: Any) -> Report:
        """Validate one request (``body`` None when it has none) against the spec, both passes."""
        found = self.match(method, path.removeprefix(API))
        if found is None and (method, path.removeprefix(API)) in OUTSIDE_THE_SPEC:
            return Report(None, [])  # documented by Discord, but not in its OpenAPI description
        if found is None:
            return Report(None, [f"{method} {path}: no such operation in Discord's API"])
        operation, values = found
        report = Report(f"{method} {operation.template}")
        for name, value in values.items():
            _, schema = operation.parameters.get(name, ("path", {}))
            for error in self._inline(schema).iter_errors(value):
                report.errors.append(f"path parameter {name}={value!r}: {error.message}")
        for name, value in query.items():
            if name not in operation.parameters or operation.parameters[name][0] != "query":
                report.unknown.append(f"query parameter {name}")
                continue
            schema = self.resolve(operation.parameters[name][1])
            typed = _typed(value, schema)
            for error in self._inline(schema).iter_errors(typed):
                report.errors.append(f"query parameter {name}={value!r}: {error.message}")
        if body is None:
            return report
        if operation.body_pointer is None:
            report.errors.append("a body where the operation takes none")
            return report
        body = _snowflakes_as_strings(body)
        report.errors += self._body_errors(operation.body_pointer, json.dumps(body, sort_keys=True))
        if not report.errors:
            extras = KNOWN_EXTRAS.get(("*", "*"), ()) + KNOWN_EXTRAS.get((operation.method, operation.template), ())
            report.unknown += [
                place
                for place, keys in self._unknown(body, operation.body or {}, ())
                if not any(_matches(keys, allowed) for allowed in extras)
            ]
        return report

    def _unknown(
        self, instance: Any, schema: dict[str, Any], keys: tuple[str, ...]
    ) -> Iterator[tuple[str, tuple[str, ...]]]:
        """Every field of ``instance`` no applicable schema names (objects treated as closed)."""
        branches = self._branches(instance, schema)
        if isinstance(instance, dict):
            properties: dict[str, list[dict[str, Any]]] = {}
            extra: list[dict[str, Any]] = []
            open_map = False
            for branch in branches:
                for name, sub in (branch.get("properties") or {}).items():
                    properties.setdefault(name, []).append(sub)
                additional = branch.get("additionalProperties")
                if isinstance(additional, dict):
                    extra.append(additional)
                elif additional is True or (
                    "properties" not in branch and "additionalProperties" not in branch and _may_be_object(branch)
                ):
                    open_map = True
            if not any("properties" in b or "additionalProperties" in b for b in branches):
                open_map = True
            for name, value in instance.items():
                subs = properties.get(name) or extra
                if not subs:
                    if not open_map:
                        yield "body" + "".join("[]" if k == "[]" else f".{k}" for k in (*keys, name)), (*keys, name)
                    continue
                seen: set[str] = set()
                for sub in subs:
                    for place, path in self._unknown(value, sub, (*keys, name)):
                        if place not in seen:
                            seen.add(place)
                            yield place, path
        elif isinstance(instance, list):
            items = [b["items"] for b in branches if isinstance(b.get("items"), dict)]
            seen = set()
            for value in instance:
                for sub in items:
                    for place, path in self._unknown(value, sub, (*keys, "[]")):
                        if place not in seen:
                            seen.add(place)
                            yield place, path

    def _branches(self, instance: Any, schema: dict[str, Any]) -> list[dict[str, Any]]:
        """``schema`` and every schema it applies through allOf, and the oneOf/anyOf branches ``instance`` fits."""
        schema = self.resolve(schema)
        out = [schema]
        for sub in schema.get("allOf", ()):
            out += self._branches(instance, sub)
        for key in ("oneOf", "anyOf"):
            options = schema.get(key)
            if not options:
                continue
            candidates = [sub for sub in options if self._could_fit(instance, self.resolve(sub))]
            fitting = (
                candidates if len(candidates) == 1 else [s for s in candidates if self._inline(s).is_valid(instance)]
            )
            for sub in fitting or options:
                out += self._branches(instance, sub)
        return out

    @staticmethod
    def _could_fit(instance: Any, schema: dict[str, Any]) -> bool:
        """A quick look that rules out most branches of a union: the JSON type, and a discriminating ``type``."""
        kind = schema.get("type")
        if kind is not None:
            kinds = kind if isinstance(kind, list) else [kind]
            actual = _json_type(instance)
            if actual not in kinds and not (actual == "integer" and "number" in kinds):
                return False
        if isinstance(instance, dict) and "type" in instance:
            marker = (schema.get("properties") or {}).get("type") or {}
            allowed = marker.get("enum", [marker["const"]] if "const" in marker else None)
            if allowed is not None and instance["type"] not in allowed:
                return False
        return True


_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null", float: "number"}


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return _JSON_TYPES.get(type(value), "object")


def _may_be_object(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def _typed(value: str, schema: dict[str, Any]) -> Any:
    """A query string's value as the type its schema asks for."""
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "boolean" in kinds and value.lower() in ("true", "false", "1", "0"):  # Discord reads 1 and 0 too
        return value.lower() in ("true", "1")
    if "integer" in kinds:
        try:
            return int(value)
        except ValueError:
            return value
    return value


def _matches(keys: tuple[str, ...], allowed: tuple[str, ...]) -> bool:
    return keys == allowed


def _snowflakes_as_strings(body: Any) -> Any:
    """The body with discord.py's integer snowflakes (see SNOWFLAKES_AS_INTEGERS) as strings."""

    def walk(node: Any, keys: tuple[str, ...]) -> Any:
        if isinstance(node, dict):
            return {k: walk(v, (*keys, k)) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, (*keys, "[]")) for v in node]
        if isinstance(node, int) and not isinstance(node, bool) and keys in SNOWFLAKES_AS_INTEGERS:
            return str(node)
        return node

    return walk(body, ())


def _where(path: Any) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def _short(error: Any) -> str:
    message = str(error.message)
    return message if len(message) <= 300 else message[:300] + "…"


@functools.cache
def discord_spec() -> Spec:
    """Discord's spec, read once per process."""
    with gzip.open(SPEC_FILE, "rt", encoding="utf-8") as file:
        return Spec(json.load(file))
