"""Local mode's guard against other web sites: which ``Host`` and ``Origin`` a request may name.

In local mode a tab signs in with nothing but a name, so the only thing between a site the person
happens to visit and their card table is the browser's same-origin rule. Two ways around it are closed
here, before any handler runs:

- **DNS rebinding**: a site whose name is made to point at 127.0.0.1 is the same origin as itself, and its
  script could sign in and play. Its requests name *its* host, so only hosts that cannot be rebound are
  served: an address (``127.0.0.1``, a LAN address such as ``192.168.1.20``, ``[::1]``), ``localhost`` and
  names under ``.localhost``, this machine's own name (and ``<name>.local``), and ``ACTIVITY_HOST`` itself
  when it is a name.
- **Another site's script** (a form posted across sites, a WebSocket opened from another page; WebSockets
  obey no same-origin rule): a browser names the page a request comes from in ``Origin``, and only the
  table's own page (the same host and port as the request's) is served. A request with no ``Origin`` (a
  page loaded by its address, a command-line client) is no other site's.

Inside Discord none of this applies: a session there comes from Discord's own sign-in, and the page is
served through Discord's proxy (:mod:`activity.identity`).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

WRONG_HOST = "activity.wrong_host"
WRONG_ORIGIN = "activity.wrong_origin"
DEFAULT_PORTS = {"http": 80, "https": 443}


def _hostname(netloc: str) -> str | None:
    """The host of a ``Host`` header or an origin's ``host[:port]``, lower-cased, brackets off; None: none."""
    found = _authority(netloc, "http")
    return found[0] if found else None


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def machine_names() -> set[str]:
    """This machine's own names, as a browser on the same network may use them."""
    name = socket.gethostname().lower().rstrip(".")
    if not name:
        return set()
    short = name.split(".")[0]
    return {name, short, f"{short}.local"}


class LocalHosts:
    """The hosts local mode serves: addresses, ``localhost``, this machine's names and ``extra`` ones."""

    def __init__(self, extra: Iterable[str] = ()) -> None:
        named = {host for host in (_hostname(name) for name in extra) if host is not None}
        self.names = machine_names() | {name for name in named if not _is_address(name)}

    def allows(self, host_header: str | None) -> bool:
        """Whether a request naming ``host_header`` (its ``Host``) may be served."""
        host = _hostname(host_header or "")
        if host is None:
            return False
        if _is_address(host) or host == "localhost" or host.endswith(".localhost"):
            return True
        return host in self.names


def same_origin(origin: str | None, host_header: str | None) -> bool:
    """Whether a request's ``Origin`` (None: it names none) is the page of the host it was sent to."""
    if origin is None:
        return True
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or not host_header:
        return False  # "null" (a sandboxed frame, a file), or no address at all
    page = _authority(parts.netloc, parts.scheme)
    return page is not None and page == _authority(host_header, parts.scheme)


def _authority(netloc: str, scheme: str) -> tuple[str, int] | None:
    """``host[:port]`` as (host, port), the scheme's port where none is written; None: not an authority."""
    if not netloc or any(c in netloc for c in "/?#@\\ \t\r\n"):
        return None
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:  # a port that is no number, an unclosed bracket
        return None
    host = (parts.hostname or "").rstrip(".")
    if not host:
        return None
    return host, port if port is not None else DEFAULT_PORTS[scheme]
