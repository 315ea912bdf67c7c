"""``usb_cdc.data`` as a pseudo-terminal, so serial tools treat the emulator as a board.

:class:`PtyPort` is the cpstubs ``Serial`` whose writes go to the master side of
``os.openpty()``; ``path`` (``/dev/pts/N``) is the slave side, which pyserial,
``miniterm`` or ``cat`` open exactly like a board's ``/dev/ttyACM1``. The slave is
put in raw mode (no echo, no newline translation) and kept open by the emulator,
so the port exists even while no tool is attached. Bytes the terminal cannot
buffer are dropped (counted in ``dropped``), never waited for, and the write reports
them taken, as a board's USB FIFO does while no terminal holds the port open; so the
firmware never waits or stalls on the emulator, and ``tee`` (a binary file) gets
every byte: ``--log FILE``.
"""

import os
import tty

from tools.cpstubs.usb_cdc import Serial


class PtyPort(Serial):
    """A ``usb_cdc.Serial`` stand-in backed by a pseudo-terminal."""

    def __init__(self, tee=None):
        super().__init__()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.tee = tee
        self.dropped = 0

    def write(self, buf):
        data = bytes(buf)
        self.written += data  # the stand-in's record (tests read it too)
        if self.tee is not None:
            self.tee.write(data)
            self.tee.flush()
        try:
            sent = os.write(self.master, data)
        except BlockingIOError:
            sent = 0
        self.dropped += len(data) - sent
        # All taken, as a board's USB FIFO does while no terminal holds the port open:
        # the log must not wait for a reader here (--log keeps every byte).
        return len(data)

    def close(self):
        """Close both ends (tools attached to ``path`` see the port vanish)."""
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
