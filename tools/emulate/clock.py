"""The emulated ``supervisor.ticks_ms`` clock: the board's 2**29 ms wrap, real or virtual.

Sessions start ``START_BEFORE_WRAP`` ms before the wrap by default, so every
emulated game exercises wrap-aware time the way a board does after 6.2 days up.
:class:`RealClock` follows the wall clock (a window and a person);
:class:`VirtualClock` moves only when told (headless runs fast-forward, so scripted
sessions are quick and give the same log every time).
"""

import time

WRAP = 1 << 29  # CircuitPython's ticks_ms period
START_BEFORE_WRAP = 20000


def default_start():
    """The default first tick: 20 s before the wrap."""
    return WRAP - START_BEFORE_WRAP


class RealClock:
    """Ticks = start + wall-clock milliseconds since the clock was made."""

    virtual = False

    def __init__(self, start):
        self.start = start % WRAP
        self._t0 = time.monotonic()

    def elapsed(self):
        """Milliseconds since the session started."""
        return int((time.monotonic() - self._t0) * 1000)

    def now(self):
        """The current tick (mod 2**29)."""
        return (self.start + self.elapsed()) % WRAP


class VirtualClock:
    """Ticks = start + ``elapsed``, where the runner sets ``elapsed``."""

    virtual = True

    def __init__(self, start):
        self.start = start % WRAP
        self._elapsed = 0

    def elapsed(self):
        """Milliseconds since the session started."""
        return self._elapsed

    def now(self):
        """The current tick (mod 2**29)."""
        return (self.start + self._elapsed) % WRAP

    def advance_to(self, elapsed):
        """Move time on to ``elapsed`` ms since the start (never back)."""
        self._elapsed = max(self._elapsed, elapsed)
