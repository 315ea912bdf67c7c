"""Fake ``usb_cdc``: a ``data`` port that counts what is written and keeps the recent bytes."""


class Serial:
    def __init__(self):
        self.write_timeout = None
        self.writes = 0
        self.bytes = 0
        self.recent = bytearray(4096)  # what was written since forget() (while it fits)
        self.size = 0

    def write(self, buf):
        n = len(buf)
        self.writes += 1
        self.bytes += n
        if self.size + n > len(self.recent):
            self.size = 0  # full: start again
        self.recent[self.size:self.size + n] = buf  # slice assignment: no allocation
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
