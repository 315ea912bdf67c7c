"""Fake ``usb_cdc``: a ``data`` port that counts what is written and keeps the recent bytes.

Like a board's ``usb_cdc.Serial``: ``connected`` (a host has the port open; a test
sets it) and ``write`` returning the count written, which can be short: a test sets
``limit`` (fake only) to cap the bytes one write takes. ``usb_cdc.data`` itself is
``None`` on a board whose ``boot.py`` did not enable the data port; a test may set
it so before building the firmware.
"""


class Serial:
    def __init__(self):
        self.write_timeout = None
        self.connected = True
        self.limit = -1  # fake only: at most this many bytes per write (-1: no cap)
        self.writes = 0
        self.bytes = 0
        self.recent = bytearray(4096)  # what was written since forget() (while it fits)
        self.size = 0
        self.incoming = bytearray(256)  # bytes the host sent (fake only: feed())
        self.in_size = 0
        self.in_pos = 0

    @property
    def in_waiting(self):
        return self.in_size - self.in_pos

    def readinto(self, buf, nbytes=None):
        n = min(len(buf), self.in_size - self.in_pos)
        if n <= 0:
            return None
        for i in range(n):  # byte copies: no slice object
            buf[i] = self.incoming[self.in_pos + i]
        self.in_pos += n
        return n

    def feed(self, data):
        """Fake only: bytes from the host (replaces what was waiting)."""
        self.incoming[0:len(data)] = data
        self.in_size = len(data)
        self.in_pos = 0

    def write(self, buf):
        n = len(buf)
        if 0 <= self.limit < n:
            n = self.limit
        self.writes += 1
        self.bytes += n
        if self.size + n > len(self.recent):
            self.size = 0  # full: start again
        if n == len(buf):
            self.recent[self.size:self.size + n] = buf  # slice assignment: no allocation
        else:  # a short write (a test's cap): allocating is fine here
            self.recent[self.size:self.size + n] = bytes(buf)[:n]
        self.size += n
        return n

    def forget(self):
        """Fake only: drop the recent bytes."""
        self.size = 0

    def text(self):
        """Fake only (allocates): the bytes written since forget()."""
        return bytes(self.recent[:self.size])


console = Serial()
data = Serial()
