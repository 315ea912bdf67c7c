"""``usb_cdc.data`` as a pseudo-terminal, so serial tools treat the emulator as a board.

:class:`PtyPort` is the cpstubs ``Serial`` whose writes go to the master side of
``os.openpty()``; ``path`` (``/dev/pts/N``) is the slave side, which pyserial,
``miniterm`` or ``cat`` open exactly like a board's ``/dev/ttyACM1``. The slave is
put in raw mode (no echo, no newline translation) and kept open by the emulator,
so the port exists even while no tool is attached.

Implementation Notes
--------------------

Without ``tee``, like USB CDC with nobody reading: bytes the terminal cannot buffer
(about 16 KB on Linux) are dropped, never waited for, and the short count is
returned, so the firmware goes silent until its next match (``hw.board.serial_log``).

With ``tee`` (``--log FILE``), the file is a host that reads everything: every write
goes to it whole and is reported as taken (a write the file refuses, a full disk, is
kept in ``error`` for the emulator to end the run with; the firmware is not told), so the firmware never stalls and the
file keeps everything it produced, whether or not anything reads the pty. The pty
then keeps the firmware's rule on its own side: once it cannot take a whole line,
it gets nothing more until the next ``CSLOG 1`` header, which starts on a fresh
line, so a tool on the pty loses a match's tail but never misreads a line.
"""

import os
import tty

from tools.cpstubs.usb_cdc import Serial

_HEADER = b"CSLOG 1"


class PtyPort(Serial):
    """A ``usb_cdc.Serial`` stand-in backed by a pseudo-terminal."""

    def __init__(self, tee=None):
        super().__init__()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.tee = tee
        self.dropped = 0  # bytes the pty did not get
        self.cut = False  # tee mode: the pty missed a line, waits for the next header
        self.error = None  # the OSError that the tee's file gave (the firmware never sees it)

    def write(self, buf):
        data = bytes(buf)
        taken = len(data)
        self.written += data  # the stand-in's record (tests read it too)
        if self.tee is None:
            sent = self._send(data)
            self.dropped += len(data) - sent
            return sent  # like a board: a full host buffer takes part of it, never stalls
        if self.error is None:
            try:
                self.tee.write(data)
                self.tee.flush()
            except OSError as err:  # a full disk: the emulator ends the run, in one line
                self.error = err
        if self.cut:
            if not data.startswith(_HEADER):
                self.dropped += taken
                return taken
            data = b"\n" + data  # end the line the pty got cut short
        sent = self._send(data)
        if sent < len(data):
            self.dropped += len(data) - sent
            self.cut = True
        else:
            self.cut = False
        return taken

    @property
    def in_waiting(self):
        """Bytes a host wrote to the pty (``tools/hil --port``), read without blocking."""
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            data = b""
        if data:
            self.feed(data)
        return super().in_waiting

    def _send(self, data):
        try:
            return os.write(self.master, data)
        except BlockingIOError:
            return 0

    def close(self):
        """Close both ends (tools attached to ``path`` see the port vanish)."""
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
