# vm-timeout: 120
# vm-dirs: engine hw tests
"""Proves that the match log allocates nothing per line, even when writes come back short.

hw.board.serial_log.MatchLog keeps what a short write did not send in one preallocated
buffer and sends it on later frames (``pump``). Here a port that takes only a few
bytes per call (as CircuitPython's usb_cdc write can, even while the host reads)
and one that stops taking bytes altogether are driven for many frames; every press
line, clock line, pump and the host-gone path must allocate 0 bytes (gc.mem_alloc
with the collector off, and heap_lock).
"""

from mpyharness import Report, locked, measure

from hw.board.serial_log import HOST_GONE_MS, MatchLog


class SlowPort:
    """Takes at most ``chunk`` bytes per write call; counts what it took."""

    def __init__(self, chunk):
        self.chunk = chunk
        self.connected = True
        self.write_timeout = None
        self.taken = 0
        self.last = bytearray(64)  # the last bytes taken, copied without allocating

    def write(self, buf):
        n = len(buf)
        if n > self.chunk:
            n = self.chunk
        for i in range(n):
            self.last[i] = buf[i]
        self.taken += n
        return n


class Driver:
    def __init__(self, log):
        self.log = log
        self.t = (1 << 29) - 5000  # across the tick wrap
        self.k = 0

    def frames(self, n):
        """n frames: a press line every 8th frame, a clock line every 64th, a pump each."""
        log = self.log
        for _ in range(n):
            k = self.k
            if k & 7 == 0:
                log.press(self.t, k & 1, k & 7)
            if k & 63 == 0:
                log.clock(self.t)
            log.pump(self.t)
            self.t = (self.t + 2) & ((1 << 29) - 1)
            self.k = k + 1

    def silent(self, n):
        """n frames with nothing new: only pumps."""
        for _ in range(n):
            self.log.pump(self.t)
            self.t = (self.t + 2) & ((1 << 29) - 1)


r = Report("vm_serial_alloc")
port = SlowPort(5)
log = MatchLog(port)
d = Driver(log)
d.frames(64)  # warm-up: the first short write, buffer in use
r.check(log.waiting > 0 or port.taken > 0, "short writes happen (%d bytes taken)" % port.taken)
r.free("frames of press/clock lines through 5-byte writes x200", d.frames, 200)
r.check(not log.stalled and log.dropped == 0, "the slow host is never given up",
        "(stalled %s, dropped %d)" % (log.stalled, log.dropped))
for i in range(6):  # a burst in one frame: most of it must wait
    log.press(d.t, 1, i)
waited = log.waiting
before = port.taken
d.silent(200)
r.check(waited > 60 and log.waiting == 0 and port.taken - before == waited,
        "later frames send what waited (%d bytes)" % waited)

port.chunk = 0  # the host stops reading
used = measure(d.frames, HOST_GONE_MS)
ok = locked(d.frames, 200)
r.check(log.stalled, "a host that takes nothing for %d ms is given up" % HOST_GONE_MS)
r.check(used == 0 and ok is not False, "lines, pumps and giving up allocate 0 bytes",
        "(%s bytes, heap_lock: %s)" % (used, ok))
r.free("frames while stalled x100", d.frames, 100)
r.done()
