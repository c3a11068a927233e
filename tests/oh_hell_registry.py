"""Oh Hell in the games registry for the tests that need it, until the registry line lands.

The engine and its computer player are complete; the game joins ``GAMES`` (and
so the bot's menus) once the cogs draw any game from its description (issue
14), which is what this fixture stands in for meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.games import GAMES, GameInfo, oh_hell


@pytest.fixture
def oh_hell_registered() -> Iterator[None]:
    if "oh-hell" in GAMES:
        yield
        return
    GAMES["oh-hell"] = GameInfo("oh-hell", oh_hell.PLAYERS, oh_hell.DEFAULT_PLAYERS, oh_hell.OPTIONS, oh_hell.OhHell)
    try:
        yield
    finally:
        del GAMES["oh-hell"]
