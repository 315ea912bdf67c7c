"""Stand-in for ``fourwire``: a display bus that sends nowhere.

A subclass of Blinka's ``FourWire`` (so Blinka's ``busdisplay`` accepts it, and with
it the real ``adafruit_ili9341``/``adafruit_st7789`` drivers) that takes the same
arguments as CircuitPython's and takes its pins as a board does (until
``displayio.release_displays()``), but drives none: it only counts the bytes sent.
"""

from displayio._displaycore import FourWire as _BlinkaFourWire

from tools.cpstubs.microcontroller import claim, release


class FourWire(_BlinkaFourWire):
    """``FourWire(spi_bus, *, command=None, chip_select=None, reset=None, baudrate=...)``.

    As CircuitPython 10's ``fourwire.FourWire``: every argument after the bus is
    keyword-only; ``command=None`` means 9-bit SPI on a board; ``chip_select`` is
    optional from 9.1 (adafruit/circuitpython#9106; 9.0 requires it, so the firmware
    always passes one).
    """

    def __init__(self, spi_bus, *, command=None, chip_select=None, reset=None,
                 baudrate=24000000, polarity=0, phase=0):  # pylint: disable=super-init-not-called
        import displayio

        claim(command, chip_select, reset)
        self.spi_bus = spi_bus
        self.command = command
        self.chip_select = chip_select
        self.reset_pin = reset
        self.baudrate = baudrate
        self.bytes_sent = 0
        self._in_transaction = False
        self._deinited = False
        displayio.display_buses.append(self)  # release_displays() frees its pins

    def reset(self):
        """Pulse reset (nothing to do)."""

    def _free(self):
        return not self._in_transaction

    def _begin_transaction(self):
        # Like a real bus: a second begin without an end fails (Blinka's busdisplay
        # relies on that: it loops ``while begin_transaction()``).
        if self._in_transaction:
            return False
        self._in_transaction = True
        return True

    def _send(self, data_type, chip_select, data):
        self.bytes_sent += len(data)

    def _end_transaction(self):
        self._in_transaction = False

    def _release(self):
        pass

    def deinit(self):
        """Free the command, chip-select and reset pins (not the SPI bus: as on a board,
        ``displayio.release_displays()`` leaves the code's own ``busio.SPI`` taken)."""
        if not self._deinited:
            self._deinited = True
            release(self.command, self.chip_select, self.reset_pin)
