"""A ``code.py`` for the two-Pico rig: hw.link over busio.UART, guest presses mapped by the host.

``LINK_ROLE`` (settings.toml) is ``host`` or ``guest``. Both first print ``cal T``: the
``ticks_ms`` value that had just begun when they wrote one 0x00 byte to the UART (the
rig logs when that byte's start bit left, so a test can place this chip's ticks_ms on
true time), then ``bench ...``: the cost of link work on this chip (µs per frame
encoded, per frame decoded, per sync update, per idle ``poll``), then ``heap ...``:
the heap the link's modules and its objects took.

The guest scans ``LINK_KEY`` (a GPIO number, default GP2; pressed = low) with
``keypad.Keys`` as the firmware does (2 ms scans, debounce 3) and sends each press
stamped with keypad's timestamp; after each drain of the event queue it declares
its clock drained up to the ms before it read the clock. The host maps each guest
press to its own clock. Every ``LINK_REPORT_S`` seconds each side prints what it
gathered meanwhile -- host: ``p G M`` per press (guest stamp, mapped host time),
``sync ...`` (exchanges, drift in ppm x 100, offset), ``gate ...`` (how far the
judged time trails the clock); both: ``alloc N`` (bytes allocated by the loop since
the last report, printing excluded; the first report's include linking up),
``event E T`` (a link event of hw.link.link and its ticks_ms) and ``link ...`` counters.

Implementation Notes
--------------------

Test code for tools/picosim/linkbench.py and tests/test_picosim_link.py. Only the
reports allocate (their formatting), outside the measured stretch.
"""

import gc

FREE0 = gc.mem_free()

import os  # noqa: E402
import time  # noqa: E402

import board  # noqa: E402
import busio  # noqa: E402
import keypad  # noqa: E402
import microcontroller  # noqa: E402
import supervisor  # noqa: E402

gc.collect()
FREE1 = gc.mem_free()
from hw.link import frame as fr  # noqa: E402
from hw.link import link as lk  # noqa: E402

gc.collect()
FREE2 = gc.mem_free()
NOT_YET = -1  # hw.link.fair's (a guest does not load fair)
# hw.link.link's private constants (folded by mpy-cross: not module attributes here)
ROLE_HOST, ROLE_GUEST, LINKED = 1, 2, 1
FRAME_MAX, MAX_PAYLOAD = 415, 200  # hw.link.frame's, folded there too

ROLE = os.getenv("LINK_ROLE") or "host"
KEY = int(os.getenv("LINK_KEY") or 2)
REPORT_MS = int(float(os.getenv("LINK_REPORT_S") or 5) * 1000)
ticks_ms = supervisor.ticks_ms


def ticks_diff(a, b):
    return ((a - b + (1 << 28)) & ((1 << 29) - 1)) - (1 << 28)


uart = busio.UART(board.GP20, board.GP21, baudrate=115200, timeout=0, receiver_buffer_size=512)

# ------------------------------------------------------------------ calibration
t = ticks_ms()
while True:
    edge = ticks_ms()
    if edge != t:
        break
uart.write(b"\x00")
print("cal %d" % edge)


