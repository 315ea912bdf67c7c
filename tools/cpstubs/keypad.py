"""Stand-in for CircuitPython's ``keypad``, with timestamps and scripted key events.

Same API as CircuitPython 9/10: ``Event(key_number=0, pressed=True, timestamp=None)``
(read-only ``key_number``/``pressed``/``released``/``timestamp``), ``EventQueue``
(``get``, ``get_into``, ``clear``, ``len``, ``bool``, read-only ``overflowed`` that
only ``clear()`` resets), ``Keys`` and ``KeyMatrix`` (each with its own bounded
``events`` queue of ``max_events``).

No pins are scanned: a test or the emulator scripts the buttons through a scanner's
:meth:`press` / :meth:`release` (a held key does not press again, like a real
switch) or :meth:`EventQueue.inject` (raw events, any timestamp). When the queue is
full a new event is dropped and ``overflowed`` is set, as on a board. Every scanner
made is appended to :data:`scanners`, so a test can find the firmware's.
"""

from collections import deque

from tools.cpstubs import supervisor
from tools.cpstubs.microcontroller import Pin

scanners = []


class Event:
    """A key transition."""

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self._key_number = key_number
        self._pressed = bool(pressed)
        self._timestamp = supervisor.now() if timestamp is None else timestamp

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
        return self._key_number == other.key_number and self._pressed == other.pressed

    def __hash__(self):
        return self._key_number

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self._key_number,
                                             "pressed" if self._pressed else "released")


class EventQueue:
    """A bounded queue of key events (made by a scanner)."""

    def __init__(self, max_events):
        self._events = deque()
        self._max = max_events
        self._overflowed = False
        self.dropped = 0  # stand-in only: events lost to a full queue

    def get(self):
        """Return the next event, or None."""
        if not self._events:
            return None
        return Event(*self._events.popleft())

    def get_into(self, event):
        """Copy the next event into ``event``; return False if the queue is empty."""
        if not self._events:
            return False
        key, pressed, timestamp = self._events.popleft()
        event._key_number = key  # pylint: disable=protected-access
        event._pressed = pressed  # pylint: disable=protected-access
        event._timestamp = timestamp  # pylint: disable=protected-access
        return True

    def clear(self):
        """Empty the queue and reset ``overflowed``."""
        self._events.clear()
        self._overflowed = False

    def __len__(self):
        return len(self._events)

    def __bool__(self):
        return bool(self._events)

    @property
    def overflowed(self):
        """True if an event was dropped because the queue was full (until ``clear()``)."""
        return self._overflowed

    def inject(self, key_number, pressed, timestamp):
        """Stand-in only: queue a raw event; return False (and overflow) if full."""
        if len(self._events) >= self._max:
            self._overflowed = True
            self.dropped += 1
            return False
        self._events.append((key_number, bool(pressed), timestamp % supervisor.TICKS_PERIOD))
        return True


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
        self._events = EventQueue(max_events)
        self._down = bytearray(key_count)
        scanners.append(self)

    @property
    def events(self):
        """The scanner's event queue."""
        return self._events

    @property
    def key_count(self):
        """How many keys are scanned."""
        return self._key_count

    def reset(self):
        """Assume every key is released: held keys will report a new press."""
        for key in range(self._key_count):
            if self._down[key]:
                self._down[key] = 0
                self.press(key, supervisor.now())

    def deinit(self):
        """Stop scanning."""
        if self in scanners:
            scanners.remove(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def _check(self, key):
        if not 0 <= key < self._key_count:
            raise ValueError("key number %d out of range" % key)

    def press(self, key, timestamp=None):
        """Stand-in only: key goes down at ``timestamp`` (default: now). True if queued."""
        self._check(key)
        if self._down[key]:
            return False
        self._down[key] = 1
        return self._events.inject(key, True, supervisor.now() if timestamp is None else timestamp)

    def release(self, key, timestamp=None):
        """Stand-in only: key goes up at ``timestamp`` (default: now). True if queued."""
        self._check(key)
        if not self._down[key]:
            return False
        self._down[key] = 0
        return self._events.inject(key, False, supervisor.now() if timestamp is None else timestamp)

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
        super().__init__(len(self.row_pins) * len(self.column_pins), interval, max_events,
                         debounce_threshold)

    def key_number_to_row_column(self, key_number):
        """Return ``(row, column)`` of a key number."""
        return divmod(key_number, len(self.column_pins))

    def row_column_to_key_number(self, row, column):
        """Return the key number at ``(row, column)``."""
        return row * len(self.column_pins) + column
