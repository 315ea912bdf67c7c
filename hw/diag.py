"""Diagnostics (``CSPEED_DIAG=1`` in ``settings.toml``): heap and frame figures on the console.

:func:`run` replaces the plain main loop when the setting is on. It prints lines that
start with ``diag `` followed by space-separated ``key=value`` integers (a host such
as ``tools/picosim`` parses them):

* ``diag build free=N`` once: ``gc.mem_free()`` after the firmware was built;
* every :data:`PERIOD_MS` (sampled: one ``gc.mem_free()`` or ``gc.mem_alloc()`` walks
  the heap, about 9 ms on a Pico, so neither is called on every frame)::

      diag stats frames=N low=B live=B gcs=N idle_alloc=B press_alloc=B loop_us=N idle_n=N press_n=N

  ``frames``: loop passes so far; ``low``: the lowest ``gc.mem_free()`` seen at a
  sample; ``live``: the lowest free heap after a collection (the live bytes, what
  decides a ``MemoryError``; one collection per period, in this mode only); ``gcs``: garbage collections seen (the app's own, at screen changes, plus
  any automatic one, seen as ``gc.mem_alloc()`` going down between two readings);
  ``idle_alloc`` / ``press_alloc``: the most bytes (``gc.mem_alloc()`` delta around
  one ``App.step``) allocated by a measured frame that gave the engine no press /
  at least one press (in the button test mode: that read a press, printed on the
  console too); ``loop_us``: the mean loop time of the unmeasured frames of the
  last period (a measured frame is slowed by its two heap walks); ``idle_n`` /
  ``press_n``: how many frames of each kind were measured so far (a 0 above means
  something only if its count is not 0).

``CSPEED_DIAG=2`` first loads and forgets every game's code (:func:`warm`): the
heap as it is once every game has been played (each game's names stay interned, in
CircuitPython's qstr pools, for good), the worst case a handheld left on reaches.

Which frames are measured: every frame that starts with events in the key queue (a
human press is read there), and a burst of :data:`BURST` frames each period (CPU
presses, idle frames). Frames where a screen was built or a match begun (set-up,
allowed to allocate) are not counted. Nothing here allocates per frame: only the
sample's ``print`` does.

Implementation Notes
--------------------

**Software and Dependencies:** ``gc`` (``mem_alloc``, ``mem_free``); ``hw.app.App``
counters (``presses``, ``screens``, ``matches``, ``collects``, ``frames``).
"""

import gc

from engine.ticks import ticks_diff

PERIOD_MS = 3000
BURST = 40  # frames measured at the end of each period


def build_line():
    """Return the ``diag build`` line (call right after the build)."""
    gc.collect()
    return "diag build free=%d" % gc.mem_free()


class Diag:
    """Per-frame measurement state (all ints: updating it allocates nothing)."""

    def __init__(self, app, now):
        self.app = app
        self.low = gc.mem_free()
        self.live = self.low
        self.gcs = 0
        self.idle_alloc = 0
        self.press_alloc = 0
        self.idle_n = 0
        self.press_n = 0
        self.last_alloc = gc.mem_alloc()
        self.collects = app.collects
        self.period_from = now
        self.free_frames = 0  # unmeasured frames this period
        self.free_ms = 0  # and the time they took
        self.burst = 0  # measured frames left in this period's burst

    def _seen(self, alloc):
        """A heap reading: count collections since the last one."""
        app = self.app
        if app.collects != self.collects:
            self.gcs += app.collects - self.collects
            self.collects = app.collects
        elif alloc < self.last_alloc:
            self.gcs += 1
        self.last_alloc = alloc

    def measured_step(self, step, now):
        """Run ``step(now)`` between two ``gc.mem_alloc()`` readings and file the bytes."""
        app = self.app
        presses = app.presses + app.button_presses  # the engine's, or the button test's
        setup = app.screens + app.matches
        before = gc.mem_alloc()
        self._seen(before)
        step(now)
        after = gc.mem_alloc()
        used = after - before
        self._seen(after)
        if used < 0 or app.screens + app.matches != setup:
            return  # a collection inside the frame, or set-up: not a figure
        if app.presses + app.button_presses != presses:
            self.press_n += 1
            if used > self.press_alloc:
                self.press_alloc = used
        else:
            self.idle_n += 1
            if used > self.idle_alloc:
                self.idle_alloc = used

    def sample(self, now):
        """End of a period: read the free heap, print the stats line."""
        free = gc.mem_free()
        self._seen(gc.mem_alloc())
        if free < self.low:
            self.low = free
        gc.collect()  # the live bytes (this collection is the diagnostics', not a gcs)
        self.last_alloc = gc.mem_alloc()
        free = gc.mem_free()
        if free < self.live:
            self.live = free
        loop_us = self.free_ms * 1000 // self.free_frames if self.free_frames else 0
        print("diag stats frames=%d low=%d live=%d gcs=%d idle_alloc=%d press_alloc=%d"
              " loop_us=%d idle_n=%d press_n=%d"
              % (self.app.frames, self.low, self.live, self.gcs, self.idle_alloc,
                 self.press_alloc, loop_us, self.idle_n, self.press_n))
        self.period_from = now
        self.free_frames = 0
        self.free_ms = 0


def warm(app):
    """Load every game's code and forget it again, as a long session would (see above)."""
    from hw import games

    for index in range(len(games.GAMES)):
        for name in games.use(index).MODULES:
            __import__(name)
    games.use(app.menu.game)
    print("diag warm games=%d" % len(games.GAMES))


def run(app, ticks_ms, level=1):
    """The main loop with diagnostics (never returns); level 2: :func:`warm` first (after
    the ``diag build`` line: the free heap after build is the fresh one)."""
    print(build_line())
    if level >= 2:
        warm(app)
    step = app.step
    events = app.buttons.events
    diag = Diag(app, ticks_ms())
    while True:
        now = ticks_ms()
        if diag.burst or len(events):
            diag.measured_step(step, now)
            if diag.burst:
                diag.burst -= 1
                if not diag.burst:
                    diag.sample(ticks_ms())
            continue
        step(now)
        diag.free_frames += 1
        diag.free_ms += ticks_diff(ticks_ms(), now)
        if ticks_diff(now, diag.period_from) >= PERIOD_MS:
            diag.burst = BURST
