"""The record's home on an optional I2C FRAM, where no power cut can corrupt it.

A Pico's ``microcontroller.nvm`` is one flash sector that must be erased whole now
and then, and a cut during that erase loses the record (``hw.store.record``). An FRAM has
no erase: each byte is written as it arrives over I2C, so a save cut at any moment
leaves the slot it was writing half done (its CRC fails) and the other slot whole.

:func:`open_store` is called once at boot by ``hw.main.record_store``, once
``busio.I2C`` has opened the profile's ``"fram"`` pins (it refuses pins without
pull-ups: nothing fitted); it checks the chip's device ID and returns a
:class:`FramStore`, or None (and prints why), so the record stays in nvm.

Implementation Notes
--------------------

**Hardware:** Fujitsu MB85RC256V 32 KB I2C FRAM (Adafruit product 1895, which has
its own SDA/SCL pull-ups), address 0x50, on the Pico's I2C1: SCL GP27, SDA GP26.
Identified by the MB85RC device-ID read (address 0x7C, the memory's address shifted
left as the one byte written, three bytes back: manufacturer 0x00A, Fujitsu).

**Protocol:** a read is a write of the 2-byte big-endian memory address then a
repeated-start read; a write is one transaction, the address then the data. The
record uses bytes 0-225 (two slots, 128 bytes apart).

**Checks:** every slot write is read back and compared, so a chip that is not an
FRAM (an EEPROM needs milliseconds per page and wraps at page ends) or a loose wire
shows as ``OSError``, never as a record believed saved. With no pull-ups on the
pins (nothing fitted) ``busio.I2C`` itself raises ``RuntimeError``.

**Allocation:** buffers are made once here; a save is two bus transactions and a
compare between games, never during play.

**Software and Dependencies:** ``busio`` (CircuitPython); ``hw.store.record``.
"""

from hw.store.record import NVM_BYTES, SLOT, SPACING, ByteStore, best_slot

ADDRESS = 0x50
ID_ADDRESS = 0x7C  # the MB85RC's reserved device-ID address
FUJITSU = 0x00A


class FramStore(ByteStore):
    """Two record slots on an MB85RC FRAM at ``address`` of ``i2c`` (a ``busio.I2C``).

    Raises ``OSError`` if no FRAM answers there. ``fallback`` is the flash nvm whose
    record a new FRAM takes over.
    """

    def __init__(self, i2c, fallback=None, address=ADDRESS):
        self.i2c = i2c
        self.address = address
        self.fallback = fallback
        self._where = bytearray(2)
        self._out = bytearray(2 + SLOT)
        self._back = bytearray(SLOT)
        ident = bytearray(3)
        self._where[0] = address << 1
        self._transfer(ID_ADDRESS, self._where, 1, ident)
        maker = (ident[0] << 4) | (ident[1] >> 4)
        if maker != FUJITSU:
            raise OSError("device ID %02x %02x %02x is not a Fujitsu MB85RC FRAM"
                          % (ident[0], ident[1], ident[2]))
        self.data = bytearray(NVM_BYTES)
        self._read(0, self.data)

    def load(self, record):
        """``record.load(self)``: the newest valid slot here, or (none here) the
        flash's record, marked dirty so that the next save moves it over."""
        best = best_slot(self.data)
        if best >= 0:
            record.take_slot(self.data, best)
        elif self.fallback is not None:
            record.load(self.fallback)
            record.dirty = record.dirty or record.slot >= 0
        record.slot = best
        return best

    def save(self, record):
        """``record.save(self)``: write the slot that is not the newest. An ``OSError``
        (a loose wire) is printed and the record stays dirty: the next save tries again."""
        target = 1 if record.slot == 0 else 0
        record.stamp()
        try:
            self.write(target * SPACING, record.buf)
        except OSError as err:
            print("record: not saved, FRAM write failed (%s); trying again at the next save"
                  % err)
            return -1
        return record.mark_saved(target)

    def _transfer(self, address, out, out_end, into):
        i2c = self.i2c
        while not i2c.try_lock():
            pass
        try:
            i2c.writeto_then_readfrom(address, out, into, out_end=out_end)
        finally:
            i2c.unlock()

    def _read(self, offset, into):
        where = self._where
        where[0] = offset >> 8
        where[1] = offset & 0xFF
        self._transfer(self.address, where, 2, into)

    def write(self, offset, buf):
        """Write ``buf`` (at most one slot) at ``offset``, read it back; ``OSError`` if it differs."""
        n = len(buf)
        out = self._out
        out[0] = offset >> 8
        out[1] = offset & 0xFF
        for i in range(n):
            out[2 + i] = buf[i]
        i2c = self.i2c
        while not i2c.try_lock():
            pass
        try:
            i2c.writeto(self.address, out, end=2 + n)
        finally:
            i2c.unlock()
        back = self._back
        self._read(offset, back)
        data = self.data
        for i in range(n):
            if back[i] != buf[i]:
                raise OSError("FRAM read back 0x%02x at byte %d, not 0x%02x"
                              % (back[i], offset + i, buf[i]))
            data[offset + i] = buf[i]


def open_store(i2c, where, fallback):
    """A :class:`FramStore` on ``i2c`` (a ``busio.I2C`` on the pins named by ``where``), or
    None if no FRAM answers there (printed, and the bus released)."""
    try:
        store = FramStore(i2c, fallback)
    except OSError as err:  # pull-ups but no FRAM answering
        i2c.deinit()
        print("record: in the Pico's flash (no FRAM at 0x%02x on %s: %s)"
              % (ADDRESS, where, err))
        return None
    print("record: on the FRAM (%s)" % where)
    return store
