"""The match log's writer: records formatted into one reused buffer (LOG.md).

:class:`LogWriter` formats records into one preallocated ``bytearray`` and returns
a preallocated ``memoryview`` of the line, so the firmware can stream a log over
``usb_cdc.data`` without allocating per press.

Implementation Notes
--------------------

Kept apart from the reader (``engine.log``) so that the firmware, which only writes
logs, does not hold the reader's code in its heap (about 7 KB on a Pico).
"""

from engine.cards import write_card

_HEADER = b"CSLOG 1"

_LINE_MAX = 200  # longest record: "deck" + 52 cards


class LogWriter:
    """Formats log records into one reused buffer (no allocation per record)."""

    def __init__(self):
        self.buf = bytearray(_LINE_MAX)
        mv = memoryview(self.buf)
        # One view per possible line length, made once: slicing later would allocate.
        self.views = tuple(mv[:n] for n in range(_LINE_MAX + 1))

    def _text(self, i, text):
        """Copy ASCII ``bytes`` (iterating bytes gives ints: no allocation)."""
        for ch in text:
            self.buf[i] = ch
            i += 1
        return i

    def _int(self, i, value):
        """Write a non-negative int in decimal at ``i``; return the next index."""
        buf = self.buf
        start = i
        while True:
            buf[i] = 48 + value % 10
            value //= 10
            i += 1
            if not value:
                break
        j = i - 1
        while start < j:  # digits came out backwards
            c = buf[start]
            buf[start] = buf[j]
            buf[j] = c
            start += 1
            j -= 1
        return i

    def _line(self, i):
        self.buf[i] = 10
        return self.views[i + 1]

    def header(self):
        """Return the ``CSLOG 1`` line."""
        return self._line(self._text(0, _HEADER))

    def rules(self, rules):
        """Return a ``rules`` line with every setting of ``rules``."""
        i = self._text(0, b"rules")
        for key in rules.KEYS:  # set-up only: encoding allocates
            i = self._text(i, b" ")
            i = self._text(i, key.encode())
            i = self._text(i, b"=")
            i = self._text(i, rules.text(key).encode())
        return self._line(i)

    def seed(self, seed):
        """Return a ``seed N`` line."""
        return self._line(self._int(self._text(0, b"seed "), seed))

    def deck(self, codes):
        """Return a ``deck`` line for 52 card codes."""
        i = self._text(0, b"deck")
        for c in codes:
            self.buf[i] = 32
            i = write_card(self.buf, i + 1, c)
        return self._line(i)

    def start(self, t):
        """Return a ``start T`` line."""
        return self._line(self._int(self._text(0, b"start "), t))

    def press(self, t, player, pos):
        """Return a ``press T P N`` line."""
        i = self._int(self._text(0, b"press "), t)
        buf = self.buf
        buf[i] = 32
        buf[i + 1] = 66 if player else 65  # "B" / "A"
        buf[i + 2] = 32
        return self._line(self._int(i + 3, pos))  # Aggravation's positions reach 27

    def clock(self, t):
        """Return a ``clock T`` line."""
        return self._line(self._int(self._text(0, b"clock "), t))

    def comment(self, text):
        """Return a ``# text`` line; ``bytes`` text allocates nothing (``str`` is encoded)."""
        if not isinstance(text, bytes):
            text = text.encode()
        i = self._text(0, b"# ")
        buf = self.buf
        for k in range(min(len(text), _LINE_MAX - 3)):
            buf[i] = text[k]
            i += 1
        return self._line(i)
