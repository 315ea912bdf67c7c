"""An I2C FRAM (Fujitsu MB85RC256V) backed by a file, for the record's optional home.

:class:`FileFRAM` answers the ``busio.I2C`` stand-in (``tools.cpstubs.busio``) at
the memory address 0x50 and the device-ID address 0x7C, as the chip does: a write
is a 2-byte big-endian memory address then data, stored byte by byte as it arrives
(no erase, no page buffer), the address counting up and wrapping at the end; a read
continues from the address last set. ``cut_after=N`` cuts the power after N data
bytes have been stored: the bytes so far stay (and are saved) and
:class:`tools.emulate.nvm.PowerCut` is raised, as ``FileNVM`` does.
"""

import os

from tools.emulate.nvm import PowerCut, save_model

SIZE = 32768
ADDRESS = 0x50
ID_ADDRESS = 0x7C
DEVICE_ID = bytes((0x00, 0xA5, 0x10))  # manufacturer 0x00A (Fujitsu), product 0x510


class FileFRAM:
    """The chip's 32 KB, in ``path`` (None: in memory only); a missing file reads as zeros."""

    addresses = (ADDRESS, ID_ADDRESS)

    def __init__(self, path=None, cut_after=-1, fill=0x00):
        self.data = bytearray([fill]) * SIZE
        if path is not None and os.path.exists(path):
            with open(path, "rb") as f:
                stored = f.read(SIZE)
            self.data[:len(stored)] = stored
        self.path = path
        self.cut_after = cut_after
        self.stored = 0  # data bytes stored so far (what cut_after counts)
        self.on_error = None  # fn(OSError) for a failed save (else it raises)
        self.pointer = 0

    def i2c_write(self, address, data, stop):
        if address == ID_ADDRESS:
            return
        if len(data) < 2:
            return
        self.pointer = ((data[0] << 8) | data[1]) % SIZE
        try:
            for value in data[2:]:
                if 0 <= self.cut_after <= self.stored:
                    raise PowerCut("power cut after %d FRAM bytes" % self.stored)
                self.data[self.pointer] = value
                self.pointer = (self.pointer + 1) % SIZE
                self.stored += 1
        finally:
            if len(data) > 2:
                self._save()

    def i2c_read(self, address, n):
        if address == ID_ADDRESS:
            return DEVICE_ID[:n] + bytes(max(0, n - 3))
        out = bytearray(n)
        for i in range(n):
            out[i] = self.data[self.pointer]
            self.pointer = (self.pointer + 1) % SIZE
        return bytes(out)

    def _save(self):
        save_model(self, self.data)
