"""One end of the link cable: seats, frames sent for sure, clock sync, watermarks.

:class:`Link` runs either role. The **host** (seat 0) answers a guest's ``HELLO`` with
``ASSIGN`` (seat 1), streams the match log (:meth:`Link.send_log`), asks the guest's
clock every ``SYNC_MS`` (``sync``: a :class:`hw.link.sync.ClockSync`) and passes
each in-order watermark to ``gate`` (a :class:`hw.link.fair.Gate`). The **guest**
says ``HELLO`` until it has a seat, sends its presses (:meth:`Link.send_press`)
stamped on its own clock, answers sync requests at once, and sends a watermark
(:meth:`Link.drained`) every ``WATERMARK_MS``.

LOG and PRESS frames go through a go-back-N window: numbered, kept until the other
end acknowledges them (every frame carries a cumulative ack), sent again from the
first one missing on a ``NACK`` or after ``RTO_MS`` without progress; the receiver
delivers only the next number, so nothing is delivered twice or skipped.

The caller makes the port and calls :meth:`Link.poll` every pass of its loop::

    uart = busio.UART(board.GP20, board.GP21, baudrate=115200, timeout=0,
                      receiver_buffer_size=512)
    link = Link(ROLE_GUEST, uart, supervisor.ticks_ms, handler, nonce)
    while True:
        link.poll()     # reads what came, acts on it, sends what is due
        ...

``port.readinto(buf)`` returns None or how many bytes it put in ``buf`` without
waiting (busio.UART with ``timeout=0``); ``port.write(buf, n)`` sends ``buf[0:n]``
(busio.UART's stream ``write`` takes that length). ``clock()`` returns ticks_ms.
``handler`` gets ``on_log(buf, start, n)`` (guest), ``on_press(seat, guest_t, key,
arg)`` (host) and ``on_link(event)`` (the events below).

Implementation Notes
--------------------

Timestamps are taken with ``clock()`` as close to the wire as the loop allows: ``t1``
and ``t3`` just before their frame is encoded and written, ``t2`` and ``t4`` as their
frame is decoded. A sync request is as long as its reply, so both ways take as long
on the wire; the host reads the port in a spin for up to ``spin_ms`` after a
request, so its own loop adds no delay to ``t4`` and an exchange is off only by the
guest's wait before it reads the request (its loop's pass), which the lowest
round trips keep small. The window's slots, the frame buffer and the decoder's buffer are made once;
sending, receiving and a sync update allocate nothing. docs/LINK.md has the frames,
the timing and the error budget.
"""

from engine.compat import const
from engine.ticks import ticks_diff
from hw.link import frame as fr
from hw.link.fair import Gate
from hw.link.sync import ClockSync

ROLE_HOST = const(1)
ROLE_GUEST = const(2)

# States
SEARCHING = const(0)
LINKED = const(1)
CONFLICT = const(2)  # two hosts, or two guests, on one cable

# Events (handler.on_link)
EV_LINKED = const(1)  # a seat was given (host) or taken (guest)
EV_REJOINED = const(2)  # host: the guest restarted and took its seat again
EV_HOST_RESTARTED = const(3)  # guest: the host restarted; the match is gone
EV_TWO_HOSTS = const(4)  # a host heard another host
EV_NO_HOST = const(5)  # a guest heard another guest
EV_LOST = const(6)  # nothing heard for LOST_MS
EV_BACK = const(7)  # heard again after EV_LOST
EV_FULL = const(8)  # guest: the host has no seat left

HELLO_MS = const(100)
RTO_MS = const(60)  # resend from the oldest unacknowledged frame after this
HEARTBEAT_MS = const(50)  # send something at least this often
WATERMARK_MS = const(8)
SYNC_MS = const(250)
SYNC_FAST_MS = const(40)  # the first SYNC_FAST exchanges come quicker
SYNC_FAST = const(12)
SYNC_WAIT_MS = const(100)  # a request unanswered this long is given up
LOST_MS = const(300)
SPIN_MS = const(8)  # host: read for the sync reply this long at most
PUMP_FRAMES = const(2)  # numbered frames put on the wire per call (a write blocks past 33 bytes)
GUEST_SEAT = const(1)


