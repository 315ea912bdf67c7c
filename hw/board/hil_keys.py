"""Key test mode: key events injected over ``usb_cdc.data`` for hardware-in-the-loop runs.

``tools/hil --port`` sends ``CSPEED TEST 1``; the firmware answers ``# test mode on``
and from then on takes ``K <key> <1|0>`` lines (logical key ``seat * 8 + button``,
START = 16; 1 = pressed) as key events. :class:`KeyInjector` is polled by
``hw.board.pads.Buttons.read`` once the keypad queue is empty, so an injected event leaves
``read()`` exactly like a keypad event (``key``, ``pressed``, ``timestamp``) and
takes the firmware's one key path; its timestamp is the board's ``ticks_ms()`` when
the line was read. The mode is never saved: a reset ends it.

Implementation Notes
--------------------

Allocation: bytes are read with ``readinto`` into a preallocated buffer, a line is
gathered in another, and parsed in place (digits by hand, the command compared byte
by byte); events wait in a small preallocated ring. Polling is one ``in_waiting``
read per empty keypad queue. 0 B per frame with the mode off and on
(``tests/mpy/vm_testmode_alloc.py``).

**Software and Dependencies:** ``usb_cdc.Serial`` (``in_waiting``, ``readinto``,
``write``); the clock (``supervisor.ticks_ms``) is passed in.
"""

HELLO = b"CSPEED TEST 1"
REPLY = b"# test mode on\n"
LINE_MAX = 32
RING = 16  # injected events waiting to be read
KEY_LIMIT = 17  # logical keys 0-16


class KeyInjector:
    """Reads the data port for the test-mode command and injected key events."""

    def __init__(self, port, clock):
        self.port = port
        self.clock = clock  # ticks_ms
        self.on = False
        self.chunk = bytearray(64)
        self.line = bytearray(LINE_MAX)
        self.length = 0
        self.keys = bytearray(RING)
        self.downs = bytearray(RING)
        self.times = [0] * RING
        self.head = 0  # next to read
        self.count = 0
        self.key = 0
        self.pressed = False
        self.timestamp = 0
        self.bad = 0  # lines not understood (counted, ignored)
        self.dropped = 0  # events lost to a full ring

    def poll(self):
        """Read what the host sent (never blocks)."""
        port = self.port
        if port is None:
            return
        waiting = port.in_waiting
        while waiting > 0:
            n = port.readinto(self.chunk)
            if not n:
                return
            chunk = self.chunk
            line = self.line
            for i in range(n):
                b = chunk[i]
                if b == 10:  # "\n"
                    self._line(self.length)
                    self.length = 0
                elif b != 13 and self.length < LINE_MAX:
                    line[self.length] = b
                    self.length += 1
            waiting = port.in_waiting

    def _line(self, n):
        line = self.line
        if n == len(HELLO):
            same = True
            for i in range(n):
                if line[i] != HELLO[i]:
                    same = False
                    break
            if same:
                if not self.on:
                    self.on = True
                    self.port.write(REPLY)
                return
        if not self.on:
            return
        # "K <key> <0|1>"
        if n < 5 or line[0] != 75 or line[1] != 32:  # "K "
            self.bad += 1
            return
        key = 0
        i = 2
        while i < n and 48 <= line[i] <= 57:
            key = key * 10 + line[i] - 48
            i += 1
        if i == 2 or i + 2 != n or line[i] != 32 or not 48 <= line[i + 1] <= 49 \
                or key >= KEY_LIMIT:
            self.bad += 1
            return
        if self.count >= RING:
            self.dropped += 1
            return
        slot = (self.head + self.count) % RING
        self.keys[slot] = key
        self.downs[slot] = line[i + 1] - 48
        self.times[slot] = self.clock()
        self.count += 1

    def next(self):
        """Take the oldest injected event into ``key``/``pressed``/``timestamp``; False if none."""
        if self.count == 0:
            self.poll()
            if self.count == 0:
                return False
        head = self.head
        self.key = self.keys[head]
        self.pressed = self.downs[head] == 1
        self.timestamp = self.times[head]
        self.head = (head + 1) % RING
        self.count -= 1
        return True
