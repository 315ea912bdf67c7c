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

Implementation Notes
--------------------

**Hardware:** the board's native USB (second CDC interface, enabled in ``boot.py``).

**Software and Dependencies:** ``usb_cdc`` (through the port object passed in);
``engine.log``.
"""

from engine.log import LogWriter


WRITE_TIMEOUT = 0.1  # s: long enough for a listening host to take a whole burst

_NEWLINE = b"\n"


class MatchLog:
    """Formats match-log records and writes them to ``port`` (or nowhere).

    Lines go out whole or not at all, as far as the port allows: nothing is written
    while no host listens (``connected`` is False: no terminal has the port open,
    DTR low), and a write the host does not take in ``WRITE_TIMEOUT`` marks the log
    *stalled*: it stays silent until the next match, whose header starts on a fresh
    line, so a capture tool loses that match's tail but never misreads a line.
    """

    def __init__(self, port=None):
        self.port = port
        self.writer = LogWriter()
        self.lines = 0
        self.skipped = 0  # lines not sent: no host listening, or stalled
        self.dropped = 0  # bytes a stalled write did not get out
        self.stalled = False
        self.check_host = port is not None and hasattr(port, "connected")
        if port is not None and hasattr(port, "write_timeout"):
            try:
                port.write_timeout = WRITE_TIMEOUT
            except (AttributeError, ValueError):
                pass

    def _send(self, line):
        self.lines += 1
        port = self.port
        if port is None:
            return
        if self.stalled or (self.check_host and not port.connected):
            self.skipped += 1
            return
        written = port.write(line)
        if written is not None and written < len(line):
            self.dropped += len(line) - written
            self.stalled = True

    def match(self, rules):
        """A match begins: the header and the full rules line (set-up: allocates)."""
        if self.stalled:
            self.stalled = False
            if self.port is not None:
                self.port.write(_NEWLINE)  # end a line cut short by the stall
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

    def comment(self, text):
        """``# text`` (diagnostics only: formatting the text allocates)."""
        self._send(self.writer.comment(text))
