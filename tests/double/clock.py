"""The double's clock: real time plus an offset a test can move, so a 15-minute token or a rate limit's
window passes in no time at all.

Everything the double times (the 3-second first answer, the 15-minute interaction token, the rate limit
windows, the invalid-request window) reads this clock. Moving it forward makes the double behave as if
that much time had passed; the bot itself keeps real time.
"""

from __future__ import annotations

import time


class Clock:
    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Seconds on a monotonic scale (for durations)."""
        return time.monotonic() + self.offset

    def wall(self) -> float:
        """Seconds since the epoch, as Discord's ``X-RateLimit-Reset`` gives them."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass at once, as far as the double can tell."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.offset += seconds
