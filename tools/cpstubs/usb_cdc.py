"""Stand-in for ``usb_cdc``: ``console`` and ``data`` ports that capture bytes.

As CircuitPython 10.2.1 (``shared-bindings/usb_cdc``, ``shared-module/usb_cdc/Serial.c``):

* ``data`` is None unless the board booted with the data port on (a real ``boot.py``
  runs before ``code.py``): :func:`reset` (``data=True`` by default, as the
  handheld's ``boot.py`` does on an RP2040) or ``reset(data=False)`` (an ESP32-S3,
  where it does not fit). ``enable(*, console=True, data=False)`` (keyword-only) only
  records its arguments in :data:`enabled`: on a board it takes effect at the next
  hard reset.
* ``Serial.write`` takes a buffer (a ``str`` raises ``TypeError``) and returns how
  many bytes the USB FIFO took, which may be fewer than given even while the host
  reads (``chunk``: the room in the FIFO per call; CircuitPython's write loop returns
  early) or when the host stops reading (``room``). ``write_timeout`` is None by
  default, as on a board, where a write the host does not take then waits for ever:
  the stand-in raises ``RuntimeError`` instead of hanging. ``connected`` is the
  host's DTR (a terminal has the port open); bytes written while it is False are lost.
* ``timeout`` is None by default (a negative time inside: wait for ever).

A test reads what the host received with ``data.written`` (or :meth:`Serial.take`)
and can type into the device with :meth:`Serial.feed`.
"""


class Serial:
    """A USB CDC port; what the host received accumulates in ``written``."""

    def __init__(self):
        self.written = bytearray()
        self._input = bytearray()
        self.connected = True
        self.timeout = None
        self.write_timeout = None
        self.room = None  # stand-in only: bytes the host takes before it stops reading
        self.chunk = None  # stand-in only: most bytes the FIFO takes in one write call
        self.short_writes = 0  # stand-in only: writes that returned fewer bytes than given
        self.waited = 0  # stand-in only: writes that a board would have made wait

    def write(self, buf):
        """Send ``buf`` (a buffer); return the number of bytes taken."""
        if isinstance(buf, str):
            raise TypeError("object with buffer protocol required")
        data = bytes(buf)
        n = len(data)
        if self.chunk is not None:
            n = min(n, self.chunk)
        if self.room is not None and self.room < n:
            n = self.room
            if self.write_timeout is None:
                raise RuntimeError("usb_cdc write with write_timeout None and a host "
                                   "that does not read: a board would hang here")
            if self.write_timeout > 0:
                self.waited += 1
        if self.room is not None:
            self.room -= n
        if n < len(data):
            self.short_writes += 1
        if self.connected:
            self.written += data[:n]
        return n

    @property
    def out_waiting(self):
        """Bytes in the FIFO not yet sent (the stand-in sends at once)."""
        return 0

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

    def readinto(self, buf, nbytes=None):
        """Read waiting bytes into ``buf`` (at most ``nbytes``); return how many (None: none)."""
        size = len(buf) if nbytes is None else min(nbytes, len(buf))
        size = min(size, len(self._input))
        if size == 0:
            return None  # CircuitPython: no bytes within the timeout
        buf[0:size] = self._input[:size]
        del self._input[:size]
        return size

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


def reset(data=True):  # pylint: disable=redefined-outer-name
    """Stand-in only: fresh ports as after a boot with the data port on (or off)."""
    global enabled
    g = globals()
    g["console"] = Serial()
    g["data"] = Serial() if data else None
    enabled = None