# ------------------------------------------------------------------ bench
def bench():
    out = bytearray(FRAME_MAX)
    pay = bytearray(12)
    dec = fr.Decoder()
    n = 200
    t0 = time.monotonic_ns()
    for i in range(n):
        size = fr.encode(out, 0x10, fr.PRESS, i & 0xFF, 0, pay, 6)
    t1 = time.monotonic_ns()
    for i in range(n):
        dec.scan(out, 0, size)
    t2 = time.monotonic_ns()
    print("bench press_frame_bytes=%d encode_us=%d decode_us=%d"
          % (size, (t1 - t0) // 1000 // n, (t2 - t1) // 1000 // n))
    if ROLE != "host":
        return
    from hw.link.sync import ClockSync

    sync = ClockSync()
    for k in range(40):
        sync.sample(k * 250, 777 + k * 250, 778 + k * 250, k * 250 + 4)
    t3 = time.monotonic_ns()
    for k in range(40, 40 + n):
        sync.sample(k * 250, 777 + k * 250, 778 + k * 250, k * 250 + 4)
    t4 = time.monotonic_ns()
    print("bench sync_update_us=%d" % ((t4 - t3) // 1000 // n))




# ------------------------------------------------------------------ the link
class Handler:
    """Keeps what the link delivers until the next report (no allocation)."""

    def __init__(self, size):
        self.g = [0] * size
        self.m = [0] * size
        self.n = 0
        self.events = [0] * 16  # (event, ticks) pairs
        self.n_events = 0

    def on_press(self, seat, t, key, arg):
        if self.n < len(self.g):
            self.g[self.n] = t
            self.m[self.n] = link.sync.to_host(t)
            self.n += 1

    def on_log(self, buf, start, n):
        pass

    def on_link(self, event):
        if self.n_events < 8:
            self.events[2 * self.n_events] = event
            self.events[2 * self.n_events + 1] = ticks_ms()
            self.n_events += 1


handler = Handler(256)
nonce = (microcontroller.cpu.uid[0] << 8 | microcontroller.cpu.uid[1]) ^ ticks_ms()
role = ROLE_HOST if ROLE == "host" else ROLE_GUEST
gc.collect()
FREE3 = gc.mem_free()
slot = MAX_PAYLOAD if role == ROLE_HOST else 6  # log lines out, or presses
link = lk.Link(role, uart, ticks_ms, handler, nonce, slot_size=slot)
keys = None
if role == ROLE_GUEST:
    pin = getattr(board, "GP%d" % KEY)
    keys = keypad.Keys((pin,), value_when_pressed=False, pull=True, interval=0.002,
                       max_events=16, debounce_threshold=3)
gc.collect()
FREE4 = gc.mem_free()
print("heap free_at_start=%d modules=%d link_object=%d free=%d"
      % (FREE0, FREE1 - FREE2, FREE3 - FREE4, FREE4))  # a host's object loads sync and fair
print("role %s" % ROLE)
bench()

event = keypad.Event()
lag = [0] * 8  # gate: how far the judged time trails the clock, histogram of 1, 2, 4.. ms
sent = dropped = 0
loops = 0
last = ticks_ms()
gc.collect()
alloc0 = gc.mem_alloc()
while True:
    link.poll()
    now = ticks_ms()
    if keys is not None:
        while keys.events.get_into(event):
            if event.pressed:
                if link.send_press(event.timestamp, event.key_number, 0):
                    sent += 1
                else:
                    dropped += 1
        link.drained((now - 1) & 0x1FFFFFFF)
    elif link.state == LINKED:
        lim = link.gate.limit(now)
        if lim != NOT_YET:
            behind = ticks_diff(now, lim)
            b = 0
            while behind > 0 and b < 7:
                behind >>= 1
                b += 1
            lag[b] += 1
            link.gate.judged_to(lim)
    loops += 1
    if ticks_diff(now, last) >= REPORT_MS:
        used = gc.mem_alloc() - alloc0
        print("alloc %d loops %d" % (used, loops))
        if keys is None:
            for i in range(handler.n):
                print("p %d %d" % (handler.g[i], handler.m[i]))
            handler.n = 0
            s = link.sync
            print("sync n=%d used=%d drift_ppm100=%d offset16=%d base=%d"
                  % (link.syncs, s.points_used, s.drift * 100000000 // (1 << 24),
                     s.offset16, s.base))
            print("gate " + " ".join("%d" % v for v in lag))
            for i in range(8):
                lag[i] = 0
        else:
            print("sent %d dropped %d" % (sent, dropped))
        for i in range(handler.n_events):
            print("event %d %d" % (handler.events[2 * i], handler.events[2 * i + 1]))
        handler.n_events = 0
        d = link.dec
        print("link state=%d frames_out=%d bytes_out=%d resent=%d frames_in=%d bad_crc=%d"
              " cut=%d noise=%d" % (link.state, link.stats[0], link.stats[1], link.stats[2],
                                    d.frames, d.stats[0], d.stats[2], d.stats[4]))
        loops = 0
        last = now
        gc.collect()
        alloc0 = gc.mem_alloc()
