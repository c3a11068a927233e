"""The last resort of a stop: the process ends a few seconds after SIGTERM or SIGINT whatever it is doing, in
Discord mode (``python -m bot``) and local mode (``python -m bot --local``) alike."""

from __future__ import annotations

import logging
import os
import threading

log = logging.getLogger(__name__)

# A stop still not done after this long (a thread stuck in a library, a page's socket that will not close)
# ends the process.
STOP_AT_THE_LATEST = 9.5


def end_at_the_latest(seconds: float) -> None:
    """End the process ``seconds`` from now if it has not ended by itself: a stop must not hang on a thread
    stuck in a library. The database is consistent at any instant (each write is one transaction)."""

    def end() -> None:
        log.warning("the stop took longer than %.1f s: ending the process now", seconds)
        logging.shutdown()
        os._exit(0)

    timer = threading.Timer(seconds, end)
    timer.daemon = True
    timer.start()
