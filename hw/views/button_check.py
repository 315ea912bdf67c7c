"""The button test mode for kits: counts, bounces and a console line per key event.

A class checks its soldering here before playing. Reached from the menu's "Button
test" item (START) or by holding START while the handheld starts (``hw.app``). For
each of the 17 keys (both pads and START, logical keys of ``hw.board.profiles``)
:class:`ButtonTest` keeps:

* whether it is held now (the screen lights it) and whether it was ever pressed;
* ``presses``: press events read (what a game would see);
* ``bounces``: transitions that followed the same key's previous transition by at
  most :data:`BOUNCE_MS` -- the keypad's debounce (``hw.board.pads``: ``DEBOUNCE`` scans of
  ``SCAN_INTERVAL``, about 6 ms), which is also the shortest gap the scanner can
  report. No finger presses and lets go that fast: a press/release pair that close is
  a contact that chatters longer than the debounce (a worn or badly soldered switch).

Every key event is also written to the serial console (the REPL port, ``sys.stdout``)
with the scanner's timestamp (``supervisor.ticks_ms()`` ms)::

    btn An1 GP0 down t=536805123 presses=1 bounces=0
    btn An1 GP0 up t=536805231 presses=1 bounces=0

``An1`` is pad A's near-row button 1 (``Bf4``: pad B's far-row button 4; the
masking-tape labels of docs/BUILD.md without the space), then the pin the profile
wired it to (``A0/D5`` for a key matrix's row/column), ``down``/``up``, the time
and the key's counts so far. Entering and leaving print a line each
(``btn test on ...``, ``btn test off``).

Leaving: hold START for :data:`EXIT_MS` (2 s). A START held when the mode began
(held at power-on) does not count: it must be pressed again.

Implementation Notes
--------------------

Allocation: the labels, the pins' names and the console line's buffer are made when
the mode is entered (the screen is being built: allowed). Per event, the line is
written into a preallocated ``bytearray`` (digits by hand) and handed to the console
as ``write(buffer, length)`` (a stream's ``write`` takes a length: no slice, no
``str``) through a ``write`` method looked up once (a bound method made per call
would be 16 B): 0 B on CircuitPython and MicroPython (measured:
``tests/mpy/vm_button_test_alloc.py`` in both VMs, and ``tools/picosim``). The counts are small ints in lists. This module is imported only
while the mode is shown; ``hw.app`` forgets it when the mode is left.

**Software and Dependencies:** ``sys`` (``stdout``); ``engine.ticks``; ``hw.board.pads``
(the debounce), ``hw.board.profiles`` (the key numbers and the wiring).
"""

import sys

from engine.ticks import ticks_diff
from hw.board.pads import DEBOUNCE, SCAN_INTERVAL
from hw.board.profiles import KEY_COUNT, KEY_START, key_pins

# The keypad reports a transition only after DEBOUNCE scans in the new state: two
# transitions of one key this close (ms) are the shortest the scanner can report.
BOUNCE_MS = int(DEBOUNCE * SCAN_INTERVAL * 1000 + 0.999)
EXIT_MS = 2000  # hold START this long to leave
LINE_MAX = 96  # bytes of one console line
PIN_MAX = 16  # a pin name is cut here (the console line's buffer is fixed)
COUNT_LIMIT = 9999  # counts stop here (the screen has 4 digits for them)

ENTER_TEXT = b"btn test on: every key prints a line; hold START 2 s to leave; bounce <= "
LEAVE_TEXT = b"btn test off\n"


def key_label(key):
    """Return the short name of a logical key: ``An1`` .. ``Af4``, ``Bn1`` .. ``Bf4``, ``START``."""
    if key == KEY_START:
        return "START"
    button = key & 7
    return "%s%s%d" % ("AB"[key >> 3], "n" if button < 4 else "f", (button & 3) + 1)


def pin_labels(wiring):
    """Return the pin name of each logical key (``"GP0"``, ``"A0/D5"``; ``"?"`` unknown)."""
    names = ["?"] * KEY_COUNT
    if wiring is not None:
        for key, pin in key_pins({"buttons": wiring}):
            if key < KEY_COUNT:
                name = pin if isinstance(pin, str) else "/".join(pin)
                names[key] = name[:PIN_MAX]
    return names


