"""Stand-in for CircuitPython's ``keypad``, with a background scan, debounce and timestamps.

Same API and checks as CircuitPython 10.2.1 (``shared-bindings/keypad``,
``shared-module/keypad``): ``Event(key_number=0, pressed=True, timestamp=None)`` with
read-only ``key_number``/``pressed``/``released``/``timestamp`` and no other
attributes, equal to another ``Event`` with the same key and state;
``EventQueue`` (``get``, ``get_into`` -- which takes only a ``keypad.Event`` --
``clear``, ``len``, ``bool``, read-only ``overflowed`` that only ``clear()`` resets);
``Keys`` and ``KeyMatrix`` (each with its own bounded ``events`` queue of
``max_events``, and ``reset()``).

No pins exist: a test or the emulator moves the *pins* with a scanner's
:meth:`press` / :meth:`release` / :meth:`tap` (at a time, default now; a held key
does not press again, like a real switch). The scanner samples them as a board
does, lazily, whenever its queue is looked at: every ``interval`` on CircuitPython's
1/1024 s tick grid (2 ms asks for 2 ticks, 1.953 ms), with the board's debounce
counter (``keypad_debounce``), so a press reaches the queue ``debounce_threshold - 1``
scans after the first scan that sees it, stamped with that scan's ms tick (3.9-5.8 ms
after the pin moved with the firmware's 2 ms x 3), and a tap shorter than the
debounce never arrives. When the queue is full the event is lost and ``overflowed``
is set, as on a board (the key's state is not rolled back). ``reset()`` forgets every
key's state and scans at once: keys held down report a new press.
:meth:`EventQueue.inject` still queues raw events at once, with any timestamp.
Every scanner made is appended to :data:`scanners`, so a test can find the firmware's.
A key listed in :data:`held_at_start` is held down when a scanner is made (a finger on
it at power-on): as on a board, the scanner reports nothing for it (its debounce
counter settles on "pressed" silently) until ``reset()`` or until it is released.
"""

from collections import deque

from tools.cpstubs import supervisor
from tools.cpstubs.microcontroller import Pin, claim, release

scanners = []
held_at_start = set()  # key numbers held down when a scanner is made (power-on)

_TICKS_PER_S = 1024  # CircuitPython's scan clock: port ticks of 1/1024 s


def _ticks_diff(a, b):
    half = supervisor.TICKS_PERIOD >> 1
    return ((a - b + half) % supervisor.TICKS_PERIOD) - half


class Event:
    """A key transition (immutable, as the native type)."""

    __slots__ = ("_key_number", "_pressed", "_timestamp")

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        if not isinstance(key_number, int):
            raise TypeError("key_number must be an int")
        if key_number < 0:
            raise ValueError("key_number must be >= 0")
        if timestamp is None:
            timestamp = supervisor.now()
        elif not isinstance(timestamp, int):
            raise TypeError("timestamp must be an int")
        self._set(key_number, bool(pressed), timestamp)

    def _set(self, key_number, pressed, timestamp):
        object.__setattr__(self, "_key_number", key_number)
        object.__setattr__(self, "_pressed", pressed)
        object.__setattr__(self, "_timestamp", timestamp)

    def __setattr__(self, name, value):
        raise AttributeError("can't set attribute %r of keypad.Event" % name)

    @property
    def key_number(self):
        """The key number."""
        return self._key_number

    @property
    def pressed(self):
        """True for a key-down transition."""
        return self._pressed

    @property
    def released(self):
        """True for a key-up transition."""
        return not self._pressed

    @property
    def timestamp(self):
        """``supervisor.ticks_ms()`` time of the scan that saw the transition."""
        return self._timestamp

    def __eq__(self, other):
        if not isinstance(other, Event):
            return False
        return self._key_number == other.key_number and self._pressed == other.pressed

    def __hash__(self):
        return (self._pressed << 15) + self._key_number

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self._key_number,
                                             "pressed" if self._pressed else "released")


