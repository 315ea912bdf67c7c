"""Stand-in for ``busio``: an ``SPI`` bus that records its pins and does nothing, and an
``I2C`` bus that talks to the device models attached to its pins (``attach``). Both
take their pins until ``deinit`` (``microcontroller.claim``)."""

from tools.cpstubs.microcontroller import claim, release


class SPI:
    """An inert SPI bus."""

    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):  # noqa: N803
        claim(clock, MOSI, MISO)
        self.clock = clock
        self.MOSI = MOSI
        self.MISO = MISO
        self.frequency = 0
        self._locked = False
        self._deinited = False

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
        """Free the pins."""
        if not self._deinited:
            self._deinited = True
            release(self.clock, self.MOSI, self.MISO)


# --------------------------------------------------------------------------- I2C

# Devices on the I2C buses, by ``(SCL pin name, SDA pin name)``: a test or the
# emulator attaches them (``attach``). A device has ``addresses`` (a tuple) and
# ``i2c_write(address, data, stop)`` / ``i2c_read(address, n)`` (a ``bytes``); it
# answers only its addresses. A bus with a device has its pull-ups (breakouts carry them).
_BUSES = {}


def attach(scl, sda, device):
    """Put ``device`` on the bus of pins named ``scl`` and ``sda``."""
    _BUSES.setdefault((scl, sda), []).append(device)


def detach_all():
    """Take every device off every bus."""
    _BUSES.clear()


class I2C:
    """``busio.I2C`` as CircuitPython 10.2.1 on an RP2040 behaves.

    ``ports/raspberrypi/common-hal/busio/I2C.c``: the constructor raises
    ``RuntimeError`` when the pins have no pull-ups (nothing attached here); every
    transfer needs the lock (``RuntimeError`` otherwise); an address that does not
    answer raises ``OSError`` (errno 19, ENODEV).
    """

    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        if frequency > 1000000:
            raise ValueError("frequency must be 1000000 or less")
        claim(scl, sda)
        self._devices = _BUSES.get((scl.name, sda.name))
        if not self._devices:
            release(scl, sda)
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        self.pins = (scl, sda)
        self.frequency = frequency
        self._locked = False
        self._deinited = False

    def try_lock(self):
        """Take the bus (False if already taken)."""
        if self._locked or self._deinited:
            return False
        self._locked = True
        return True

    def unlock(self):
        """Release the bus."""
        self._locked = False

    def deinit(self):
        """Free the pins."""
        if not self._deinited:
            release(*self.pins)
        self._deinited = True

    def _device(self, address):
        if not self._locked:
            raise RuntimeError("Function requires lock")
        for device in self._devices:
            if address in device.addresses:
                return device
        raise OSError(19, "No such device")

    def scan(self):
        """Addresses that answer."""
        if not self._locked:
            raise RuntimeError("Function requires lock")
        return sorted(a for d in self._devices for a in d.addresses)

    def writeto(self, address, buffer, *, start=0, end=None):
        """Write ``buffer[start:end]`` to ``address``, then a stop."""
        end = len(buffer) if end is None else end
        self._device(address).i2c_write(address, bytes(buffer[start:end]), True)

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        """Read ``end - start`` bytes from ``address`` into ``buffer``."""
        end = len(buffer) if end is None else end
        buffer[start:end] = self._device(address).i2c_read(address, end - start)

    def writeto_then_readfrom(self, address, buffer_out, buffer_in, *, out_start=0,
                              out_end=None, in_start=0, in_end=None):
        """Write, a repeated start (no stop), then read."""
        out_end = len(buffer_out) if out_end is None else out_end
        in_end = len(buffer_in) if in_end is None else in_end
        device = self._device(address)
        device.i2c_write(address, bytes(buffer_out[out_start:out_end]), False)
        buffer_in[in_start:in_end] = device.i2c_read(address, in_end - in_start)