def console_writer():
    """Return ``write(buffer, length)`` for the serial console, looked up once.

    On CircuitPython ``sys.stdout.write`` takes a buffer and a length (``\\n`` becomes
    ``\\r\\n`` on the way out) and allocates nothing; CPython's text stream needs a
    ``str`` (the desktop emulator and the tests, where allocation does not matter).
    """
    if sys.implementation.name in ("circuitpython", "micropython"):
        return sys.stdout.write
    return lambda data, n: sys.stdout.write(bytes(data[:n]).decode("ascii"))


class ButtonTest:
    """Key states, counts and console lines (see the module doc)."""

    def __init__(self, wiring=None, held_since=None, write=None):
        self.labels = tuple(key_label(k).encode() for k in range(KEY_COUNT))
        self.pins = tuple(p.encode() for p in pin_labels(wiring))
        self.write = console_writer() if write is None else write
        self.down = bytearray(KEY_COUNT)  # held now
        self.tested = bytearray(KEY_COUNT)  # pressed at least once
        self.presses = [0] * KEY_COUNT
        self.bounces = [0] * KEY_COUNT
        self.last = [0] * KEY_COUNT  # time of each key's last transition
        self.moved = bytearray(KEY_COUNT)  # a transition was read (``last`` is valid)
        self.dirty = bytearray(KEY_COUNT)  # changed since the view last drew it
        self.changes = 0  # events read (the view compares)
        self.events = 0  # press events read (``hw.diag`` counts press frames by it)
        self.exit_armed = True
        self.start_at = 0
        self.leave = False  # START was held EXIT_MS: the app leaves the mode
        self.line = bytearray(LINE_MAX)
        self._say_enter()
        if held_since is not None:  # START held since power-on: down, but not "leave"
            self.key(KEY_START, True, held_since)
            self.exit_armed = False

    # ------------------------------------------------------------- events

    def key(self, key, pressed, t):
        """A key event (logical key, pressed, scanner timestamp): count, light, print."""
        if key >= KEY_COUNT:
            return
        if self.moved[key] and ticks_diff(t, self.last[key]) <= BOUNCE_MS:
            if self.bounces[key] < COUNT_LIMIT:
                self.bounces[key] += 1
        self.moved[key] = 1
        self.last[key] = t
        self.down[key] = 1 if pressed else 0
        if pressed:
            self.tested[key] = 1
            self.events += 1
            if self.presses[key] < COUNT_LIMIT:
                self.presses[key] += 1
        self.dirty[key] = 1
        self.changes += 1
        if key == KEY_START and pressed:
            self.exit_armed = True
            self.start_at = t
        self._say(key, pressed, t)

    def tick(self, now):
        """Advance time; returns True once START has been held for ``EXIT_MS``."""
        if self.down[KEY_START] and self.exit_armed and not self.leave and \
                ticks_diff(now, self.start_at) >= EXIT_MS:
            self.leave = True
            self.write(LEAVE_TEXT, len(LEAVE_TEXT))
        return self.leave

    def hold_left(self, now):
        """Return ms of START still to hold to leave (-1: START is not being held to leave)."""
        if not (self.down[KEY_START] and self.exit_armed) or self.leave:
            return -1
        left = EXIT_MS - ticks_diff(now, self.start_at)
        return left if left > 0 else 0

    # ------------------------------------------------------------ console

    def _put(self, n, text):
        line = self.line
        for i in range(len(text)):
            line[n + i] = text[i]
        return n + len(text)

    def _number(self, n, value):
        """Write ``value`` (>= 0) in decimal at ``n``; return the next index."""
        line = self.line
        digits = 1
        scale = 10
        while value >= scale:
            digits += 1
            scale *= 10
        for _ in range(digits):
            scale //= 10
            line[n] = 48 + (value // scale) % 10
            n += 1
        return n

    def _say(self, key, pressed, t):
        n = self._put(0, b"btn ")
        n = self._put(n, self.labels[key])
        n = self._put(n, b" ")
        n = self._put(n, self.pins[key])
        n = self._put(n, b" down t=" if pressed else b" up t=")
        n = self._number(n, t)
        n = self._put(n, b" presses=")
        n = self._number(n, self.presses[key])
        n = self._put(n, b" bounces=")
        n = self._number(n, self.bounces[key])
        self.line[n] = 10  # "\n"
        self.write(self.line, n + 1)

    def _say_enter(self):
        n = self._put(0, ENTER_TEXT)
        n = self._number(n, BOUNCE_MS)
        n = self._put(n, b" ms\n")
        self.write(self.line, n)
