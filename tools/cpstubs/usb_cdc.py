"""Stand-in for ``usb_cdc``: ``console`` and ``data`` ports that capture bytes.

``enable(*, console=True, data=False)`` (CircuitPython 10's keyword-only form) only
records its arguments in :data:`enabled` (a ``boot.py`` test reads it); ``data`` is
always present, as if ``boot.py`` had enabled it. A test reads what the firmware
wrote with ``data.written`` (or :meth:`Serial.take`) and can type into the
device with :meth:`Serial.feed`.
"""


class Serial:
    """A USB CDC port; what the device writes accumulates in ``written``."""

    def __init__(self):
        self.written = bytearray()
        self._input = bytearray()
        self.connected = True
        self.timeout = 1.0
        self.write_timeout = None

    def write(self, buf):
        """Capture ``buf``; return the number of bytes taken."""
        data = bytes(buf)
        self.written += data
        return len(data)

    def take(self):
        """Stand-in only: return and forget everything written so far."""
        data = bytes(self.written)
        self.written.clear()
        return data

    def feed(self, data):
        """Stand-in only: bytes sent by the host, for ``read``."""
        self._input += data

    @property
    def in_waiting(self):
        """Bytes waiting to be read."""
        return len(self._input)

    def read(self, size=None):
        """Read up to ``size`` waiting bytes (all if None)."""
        size = len(self._input) if size is None else min(size, len(self._input))
        data = bytes(self._input[:size])
        del self._input[:size]
        return data

    def readline(self):
        """Read up to and including a newline."""
        end = self._input.find(b"\n")
        return self.read(len(self._input) if end < 0 else end + 1)

    def reset_input_buffer(self):
        """Drop waiting input."""
        self._input.clear()

    def reset_output_buffer(self):
        """Nothing buffered."""

    def flush(self):
        """Nothing buffered."""


console = Serial()
data = Serial()
enabled = None


def enable(*, console=True, data=False):  # pylint: disable=redefined-outer-name
    """Record a ``boot.py`` request (takes effect on a board after a reset)."""
    global enabled
    enabled = {"console": console, "data": data}
    return True


def disable():
    """Record that both ports were disabled."""
    enable(console=False, data=False)


def reset():
    """Stand-in only: fresh ports, nothing recorded."""
    global enabled
    console.__init__()  # pylint: disable=unnecessary-dunder-call
    data.__init__()  # pylint: disable=unnecessary-dunder-call
    enabled = None