class EventQueue:
    """A bounded queue of key events (made by a scanner)."""

    def __init__(self, max_events, scanner=None):
        self._events = deque()
        self._max = max_events
        self._overflowed = False
        self._scanner = scanner
        self.dropped = 0  # stand-in only: events lost to a full queue

    def _sync(self):
        if self._scanner is not None:
            self._scanner._scan_until(supervisor.now())  # pylint: disable=protected-access

    def get(self):
        """Return the next event, or None."""
        self._sync()
        if not self._events:
            return None
        return Event(*self._events.popleft())

    def get_into(self, event):
        """Copy the next event into ``event`` (a keypad.Event); False if the queue is empty."""
        if not isinstance(event, Event):
            raise TypeError("event must be of type Event, not %s" % type(event).__name__)
        self._sync()
        if not self._events:
            return False
        event._set(*self._events.popleft())  # pylint: disable=protected-access
        return True

    def clear(self):
        """Empty the queue and reset ``overflowed``."""
        self._sync()
        self._events.clear()
        self._overflowed = False

    def __len__(self):
        self._sync()
        return len(self._events)

    def __bool__(self):
        return len(self) > 0

    @property
    def overflowed(self):
        """True if an event was dropped because the queue was full (until ``clear()``)."""
        self._sync()
        return self._overflowed

    def _record(self, key_number, pressed, timestamp):
        if len(self._events) >= self._max:
            self._overflowed = True
            self.dropped += 1
            return False
        self._events.append((key_number, bool(pressed), timestamp % supervisor.TICKS_PERIOD))
        return True

    def inject(self, key_number, pressed, timestamp):
        """Stand-in only: queue a raw event now; return False (and overflow) if full."""
        self._sync()
        return self._record(key_number, pressed, timestamp)


class _Scanner:
    def __init__(self, key_count, interval, max_events, debounce_threshold):
        if not 0 < interval <= 655.35:
            raise ValueError("interval must be in (0, 655.35]")
        if not 1 <= max_events <= 1024:
            raise ValueError("max_events must be in 1..1024")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be in 1..127")
        self._key_count = key_count
        self.interval = interval
        self.debounce_threshold = debounce_threshold
        self._events = EventQueue(max_events, self)
        self._down = bytearray(key_count)  # the pins as last moved (1: pressed)
        # The scan, on an unwrapped ms time line: 0 is the clock at construction.
        self._scan_ms = int(interval * _TICKS_PER_S) * 1000 / _TICKS_PER_S
        self._base = supervisor.now()  # wrapped clock at unwrapped time 0
        self._at = 0  # unwrapped time scanned up to (ms)
        self._origin = 0.0  # unwrapped time of the scan grid's scan 0
        self._k = 0  # next scan number on the grid
        self._moves = deque()  # pin moves not scanned yet: (unwrapped t, key, pressed)
        self._raw = bytearray(key_count)  # the pins as the scan sees them
        # CircuitPython's debounce counters start at 0 and settle (silently) at
        # -threshold for a released key, +threshold for one held at start-up.
        self._counter = [0] * key_count
        self._busy = set(range(key_count))  # keys whose counter has not settled
        for key in held_at_start:
            if key < key_count:
                self._raw[key] = self._down[key] = 1
        scanners.append(self)
        self._scan_at(0.0)  # construction scans once, at once

    @property
    def events(self):
        """The scanner's event queue."""
        return self._events

    @property
    def key_count(self):
        """How many keys are scanned."""
        return self._key_count

    # -------------------------------------------------------------- the scan

    def _unwrap(self, t):
        """Unwrapped time of the wrapped clock value ``t`` (near the scanned time)."""
        return self._at + _ticks_diff(t, (self._base + self._at) % supervisor.TICKS_PERIOD)

    def _debounce(self, key, current):
        # keypad_debounce() of shared-module/keypad/__init__.c
        thr = self.debounce_threshold
        c = self._counter[key]
        if current:
            if c < thr:
                c += 1
                if c == 0:
                    self._counter[key] = thr
                    return True
        elif c > -thr:
            c -= 1
            if c == 0:
                self._counter[key] = -thr
                return True
        self._counter[key] = c
        return False

    def _scan_at(self, t):
        """One scan at unwrapped time ``t``."""
        moves = self._moves
        while moves and moves[0][0] <= t:
            _, key, pressed = moves.popleft()
            self._raw[key] = pressed
            self._busy.add(key)
        stamp = (self._base + int(t)) % supervisor.TICKS_PERIOD
        thr = self.debounce_threshold
        for key in sorted(self._busy):
            current = self._raw[key]
            if self._debounce(key, current):
                self._events._record(key, current, stamp)  # pylint: disable=protected-access
            if self._counter[key] == (thr if current else -thr):
                self._busy.discard(key)

    def _scan_until(self, now):
        """Run every scan due up to the wrapped clock ``now``."""
        end = self._unwrap(now)
        if end < self._at:  # a test set the clock back: time goes on from here
            self._base = (now - self._at) % supervisor.TICKS_PERIOD
            return
        while True:
            t = self._origin + self._k * self._scan_ms
            if t > end:
                break
            if not self._busy:
                if not self._moves or self._moves[0][0] > end:
                    # Nothing moves until after ``end``: skip to the last scan before it.
                    self._k = max(self._k, int((end - self._origin) / self._scan_ms))
                    if self._origin + self._k * self._scan_ms > end:
                        self._k -= 1
                    self._k += 1
                    break
                first = self._moves[0][0]
                k = int((first - self._origin) / self._scan_ms)
                if self._origin + k * self._scan_ms < first:
                    k += 1
                if k > self._k:
                    self._k = k
                    continue
            self._scan_at(t)
            self._k += 1
        self._at = end

    def reset(self):
        """Forget every key's state and scan at once: keys held down report a new press."""
        now = supervisor.now()
        self._scan_until(now)
        thr = self.debounce_threshold
        self._counter = [-thr] * self._key_count
        self._busy = set(range(self._key_count))
        t = float(self._at)
        self._origin = t  # keypad_scan_now(): the scan grid restarts now
        self._k = 1
        self._scan_at(t)

    # ------------------------------------------------------------- the pins

    def deinit(self):
        """Stop scanning and free the pins."""
        if self in scanners:
            scanners.remove(self)
        release(*getattr(self, "_claimed_pins", ()))
        self._claimed_pins = ()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def _check(self, key):
        if not 0 <= key < self._key_count:
            raise ValueError("key number %d out of range" % key)

    def _move(self, key, pressed, timestamp):
        self._check(key)
        if self._down[key] == pressed:
            return False
        self._down[key] = pressed
        now = supervisor.now()
        self._scan_until(now)
        t = self._unwrap(now if timestamp is None else timestamp % supervisor.TICKS_PERIOD)
        t = max(t, self._at)  # a pin cannot move before what was scanned already
        moves = self._moves
        moves.append((t, key, pressed))
        if len(moves) > 1 and moves[-2][0] > t:
            self._moves = deque(sorted(moves, key=lambda m: m[0]))
        return True

    def press(self, key, timestamp=None):
        """Stand-in only: the key's pin goes down at ``timestamp`` (default now).

        Returns False if the key is already down. The event reaches the queue at the
        scan that finishes the debounce.
        """
        return self._move(key, 1, timestamp)

    def release(self, key, timestamp=None):
        """Stand-in only: the key's pin goes up at ``timestamp`` (default now)."""
        return self._move(key, 0, timestamp)

    def tap(self, key, timestamp=None, hold=40):
        """Stand-in only: press at ``timestamp`` and release ``hold`` ms later."""
        t = supervisor.now() if timestamp is None else timestamp
        self.press(key, t)
        self.release(key, t + hold)


