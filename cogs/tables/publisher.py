"""The public table message, edited in place: at most about once a second per table, the last state always shown.

A touch marks a table dirty; one task per table renders the table as it is *at
the time of the edit* (never an older state), so a burst of moves becomes one
edit and the final state is always the one left on screen.

Each edit takes its token from the REST budget (``bot/rest_budget.py``) at the
lowest priority *before* the table is rendered: however long the wait, what is
sent is the table as it is when the call goes out. Tables waiting for a token
are served first come, first served, and a table that has just edited waits
its interval and then queues behind the others, so under pressure every
table's edits are spaced further apart, fairly, and each still ends showing
its last state.

A lobby is also edited when it changed somewhere other than its own message (a seat taken on an
Activity's screen), coalesced as a table's edits are: an edit that would show a lobby's version
already shown (the click in chat that changed it redrew it in place) is not made at all. A lobby
opened on an Activity's screen is posted in its channel from here (:meth:`Publisher.post`).

Nothing is sent for a table whose server the bot was removed from, or whose channel was deleted; an edit
Discord refuses because the channel is gone (404 Unknown Channel) or the bot may no longer see it or write there
(403 Missing Access, Missing Permissions) is said once in the log, without a traceback, and the table is left
alone for a while (``cogs/unreachable.py``), then tried again at its next change: a table in a channel the bot
cannot see costs one refusal each back-off, not one each move.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

from bot.rest_budget import Priority, RestBudget, rest_priority
from bot.tables import TableError, TableInfo, TableService, TableStatus

from ..charts import FILENAME, running_totals, totals_chart
from ..i18n import t
from ..picture import FILENAME as PICTURE
from ..picture import draw_table
from ..unreachable import Unreachable
from .components import LaunchButton, LobbyButton, RematchButton, ReviewButton
from .hand_components import HandButton
from .picture import table_picture
from .private_threads import open_private_thread
from .render import closed_lobby_embed, game_name, lobby_embed, seat_name, table_embed, turn_line

log = logging.getLogger(__name__)
UNKNOWN_MESSAGE = 10008  # Discord's JSON error code for a message that no longer exists
UNKNOWN_CHANNEL = 10003  # ... for a channel that no longer exists (or never did)
MISSING_ACCESS = 50001  # ... for a channel the bot may not see (or a server it is no longer in)
MISSING_PERMISSIONS = 50013  # ... for something the bot may not do there
THREAD_ARCHIVED = 50083  # ... for a message of an archived thread (closed, or quiet past its auto-archive time)
THREAD_LOCKED = 160005  # ... for a message of a thread a moderator locked
# Discord's own trouble, or the way there (a 503 that discord.py does not retry, a connection reset, a timeout): the
# edit is tried again, 1 s later, then 2, 4 ... up to a minute apart, until one goes through
PASSING = (discord.DiscordServerError, aiohttp.ClientError, TimeoutError)
RETRY_FIRST, RETRY_MOST = 1.0, 60.0
RETRIES = 10  # failed edits of a table in a row tried again by themselves (about six minutes)
POST_TRIES = 3  # a lobby opened on an Activity's screen: posted in three tries, else closed (nobody could see it)


def message_channel(table: TableInfo) -> int:
    """Where the table's message is: a private table's in its private thread, any other's in its channel."""
    return table.thread_id if table.private and table.thread_id is not None else table.channel_id


def lobby_controls(table: TableInfo, locale: Any) -> discord.ui.View:
    """Join and Leave for everyone; computers, hints and Start for the host (the service checks who clicks)."""
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton(table.id, "join", label=t(locale, "lobby.join"), style=discord.ButtonStyle.success))
    view.add_item(LobbyButton(table.id, "leave", label=t(locale, "lobby.leave"), style=discord.ButtonStyle.secondary))
    view.add_item(
        LobbyButton(
            table.id, "cpu", label=t(locale, "lobby.add_computer"), style=discord.ButtonStyle.secondary, emoji="🤖"
        )
    )
    toggle = "hints-off" if table.hints else "hints-on"
    view.add_item(
        LobbyButton(
            table.id, toggle, label=t(locale, f"lobby.{toggle}"), style=discord.ButtonStyle.secondary, emoji="💡"
        )
    )
    view.add_item(LobbyButton(table.id, "start", label=t(locale, "lobby.start"), style=discord.ButtonStyle.primary))
    return view


