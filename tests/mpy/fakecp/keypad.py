"""Fake ``keypad``: ``Keys`` whose ``EventQueue`` replays scripted events, allocation-free.

A test queues events with :meth:`EventQueue.push` (key number, pressed, timestamp);
``get_into`` copies the oldest into the caller's ``Event``. As on a board, an
``Event``'s attributes are read-only and ``get_into`` takes only a ``keypad.Event``
(``TypeError`` otherwise). The queue is a fixed ring
(two bytearrays and a preallocated list of small-int timestamps): pushing and reading
allocate nothing. A push onto a full queue is dropped and sets ``overflowed``, which
only ``clear()`` resets, as on a board.
"""


import supervisor


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=0):
        self._key_number = key_number
        self._pressed = bool(pressed)
        self._timestamp = timestamp

    @property
    def key_number(self):
        return self._key_number

    @property
    def pressed(self):
        return self._pressed

    @property
    def released(self):
        return not self._pressed

    @property
    def timestamp(self):
        return self._timestamp


class EventQueue:
    def __init__(self, max_events):
        self.keys = bytearray(max_events)
        self.downs = bytearray(max_events)
        self.times = [0] * max_events
        self.head = 0
        self.count = 0
        self.overflowed = False
        self.held = bytearray(32)  # fake only: key -> 1 while its last push was a press

    def push(self, key_number, pressed, timestamp):
        """Fake only: a scanned event; False (and ``overflowed``) if the queue is full."""
        if key_number < len(self.held):
            self.held[key_number] = 1 if pressed else 0
        size = len(self.keys)
        if self.count == size:
            self.overflowed = True
            return False
        i = (self.head + self.count) % size
        self.keys[i] = key_number
        self.downs[i] = 1 if pressed else 0
        self.times[i] = timestamp
        self.count += 1
        return True

    def get_into(self, event):
        if not isinstance(event, Event):
            raise TypeError("event must be a keypad.Event")
        if not self.count:
            return False
        i = self.head
        event._key_number = self.keys[i]
        event._pressed = self.downs[i] == 1
        event._timestamp = self.times[i]
        self.head = (i + 1) % len(self.keys)
        self.count -= 1
        return True

    def clear(self):
        self.count = 0
        self.overflowed = False

    def __len__(self):
        return self.count

    def __bool__(self):
        return self.count > 0


class Keys:
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64,
                 debounce_threshold=1):
        self.key_count = len(pins)
        self.events = EventQueue(max_events)

    def reset(self):
        """As on a board: assume every key released; a key held now reports a new press
        at the next scan (a queued press, stamped now, for each key whose last queued
        event -- pushed since the last reset -- was a press)."""
        queue = self.events
        for key in range(len(queue.held)):
            if queue.held[key]:
                queue.push(key, True, supervisor.now)
