# vm-timeout: 240
# vm-dirs: engine hw tests
"""Proves that a linked host's loop and a linked guest's loop allocate nothing per frame.

Two firmware Apps (``hw.app.App``, as ``hw.main.build`` makes one: the builtin
profile's buttons, a display, a serial log) in one VM, joined by two in-memory byte
rings standing for the cable (``write(buf, n)``, ``readinto(buf)``, as
``busio.UART`` with ``timeout=0``), each with its own clock (the guest's starts
elsewhere and runs 1 ms in 1000 fast). Set-up may allocate (reported as "info"):
*Link* opening the cable and loading ``hw.link``, the match's start on the host
(rules, the log's header) and on the guest (the ``rules`` line it parses). Then, in
play, each measured twice (gc.mem_alloc with the collector off, and heap_lock):

* idle frames of both loops (watermarks, acks, heartbeats, clock sync, ``clock``
  lines streamed and played);
* frames where each side's player presses its pad (the guest's press sent, mapped,
  judged through the gate, logged and streamed back, played on the guest);
* a numbered frame (a log line, a press) lost on the wire (a byte dropped: the
  receiver asks again, the sender resends) and a damaged one (a byte flipped: refused
  by its CRC, resent).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/fakecp")  # before any firmware import

import board  # noqa: E402  (the fakes)
import usb_cdc  # noqa: E402

from mpyharness import Report, locked, measure  # noqa: E402

from engine.family import PLAY  # noqa: E402
from hw.app import App  # noqa: E402
from hw.app.modes import GAME, LINK  # noqa: E402
from hw.board.pads import make_buttons, position  # noqa: E402
from hw.board.profiles import KEY_START, PROFILES  # noqa: E402

MASK = (1 << 29) - 1
START_T = (1 << 29) - 30000  # the 2**29 wrap comes 30 s in, as on a board after boot


class Ring:
    """One direction of the cable; ``drop`` / ``flip``: the next byte written is lost /
    damaged (fake only)."""

    def __init__(self, size):
        self.buf = bytearray(size)
        self.head = 0
        self.tail = 0
        self.size = size
        self.drop = False
        self.flip = False
        self.dropped = 0
        self.flipped = 0

    def put(self, buf, n):
        for i in range(n):
            byte = buf[i]
            if i == n // 2 and self.drop and n > 2 and buf[2] & 0x40:  # in a numbered frame
                self.drop = False
                self.dropped += 1
                continue
            if i == n // 2 and self.flip and n > 2 and buf[2] & 0x40:
                self.flip = False
                self.flipped += 1
                byte ^= 0x10
            self.buf[self.head] = byte
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
    """One end: ``spin()`` is called on a second empty read in a row at one time (the
    host reading for a sync reply: time passes, the guest's loop runs meanwhile)."""

    def __init__(self, out, inp):
        self.out = out
        self.inp = inp
        self.spin = None
        self.empty_at = -1

    def write(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        self.out.put(buf, n)
        return n

    def readinto(self, buf):
        n = self.inp.get(buf)
        if n is None and self.spin is not None:
            if self.empty_at == host.t:
                self.spin()
            self.empty_at = host.t
        return n

    def deinit(self):
        pass


class Handheld:
    """One App with its own clock, pads, display, log and end of the cable."""

    def __init__(self, port, start, seed):
        self.t = start
        self.port = port
        self.display = board.Display(320, 240)
        self.serial = usb_cdc.Serial()
        self.buttons = make_buttons(PROFILES["builtin"], board)
        self.app = App(self.display, self.buttons, port=self.serial, seed=seed,
                       link=self.open, clock=self.clock, attract_ms=0)
        self.events = self.buttons.events

    def open(self):
        return self.port

    def clock(self):
        return self.t

    def tap(self, key):
        self.events.push(key, True, self.t)
        self.events.push(key, False, self.t)


ab = Ring(4096)
ba = Ring(4096)
host = Handheld(Port(ab, ba), START_T, 11)
guest = Handheld(Port(ba, ab), (START_T + 777777) & MASK, 12)
host_app = host.app
guest_app = guest.app


def spin():
    host.t = (host.t + 1) & MASK
    guest.t = (guest.t + 1) & MASK
    guest_app.step(guest.t)


host.port.spin = spin
keys = bytearray(16)  # seat * 8 + table position -> logical key
for s in range(2):
    for b in range(8):
        keys[s * 8 + position(s, b)] = s * 8 + b
state = [0]  # ms run


def run(n):
    """``n`` ms: both loops once a ms, the guest's clock 1 ms in 1000 fast."""
    for _ in range(n):
        k = state[0] + 1
        state[0] = k
        host.t = (host.t + 1) & MASK
        guest.t = (guest.t + 1 + (1 if k % 1000 == 0 else 0)) & MASK
        host_app.step(host.t)
        guest_app.step(guest.t)


def pick(game, k):
    """A coverable position (the 2x4 game), or -1."""
    mask = game.coverable
    pos = k % 8
    for _ in range(8):
        if (mask >> pos) & 1:
            return pos
        pos = (pos + 1) % 8
    return -1


def presses(rounds):
    """Each side's player presses a coverable position in turn, 40 ms apart."""
    for k in range(rounds):
        side = host if k & 1 == 0 else guest
        seat = k & 1
        game = side.app.game
        if side.app.mode == GAME and game.phase == PLAY:
            pos = pick(game, k)
            if pos >= 0:
                side.tap(keys[seat * 8 + pos])
        run(40)


r = Report("vm_linked_alloc")


def free(what, fn, a):
    used = measure(fn, a)
    ok = locked(fn, a)
    r.check(used in (0, None) and ok is not False,
            "%s: %s bytes%s" % (what, used, "; again under heap_lock" if ok else ""))


def info(what, fn, a):
    print("info", "%s: %s bytes" % (what, measure(fn, a)))


def open_link(side_role):
    side, role = side_role
    from hw.app.linked import start

    side.app.menu.link = role
    start(side.app)


info("host: Link (the cable opened, hw.link loaded)", open_link, (host, 0))
info("guest: Link", open_link, (guest, 1))
run(3000)  # HELLO, ASSIGN, the first syncs
r.check(host_app.mode == LINK and host_app.session.linked and guest_app.session.linked,
        "both linked")
host.tap(KEY_START)
info("the match begins (host: rules, header; guest: its rules line)", run, 50)
run(3000)  # "Get ready", the deal: play
r.check(host_app.mode == GAME and guest_app.mode == GAME, "both in play",
        "(%d, %d)" % (host_app.mode, guest_app.mode))
presses(20)  # warm-up: every path once (queues, the gate, the guest's line reader)
free("idle frames of both loops (watermarks, acks, syncs, clock lines) x500", run, 500)
logged = host_app.presses
free("frames with presses on both pads, judged, streamed, played x40 (1.6 s)", presses, 40)
link = host_app.session.link
r.check(host_app.presses > logged, "presses were judged while measured",
        "(%d)" % (host_app.presses - logged))


def lost(n):
    ab.drop = True  # a byte of the host's next numbered frame (a log line) ...
    ba.drop = True  # ... and of the guest's (a press): asked for again, resent
    presses(2)
    run(n)


def damaged(n):
    ab.flip = True
    ba.flip = True
    presses(2)
    run(n)


resent = link.stats[2]  # hw.link.link._RESENT (folded on the device)
guest_link = guest_app.session.link
guest_resent = guest_link.stats[2]
free("a frame lost each way, asked for again and resent (300 ms)", lost, 300)
free("a frame damaged each way, refused by its CRC and resent (300 ms)", damaged, 300)
r.check(ab.dropped and ba.dropped and ab.flipped and ba.flipped, "bytes were lost and damaged")
r.check(link.stats[2] > resent or guest_link.stats[2] > guest_resent, "frames were resent",
        "(host %d, guest %d)" % (link.stats[2] - resent, guest_link.stats[2] - guest_resent))
r.check(guest_link.dec.stats[0] + link.dec.stats[0] > 0, "a damaged frame was refused")
r.check(host.serial.bytes == guest.serial.bytes, "both logs the same length",
        "(%d, %d)" % (host.serial.bytes, guest.serial.bytes))
r.done()
