"""A private thread of a table's own: only the people added to it (and the server's moderators) see it.

A duplicate night deals every table of a round the same cards, so each of its tables is played in one of these
rather than in the channel, where the players of a table behind could read a table ahead trick by trick.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final

import aiohttp
import discord

log = logging.getLogger(__name__)

PRIVATE_THREAD: Final = 12  # Discord's channel type of a private thread
ARCHIVE_AFTER: Final = 1440  # minutes without a message before Discord archives it (a table pings within a day)
PRIVATE_PERMISSIONS = ("create_private_threads", "send_messages_in_threads")  # what opening one takes


async def open_private_thread(http: discord.http.HTTPClient, channel_id: int, name: str, members: Iterable[int]) -> int:
    """A new private thread in ``channel_id`` that its members cannot invite others to, with ``members`` added
    (each one Discord refuses, a member who left the server say, is left out); its id. Raises what Discord
    answers when the thread itself cannot be made (the bot may not create private threads there)."""
    thread = await http.start_thread_without_message(
        channel_id, name=name[:100], auto_archive_duration=ARCHIVE_AFTER, type=PRIVATE_THREAD, invitable=False
    )
    thread_id = int(thread["id"])
    for user_id in dict.fromkeys(members):
        try:
            await http.add_user_to_thread(thread_id, user_id)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("could not add user %s to the private thread %s: %s", user_id, thread_id, error)
    return thread_id
