"""The Activity's web server, in the bot's own process: the built page, sign-in, and a WebSocket per screen.

``/ws``: the first frame is ``hello`` with the session's key; the server then sends the screen
(``{"type": "state", "table": ...}``: ``view(seat)`` for a seated player, ``view(None)`` for a
watcher) and again after every change of the table. Every frame in is parsed strictly
(:mod:`activity.frames`) and rate-limited; a refusal is ``{"type": "error", "message": ...}`` in
the reader's language and writes nothing.

Limits (docs/operations.md, "The Activity"): frames per user (all their screens together), screens per
session, sockets of one address that have not said hello yet and the time they have to say it, sign-ins
per address (:mod:`activity.limits`) and, through :mod:`activity.identity`, sign-ins that reach Discord.
Every answer carries a Content-Security-Policy that lets the page run only inside Discord (or alone).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import WSCloseCode, WSMsgType, hdrs, web
from aiohttp.typedefs import Handler
from aiohttp.web_protocol import RequestPayloadError
from pydantic import ValidationError

from bot.catalogues import DEFAULT, language_of, translate
from bot.games import GAMES
from bot.games.views import View
from bot.tables import (
    HandSnapshot,
    MatchSheet,
    NotAllowed,
    StaleAction,
    TableError,
    TableInfo,
    TableStatus,
    WrongStatus,
)
from bot.words import error_text, hint_text, listed

from .frames import (
    Act,
    Ask,
    BadFrame,
    Computer,
    Hello,
    Lobby,
    Open,
    Review,
    TokenRequest,
    Uncomputer,
    Watch,
    parse,
)
from .identity import DISCORD, INSTANCE_SECONDS, TOO_MANY, DiscordSignIn, SignInRefused
from .limits import Buckets, Clock, Network, client_address, whole_seconds
from .origins import WRONG_HOST, WRONG_ORIGIN, LocalHosts, same_origin
from .places import Places, in_place
from .proxy import ANYONE, NOT_THROUGH_DISCORD, ProxySignatures
from .screen import review_screen, screen, seat_label
from .sessions import LOCAL_GUILD, Session, Sessions, clean_name
from .source import TableSource
from .state_frames import Frames, frame_of, frame_text

log = logging.getLogger(__name__)
Key = TypeVar("Key", str, int)

PAGE_DIR = Path(__file__).parent / "page" / "dist"
NOT_BUILT = "The Activity's page is not built: run `npm ci && npm run build` in activity/page."
HELLO_SECONDS = 10.0  # a new socket says hello within this, all told (WebSocket pings do not stretch it)
GREETING_PER_CLIENT = 32  # sockets of one address yet to say hello (inside Discord, its proxy's address: many users;
# with ACTIVITY_PUBLIC_KEY set, the sockets Discord's proxy did not sign are counted apart)
GREETING_PER_SIGNER = 4  # with ACTIVITY_PUBLIC_KEY set: sockets yet to say hello of one player its proxy signed for
ADDRESS = "address "  # (what a request is counted against: an address, else the player Discord's proxy named)
RATE_PER_SECOND = 8.0  # frames of one user, all their screens together...
RATE_BURST = 16.0  # ...and at once
FLOOD_CLOSE = 64  # frames refused in a row for coming too fast: the socket is closed (a page never sends so many)
SCREENS_PER_SESSION = 4  # open screens of one session: one more closes the oldest (a reload's old socket may linger)
SCREENS_PER_USER = 8  # open screens of one person, all their sessions together: one more closes their oldest
SIGN_INS_PER_MINUTE = 10.0  # Discord sign-ins of one address (inside Discord, its proxy's: many users)...
SIGN_IN_BURST = 10.0  # ...and at once
LOCAL_SIGN_INS_PER_MINUTE = 30.0  # local mode's sign-ins of one address (one machine may hold a tab per player)...
LOCAL_SIGN_IN_BURST = 30.0  # ...and at once
MAX_ROOM = 1_000_000
# Every open screen's session is checked this often, frames or not (a watcher sends none): its hours, and Discord's
# list of its instance (an answer this old is asked again), as each frame checks them.
SWEEP_SECONDS = INSTANCE_SECONDS
# What asks Discord's proxy signature, where it is asked: the sign-in, which costs calls to Discord and the limits
# the players behind its proxy share (a socket needs a session from it, and its hello costs little)
SIGNED_PATHS = frozenset({"/api/token"})
MAX_MESSAGE = 256 * 1024  # bytes: the longest WebSocket message read (a frame itself is at most MAX_FRAME)
ENDED = (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR)  # the socket is going

# The page loads its script and stylesheet from here and talks to this host alone (inside Discord through
# Discord's proxy, https://<application id>.discordsays.com/.proxy/, its socket wss:// there); the Embedded App
# SDK talks to the Discord client only by postMessage. Discord shows it in a frame of its own (in local mode the
# page is its own window).
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        # inline style attributes too: the page's drawn parts (cards, plates, charts) set them, and a style is no
        # script (the page builds every node itself, so no text reaches the page as markup)
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self' wss://*.discordsays.com",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
SERVER = "card-table"  # what the application's answers say they came from (not aiohttp's and Python's versions)
CLOSE_AFTER = web.RequestKey("close_after", bool)  # a request whose body could not be read: its connection closed


def _loads(raw: str | bytes) -> Any:
    """JSON, or None where it is none (not JSON, not text, or nested past the parser's depth)."""
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


async def _json_body(request: web.Request) -> tuple[Any, str | None]:
    """A request's JSON body, or why it is refused: too long for the server's limit, or not JSON."""
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:
        return None, "activity.too_long"
    except RequestPayloadError:  # a body that cannot be read as it says (a Content-Encoding it is not in)
        # nothing more is read of it (aiohttp would try, and log the same failure), and the connection is closed
        # after the answer: what follows on it cannot be told from the rest of that body
        request.content.feed_eof()
        request[CLOSE_AFTER] = True
        return None, "activity.bad_frame"
    body = _loads(raw)
    return body, None if body is not None else "activity.bad_frame"


def _language_in(body: Any, request: web.Request | None = None) -> str:
    """The language a request or frame asks to be answered in, even one refused for the rest: the one it names,
    else the first of the request's Accept-Language (a body that could not be read names none), else English."""
    language = body.get("language") if isinstance(body, dict) else None
    if isinstance(language, str):
        return language_of(language)
    accepted = request.headers.get("Accept-Language", "") if request is not None else ""
    first = accepted.split(",")[0].split(";")[0].strip()
    return language_of(first) if first else DEFAULT


# aiohttp's own refusals (a path that is not served, a socket's request without its upgrade, a body too large,
# too many sockets yet to say hello), said as every other refusal is: the key and a word in the reader's language
POLITE = {
    403: "activity.not_found",  # (a folder of the page's files, asked for as if a file)
    404: "activity.not_found",
    405: "activity.bad_frame",
    413: "activity.too_long",
    429: "activity.too_fast",
}


@web.middleware
async def _polite(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPException as refused:
        if refused.status < 400:
            raise
        key = POLITE.get(refused.status, "activity.bad_frame")
        headers = {name: value for name, value in refused.headers.items() if name.lower() in ("retry-after", "allow")}
        language = _language_in(None, request)
        return web.json_response(
            {"error": translate(language, key), "key": key}, status=refused.status, headers=headers
        )


def games_catalogue(language: str) -> list[dict[str, Any]]:
    """What the lobby form offers: every game, its player counts, its options and their allowed values."""
    out = []
    for info in GAMES.values():
        options = []
        for spec in info.options:
            kind = "bool" if isinstance(spec.default, bool) else "int" if isinstance(spec.default, int) else "choice"
            options.append(
                {
                    "name": spec.name,
                    "label": translate(language, f"option.{spec.name}"),
                    "kind": kind,
                    "default": spec.default,
                    "choices": [{"value": c, "label": translate(language, f"choice.{c}")} for c in spec.choices],
                    "values": list(spec.values)
                    if spec.values
                    else list(range(spec.low, spec.high + 1))
                    if kind == "int" and spec.high - spec.low <= 40
                    else [],
                    "low": spec.low,
                    "high": spec.high,
                    "needs": [{"name": name, "values": list(values)} for name, values in spec.needs],
                }
            )
        out.append(
            {
                "name": info.name,
                "label": translate(language, f"game.{info.name}"),
                "players": list(info.players),
                "default_players": info.default_players,
                "options": options,
                "quick": dict(info.quick),
            }
        )
    return out


class Screen:
    """One WebSocket: its session, the table it shows, and the task that pushes that table's changes."""

    def __init__(self, server: ActivityServer, socket: web.WebSocketResponse, session: Session, language: str) -> None:
        self.server = server
        self.socket = socket
        self.session = session
        self.language = language
        self._table_id: int | None = None
        self._pusher: asyncio.Task[None] | None = None
        self._hinting: asyncio.Task[None] | None = None
        self._ended = False  # told why it may show no more (:meth:`ended`)
        self._send_lock = asyncio.Lock()
        self._result: tuple[int, MatchSheet] | None = None

    @property
    def table_id(self) -> int | None:
        """The table this screen shows (None: none yet)."""
        return self._table_id

    @table_id.setter
    def table_id(self, table_id: int | None) -> None:
        if table_id != self._table_id:
            self.server.showing(self, self._table_id, table_id)
            self._table_id = table_id

    @property
    def source(self) -> TableSource:
        return self.server.source

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(frame_text(message))

    async def send_text(self, text: str) -> None:
        async with self._send_lock:
            if not self.socket.closed:
                with contextlib.suppress(ConnectionResetError):  # the page went meanwhile: nothing to tell it
                    await self.socket.send_str(text)

    async def refuse(self, key: str, **params: Any) -> None:
        await self.send({"type": "error", "key": key, "message": translate(self.language, key, **params)})

    async def refuse_table(self, error: TableError) -> None:
        key = "error.stale_hand" if isinstance(error, StaleAction) else f"error.{error.key}"
        message = translate(self.language, key) if isinstance(error, StaleAction) else error_text(error, self.language)
        await self.send({"type": "error", "key": key, "message": message})

    def in_place(self, table: TableInfo) -> bool:
        """A screen only ever shows the tables of its own place (its instance's channel or thread, or its room)."""
        return in_place(table, self.session.guild_id, self.session.channel_id)

    def may_watch(self, table: TableInfo) -> bool:
        """A private table (a duplicate night's: the other tables of its round hold the same cards) is shown only
        on its own players' screens."""
        return not table.private or table.seat_of(self.session.user_id) is not None

    async def show(self, table_id: int | None) -> None:
        """Show ``table_id`` (None: the place's open table, else the lobby form) and follow its changes. A
        table refused (gone, or not of this place) leaves what the screen shows; where it shows nothing yet (a
        hello naming such a table: a page signed in again, a table ended meanwhile) it shows the place's."""
        if table_id is not None:
            try:
                table = await self.source.table(table_id)
            except TableError as error:
                await self.refuse_table(error)
                await self._show_place_if_blank()
                return
            if not self.in_place(table):
                await self.refuse("activity.not_here")
                await self._show_place_if_blank()
                return
            if not self.may_watch(table):
                await self.refuse_table(NotAllowed("private_table", table=table.id))
                await self._show_place_if_blank()
                return
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
        self.table_id = table_id
        self._pusher = asyncio.create_task(self._push(table_id), name=f"screen-{self.session.user_id}")

    async def _show_place_if_blank(self) -> None:
        if self._pusher is None:
            await self.show(None)

    async def _push(self, table_id: int | None) -> None:
        try:
            if table_id is None:  # the place's one open table, once there is one (read for all its screens at once)
                session = self.session
                async with self.server.places.watching(session.guild_id, session.channel_id) as place:
                    seen, tables = await place.after(place.now())
                    tables = [table for table in tables if self.may_watch(table)]
                    shown: list[int] | None = None
                    while len(tables) != 1:  # none yet, or several to choose from: look again now and then
                        if [t.id for t in tables] != shown:
                            shown = [t.id for t in tables]
                            await self.send({"type": "state", "table": None, "tables": self._choosable(tables)})
                        seen, tables = await place.after(seen)
                        tables = [table for table in tables if self.may_watch(table)]
                table_id = self.table_id = tables[0].id
            async for _version in self.source.subscribe(table_id):
                await self.send_text(await self.state_frame(table_id))
        except asyncio.CancelledError:
            raise
        except TableError as error:
            await self.refuse_table(error)
        except Exception:
            log.exception("screen of table %s failed", table_id)

    def _choosable(self, tables: list[TableInfo]) -> list[dict[str, Any]]:
        language = self.language
        return [
            {
                "id": t.id,
                "title": translate(language, "table.title", game=translate(language, f"game.{t.game}"), table=t.id),
                "seated": listed((seat_label(t, s.index, language) for s in t.seats), language),
            }
            for t in tables
        ]

    async def state_frame(self, table_id: int) -> str:
        """The ``state`` frame of this screen as the table is now, as sent: the public table (with a finished
        table's stored result), and the seat's own view if seated (one moment). Built once per table, moment,
        seat and language, whatever the number of screens (:class:`Frames`); a lobby's, per screen (it names
        the reader's own place in it)."""
        user = self.session.user_id
        table, public, hand = await self._read(table_id)
        if not self.may_watch(table):  # a private table not this person's (however this screen came to it)
            raise NotAllowed("private_table", table=table.id)
        if public is None or table.status == TableStatus.LOBBY:
            return frame_of(screen(table, public, user_id=user, seat=None, legal=[], language=self.language))
        if hand is None:
            result = await self.result(table) if table.status == TableStatus.FINISHED else None
            end = await self.source.deal_end(table, public)
            return self.server.frames.frame(table, public, None, None, [], self.language, result, end)
        table = hand.table
        result = await self.result(table) if table.status == TableStatus.FINISHED else None
        legal = hand.legal if table.status == TableStatus.PLAYING else []
        end = await self.source.deal_end(table, public)
        return self.server.frames.frame(table, public, hand.seat.index, hand.view, legal, self.language, result, end)

    async def _read(self, table_id: int) -> tuple[TableInfo, View | None, HandSnapshot | None]:
        """The table, its public view and the user's seat (None: they have none), of one version."""
        user = self.session.user_id
        for _ in range(5):
            table, public = await self.source.public(table_id)
            try:
                hand = await self.source.hand(table_id, user)
            except (NotAllowed, WrongStatus):
                return table, public, None
            if hand.table.version == table.version:  # else a move came between the two reads: read again
                return table, public, hand
        return table, public, None

    async def handle(self, frame: Act | Open | Lobby | Ask | Review | Computer | Uncomputer | Watch | Hello) -> None:
        user, name = self.session.user_id, self.session.name
        try:
            if isinstance(frame, Hello):
                await self.refuse("activity.bad_frame")
            elif isinstance(frame, Watch):
                await self.show(frame.table)
            elif isinstance(frame, Open):
                await self.open(frame)
            else:
                if frame.table != self.table_id:  # only the table this screen shows
                    await self.refuse("activity.not_here")
                    return
                if isinstance(frame, Act):
                    await self.source.act(frame.table, user, frame.action, frame.turn)
                elif isinstance(frame, Review):
                    await self.review(frame.table)
                elif isinstance(frame, Ask):  # the search takes up to a second: the screen goes on meanwhile
                    asked = await self.source.hand(frame.table, user)  # the seat's moves so far, as it asks
                    if self._hinting is not None:  # (a hint asked again: the first one's answer is not awaited)
                        self._hinting.cancel()
                    self._hinting = asyncio.create_task(self.hint(frame.table, asked.seat.acted))
                elif isinstance(frame, Computer):
                    await self.source.add_computer(frame.table, user, frame.level)
                elif isinstance(frame, Uncomputer):
                    await self.source.remove_computer(frame.table, user, frame.key)
                elif frame.op == "join":
                    await self.source.join(frame.table, user, name)
                elif frame.op == "leave":
                    await self.source.leave(frame.table, user)
                else:
                    await self.source.start(frame.table, user)
        except TableError as error:
            await self.refuse_table(error)
            if isinstance(error, StaleAction) and self.table_id is not None:
                await self.send_text(await self.state_frame(self.table_id))

    async def review(self, table_id: int) -> None:
        """The last scored deal, trick by trick: what the chat's "Last deal" shows (hands once the match is over)."""
        table, deals = await self.source.deal_reviews(table_id)
        if not self.may_watch(table):  # private since this screen was shown it
            raise NotAllowed("private_table", table=table.id)
        if not deals:
            await self.refuse("review.none")
            return
        await self.send({"type": "review", "review": review_screen(table, deals[-1], self.language)})

    async def result(self, table: TableInfo) -> MatchSheet | None:
        """A finished table's stored match (read once: it never changes after)."""
        if self._result is not None and self._result[0] == table.id:
            return self._result[1]
        result = await self.source.table_result(table.id)
        if result is not None:
            self._result = (table.id, result)
        return result

    async def hint(self, table_id: int, turn: int) -> None:
        """The strong computer's advice for the seat, asked when it had made ``turn`` moves: sent with the table
        and that turn (the page shows it only while its screen is still of that moment), and not at all once the
        seat has moved since, nor a refusal that only says it is no longer on turn: advice for a moment gone."""
        user = self.session.user_id
        try:
            hint = await self.source.hint(table_id, user)
            hand = await self.source.hand(table_id, user)
        except TableError as error:
            if not await self._moved_since(table_id, turn):
                await self.refuse_table(error)
            return
        if hand.seat.acted != turn:
            return
        message = hint_text(hint, hand.view, self.language)
        await self.send({"type": "hint", "table": table_id, "turn": turn, "message": message})

    async def _moved_since(self, table_id: int, turn: int) -> bool:
        """Whether the user's seat has made a move since it had made ``turn`` (False where it cannot be read)."""
        try:
            hand = await self.source.hand(table_id, self.session.user_id)
        except TableError:
            return False
        return hand.seat.acted != turn

    async def open(self, frame: Open) -> None:
        """A new table in this screen's place, from the lobby form: the service checks the game, its options,
        the seat count and the computers as it checks ``/play``'s (a refusal is said and writes nothing); in
        Discord the chat table posts its lobby in the channel, as ``/play`` would have."""
        session = self.session
        if self.server.in_thread(session.channel_id):  # /play opens none in a thread either
            await self.refuse("error.not_in_thread")
            return
        table = await self.source.open_table(
            session.guild_id,
            session.channel_id,
            session.user_id,
            session.name,
            frame.game,
            dict(frame.options),
            frame.players,
            frame.hints,
            list(frame.computers),
        )
        await self.show(table.id)

    async def replaced(self) -> None:
        """A newer screen of the session took this one's place: the page is told so (and does not reconnect)."""
        await self.ended("activity.replaced")

    async def ended(self, key: str) -> None:
        """The screen may show no more (replaced by a newer one; its session over: its hours up, or Discord no
        longer lists its user in the instance): the page is told why, once, and the socket closed."""
        if self._ended:
            return
        self._ended = True
        await self.refuse(key)
        with contextlib.suppress(ConnectionResetError):
            await self.socket.close(code=WSCloseCode.POLICY_VIOLATION, message=key.encode())

    async def close(self) -> None:
        if self._hinting is not None:
            self._hinting.cancel()
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
        self.table_id = None


class ActivityServer:
    """The aiohttp application: ``/`` the page, ``/api/local/signin`` (local mode), ``/api/token``
    (Discord sign-in, :mod:`activity.identity`), ``/ws`` the screens."""

    def __init__(
        self,
        source: TableSource,
        *,
        local: bool,
        page_dir: Path = PAGE_DIR,
        discord: DiscordSignIn | None = None,
        trusted_proxies: Sequence[Network] = (),
        clock: Clock = time.monotonic,
        hosts: Sequence[str] = (),
        signatures: ProxySignatures | None = None,
        in_thread: Callable[[int], bool] = lambda channel_id: False,
    ) -> None:
        self.source = source
        # whether a channel is a thread (the bot's own knowledge of Discord, beside it): the lobby form opens no
        # table in one, as /play opens none; the service refuses a table's own thread whatever this says
        self.in_thread = in_thread
        self.local = local
        self.signatures = None if local else signatures  # Discord's proxy signature asked of the sign-in
        self.hosts = LocalHosts(hosts)  # local mode: the hosts a request may name (``hosts``: ACTIVITY_HOST's name)
        self.discord = discord  # Discord's sign-in (None in local mode)
        self.client_id = discord.client_id if discord else None  # the application's id: the page's SDK needs it
        self.page_dir = page_dir
        self.trusted_proxies = tuple(trusted_proxies)  # the operator's reverse proxies (ACTIVITY_TRUSTED_PROXIES)
        self.sessions = Sessions(clock)
        self.screens: set[Screen] = set()
        self.frames = Frames()  # each table's latest state frames, built once for all its screens
        self.shown: dict[int, set[Screen]] = {}  # table -> the screens showing it
        self.places = Places(source)  # the places screens wait in for a table, each read once for all of them
        self.rates = Buckets(RATE_PER_SECOND, RATE_BURST, clock)  # user -> the frames their screens may send
        self.sign_ins = Buckets(SIGN_INS_PER_MINUTE / 60, SIGN_IN_BURST, clock)  # address -> Discord sign-ins
        self.local_sign_ins = Buckets(LOCAL_SIGN_INS_PER_MINUTE / 60, LOCAL_SIGN_IN_BURST, clock)  # and local ones
        self.of_session: dict[str, list[Screen]] = {}  # session -> its open screens, oldest first
        self.of_user: dict[int, list[Screen]] = {}  # user -> their open screens, of every session, oldest first
        self.greeting: Counter[str] = Counter()  # address -> its sockets yet to say hello
        self._chores: set[asyncio.Task[None]] = set()
        self._sweeping: asyncio.Task[None] | None = None

    def showing(self, screen_: Screen, was: int | None, now: int | None) -> None:
        """``screen_`` shows ``now`` instead of ``was``; a table no screen shows any more has its frames dropped."""
        if was is not None:
            screens = self.shown.get(was, set())
            screens.discard(screen_)
            if not screens:
                self.shown.pop(was, None)
                self.frames.forget(was)
        if now is not None:
            self.shown.setdefault(now, set()).add(screen_)

    def on_screen(self, table_id: int, user_id: int) -> bool:
        """Whether ``user_id`` has ``table_id`` open on a screen here (the chat table need not ping them)."""
        return any(s.session.user_id == user_id and not s.socket.closed for s in self.shown.get(table_id, ()))

    def app(self) -> web.Application:
        guards = [self._other_sites] if self.local else [self._through_discord] if self.signatures else []
        app = web.Application(client_max_size=16 * 1024, middlewares=[_polite, *guards])
        app.router.add_get("/", self.index)
        app.router.add_get("/ws", self.websocket)
        app.router.add_post("/api/local/signin", self.local_sign_in)
        app.router.add_post("/api/token", self.discord_sign_in)
        app.router.add_get("/api/mode", self.mode)
        if (self.page_dir / "assets").is_dir():
            app.router.add_static("/assets", self.page_dir / "assets")
        app.on_response_prepare.append(self._security_headers)
        app.on_startup.append(self._start_sweeping)
        app.on_shutdown.append(self._close_screens)
        app.on_cleanup.append(self._close_discord)
        return app

    async def _start_sweeping(self, app: web.Application) -> None:
        self._sweeping = asyncio.create_task(self._sweep_forever(), name="activity-sweep")

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:  # a sweep that failed is tried again at the next
                log.exception("the open screens' sessions could not be checked")

    async def sweep(self) -> None:
        """Every open screen's session checked as a frame of it would check it (:meth:`_over`): a screen that sends
        nothing, a watcher's, does not outlive its session's hours nor its user's leaving the instance (a no from
        Discord's answer kept is confirmed with Discord first; a stale answer is asked again meanwhile, for the
        next sweep). Each ended screen is told why, and closed."""
        for screens in list(self.of_session.values()):
            if screens:
                await self._over(screens[0].session, asking=False)

    @web.middleware
    async def _through_discord(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """With ``ACTIVITY_PUBLIC_KEY`` set: a sign-in that did not come through Discord's proxy, signed by Discord
        (:mod:`activity.proxy`), is refused before anything is read, asked of Discord or counted against the limits
        the players behind that proxy share."""
        assert self.signatures is not None
        if request.path not in SIGNED_PATHS:
            return await handler(request)
        why = self.signatures.refused(request.headers)
        if why is None:
            return await handler(request)
        log.info("refused %s: %s", request.path, why)
        language = _language_in(None, request)
        return web.json_response(
            {"error": translate(language, NOT_THROUGH_DISCORD), "key": NOT_THROUGH_DISCORD}, status=401
        )

    @web.middleware
    async def _other_sites(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Local mode: a request naming a host that could be another site's (DNS rebinding), or sent by another
        site's page, is refused before anything is read or made (:mod:`activity.origins`)."""
        host = request.headers.get(hdrs.HOST)
        if host is not None and not self.hosts.allows(host):
            key = WRONG_HOST
        elif not same_origin(request.headers.get(hdrs.ORIGIN), host):
            key = WRONG_ORIGIN
        else:
            return await handler(request)
        log.info("refused %s: Host %r, Origin %r", request.path, host, request.headers.get(hdrs.ORIGIN))
        language = _language_in(None, request)
        return web.json_response({"error": translate(language, key), "key": key}, status=403)

    async def _security_headers(self, request: web.Request, response: web.StreamResponse) -> None:
        """Every answer (the page, its assets, the API, a refusal): no other site's script or frame, no sniffing
        of types, no address of ours in a referrer."""
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        response.headers[hdrs.SERVER] = SERVER  # (aiohttp wrote its own before this hook)
        if request.get(CLOSE_AFTER):
            response.force_close()

    @property
    def page_built(self) -> bool:
        """Whether the page is built (``npm run build`` in activity/page): without it every screen is refused."""
        return (self.page_dir / "index.html").exists()

    async def index(self, request: web.Request) -> web.StreamResponse:
        page = self.page_dir / "index.html"
        if not page.exists():
            return web.Response(status=503, text=NOT_BUILT)
        return web.FileResponse(page, headers={"Cache-Control": "no-cache"})

    async def mode(self, request: web.Request) -> web.Response:
        client = str(self.client_id) if self.client_id else None
        # A stand-in for Discord (the tests' double, DISCORD_API_BASE): the page may run the SDK's mock there.
        stand_in = self.discord is not None and not self.discord.api.startswith(DISCORD)
        return web.json_response({"local": self.local, "client_id": client, "stand_in": stand_in})

    async def local_sign_in(self, request: web.Request) -> web.Response:
        """Local mode only: a name for this browser tab (no Discord account), in a room (a channel). An address
        signs in at most ``LOCAL_SIGN_IN_BURST`` at once, then ``LOCAL_SIGN_INS_PER_MINUTE`` a minute: each
        sign-in is a session kept for hours, and one address cannot fill the sessions of everyone else."""
        if not self.local:
            raise web.HTTPNotFound()
        body, refused = await _json_body(request)
        language = _language_in(body, request)
        wait = self.local_sign_ins.take(client_address(request, self.trusted_proxies))
        if wait > 0:
            return self._too_many(language, wait)
        if refused is not None:
            return web.json_response({"error": translate(language, refused), "key": refused}, status=400)
        name = clean_name(body.get("name", "")) if isinstance(body, dict) and isinstance(body.get("name"), str) else ""
        room = body.get("room", 1) if isinstance(body, dict) else None
        if not name:
            return web.json_response(
                {"error": translate(language, "activity.bad_name"), "key": "activity.bad_name"}, status=400
            )
        if not isinstance(room, int) or isinstance(room, bool) or not 1 <= room <= MAX_ROOM:
            return web.json_response(
                {"error": translate(language, "activity.bad_room"), "key": "activity.bad_room"}, status=400
            )
        session = self.sessions.make(self.sessions.local_user_id(name), name, LOCAL_GUILD, room, local=True)
        return web.json_response({"session": session.key, "user": {"id": str(session.user_id), "name": name}})

    async def discord_sign_in(self, request: web.Request) -> web.Response:
        """Inside Discord: the code from the SDK's ``authorize`` and the instance id, checked with Discord
        itself (:mod:`activity.identity`); the answer is a session for this user in the instance's channel.

        Each call may cost the bot's own address calls to Discord: an address past its sign-ins, a code that
        cannot be one, and any sign-in while Discord asked us to wait are refused here, without asking it."""
        if self.discord is None:
            raise web.HTTPNotFound()
        body, refused = await _json_body(request)
        try:
            if refused is not None:
                raise ValueError(refused)
            asked = TokenRequest.model_validate(body)
        except (ValidationError, ValueError):  # refused here, at no cost to anyone: not counted
            key = refused or "activity.bad_frame"
            return web.json_response({"error": translate(_language_in(body, request), key), "key": key}, status=400)
        language = language_of(asked.language)
        wait = self.sign_ins.take(self._counted_as(request))
        if wait > 0:
            return self._too_many(language, wait)
        try:
            user = await self.discord.sign_in(asked.code, asked.instance_id)
        except SignInRefused as why:
            if why.retry_after is not None:
                return self._too_many(language, why.retry_after)
            status = 502 if why.key == "activity.discord_unreachable" else 403
            return web.json_response({"error": translate(language, why.key), "key": why.key}, status=status)
        name = clean_name(user.name)
        session = self.sessions.make(
            user.user_id, name, user.guild_id, user.channel_id, local=False, instance_id=user.instance_id
        )
        return web.json_response(
            {
                "session": session.key,
                "user": {"id": str(user.user_id), "name": session.name},
                "access_token": user.access_token,
            }
        )

    def _counted_as(self, request: web.Request) -> str:
        """Whom a sign-in or a socket yet to say hello counts against. Inside Discord every request comes from its
        proxy's few addresses, which all its players share: with ``ACTIVITY_PUBLIC_KEY`` set, a request its proxy
        signed counts against the player it was signed for (one person cannot spend everyone's places), one it did
        not sign against its address, apart from the signed ones (from anywhere: the page's address is public);
        without the key, against its address."""
        address = ADDRESS + client_address(request, self.trusted_proxies)
        if self.signatures is None:
            return address
        signer = self.signatures.signer(request.headers)
        if signer is None:
            return address + " unsigned"
        return address if signer == ANYONE else signer  # (signed for nobody named: the address all share)

    @staticmethod
    def _too_many(language: str, wait: float) -> web.Response:
        """A sign-in refused until ``wait`` seconds have passed: said in the reader's language, and in
        ``Retry-After``."""
        seconds = whole_seconds(wait)
        return web.json_response(
            {"error": translate(language, TOO_MANY, seconds=seconds), "key": TOO_MANY, "retry_after": seconds},
            status=429,
            headers={"Retry-After": str(seconds)},
        )

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        # A message up to MAX_MESSAGE is read and refused as too long, in the screen's language; past it aiohttp
        # closes the connection with WebSocket's own "message too big" (1009), never reading it into memory.
        client = self._counted_as(request)
        most = GREETING_PER_CLIENT if client.startswith(ADDRESS) else GREETING_PER_SIGNER
        if self.greeting[client] >= most:  # refused before the upgrade: the page tries again later
            raise web.HTTPTooManyRequests(headers={"Retry-After": str(whole_seconds(HELLO_SECONDS))})
        socket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30.0)
        self.greeting[client] += 1
        try:
            await socket.prepare(request)
            hello = await self._hello(socket, request)
        finally:
            self.greeting[client] -= 1
            if self.greeting[client] <= 0:
                del self.greeting[client]
        if hello is None:
            return socket
        session, language, table = hello
        screen_ = Screen(self, socket, session, language)
        try:
            self._opened(screen_)
            await screen_.send(
                {
                    "type": "hello",
                    "user": {"id": str(session.user_id), "name": session.name},
                    "local": session.local,
                    "language": language,
                    "games": games_catalogue(language),
                }
            )
            await screen_.show(table)
            await self._serve(screen_)
        finally:
            self._closed(screen_)
            await screen_.close()
        return socket

    async def _serve(self, screen_: Screen) -> None:
        """The screen's frames, each in its turn: every frame (of any type) draws on its user's bucket first; a
        flood is told once, and a socket that goes on flooding is closed."""
        socket, bucket = screen_.socket, self.rates.of(screen_.session.user_id)
        refused = 0
        async for message in socket:
            if message.type in ENDED:
                break
            if not bucket.take():
                refused += 1
                if refused == 1:
                    await screen_.refuse("activity.too_fast")
                elif refused >= FLOOD_CLOSE:
                    await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too fast")
                    break
                continue
            refused = 0
            if message.type != WSMsgType.TEXT:
                await screen_.refuse("activity.bad_frame")
                continue
            over = await self._over(screen_.session, asking=False)
            if over is not None:  # a socket opened while the session held does not outlive it
                await screen_.ended(over)
                break
            try:
                frame = parse(message.data)
            except BadFrame as why:
                await screen_.refuse("activity.too_long" if str(why) == "too_long" else "activity.bad_frame")
                continue
            await screen_.handle(frame)

    async def _over(self, session: Session, *, asking: bool = True) -> str | None:
        """Why ``session`` holds no more (None: it holds): its hours are up (``activity.signed_out``), or Discord
        no longer lists its user in its instance (from an answer at most ``INSTANCE_SECONDS`` old, shared by the
        instance's screens: waited for at a screen's hello (``asking``), else the one known, a stale one asked
        again meanwhile); then it is dropped, and every other screen of it ends too."""
        if self.sessions.get(session.key) is None:
            why: str | None = "activity.signed_out"
        elif session.instance_id is None or self.discord is None:
            return None
        else:
            where = (session.instance_id, session.user_id, session.channel_id)
            if asking:
                why = await self.discord.recheck(*where)
            else:  # an open screen's frame: a no from the answer kept is confirmed with Discord before it ends
                why = self.discord.still_listed(*where)
                why = await self.discord.confirmed(*where) if why is not None else None
        if why is not None:
            self.sessions.drop(session.key)
            for other in list(self.of_session.get(session.key, [])):
                chore = asyncio.create_task(other.ended(why), name="screen-ended")
                self._chores.add(chore)
                chore.add_done_callback(self._chores.discard)
        return why

    def _opened(self, screen_: Screen) -> None:
        """A new screen of its session: past SCREENS_PER_SESSION the oldest goes (told why), so a page reloaded
        while its old socket lingers still opens, and no session holds more than that many; past SCREENS_PER_USER
        screens of one person (a new session each sign-in), their oldest goes too."""
        self.screens.add(screen_)
        mine = self.of_session.setdefault(screen_.session.key, [])
        mine.append(screen_)
        theirs = self.of_user.setdefault(screen_.session.user_id, [])
        theirs.append(screen_)
        while len(mine) > SCREENS_PER_SESSION:
            self._replace(mine[0])
        while len(theirs) > SCREENS_PER_USER:
            self._replace(theirs[0])

    def _replace(self, screen_: Screen) -> None:
        """``screen_`` leaves the counts at once, and is told it was replaced and closed."""
        self._forget(screen_)
        chore = asyncio.create_task(screen_.replaced(), name="screen-replaced")
        self._chores.add(chore)
        chore.add_done_callback(self._chores.discard)

    def _closed(self, screen_: Screen) -> None:
        self.screens.discard(screen_)
        self._forget(screen_)

    def _forget(self, screen_: Screen) -> None:
        _drop(self.of_session, screen_.session.key, screen_)
        _drop(self.of_user, screen_.session.user_id, screen_)

    async def _hello(
        self, socket: web.WebSocketResponse, request: web.Request
    ) -> tuple[Session, str, int | None] | None:
        """The socket's session, language and table to show, from its first frame; None: refused (told why,
        where the socket is still open) or gone."""
        # until the hello says which (a refusal of a hello that says it is in its language), the upgrade's
        # Accept-Language, as every refusal over HTTP: no hello in time, a binary or unreadable one
        language = _language_in(None, request)

        async def refuse(key: str) -> None:
            if socket.closed:
                return
            with contextlib.suppress(ConnectionResetError):  # the page went meanwhile
                await socket.send_str(json.dumps({"type": "error", "key": key, "message": translate(language, key)}))
                await socket.close()

        try:
            async with asyncio.timeout(HELLO_SECONDS):  # one deadline: each ping aiohttp answers would restart
                message = await socket.receive()  # a per-receive timeout
        except TimeoutError:
            await refuse("activity.hello_timeout")
            return None
        if message.type in ENDED:
            return None
        if message.type != WSMsgType.TEXT:
            await refuse("activity.bad_frame")
            return None
        try:
            hello = parse(message.data)
        except BadFrame:
            hello = None
        if isinstance(hello, Hello):
            language = language_of(hello.language)
        else:  # what the frame names, if anything
            language = _language_in(_loads(message.data), request)
        if not isinstance(hello, Hello):
            await refuse("activity.bad_frame")
            return None
        session = self.sessions.get(hello.session)
        if session is None:
            await refuse("activity.signed_out")
            return None
        if not self.rates.of(session.user_id).take():  # a hello is a frame: sockets opened in a loop are one flood
            await refuse("activity.too_fast")
            return None
        # Still in the instance? A user who left it (or was moved out of the channel) signs in no more.
        why = await self._over(session)
        if why is not None:
            await refuse(why)
            return None
        return session, language, hello.table

    async def _close_discord(self, app: web.Application) -> None:
        if self.discord is not None:
            await self.discord.close()

    async def _close_screens(self, app: web.Application) -> None:
        if self._sweeping is not None:
            self._sweeping.cancel()
        for screen_ in list(self.screens):
            await screen_.close()
            await screen_.socket.close()


def _drop(held: dict[Key, list[Screen]], key: Key, screen_: Screen) -> None:
    """``screen_`` out of ``held[key]``, and the key out once it holds none."""
    mine = held.get(key, [])
    if screen_ in mine:
        mine.remove(screen_)
    if not mine:
        held.pop(key, None)