def _pins(pins, what):
    pins = tuple(pins)
    for pin in pins:
        if not isinstance(pin, Pin):
            raise TypeError("%s must be Pin objects, not %r" % (what, pin))
    if len(set(id(p) for p in pins)) != len(pins):
        raise ValueError("%s must not repeat a pin" % what)
    return pins


class Keys(_Scanner):
    """One key per pin."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64,
                 debounce_threshold=1):
        self.pins = _pins(pins, "pins")
        if not isinstance(value_when_pressed, bool):
            raise TypeError("value_when_pressed must be a bool")
        self.value_when_pressed = value_when_pressed
        self.pull = pull
        claim(*self.pins)
        self._claimed_pins = self.pins
        super().__init__(len(self.pins), interval, max_events, debounce_threshold)


class KeyMatrix(_Scanner):
    """A row x column key matrix (``key_number = row * columns + column``).

    As on a board, everything after the two pin sequences is keyword-only
    (``MP_ARG_KW_ONLY`` in CircuitPython's ``shared-bindings/keypad/KeyMatrix.c``).
    """

    def __init__(self, row_pins, column_pins, *, columns_to_anodes=True, interval=0.02,
                 max_events=64, debounce_threshold=1):
        self.row_pins = _pins(row_pins, "row_pins")
        self.column_pins = _pins(column_pins, "column_pins")
        self.columns_to_anodes = columns_to_anodes
        claim(*(self.row_pins + self.column_pins))
        self._claimed_pins = self.row_pins + self.column_pins
        super().__init__(len(self.row_pins) * len(self.column_pins), interval, max_events,
                         debounce_threshold)

    def key_number_to_row_column(self, key_number):
        """Return ``(row, column)`` of a key number."""
        return divmod(key_number, len(self.column_pins))

    def row_column_to_key_number(self, row, column):
        """Return the key number at ``(row, column)``."""
        return row * len(self.column_pins) + column