class Link:
    """One end of the cable (see the module docstring)."""

    def __init__(self, role, port, clock, handler, nonce, slots=8, slot_size=fr.MAX_PAYLOAD,
                 spin_ms=SPIN_MS, rx_size=64):
        self.role = role
        self.write = port.write
        self.readinto = port.readinto
        self.rx = bytearray(rx_size)
        self.spin_ms = spin_ms
        self.clock = clock
        self.handler = handler
        self.nonce = nonce & 0xFFFF
        self.host = role == ROLE_HOST
        self.seat = fr.HOST if self.host else fr.NO_SEAT
        self.peer = fr.NO_SEAT
        self.peer_nonce = -1
        self.state = SEARCHING
        self.lost = False
        self.tx = bytearray(fr.FRAME_MAX)
        self.pay = bytearray(12)  # payload of the small frames
        self.dec = fr.Decoder()
        # frames sent for sure: slot = seq % slots
        self.slots = slots
        self.slot_size = slot_size
        self.store = bytearray(slots * slot_size)
        self.kinds = bytearray(slots)
        self.lens = bytearray(slots)
        self.sent_at = [0] * slots
        self.base = 0  # oldest unacknowledged number
        self.next = 0  # number of the next new frame
        self.resend = 0  # next number to put on the wire
        self.high = 0  # first number never sent yet
        # receiving
        self.expected = 0
        self.nacked = False
        self.ack_due = False
        # timers
        now = clock()
        self.last_tx = now
        self.last_rx = now
        self.hello_at = now - HELLO_MS
        # clock sync (host) and watermarks (guest)
        self.sync = ClockSync() if self.host else None
        self.gate = Gate() if self.host else None
        self.sync_t1 = -1
        self.sync_at = now
        self.syncs = 0
        self.wm = -1
        self.wm_sent = -1
        self.wm_at = now
        # counters
        self.frames_out = self.bytes_out = self.resent = self.nacks = self.timeouts = 0
        self.ignored = 0

    # ------------------------------------------------------------ sending
    def _send(self, kind, seq, payload, start, n):
        to = self.peer if self.state == LINKED else fr.NO_SEAT
        size = fr.encode(self.tx, (self.seat << 4) | to, kind, seq, self.expected, payload, n,
                         start)
        self.write(self.tx, size)
        self.frames_out += 1
        self.bytes_out += size
        self.last_tx = self.clock()
        self.ack_due = False

    def _send_small(self, kind, n):
        # An unnumbered frame carries the first number never sent: "all before it went out".
        self._send(kind, self.high, self.pay, 0, n)

    def window_free(self):
        """Frames that may be given now (send_log / send_press)."""
        return self.slots - ((self.next - self.base) & 0xFF)

    def _put(self, kind, payload, start, n):
        if self.state != LINKED or self.window_free() <= 0 or n > self.slot_size:
            return False
        slot = self.next % self.slots
        at = slot * self.slot_size
        store = self.store
        for k in range(n):
            store[at + k] = payload[start + k]
        self.kinds[slot] = kind
        self.lens[slot] = n
        self.next = (self.next + 1) & 0xFF
        self._pump()
        return True

    def _pump(self):
        """Put up to PUMP_FRAMES numbered frames not yet (re)sent on the wire."""
        for _ in range(PUMP_FRAMES):
            if self.resend == self.next:
                return
            seq = self.resend
            if ((seq - self.base) & 0xFF) >= self.slots:  # acknowledged meanwhile
                self.resend = self.base
                continue
            self._send_slot(seq % self.slots, seq)
            seq = (seq + 1) & 0xFF
            self.resend = seq
            if ((seq - self.base) & 0xFF) > ((self.high - self.base) & 0xFF):
                self.high = seq

    def _send_slot(self, slot, seq):
        self._send(self.kinds[slot], seq, self.store, slot * self.slot_size, self.lens[slot])
        self.sent_at[slot] = self.last_tx

    def send_log(self, buf, n, start=0):
        """Host: stream one CSLOG line (``buf[start:start + n]``, no newline); False if full."""
        return self._put(fr.LOG, buf, start, n)

    def send_press(self, t, key, arg=0):
        """Guest: a press stamped ``t`` on this handheld's clock; False if the window is full."""
        pay = self.pay
        fr.put_u32(pay, 0, t)
        pay[4] = key
        pay[5] = arg
        return self._put(fr.PRESS, pay, 0, 6)

    def drained(self, t):
        """Guest: every press stamped up to ``t`` has been given to send_press."""
        self.wm = t

    # ------------------------------------------------------------ the loop
    def poll(self):
        """Read and act on what came; send what is due (hellos, resends, sync, acks...)."""
        self.read()
        now = self.clock()
        if self.state != LINKED:  # searching, or in conflict: the other end must hear it too
            if ticks_diff(now, self.hello_at) >= HELLO_MS:
                self._hello(now)
            return
        if ticks_diff(now, self.last_rx) >= LOST_MS and not self.lost:
            self.lost = True
            self.handler.on_link(EV_LOST)
        if self.base != self.next and \
                ticks_diff(now, self.sent_at[self.base % self.slots]) >= RTO_MS:
            self.timeouts += 1
            self._go_back(self.base)
        self._pump()
        if self.host:
            self._sync_due(now)
        elif self.wm >= 0 and self.wm != self.wm_sent and self.high == self.next and \
                ticks_diff(now, self.wm_at) >= WATERMARK_MS:
            fr.put_u32(self.pay, 0, self.wm)
            self._send_small(fr.WATERMARK, 4)
            self.wm_sent = self.wm
            self.wm_at = now
        if self.ack_due or ticks_diff(now, self.last_tx) >= HEARTBEAT_MS:
            self._send_small(fr.ACK, 0)

    def _hello(self, now):
        pay = self.pay
        pay[0] = self.role
        pay[1] = fr.VERSION
        pay[2] = self.nonce >> 8
        pay[3] = self.nonce & 0xFF
        self._send_small(fr.HELLO, 4)
        self.hello_at = now

    def _sync_due(self, now):
        wait = SYNC_FAST_MS if self.syncs < SYNC_FAST else SYNC_MS
        if self.sync_t1 >= 0 and ticks_diff(now, self.sync_at) < SYNC_WAIT_MS:
            return
        if ticks_diff(now, self.sync_at) < wait:
            return
        pay = self.pay
        for k in range(4, 12):
            pay[k] = 0
        t1 = self.clock()
        fr.put_u32(pay, 0, t1)
        self._send_small(fr.SYNC_REQ, 12)
        self.sync_t1 = t1
        self.sync_at = t1
        while self.sync_t1 >= 0 and ticks_diff(self.clock(), t1) < self.spin_ms:
            self.read()

    def _go_back(self, seq):
        """Send again from number ``seq`` on (if it is still unacknowledged)."""
        if ((seq - self.base) & 0xFF) <= ((self.high - self.base) & 0xFF):
            self.resent += (self.high - seq) & 0xFF
            self.resend = seq

    def _reset_channel(self):
        self.base = self.next = self.resend = self.high = 0
        self.expected = 0
        self.nacked = False
        self.ack_due = False
        self.wm_sent = -1
        self.sync_t1 = -1
        self.syncs = 0
        self.lost = False

    # ------------------------------------------------------------ receiving
    def read(self):
        """Read everything the port holds and act on each whole frame."""
        rx = self.rx
        while True:
            n = self.readinto(rx)
            if not n:
                return
            self.feed(rx, n)
            if n < len(rx):
                return

    def feed(self, buf, n):
        """Decode ``buf[0:n]`` (bytes from the port) and act on each whole frame."""
        dec = self.dec
        for i in range(n):
            if dec.feed(buf[i]):
                self._frame()

    def _frame(self):
        dec = self.dec
        kind = dec.kind
        sender = dec.seat >> 4
        to = dec.seat & 0x0F
        if kind == fr.HELLO:
            self._on_hello()
            return
        if kind == fr.ASSIGN:
            self._on_assign()
            return
        if self.state != LINKED or sender != self.peer or (to != self.seat and to != fr.NO_SEAT):
            self.ignored += 1
            return
        now = self.clock()
        self.last_rx = now
        if self.lost:
            self.lost = False
            self.handler.on_link(EV_BACK)
        ack = dec.ack
        if ((ack - self.base) & 0xFF) <= ((self.high - self.base) & 0xFF):
            self.base = ack  # everything before ack arrived
            if ((self.resend - self.base) & 0xFF) > ((self.next - self.base) & 0xFF):
                self.resend = self.base
        buf = dec.buf
        if kind & fr.RELIABLE:
            seq = dec.seq
            if seq != self.expected:
                self._out_of_order(seq)
                return
            self.expected = (seq + 1) & 0xFF
            self.nacked = False
            self.ack_due = True
            if kind == fr.LOG:
                self.handler.on_log(buf, fr.HEADER, dec.length)
            elif kind == fr.PRESS:
                self.handler.on_press(sender, fr.get_u32(buf, fr.HEADER), buf[fr.HEADER + 4],
                                      buf[fr.HEADER + 5])
            return
        in_order = dec.seq == self.expected  # every numbered frame sent before it is here
        if not in_order:
            self._out_of_order(dec.seq)
        if kind == fr.NACK:
            self.nacks += 1
            self._go_back(ack)
            self._pump()
        elif kind == fr.SYNC_REQ:
            if not self.host:
                t2 = now
                pay = self.pay
                for k in range(4):
                    pay[k] = buf[fr.HEADER + k]
                fr.put_u32(pay, 4, t2)
                fr.put_u32(pay, 8, self.clock())
                self._send_small(fr.SYNC_REP, 12)
        elif kind == fr.SYNC_REP:
            if self.host and self.sync_t1 >= 0 and fr.get_u32(buf, fr.HEADER) == self.sync_t1:
                self.sync.sample(self.sync_t1, fr.get_u32(buf, fr.HEADER + 4),
                                 fr.get_u32(buf, fr.HEADER + 8), now)
                self.sync_t1 = -1
                self.syncs += 1
        elif kind == fr.WATERMARK:
            if self.host and in_order and self.sync.ready:
                self.gate.watermark(sender, self.sync.to_host(fr.get_u32(buf, fr.HEADER)))

    def _out_of_order(self, seq):
        if ((seq - self.expected) & 0xFF) < 128:  # ahead: something was lost
            if not self.nacked:
                self.nacked = True
                self._send_small(fr.NACK, 0)
        else:  # behind: a frame resent after its ack was lost; ack again
            self.ack_due = True

    def _on_hello(self):
        buf = self.dec.buf
        role = buf[fr.HEADER]
        nonce = (buf[fr.HEADER + 2] << 8) | buf[fr.HEADER + 3]
        if self.host:
            if role == ROLE_HOST:
                self._conflict(EV_TWO_HOSTS)
                return
            rejoin = self.state == LINKED and nonce != self.peer_nonce
            if self.state != LINKED or rejoin:
                self.state = LINKED
                self.peer = GUEST_SEAT
                self.peer_nonce = nonce
                self._reset_channel()
                self.last_rx = self.clock()
                self.sync.reset()
                self.gate.join(GUEST_SEAT)
                self.handler.on_link(EV_REJOINED if rejoin else EV_LINKED)
            if nonce == self.peer_nonce:
                self._assign(GUEST_SEAT, nonce)
            return
        if role == ROLE_GUEST:
            self._conflict(EV_NO_HOST)
            return
        if self.state == LINKED and nonce != self.peer_nonce:
            self.state = SEARCHING
            self.peer = fr.NO_SEAT
            self.seat = fr.NO_SEAT
            self.handler.on_link(EV_HOST_RESTARTED)
        if self.state == SEARCHING:
            self._hello(self.clock())

    def _assign(self, seat, nonce):
        pay = self.pay
        pay[0] = seat
        pay[1] = nonce >> 8
        pay[2] = nonce & 0xFF
        pay[3] = self.nonce >> 8
        pay[4] = self.nonce & 0xFF
        self._send_small(fr.ASSIGN, 5)

    def _on_assign(self):
        if self.host:
            self.ignored += 1
            return
        buf = self.dec.buf
        seat = buf[fr.HEADER]
        mine = (buf[fr.HEADER + 1] << 8) | buf[fr.HEADER + 2]
        host_nonce = (buf[fr.HEADER + 3] << 8) | buf[fr.HEADER + 4]
        if mine != self.nonce:
            self.ignored += 1
            return
        if seat == fr.NO_SEAT:
            self._conflict(EV_FULL)
            return
        if self.state == LINKED and host_nonce == self.peer_nonce:
            return  # the same answer again
        self.state = LINKED
        self.seat = seat
        self.peer = fr.HOST
        self.peer_nonce = host_nonce
        self._reset_channel()
        self.last_rx = self.clock()
        self.handler.on_link(EV_LINKED)

    def _conflict(self, event):
        if self.state != CONFLICT:
            self.state = CONFLICT
            self.handler.on_link(event)
