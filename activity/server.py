"""The Activity's web server, in the bot's own process: the built page, sign-in, and a WebSocket per screen.

``/ws``: the first frame is ``hello`` with the session's key; the server then sends the screen
(``{"type": "state", "table": ...}``: ``view(seat)`` for a seated player, ``view(None)`` for a
watcher) and again after every change of the table. Every frame in is parsed strictly
(:mod:`activity.frames`) and rate-limited; a refusal is ``{"type": "error", "message": ...}`` in
the reader's language and writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web
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
from bot.words import error_text, hint_text

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
from .identity import DISCORD, DiscordSignIn, SignInRefused
from .screen import review_screen, screen, seat_label
from .sessions import LOCAL_GUILD, Session, Sessions, clean_name
from .source import TableSource
from .state_frames import Frames, frame_of, frame_text

log = logging.getLogger(__name__)

PAGE_DIR = Path(__file__).parent / "page" / "dist"
HELLO_SECONDS = 10.0
RATE_PER_SECOND = 8.0
RATE_BURST = 16.0
MAX_ROOM = 1_000_000
MAX_MESSAGE = 256 * 1024  # bytes: the longest WebSocket message read (a frame itself is at most MAX_FRAME)
IDLE_POLL = 1.0  # a screen with no table here looks for one made meanwhile (another tab's) this often


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
    body = _loads(raw)
    return body, None if body is not None else "activity.bad_frame"


def _language_in(body: Any) -> str:
    """The language a request or frame asks to be answered in, even one refused for the rest (English
    where it names none)."""
    language = body.get("language") if isinstance(body, dict) else None
    return language_of(language) if isinstance(language, str) else DEFAULT


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


class Bucket:
    """A token bucket: ``rate`` frames a second, ``burst`` at once."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


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
                await self.socket.send_str(text)

    async def refuse(self, key: str, **params: Any) -> None:
        await self.send({"type": "error", "key": key, "message": translate(self.language, key, **params)})

    async def refuse_table(self, error: TableError) -> None:
        key = "error.stale_hand" if isinstance(error, StaleAction) else f"error.{error.key}"
        message = translate(self.language, key) if isinstance(error, StaleAction) else error_text(error, self.language)
        await self.send({"type": "error", "key": key, "message": message})

    def in_place(self, table: TableInfo) -> bool:
        """A screen only ever shows the tables of its own place (its instance's channel or thread, or its room)."""
        session = self.session
        return table.guild_id == session.guild_id and session.channel_id in (table.channel_id, table.thread_id)

    async def show(self, table_id: int | None) -> None:
        """Show ``table_id`` (None: the place's open table, else the lobby form) and follow its changes."""
        if table_id is not None:
            try:
                table = await self.source.table(table_id)
            except TableError as error:
                await self.refuse_table(error)
                return
            if not self.in_place(table):
                await self.refuse("activity.not_here")
                return
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
        self.table_id = table_id
        self._pusher = asyncio.create_task(self._push(table_id), name=f"screen-{self.session.user_id}")

    async def _push(self, table_id: int | None) -> None:
        try:
            if table_id is None:
                tables = await self._open_here()
                shown: list[int] | None = None
                while len(tables) != 1:  # none yet, or several to choose from: look again now and then
                    if [t.id for t in tables] != shown:
                        shown = [t.id for t in tables]
                        await self.send({"type": "state", "table": None, "tables": self._choosable(tables)})
                    await asyncio.sleep(IDLE_POLL)
                    tables = await self._open_here()
                table_id = self.table_id = tables[0].id
            async for _version in self.source.subscribe(table_id):
                await self.send_text(await self.state_frame(table_id))
        except asyncio.CancelledError:
            raise
        except TableError as error:
            await self.refuse_table(error)
        except Exception:
            log.exception("screen of table %s failed", table_id)

    async def _open_here(self) -> list[TableInfo]:
        """The open tables of this screen's place (its channel, tables in threads of their own, or its thread)."""
        return [t for t in await self.source.tables_in_channel(self.session.channel_id) if self.in_place(t)]

    def _choosable(self, tables: list[TableInfo]) -> list[dict[str, Any]]:
        language = self.language
        return [
            {
                "id": t.id,
                "title": translate(language, "table.title", game=translate(language, f"game.{t.game}"), table=t.id),
                "seated": ", ".join(seat_label(t, s.index, language) for s in t.seats),
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
        if public is None or table.status == TableStatus.LOBBY:
            return frame_of(screen(table, public, user_id=user, seat=None, legal=[], language=self.language))
        if hand is None:
            result = await self.result(table) if table.status == TableStatus.FINISHED else None
            return self.server.frames.frame(table, public, None, None, [], self.language, result)
        table = hand.table
        result = await self.result(table) if table.status == TableStatus.FINISHED else None
        legal = hand.legal if table.status == TableStatus.PLAYING else []
        return self.server.frames.frame(table, public, hand.seat.index, hand.view, legal, self.language, result)

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
                    self._hinting = asyncio.create_task(self.hint(frame.table))
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

    async def hint(self, table_id: int) -> None:
        try:
            hint = await self.source.hint(table_id, self.session.user_id)
            hand = await self.source.hand(table_id, self.session.user_id)
        except TableError as error:
            await self.refuse_table(error)
            return
        await self.send({"type": "hint", "message": hint_text(hint, hand.view, self.language)})

    async def open(self, frame: Open) -> None:
        """A new table in this screen's place, from the lobby form: the service checks the game, its options,
        the seat count and the computers as it checks ``/play``'s (a refusal is said and writes nothing); in
        Discord the chat table posts its lobby in the channel, as ``/play`` would have."""
        session = self.session
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
    ) -> None:
        self.source = source
        self.local = local
        self.discord = discord  # Discord's sign-in (None in local mode)
        self.client_id = discord.client_id if discord else None  # the application's id: the page's SDK needs it
        self.page_dir = page_dir
        self.sessions = Sessions()
        self.screens: set[Screen] = set()
        self.frames = Frames()  # each table's latest state frames, built once for all its screens
        self.shown: dict[int, set[Screen]] = {}  # table -> the screens showing it

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
        app = web.Application(client_max_size=16 * 1024)
        app.router.add_get("/", self.index)
        app.router.add_get("/ws", self.websocket)
        app.router.add_post("/api/local/signin", self.local_sign_in)
        app.router.add_post("/api/token", self.discord_sign_in)
        app.router.add_get("/api/mode", self.mode)
        if (self.page_dir / "assets").is_dir():
            app.router.add_static("/assets", self.page_dir / "assets")
        app.on_shutdown.append(self._close_screens)
        app.on_cleanup.append(self._close_discord)
        return app

    async def index(self, request: web.Request) -> web.StreamResponse:
        page = self.page_dir / "index.html"
        if not page.exists():
            return web.Response(
                status=503,
                text="The Activity's page is not built: run `npm ci && npm run build` in activity/page.",
            )
        return web.FileResponse(page, headers={"Cache-Control": "no-cache"})

    async def mode(self, request: web.Request) -> web.Response:
        client = str(self.client_id) if self.client_id else None
        # A stand-in for Discord (the tests' double, DISCORD_API_BASE): the page may run the SDK's mock there.
        stand_in = self.discord is not None and not self.discord.api.startswith(DISCORD)
        return web.json_response({"local": self.local, "client_id": client, "stand_in": stand_in})

    async def local_sign_in(self, request: web.Request) -> web.Response:
        """Local mode only: a name for this browser tab (no Discord account), in a room (a channel)."""
        if not self.local:
            raise web.HTTPNotFound()
        body, refused = await _json_body(request)
        language = _language_in(body)
        if refused is not None:
            return web.json_response({"error": translate(language, refused), "key": refused}, status=400)
        name = clean_name(body.get("name", "")) if isinstance(body, dict) and isinstance(body.get("name"), str) else ""
        room = body.get("room", 1) if isinstance(body, dict) else None
        if not name or not isinstance(room, int) or isinstance(room, bool) or not 1 <= room <= MAX_ROOM:
            return web.json_response({"error": translate(language, "activity.bad_name")}, status=400)
        session = self.sessions.make(self.sessions.local_user_id(name), name, LOCAL_GUILD, room, local=True)
        return web.json_response({"session": session.key, "user": {"id": str(session.user_id), "name": name}})

    async def discord_sign_in(self, request: web.Request) -> web.Response:
        """Inside Discord: the code from the SDK's ``authorize`` and the instance id, checked with Discord
        itself (:mod:`activity.identity`); the answer is a session for this user in the instance's channel."""
        if self.discord is None:
            raise web.HTTPNotFound()
        body, refused = await _json_body(request)
        try:
            if refused is not None:
                raise ValueError(refused)
            asked = TokenRequest.model_validate(body)
        except (ValidationError, ValueError):
            key = refused or "activity.bad_frame"
            return web.json_response({"error": translate(_language_in(body), key), "key": key}, status=400)
        language = language_of(asked.language)
        try:
            user = await self.discord.sign_in(asked.code, asked.instance_id)
        except SignInRefused as why:
            status = 502 if why.key == "activity.discord_unreachable" else 403
            return web.json_response({"error": translate(language, why.key), "key": why.key}, status=status)
        session = self.sessions.make(user.user_id, clean_name(user.name), user.guild_id, user.channel_id, local=False)
        return web.json_response(
            {
                "session": session.key,
                "user": {"id": str(user.user_id), "name": session.name},
                "access_token": user.access_token,
            }
        )

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        # A message up to MAX_MESSAGE is read and refused as too long, in the screen's language; past it aiohttp
        # closes the connection with WebSocket's own "message too big" (1009), never reading it into memory.
        socket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30.0)
        await socket.prepare(request)
        screen_: Screen | None = None
        bucket = Bucket()
        try:
            screen_ = await self._hello(socket)
            if screen_ is None:
                return socket
            self.screens.add(screen_)
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    if message.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                        break
                    await screen_.refuse("activity.bad_frame")
                    continue
                if not bucket.take():
                    await screen_.refuse("activity.too_fast")
                    continue
                try:
                    frame = parse(message.data)
                except BadFrame as why:
                    await screen_.refuse("activity.too_long" if str(why) == "too_long" else "activity.bad_frame")
                    continue
                await screen_.handle(frame)
        finally:
            if screen_ is not None:
                self.screens.discard(screen_)
                await screen_.close()
        return socket

    async def _hello(self, socket: web.WebSocketResponse) -> Screen | None:
        language = DEFAULT  # until the hello says which (a refusal of a hello that says it is in its language)

        async def refuse(key: str) -> None:
            await socket.send_str(json.dumps({"type": "error", "key": key, "message": translate(language, key)}))
            await socket.close()

        try:
            message = await socket.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            await refuse("activity.bad_frame")
            return None
        if message.type != WSMsgType.TEXT:
            await refuse("activity.bad_frame")
            return None
        try:
            hello = parse(message.data)
        except BadFrame:
            hello = None
        language = language_of(hello.language) if isinstance(hello, Hello) else _language_in(_loads(message.data))
        if not isinstance(hello, Hello):
            await refuse("activity.bad_frame")
            return None
        session = self.sessions.get(hello.session)
        if session is None:
            await refuse("activity.signed_out")
            return None
        screen_ = Screen(self, socket, session, language)
        await screen_.send(
            {
                "type": "hello",
                "user": {"id": str(session.user_id), "name": session.name},
                "local": session.local,
                "language": language,
                "games": games_catalogue(language),
            }
        )
        await screen_.show(hello.table)
        return screen_

    async def _close_discord(self, app: web.Application) -> None:
        if self.discord is not None:
            await self.discord.close()

    async def _close_screens(self, app: web.Application) -> None:
        for screen_ in list(self.screens):
            await screen_.close()
            await screen_.socket.close()
