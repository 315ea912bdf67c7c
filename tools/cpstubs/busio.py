"""Stand-in for ``busio``: an ``SPI`` bus that records its pins and does nothing."""


class SPI:
    """An inert SPI bus."""

    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):  # noqa: N803
        self.clock = clock
        self.MOSI = MOSI
        self.MISO = MISO
        self.frequency = 0
        self._locked = False

    def try_lock(self):
        """Take the bus."""
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        """Release the bus."""
        self._locked = False

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        """Remember the speed."""
        self.frequency = baudrate

    def write(self, buffer, start=0, end=None):
        """Send nowhere."""

    def deinit(self):
        """Nothing to free."""
