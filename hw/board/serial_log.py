"""The match log (LOG.md) streamed over the USB data serial port.

:class:`MatchLog` writes what the firmware fed its engine, line by line, in the
match-log format: ``CSLOG 1`` and a ``rules`` line when a match begins, ``seed N``
and ``start T`` for each game, ``press T P N`` for every press given to the engine
(with the time the engine was given), ``clock T`` whenever time alone changed the
game (end of a deal, of a stuck pause) and now and then while a match is on, and
``#`` comments for diagnostics (queue overflow, a clamped timestamp, an abandoned
match). Replaying one match's lines with ``python3 -m tools.replay`` gives the
device's game back exactly. Each match starts with its own ``CSLOG 1`` header:
split the stream there to replay matches one by one.

Lines are formatted by ``engine.log.LogWriter`` into one preallocated buffer and
written as a preallocated ``memoryview``: a press allocates nothing. With no port
(``usb_cdc.data`` disabled, or a test) every method still runs and writes nothing.

Writes never block the game loop (``write_timeout = 0``): a write takes what fits in
the USB FIFO now and may return short -- CircuitPython's ``usb_cdc`` write loop
(``shared-module/usb_cdc/Serial.c``) returns a partial count early even while the host
reads. What did not fit waits, in order, in one preallocated buffer and goes out on
later frames (:meth:`MatchLog.pump`, called once per loop). The host counts as gone
only when it stops taking bytes for ``HOST_GONE_MS`` while some wait, when the
buffer would overflow, or when ``connected`` turns False.

Implementation Notes
--------------------

**Hardware:** the board's native USB (second CDC interface, enabled in ``boot.py``;
absent on ESP32-S2/S3, where ``usb_cdc.data`` is None).

**Software and Dependencies:** ``usb_cdc`` (through the port object passed in:
``write``, ``write_timeout``, ``connected``); ``engine.log``, ``engine.ticks``.
"""

from engine.compat import const
from engine.logwriter import LogWriter
from engine.ticks import ticks_diff

WRITE_TIMEOUT = 0  # s: never wait for the host inside a frame
_PENDING_BITS = const(9)
PENDING_SIZE = 1 << _PENDING_BITS  # bytes that may wait for a slow host (a match's start: ~250)
HOST_GONE_MS = 2000  # bytes waiting and none taken for this long: the host is gone

_NEWLINE = const(b"\n")


class MatchLog:
    """Formats match-log records and writes them to ``port`` (or nowhere).

    Lines go out whole and in order, as far as the port allows: nothing is written
    while no host listens (``connected`` is False: no terminal has the port open,
    DTR low); bytes a write did not take wait in ``pending`` and are retried every
    frame. When the host is gone (see the module docstring) the waiting bytes are
    dropped and the log is *stalled*: silent until the next match, whose header
    starts on a fresh line, so a capture tool loses that match's tail but never
    misreads a line.
    """

    def __init__(self, port=None):
        self.port = port
        self.writer = LogWriter()
        self.lines = 0
        self.skipped = 0  # lines not sent: no host listening, or stalled
        self.dropped = 0  # bytes given up on when the host went
        self.stalled = False
        self.midline = False  # the bytes out so far end inside a line
        self.check_host = port is not None and hasattr(port, "connected")
        self.link = None  # link play's host (hw.app.linked): every line is written to it too
        self.pending = bytearray(PENDING_SIZE)
        view = memoryview(self.pending)
        # Prefixes of 1, 2, 4 .. PENDING_SIZE bytes, made once (slicing later allocates).
        self.chunks = tuple(view[:1 << k] for k in range(_PENDING_BITS + 1))
        self.waiting = 0  # bytes in pending
        self.since = 0  # time of the last progress while bytes wait
        self.fresh = False  # bytes began waiting since the last pump: since is unset
        if port is not None and hasattr(port, "write_timeout"):
            try:
                port.write_timeout = WRITE_TIMEOUT
            except (AttributeError, ValueError):
                pass

    def _write(self, buf):
        written = self.port.write(buf)
        return 0 if written is None else written  # None: a non-blocking stream took nothing

    def _send(self, line):
        self.lines += 1
        if self.link is not None:
            self.link.write(line)
        port = self.port
        if port is None:
            return
        if self.stalled or (self.check_host and not port.connected):
            self.skipped += 1
            return
        if self.waiting:
            self._queue(line, 0)  # behind what already waits
            return
        written = self._write(line)
        if written < len(line):
            if written:
                self.midline = True
            self._queue(line, written)

    def _queue(self, line, start):
        """Keep ``line[start:]`` for later (copied byte by byte: no allocation)."""
        end = len(line)
        i = self.waiting
        if i + end - start > PENDING_SIZE:
            self.skipped += 1
            self._gone()  # the host takes less than the game makes
            return
        if not i:
            self.fresh = True
        buf = self.pending
        for k in range(start, end):
            buf[i] = line[k]
            i += 1
        self.waiting = i

    def _gone(self):
        self.dropped += self.waiting
        self.waiting = 0
        self.stalled = True

    def pump(self, now):
        """Send what waits, as far as the host takes it (call once per loop)."""
        if not self.waiting:
            return
        if self.check_host and not self.port.connected:
            self._gone()
            return
        if self.fresh:
            self.fresh = False
            self.since = now
        buf = self.pending
        progress = False
        while self.waiting:
            k = _PENDING_BITS
            while (1 << k) > self.waiting:
                k -= 1
            written = self._write(self.chunks[k])
            if not written:
                break
            progress = True
            self.midline = buf[written - 1] != 10
            left = self.waiting - written
            for i in range(left):  # move the rest to the front
                buf[i] = buf[written + i]
            self.waiting = left
            if written < (1 << k):
                break
        if progress:
            self.since = now
        elif ticks_diff(now, self.since) >= HOST_GONE_MS:
            self._gone()

    def match(self, rules):
        """A match begins: the header and the full rules line (set-up: allocates)."""
        if self.stalled:
            self.stalled = False
            if self.midline:
                self.midline = False
                self._send(_NEWLINE)  # end the line cut short when the host went
                self.lines -= 1
        w = self.writer
        self._send(w.header())
        self._send(w.rules(rules))

    def game(self, seed, t):
        """A game begins: ``seed N`` then ``start T``."""
        w = self.writer
        self._send(w.seed(seed))
        self._send(w.start(t))

    def press(self, t, player, pos):
        """``press T P N``."""
        self._send(self.writer.press(t, player, pos))

    def clock(self, t):
        """``clock T``."""
        self._send(self.writer.clock(t))

    def copy(self, buf, start, n):
        """Link play's guest: log the host's line ``buf[start:start + n]`` as it came."""
        w = self.writer
        line = w.buf
        n = min(n, len(line) - 1)
        for k in range(n):
            line[k] = buf[start + k]
        line[n] = 10
        self._send(w.views[n + 1])

    def comment(self, text):
        """``# text`` (diagnostics only: formatting the text allocates)."""
        self._send(self.writer.comment(text))
