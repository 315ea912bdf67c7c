"""One end of the link cable: seats, frames sent for sure, clock sync, watermarks.

:class:`Link` runs either role. The **host** (seat 0) answers a guest's ``HELLO`` with
``ASSIGN`` (seat 1), streams the match log (:meth:`Link.send_log`), asks the guest's
clock every 250 ms (40 ms for the first 12 exchanges; ``sync``: a
:class:`hw.link.sync.ClockSync`) and passes each in-order watermark to ``gate`` (a
:class:`hw.link.fair.Gate`). The **guest** says ``HELLO`` until it has a seat, sends
its presses (:meth:`Link.send_press`) stamped on its own clock, answers sync requests
at once, and sends a watermark (:meth:`Link.drained`) every ``WATERMARK_MS`` (4 ms) while
its clock moves on. Either end sends something at least every 50 ms and reports the
other lost after ``LOST_MS`` (300 ms) of silence.

LOG and PRESS frames go through a go-back-N window: numbered, kept until the other
end acknowledges them (every frame carries a cumulative ack), sent again from the
first one missing on a ``NACK`` or after 60 ms without progress; the receiver
delivers only the next number, so nothing is delivered twice or skipped.

The caller makes the port and calls :meth:`Link.poll` every pass of its loop::

    uart = busio.UART(board.GP20, board.GP21, baudrate=115200, timeout=0,
                      receiver_buffer_size=512)
    link = Link(_ROLE_GUEST, uart, supervisor.ticks_ms, handler, nonce)
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
round trips keep small. A write longer than the UART's 32-byte FIFO blocks until the
rest fits, so at most two numbered frames go out per call. The window's slots, the
frame buffer and the decoder's buffer are made once; sending, receiving and a sync
update allocate nothing. docs/LINK.md has the frames, the timing and the error budget.
"""

from engine.compat import const
from engine.ticks import ticks_diff
from hw.link.frame import Decoder, encode, get_u32, put_u32

# hw.link.frame's types, seats and header size, folded in at compile time (the tests check
# that they agree with frame's).
_ACK = const(0x03)
_ASSIGN = const(0x02)
_FRAME_MAX = const(415)
_HEADER = const(5)
_HELLO = const(0x01)
_HOST = const(0)
_LOG = const(0x41)
_MAX_PAYLOAD = const(200)
_NACK = const(0x04)
_NO_SEAT = const(0x0F)
_PRESS = const(0x42)
_RELIABLE = const(0x40)
_SYNC_REP = const(0x06)
_SYNC_REQ = const(0x05)
_VERSION = const(2)
_WATERMARK = const(0x07)

_ROLE_HOST = const(1)
_FRAMES_OUT = const(0)  # Link.stats
_BYTES_OUT = const(1)
_RESENT = const(2)
_ROLE_GUEST = const(2)

# States
_SEARCHING = const(0)
_LINKED = const(1)
_CONFLICT = const(2)  # two hosts, or two guests, on one cable

# Events (handler.on_link)
_EV_LINKED = const(1)  # a seat was given (host) or taken (guest)
_EV_REJOINED = const(2)  # host: the guest restarted and took its seat again
_EV_HOST_RESTARTED = const(3)  # guest: the host restarted; the match is gone
_EV_TWO_HOSTS = const(4)  # a host heard another host
_EV_NO_HOST = const(5)  # a guest heard another guest
_EV_LOST = const(6)  # nothing heard for LOST_MS
_EV_BACK = const(7)  # heard again after EV_LOST
_EV_FULL = const(8)  # guest: the host has no seat left
_EV_VERSION = const(9)  # the other end speaks another version of this protocol

_HELLO_MS = const(100)
_RTO_MS = const(60)  # resend from the oldest unacknowledged frame after this
_HEARTBEAT_MS = const(50)  # send something at least this often
_WATERMARK_MS = const(4)  # the host's own presses wait for one (docs/LINK.md: 2, 3 and 4 ms measured)
_SYNC_MS = const(250)
_SYNC_FAST_MS = const(40)  # the first _SYNC_FAST exchanges come quicker
_SYNC_FAST = const(12)
_SYNC_WAIT_MS = const(100)  # a request unanswered this long is given up
_LOST_MS = const(300)
_SPIN_MS = const(8)  # host: read for the sync reply this long at most
_PUMP_FRAMES = const(2)  # numbered frames put on the wire per call (a write blocks past 33 bytes)
_GUEST_SEAT = const(1)


