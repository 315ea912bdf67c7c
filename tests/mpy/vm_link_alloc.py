# vm-timeout: 240
# vm-dirs: engine hw tests
"""Proves that the link allocates nothing per frame, per sync update and per fairness check.

A host and a guest hw.link.link.Link are joined by two in-memory byte rings (a
port with ``write(buf, n)`` and ``readinto(buf)``, as busio.UART) and a fake clock.
After set-up and warm-up: encoding and decoding frames of every type, a round of the
match (a log line out, a press back, a watermark, acks), a clock-sync exchange with
its least-squares update, mapping a guest time and the gate's questions must all
allocate 0 bytes (gc.mem_alloc with the collector off, and heap_lock).
"""

from mpyharness import Report, locked, measure

from hw.link import frame as fr
from hw.link import link as lk
from hw.link.fair import Gate
from hw.link.sync import ClockSync

# The link's private constants (folded on the device: not module attributes there)
ROLE_HOST, ROLE_GUEST, LINKED = 1, 2, 1  # hw.link.link's _ROLE_HOST, _ROLE_GUEST, _LINKED
HELLO, ASSIGN, ACK, NACK, SYNC_REQ, SYNC_REP, WATERMARK, LOG = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x41
FRAME_MAX, MAX_PAYLOAD = 415, 200  # hw.link.frame's (these and the frame types)


class Clock:
    def __init__(self, t):
        self.t = t

    def now(self):
        return self.t


class Ring:
    """One direction of the cable: bytes written wait here until read."""

    def __init__(self, size):
        self.buf = bytearray(size)
        self.head = 0
        self.tail = 0
        self.size = size

    def put(self, buf, n):
        for i in range(n):
            self.buf[self.head] = buf[i]
            self.head = (self.head + 1) % self.size

    def get(self, buf):
        n = 0
        most = len(buf)
        while self.tail != self.head and n < most:
            buf[n] = self.buf[self.tail]
            self.tail = (self.tail + 1) % self.size
            n += 1
        return n if n else None


class Port:
    def __init__(self, out, inp):
        self.out = out
        self.inp = inp

    def write(self, buf, n):
        self.out.put(buf, n)
        return n

    def readinto(self, buf):
        return self.inp.get(buf)


class Handler:
    def __init__(self):
        self.line = bytearray(MAX_PAYLOAD)
        self.line_n = 0
        self.logs = 0
        self.presses = 0
        self.last_t = 0
        self.events = 0

    def on_log(self, buf, start, n):
        for i in range(n):
            self.line[i] = buf[start + i]
        self.line_n = n
        self.logs += 1

    def on_press(self, seat, t, key, arg):
        self.presses += 1
        self.last_t = t

    def on_link(self, event):
        self.events += 1


r = Report("vm_link_alloc")

# ------------------------------------------------------------------ frames alone
out = bytearray(FRAME_MAX)
payload = bytearray(MAX_PAYLOAD)
for i in range(MAX_PAYLOAD):
    payload[i] = (i * 37) & 0xFF  # START and ESC among them: escapes happen
dec = fr.Decoder()
KINDS = (HELLO, ASSIGN, ACK, NACK, SYNC_REQ, SYNC_REP, WATERMARK,
         fr.PRESS, LOG)
LENS = (4, 5, 0, 0, 12, 12, 4, 6, MAX_PAYLOAD)
state = [0]


def encode_all():
    for k in range(9):
        state[0] = fr.encode(out, 0x10, KINDS[k], k, 3, payload, LENS[k])


def decode_all():
    for k in range(9):
        n = fr.encode(out, 0x10, KINDS[k], k, 3, payload, LENS[k])
        dec.scan(out, 0, n)


r.free("encoding a frame of each type (a 200-byte LOG line too)", encode_all)
before = dec.frames
r.free("decoding a frame of each type", decode_all)
r.check(dec.frames - before == 27 and dec.stats[0] == 0, "every frame decoded whole",
        "(%d frames, %d bad)" % (dec.frames - before, dec.stats[0]))

# ------------------------------------------------------------------ two ends on a cable
ab = Ring(2048)
ba = Ring(2048)
host_clock = Clock((1 << 29) - 3000)  # both clocks wrap during the run
guest_clock = Clock(123456)
host_h = Handler()
guest_h = Handler()
host = lk.Link(ROLE_HOST, Port(ab, ba), host_clock.now, host_h, 0x1234, spin_ms=0)
guest = lk.Link(ROLE_GUEST, Port(ba, ab), guest_clock.now, guest_h, 0x5678)
line = bytearray(b"press 123456 A 7")


class Match:
    """A pass of both loops: 1 ms of each clock, a log line and a press now and then."""

    def __init__(self):
        self.k = 0

    def step(self, n):
        for _ in range(n):
            k = self.k
            host_clock.t = (host_clock.t + 1) & 0x1FFFFFFF
            guest_clock.t = (guest_clock.t + 1) & 0x1FFFFFFF
            if k % 16 == 0:
                host.send_log(line, len(line))
            if k % 24 == 0:
                guest.send_press(guest_clock.t, k & 7, 0)
            guest.drained(guest_clock.t)
            guest.poll()
            host.poll()
            self.k = k + 1


match = Match()
match.step(600)  # link up, sync's fast phase, windows in use
r.check(host.state == LINKED and guest.state == LINKED, "the two ends linked")
r.check(host.syncs >= 10 and host.sync.ready, "sync exchanges ran (%d)" % host.syncs)
logs, presses = guest_h.logs, host_h.presses
r.free("a match's loop passes (log lines, presses, watermarks, acks, sync) x400",
       match.step, 400)
r.check(guest_h.logs > logs and host_h.presses > presses,
        "lines and presses went through while measured",
        "(%d lines, %d presses)" % (guest_h.logs - logs, host_h.presses - presses))
r.check(bytes(guest_h.line[:guest_h.line_n]) == bytes(line), "the line arrived intact")


def resend_round():
    """A lost frame: the sender goes back and sends again."""
    host.send_log(line, len(line))
    host._go_back(host.base)
    match.step(20)


r.free("going back and resending", resend_round)

# ------------------------------------------------------------------ sync and gate alone
sync = ClockSync()
ex = [0]


def sync_update():
    k = ex[0]
    t1 = (1000 + k * 250) & 0x1FFFFFFF
    t2 = (t1 + 5000 + k // 40 + 2) & 0x1FFFFFFF
    sync.sample(t1, t2, (t2 + 1) & 0x1FFFFFFF, (t1 + 5) & 0x1FFFFFFF)
    ex[0] = k + 1


for _ in range(40):
    sync_update()
r.free("a sync exchange's update (least-squares refit of 32 points)", sync_update)
r.free("mapping a guest time to the host's clock", sync.to_host, 777777)
gate = Gate()
gate.join(1)
gate.watermark(1, 5000)


def gate_round():
    gate.watermark(1, 5010)
    lim = gate.limit(5020)
    gate.judged_to(lim)
    gate.place(4990)
    gate.may_advance(5020)


r.free("the gate's watermark, limit, judged_to and place", gate_round)
r.done()