class Publisher:
    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        locale_of: Callable[[int], Awaitable[str]],
        interval: float = 1.0,
        pictures_wanted: Callable[[int], Awaitable[bool]] | None = None,
        budget: RestBudget | None = None,
        activity: bool = False,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        unreachable: Unreachable | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.locale_of = locale_of  # the language of a guild's public messages
        self.interval = interval
        self.pictures_wanted = pictures_wanted  # a guild's setting: the table drawn, or text only
        self.text_only: set[int] = set()  # tables where the bot may not attach files: told once, then text
        self.budget = budget  # the bot's REST budget: an edit takes its token before the table is rendered
        self.activity = activity  # the Activity is on: the table offers to open it
        self.clock, self.sleep = clock, sleep  # the edits' pace (a test moves a clock of its own)
        # servers left, channels deleted, tables whose edits were refused: nothing sent there (or not for a while)
        self.unreachable = unreachable or Unreachable()
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._later: dict[int, asyncio.Task[None]] = {}  # tables' edits waiting out a refusal's back-off
        self._last: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._rendered: dict[int, int] = {}  # the table's version the last message rendered showed
        self._shown: dict[int, int] = {}  # the version its message shows (a lobby's, or a closed lobby's)
        self._missed: set[int] = set()  # tables whose edit found no message: their place was not known yet
        self._failed: dict[int, int] = {}  # tables whose last edits failed on Discord's side: how many in a row
        self._closing = False  # the bot stops: no edit is tried again later

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def _picture_wanted(self, table: TableInfo, can_attach: bool, locale: str) -> bool:
        if table.status != TableStatus.PLAYING or not can_attach or table.id in self.text_only:
            return False
        return self.pictures_wanted is None or await self.pictures_wanted(table.guild_id)

    async def message(self, table_id: int, *, can_attach: bool = True) -> dict[str, Any]:
        """Everything the public table message shows now: content, embed, controls and attachments
        (the table's picture while it is played, where the server wants it and the bot may attach
        files; the chart of running totals once it is over)."""
        table, public = await self.service.snapshot(table_id)
        self._rendered[table_id] = table.version
        locale = await self.locale_of(table.guild_id)
        if table.status == TableStatus.LOBBY:
            controls = lobby_controls(table, locale)
            if self.activity:
                controls.add_item(LaunchButton(table.id, label=t(locale, "table.open_activity")))
            return {"content": None, "embed": lobby_embed(table, locale), "view": controls}
        if public is None:  # closed before it started
            return {"content": None, "embed": closed_lobby_embed(table, locale), "view": None}
        result = await self.service.table_result(table.id) if table.status == TableStatus.FINISHED else None
        view: discord.ui.View | None = discord.ui.View(timeout=None)
        assert view is not None
        if table.status == TableStatus.PLAYING:
            view.add_item(HandButton(table.id, label=t(locale, "table.show_hand")))
            if self.activity:
                view.add_item(LaunchButton(table.id, label=t(locale, "table.open_activity")))
        elif table.status == TableStatus.FINISHED and not table.private:  # (none in a private thread: refused there)
            view.add_item(RematchButton(table.id, label=t(locale, "table.rematch")))
        if public["last_deal"] is not None and table.status in (TableStatus.PLAYING, TableStatus.FINISHED):
            view.add_item(ReviewButton(table.id, label=t(locale, "table.last_deal")))
        if not view.children:
            view = None
        picture = await self._picture_wanted(table, can_attach, locale)
        # a match over: the chart of its running totals, deal by deal (a file too, where the bot may attach them)
        chart = bool(result is not None and result.get("sheets") and can_attach and table.id not in self.text_only)
        end = await self.service.deal_end(table, public)  # a deal just scored: its last trick, until the next card
        kwargs: dict[str, Any] = {
            "content": turn_line(table, public, locale),
            "embed": table_embed(table, public, locale, result, picture=picture, chart=chart, deal_end=end),
            "view": view,
            "allowed_mentions": discord.AllowedMentions.none(),
            "attachments": [],  # none but what is added below: an old picture goes
        }
        if picture:
            drawn = table_picture(table, public, locale, end)
            png = await asyncio.to_thread(draw_table, drawn)  # drawing takes milliseconds: off the event loop
            kwargs["attachments"] = [discord.File(io.BytesIO(png), filename=PICTURE, description=drawn.alt or None)]
        elif chart and result is not None:
            lines = running_totals(result["sheets"], len(result["seats"]))
            names = [seat_name(table, seat, locale, marked=False) for seat in range(len(result["seats"]))]
            titles = (t(locale, "chart.deals"), t(locale, "chart.points"))
            png = await asyncio.to_thread(totals_chart, lines, names, *titles, t(locale, "picture.undrawn"))
            kwargs["attachments"] = [discord.File(io.BytesIO(png), filename=FILENAME)]
        return kwargs

    async def place(
        self,
        table_id: int,
        *,
        message_id: int,
        thread_id: int | None = None,
        in_channel: bool = False,
        private: bool | None = None,
    ) -> None:
        """Record where a table's new message is (the service's ``set_location``), then have it edited if the
        table changed since it was posted: a change heard before its place was known (a computer seated the
        moment the lobby showed, while its thread was being opened) found no message to edit, and would
        otherwise never be shown. Nothing is sent when the message shows the table's version already and no
        edit went missing meanwhile (a tournament's tables, posted already started: one edit fewer each)."""
        before = await self._version(table_id)
        await self.service.set_location(
            table_id, message_id=message_id, thread_id=thread_id, in_channel=in_channel, private=private
        )
        after = await self._version(table_id)
        missed = table_id in self._missed
        self._missed.discard(table_id)
        shown = self._shown.get(table_id)
        # recording the place is itself a change of the table (one version) that the message does not show
        if not missed and shown is not None and before is not None and before <= shown and after == before + 1:
            self._shown[table_id] = after
            return
        self.touch(table_id)

    async def _version(self, table_id: int) -> int | None:
        try:
            return (await self.service.table(table_id)).version
        except Exception:
            return None

    def touch(self, table_id: int) -> None:
        """The table changed: edit its message soon (coalesced)."""
        self._dirty.add(table_id)
        task = self._tasks.get(table_id)
        if task is None or task.done():
            self._tasks[table_id] = asyncio.create_task(self._run(table_id), name=f"publish-{table_id}")

    def mark_shown(self, table_id: int, version: int | None = None) -> None:
        """An interaction response just showed the table as it is (``version``, else the one :meth:`message` last
        rendered): the next edit waits its turn, and none is made for a lobby that shows this version already."""
        self._last[table_id] = self.clock()
        self._failed.pop(table_id, None)  # shown: any trouble before is over
        shown = self._rendered.get(table_id) if version is None else version
        if shown is not None:
            self._shown[table_id] = max(shown, self._shown.get(table_id, -1))

    async def _shows_already(self, table_id: int) -> bool:
        """Whether the message of a lobby (open or closed before it started) shows its present version: then
        there is nothing to edit. Taken under the table's lock, after any click that is redrawing it in place."""
        async with self.lock(table_id):
            try:
                table = await self.service.table(table_id)
            except Exception:
                return False
            if table.status not in (TableStatus.LOBBY, TableStatus.ABANDONED):
                return False
            return self._shown.get(table_id, -1) >= table.version

    async def _run(self, table_id: int) -> None:
        with rest_priority(Priority.EDIT):
            while table_id in self._dirty:
                wait = self._last.get(table_id, 0.0) + self.interval - self.clock()
                if wait > 0:
                    await self.sleep(wait)
                # Taken before the check: a change heard while it reads the table marks it again (discarded
                # after, that change would be lost, and the message would stay a version behind for good).
                self._dirty.discard(table_id)
                if self.unreachable.held_back(table_id):  # refused a moment ago: tried again once that is over,
                    self._after_back_off(table_id)  # as it is then (a change meanwhile is not lost)
                    continue
                if await self._shows_already(table_id):  # a click in chat redrew it: no call at all
                    continue
                # The token first (behind every table already waiting), then the table as it is by then.
                async with self._token():
                    self._dirty.discard(table_id)
                    try:
                        await self.edit(table_id)
                    except PASSING as trouble:
                        self._try_again(table_id, trouble)
                    except Exception:
                        log.exception("could not update the message of table %s", table_id)
                self._last[table_id] = self.clock()

    def _try_again(self, table_id: int, trouble: Exception) -> None:
        """Discord failed the edit on its side (or the way there): the table is edited again a while later, as it
        is then, the wait doubling each failure in a row (said once, then quietly); after :data:`RETRIES` in a row,
        or once the bot stops, only its next change tries again."""
        failures = self._failed.get(table_id, 0) + 1
        self._failed[table_id] = failures
        if self._closing or failures > RETRIES:
            log.info("the edit of table %s waits for its next change (%s failures in a row)", table_id, failures)
            return
        delay = min(RETRY_MOST, RETRY_FIRST * 2 ** min(failures - 1, 10))
        (log.warning if failures == 1 else log.info)(
            "Discord did not take the edit of table %s (%s): trying again in %.0f s",
            table_id,
            getattr(trouble, "status", None) or type(trouble).__name__,
            delay,
        )
        later = self._later.get(table_id)
        if later is None or later.done():
            self._later[table_id] = asyncio.create_task(
                self._touch_after(table_id, delay), name=f"publish-retry-{table_id}"
            )

    async def _touch_after(self, table_id: int, delay: float) -> None:
        await self.sleep(delay)
        self._later.pop(table_id, None)
        self.touch(table_id)

    def _after_back_off(self, table_id: int) -> None:
        """Edit the table once its back-off is over: the latest of the changes it held back is shown then."""
        later = self._later.get(table_id)
        if later is None or later.done():
            self._later[table_id] = asyncio.create_task(self._touch_later(table_id), name=f"publish-later-{table_id}")

    async def _touch_later(self, table_id: int) -> None:
        await self.sleep(self.unreachable.left(table_id))
        if not self.unreachable.held_back(table_id):  # (refused again meanwhile: that refusal's own back-off)
            self.touch(table_id)
        else:
            self._later.pop(table_id, None)
            self._after_back_off(table_id)

    def _token(self) -> contextlib.AbstractAsyncContextManager[None]:
        if self.budget is None:
            return contextlib.nullcontext()
        return self.budget.reserved(Priority.EDIT)

    async def edit(self, table_id: int) -> None:
        async with self.lock(table_id):
            table = await self.service.table(table_id)
            if self.unreachable.gone(table):  # the bot left its server, or its channel was deleted: nothing to do
                self._forget(table_id)
                return
            if self.unreachable.held_back(table_id):
                return
            if table.message_id is None:  # not placed yet: :meth:`place` has it edited once it is
                self._missed.add(table_id)
                return
            kwargs = await self.message(table_id)
            channel = self.client.get_partial_messageable(message_channel(table), guild_id=table.guild_id)
            try:
                await channel.get_partial_message(table.message_id).edit(**kwargs)
                self._shown_now(table)
            except discord.NotFound as gone:
                if gone.code == UNKNOWN_CHANNEL and table.private and table.thread_id is not None:
                    # its private thread was deleted while the bot did not hear it (away, or the event lost):
                    # the table goes on in a new one, as when it is heard
                    self.unreachable.channel_deleted(table.thread_id)
                    await self.service.thread_deleted(table.thread_id)
                    await self._post_again(await self.service.table(table_id), channel)
                    return
                if gone.code == UNKNOWN_CHANNEL:
                    self._refused(table, gone)
                    return
                if gone.code != UNKNOWN_MESSAGE:
                    raise
                await self._post_again(table, channel)
            except discord.Forbidden as refused:
                if refused.code in (THREAD_ARCHIVED, THREAD_LOCKED):  # (whichever status Discord answers it with)
                    await self._thread_closed(table, channel, refused)
                    return
                if refused.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
                    raise
                if refused.code == MISSING_ACCESS or not kwargs["attachments"]:
                    self._refused(table, refused)
                    return
                # No Attach Files here (the table's picture, or the chart of a match over): the table goes on as
                # text, and its host is told once why.
                self.text_only.add(table_id)
                kwargs = await self.message(table_id)
                try:
                    await channel.get_partial_message(table.message_id).edit(**kwargs)
                except discord.Forbidden as again:  # refused without a file too: files were not why
                    self.text_only.discard(table_id)
                    if again.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
                        raise
                    self._refused(table, again)
                    return
                self._shown_now(table)
                await self._tell_host_text_only(table)
            except discord.HTTPException as closed:
                if closed.code not in (THREAD_ARCHIVED, THREAD_LOCKED):
                    raise
                await self._thread_closed(table, channel, closed)

    async def _thread_closed(
        self, table: TableInfo, channel: discord.PartialMessageable, closed: discord.HTTPException
    ) -> None:
        """A private table's thread archived (quiet past its auto-archive time, or closed): opened again, the table
        goes on in it, drawn afresh (the refused edit's picture was read to its end); locked by a moderator, or not
        to be opened, it is left alone for the back-off, as any refusal."""
        if table.message_id is None or message_channel(table) == table.channel_id:
            raise closed
        if closed.code == THREAD_ARCHIVED and await self._opened_again(message_channel(table)):
            await channel.get_partial_message(table.message_id).edit(**await self.message(table.id))
            self._shown_now(table)
            return
        self._refused(table, closed)

    async def _opened_again(self, thread_id: int) -> bool:
        """Unarchive a thread (Send Messages in Threads is enough, unless it is locked): whether it worked."""
        try:
            await self.client.http.edit_channel(thread_id, archived=False)
        except (discord.HTTPException, aiohttp.ClientError):
            return False
        log.info("thread %s was archived: opened again", thread_id)
        return True

    def _shown_now(self, table: TableInfo) -> None:
        if self._failed.pop(table.id, None) is not None:
            log.info("the message of table %s was edited again after Discord's trouble", table.id)
        self.mark_shown(table.id)
        if self.unreachable.accepted(table.id):
            log.info("the message of table %s can be edited again", table.id)

    def _refused(self, table: TableInfo, error: discord.HTTPException) -> None:
        """Discord refused to let the table's message be edited (its channel gone, or the bot may not see it or
        write there): said once, and the table left alone for a while, then tried again at its next change."""
        seconds = self.unreachable.back_off
        if self.unreachable.refused(table.id):
            log.warning(
                "Discord refused the edit of table %s in channel %s (%s, code %s): its edits wait %.0f s, then its "
                "next change tries again",
                table.id,
                table.channel_id,
                error.status,
                error.code,
                seconds,
            )
        else:
            log.info(
                "the edit of table %s was refused again (code %s): waiting %.0f s more", table.id, error.code, seconds
            )

    def _forget(self, table_id: int) -> None:
        """A table whose server or channel is gone: nothing of it is kept, nothing more is sent."""
        self._dirty.discard(table_id)
        for kept in (self._last, self._rendered, self._shown, self._failed):
            kept.pop(table_id, None)
        self._missed.discard(table_id)
        self.text_only.discard(table_id)
        self.unreachable.forget(table_id)
        later = self._later.pop(table_id, None)
        if later is not None:
            later.cancel()

    async def _post_again(self, table: TableInfo, channel: discord.PartialMessageable) -> None:
        """The table's message was deleted in Discord (someone with Manage Messages, or a bot): the table is
        posted again in its channel, as it is now, so its players keep their Show my hand button; if it
        cannot be (the channel is gone, or the bot may no longer write there), one line says so."""
        log.warning("the message of table %s was deleted in Discord: posting the table again", table.id)
        people = [seat.user_id for seat in table.seats if seat.user_id is not None]
        made = False
        try:
            if table.private and self.unreachable.where(table) is None:  # its private thread was deleted
                locale = await self.locale_of(table.guild_id)
                name = t(locale, "lobby.thread", game=game_name(table.game, locale), table=table.id)
                thread_id = await open_private_thread(self.client.http, table.channel_id, name, people)
                # kept at once: a failure from here on posts in this thread next time, never opens another
                await self.service.set_location(table.id, thread_id=thread_id)
                channel = self.client.get_partial_messageable(thread_id, guild_id=table.guild_id)
                made = True
            message = await self.send_new(channel, table.id)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            if isinstance(error, discord.HTTPException) and error.status in (403, 404):
                self._refused(table, error)  # the channel is gone, or closed to the bot: not again each move
                return
            log.warning("could not post table %s again in its channel (%s)", table.id, error)
            return
        await self.service.set_location(table.id, message_id=message.id)
        self.mark_shown(table.id)
        if made and people:  # its people told where it went on (a private thread's is found by being in it)
            locale = await self.locale_of(table.guild_id)
            mentions = " ".join(f"<@{user}>" for user in people)
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
                await channel.send(
                    t(locale, "table.private_again", who=mentions),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in people]),
                )

    async def send_new(
        self, channel: discord.abc.Messageable, table_id: int, *, nonce: str | None = None
    ) -> discord.Message:
        """Post the table's message anew in ``channel`` (a new message takes files, an edit attachments). Where the
        bot may not attach files there (Missing Permissions, the message carrying a file), the table is posted as
        text, as an edit would go on; refused again without a file, the refusal is the caller's. ``nonce``: a post
        that may be tried again (a tournament's table, whose first try's answer may have been lost after Discord
        made it) gets, within a few minutes, the message made the first time rather than a second one."""
        unique: dict[str, Any] = {} if nonce is None else {"nonce": nonce}
        kwargs = _new_message(await self.message(table_id))
        try:
            return await channel.send(**kwargs, **unique)
        except discord.Forbidden as refused:
            if refused.code != MISSING_PERMISSIONS or not kwargs["files"]:
                raise
        self.text_only.add(table_id)
        try:
            return await channel.send(**_new_message(await self.message(table_id)), **unique)
        except discord.Forbidden:  # files were not why
            self.text_only.discard(table_id)
            raise

    async def post(self, table_id: int) -> None:
        """Post in its channel a lobby opened on an Activity's screen, as ``/play`` posts one (the same message and
        controls); if it cannot be posted (the bot may not write there), the lobby is closed: nobody could see it."""
        async with self.lock(table_id):
            table = await self.service.table(table_id)
            if table.message_id is not None or table.status != TableStatus.LOBBY or self.unreachable.gone(table):
                return
            kwargs = await self.message(table_id)
            channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            message: discord.Message | None = None
            for attempt in range(POST_TRIES):
                try:
                    with rest_priority(Priority.PING):  # an answer of sorts: before table edits
                        # (the nonce: a post tried again after an answer lost once Discord had made it gets that
                        # message back, not a second one)
                        message = await channel.send(**kwargs, nonce=f"lb{table_id}")
                    break
                except PASSING as trouble:  # Discord's trouble: tried again a moment later
                    log.info("the lobby of table %s could not be posted yet (%s)", table_id, type(trouble).__name__)
                    if attempt + 1 < POST_TRIES:
                        await self.sleep(RETRY_FIRST * 2**attempt)
                except (discord.HTTPException, aiohttp.ClientError):
                    break
            if message is None:
                log.warning("could not post the lobby of table %s in its channel: it is closed", table_id)
                with contextlib.suppress(TableError):
                    await self.service.abandon(table_id, table.host_id, can_manage=True)
                return
            await self.service.set_location(table_id, message_id=message.id)
            self.mark_shown(table_id)
        self.touch(table_id)  # a seat taken while it was posted: shown with the next edit (none if nothing changed)

    async def _tell_host_text_only(self, table: TableInfo) -> None:
        place = self.unreachable.where(table)
        if place is None:
            return
        if table.private and table.seat_of(table.host_id) is None:
            # a duplicate night's host, at another table: mentioned in this table's private thread, Discord would
            # add them to it (they would see how its deals went while theirs is still being played)
            log.info("table %s is shown as text; its host is not at it, so is not told there", table.id)
            return
        locale = await self.locale_of(table.guild_id)
        where = self.client.get_partial_messageable(place, guild_id=table.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await where.send(
                t(locale, "table.text_only", host=f"<@{table.host_id}>"),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(table.host_id)]),
            )

    async def flush(self, timeout: float = 10.0) -> None:
        """Wait for every pending edit (used when shutting down), ``timeout`` seconds at most: under a
        tight REST budget edits queue for long, and a stop must not wait for them all (the database
        is the truth, and the next move at a table draws its message again)."""
        self._closing = True  # an edit failing from here on is not tried again later
        for later in self._later.values():  # a table waiting out a refusal is drawn at its next change
            later.cancel()
        await asyncio.gather(*self._later.values(), return_exceptions=True)
        self._later.clear()
        tasks = [task for task in self._tasks.values() if not task.done()]
        if not tasks:
            return
        _, late = await asyncio.wait(tasks, timeout=timeout)
        for task in late:
            task.cancel()
        if late:
            log.warning("stopped with %d table edits not sent (the budget had them waiting)", len(late))
            await asyncio.gather(*late, return_exceptions=True)


def _new_message(kwargs: dict[str, Any]) -> dict[str, Any]:
    """:meth:`Publisher.message`'s edit made a new message's: its attachments as files, no empty content."""
    kwargs["files"] = kwargs.pop("attachments", [])
    if kwargs.get("content") is None:
        kwargs.pop("content", None)
    return kwargs