class Link:
    """One end of the cable (see the module docstring).

    ``role``: ROLE_HOST (1) or ROLE_GUEST (2); ``port``, ``clock``, ``handler``: see above;
    ``nonce``: 16 bits that tell this start of the handheld from the last (a restart
    with the same nonce goes unnoticed). ``slots`` frames of up to ``slot_size`` bytes
    wait for their ack (a host's log lines need up to 200 bytes; a guest's presses 6);
    ``spin_ms``: how long the host reads for a sync reply; ``watermark_ms``: the guest's
    watermark period (shorter: the host may judge sooner, and the wire and the host's
    decoding carry more frames).
    """

    def __init__(self, role, port, clock, handler, nonce, slots=8, slot_size=_MAX_PAYLOAD,
                 spin_ms=_SPIN_MS, rx_size=64, watermark_ms=_WATERMARK_MS):
        self.role = role
        self.write = port.write
        self.readinto = port.readinto
        self.rx = bytearray(rx_size)
        self.spin_ms = spin_ms
        self.watermark_ms = watermark_ms
        self.clock = clock
        self.handler = handler
        self.nonce = nonce & 0xFFFF
        self.host = role == _ROLE_HOST
        self.seat = _HOST if self.host else _NO_SEAT
        self.peer = _NO_SEAT
        self.peer_nonce = -1
        self.state = _SEARCHING
        self.lost = False
        self.tx = bytearray(_FRAME_MAX)
        self.pay = bytearray(12)  # payload of the small frames
        self.dec = Decoder()
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
        self.hello_at = now - _HELLO_MS
        # clock sync and the gate (host; a guest never loads their code), watermarks (guest)
        self.sync = self.gate = None
        if self.host:
            from hw.link.fair import Gate
            from hw.link.sync import ClockSync

            self.sync = ClockSync()
            self.gate = Gate()
        self.sync_t1 = -1
        self.sync_at = now
        self.syncs = 0
        self.wm = -1
        self.wm_sent = -1
        self.wm_at = now
        self.pressed = False  # a press went out since the last watermark
        # counters
        self.ignored = 0  # frames not for this end, or out of turn
        self.stats = [0] * 3  # frames sent, bytes sent, frames resent (one name, not three)

    # ------------------------------------------------------------ sending
    def _send(self, kind, seq, payload, start, n):
        to = self.peer if self.state == _LINKED else _NO_SEAT
        size = encode(self.tx, (self.seat << 4) | to, kind, seq, self.expected, payload, n,
                         start)
        self.write(self.tx, size)
        self.stats[_FRAMES_OUT] += 1
        self.stats[_BYTES_OUT] += size
        self.last_tx = self.clock()
        self.ack_due = False

    def _small(self, kind, n):
        # An unnumbered frame carries the first number never sent: "all before it went out".
        self._send(kind, self.high, self.pay, 0, n)

    def window_free(self):
        """Frames that may be given now (send_log / send_press)."""
        return self.slots - ((self.next - self.base) & 0xFF)

    def _put(self, kind, payload, start, n):
        if self.state != _LINKED or self.window_free() <= 0 or n > self.slot_size:
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
        """Put up to _PUMP_FRAMES numbered frames not yet (re)sent on the wire."""
        for _ in range(_PUMP_FRAMES):
            if self.resend == self.next:
                return
            seq = self.resend
            if ((seq - self.base) & 0xFF) >= self.slots:  # acknowledged meanwhile
                self.resend = self.base
                continue
            slot = seq % self.slots
            self._send(self.kinds[slot], seq, self.store, slot * self.slot_size, self.lens[slot])
            self.sent_at[slot] = self.last_tx
            seq = (seq + 1) & 0xFF
            self.resend = seq
            if ((seq - self.base) & 0xFF) > ((self.high - self.base) & 0xFF):
                self.high = seq

    def send_log(self, buf, n, start=0):
        """Host: stream one CSLOG line (``buf[start:start + n]``, no newline); False if full."""
        return self._put(_LOG, buf, start, n)

    def send_press(self, t, key, arg=0):
        """Guest: a press stamped ``t`` on this handheld's clock; False if the window is full."""
        pay = self.pay
        put_u32(pay, 0, t)
        pay[4] = key
        pay[5] = arg
        self.pressed = True
        return self._put(_PRESS, pay, 0, 6)

    def drained(self, t):
        """Guest: every press stamped up to ``t`` has been given to send_press. The
        watermark goes now (its value fresh, not a pass old) if ``watermark_ms`` went by,
        and at once after a press, so the host may judge the press now; ``poll`` sends it
        once the frames before it are out."""
        self.wm = t
        if self.state == _LINKED and self.high == self.next and t != self.wm_sent:
            now = self.clock()
            if self.pressed or ticks_diff(now, self.wm_at) >= self.watermark_ms:
                self._watermark(now)

    def _watermark(self, now):
        put_u32(self.pay, 0, self.wm)
        self._small(_WATERMARK, 4)
        self.wm_sent = self.wm
        self.wm_at = now
        self.pressed = False

    # ------------------------------------------------------------ the loop
    def poll(self):
        """Read and act on what came; send what is due (hellos, resends, sync, acks...)."""
        self.read()
        now = self.clock()
        if self.state != _LINKED:  # searching, or in conflict: the other end must hear it too
            if ticks_diff(now, self.hello_at) >= _HELLO_MS:
                self._hello(now)
            return
        if ticks_diff(now, self.last_rx) >= _LOST_MS and not self.lost:
            self.lost = True
            self.handler.on_link(_EV_LOST)
        if self.base != self.next and \
                ticks_diff(now, self.sent_at[self.base % self.slots]) >= _RTO_MS:
            self._go_back(self.base)
        self._pump()
        if self.host:
            wait = _SYNC_FAST_MS if self.syncs < _SYNC_FAST else _SYNC_MS
            if not self.lost and \
                    ticks_diff(now, self.sync_at) >= (wait if self.sync_t1 < 0 else _SYNC_WAIT_MS):
                self._sync_request()  # (not while the guest is silent: no spin for nothing)
        elif self.wm >= 0 and self.wm != self.wm_sent and self.high == self.next and \
                ticks_diff(now, self.wm_at) >= self.watermark_ms:
            self._watermark(now)
        if self.ack_due or ticks_diff(now, self.last_tx) >= _HEARTBEAT_MS:
            self._small(_ACK, 0)

    def _hello(self, now):
        pay = self.pay
        pay[0] = self.role
        pay[1] = _VERSION
        pay[2] = self.nonce >> 8
        pay[3] = self.nonce & 0xFF
        self._small(_HELLO, 4)
        self.hello_at = now

    def _sync_request(self):
        """Host: ask the guest's clock, then read for the answer a while (spin_ms)."""
        pay = self.pay
        for k in range(4, 12):
            pay[k] = 0
        t1 = self.clock()
        put_u32(pay, 0, t1)
        self._small(_SYNC_REQ, 12)
        self.sync_t1 = t1
        self.sync_at = t1
        while self.sync_t1 >= 0 and ticks_diff(self.clock(), t1) < self.spin_ms:
            self.read()

    def _go_back(self, seq):
        """Send again from number ``seq`` on (if it is still unacknowledged)."""
        if ((seq - self.base) & 0xFF) <= ((self.high - self.base) & 0xFF):
            self.stats[_RESENT] += (self.high - seq) & 0xFF
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
        i = 0
        while i < n:
            i = dec.scan(buf, i, n)
            if i < 0:
                return
            self._frame()

    def _frame(self):
        dec = self.dec
        kind = dec.kind
        sender = dec.seat >> 4
        to = dec.seat & 0x0F
        if kind == _HELLO:
            self._on_hello()
            return
        if kind == _ASSIGN:
            self._on_assign()
            return
        if self.state != _LINKED or sender != self.peer or (to != self.seat and to != _NO_SEAT):
            self.ignored += 1
            return
        now = self.clock()
        self.last_rx = now
        if self.lost:
            self.lost = False
            self.handler.on_link(_EV_BACK)
        ack = dec.ack
        if ((ack - self.base) & 0xFF) <= ((self.high - self.base) & 0xFF):
            self.base = ack  # everything before ack arrived
            if ((self.resend - self.base) & 0xFF) > ((self.next - self.base) & 0xFF):
                self.resend = self.base
        buf = dec.buf
        if kind & _RELIABLE:
            seq = dec.seq
            if seq != self.expected:
                self._out_of_order(seq)
                return
            self.expected = (seq + 1) & 0xFF
            self.nacked = False
            self.ack_due = True
            if kind == _LOG:
                self.handler.on_log(buf, _HEADER, dec.length)
            elif kind == _PRESS:
                self.handler.on_press(sender, get_u32(buf, _HEADER), buf[_HEADER + 4],
                                      buf[_HEADER + 5])
            return
        in_order = dec.seq == self.expected  # every numbered frame sent before it is here
        if not in_order:
            self._out_of_order(dec.seq)
        if kind == _NACK:
            self._go_back(ack)
            self._pump()
        elif kind == _SYNC_REQ:
            if not self.host:
                t2 = now
                pay = self.pay
                for k in range(4):
                    pay[k] = buf[_HEADER + k]
                put_u32(pay, 4, t2)
                put_u32(pay, 8, self.clock())
                self._small(_SYNC_REP, 12)
        elif kind == _SYNC_REP:
            if self.host and self.sync_t1 >= 0 and get_u32(buf, _HEADER) == self.sync_t1:
                self.sync.sample(self.sync_t1, get_u32(buf, _HEADER + 4),
                                 get_u32(buf, _HEADER + 8), now)
                self.sync_t1 = -1
                self.syncs += 1
        elif kind == _WATERMARK:
            if self.host and in_order and self.sync.ready:
                # every press stamped up to W was sent: the guest's clock reads W + 1 or
                # more, and the host may advance to there (judging the ticks up to W)
                w = (get_u32(buf, _HEADER) + 1) & 0x1FFFFFFF
                self.gate.watermark(sender, self.sync.to_host(w))

    def _out_of_order(self, seq):
        if ((seq - self.expected) & 0xFF) < 128:  # ahead: something was lost
            if not self.nacked:
                self.nacked = True
                self._small(_NACK, 0)
        else:  # behind: a frame resent after its ack was lost; ack again
            self.ack_due = True

    def _on_hello(self):
        buf = self.dec.buf
        role = buf[_HEADER]
        if buf[_HEADER + 1] != _VERSION:  # other firmware: its frames may mean other things
            self._conflict(_EV_VERSION)
            return
        nonce = (buf[_HEADER + 2] << 8) | buf[_HEADER + 3]
        if self.host:
            if role == _ROLE_HOST:
                self._conflict(_EV_TWO_HOSTS)
                return
            rejoin = self.state == _LINKED and nonce != self.peer_nonce
            if self.state != _LINKED or rejoin:
                self.state = _LINKED
                self.peer = _GUEST_SEAT
                self.peer_nonce = nonce
                self._reset_channel()
                self.last_rx = self.clock()
                if rejoin:  # a new guest clock: forget the old one
                    from hw.link.sync import ClockSync  # (loaded: no allocation but the new one)

                    self.sync = ClockSync()
                self.gate.join(_GUEST_SEAT)
                self.handler.on_link(_EV_REJOINED if rejoin else _EV_LINKED)
            if nonce == self.peer_nonce:  # assign it its seat (again, if ASSIGN was lost)
                pay = self.pay
                pay[0] = _GUEST_SEAT
                pay[1] = nonce >> 8
                pay[2] = nonce & 0xFF
                pay[3] = self.nonce >> 8
                pay[4] = self.nonce & 0xFF
                self._small(_ASSIGN, 5)
            return
        if role == _ROLE_GUEST:
            self._conflict(_EV_NO_HOST)
            return
        if self.state == _LINKED and nonce != self.peer_nonce:
            self.state = _SEARCHING
            self.peer = _NO_SEAT
            self.seat = _NO_SEAT
            self.handler.on_link(_EV_HOST_RESTARTED)
        if self.state == _SEARCHING:
            self._hello(self.clock())

    def _on_assign(self):
        if self.host:
            self.ignored += 1
            return
        buf = self.dec.buf
        seat = buf[_HEADER]
        mine = (buf[_HEADER + 1] << 8) | buf[_HEADER + 2]
        host_nonce = (buf[_HEADER + 3] << 8) | buf[_HEADER + 4]
        if mine != self.nonce:
            self.ignored += 1
            return
        if seat == _NO_SEAT:
            self._conflict(_EV_FULL)
            return
        if self.state == _LINKED and host_nonce == self.peer_nonce:
            return  # the same answer again
        self.state = _LINKED
        self.seat = seat
        self.peer = _HOST
        self.peer_nonce = host_nonce
        self._reset_channel()
        self.last_rx = self.clock()
        self.handler.on_link(_EV_LINKED)

    def _conflict(self, event):
        if self.state != _CONFLICT:
            self.state = _CONFLICT
            self.handler.on_link(event)
