"""Two hw.link ends on a simulated cable, in CPython: clocks, wire, loops, faults.

:class:`Pair` runs a host and a guest :class:`hw.link.link.Link` in simulated true
time (ms, float). Each device has its own crystal (``ppm``) and ``ticks_ms`` (the
floor of its continuous clock, modulo 2**29, from a random start); each byte takes
``byte_ms`` on the wire, a direction carries one byte at a time, and a ``write``
longer than the 32-entry TX FIFO (plus the shift register) blocks the writer's loop
until the rest fits, as busio.UART.write does. Each loop pass reads what has
arrived, runs the application step, polls the link and then works for a random time
(``loop_ms``, sometimes a long ``refresh_ms`` pass, as a display refresh).

Faults on the wire: per-byte drop / corrupt / duplicate probabilities, a pulled
cable (``cut`` windows), and :meth:`Pair.restart` of one end (a new Link, new nonce).

``python tests/link_sim.py`` prints the simulated figures of docs/LINK.md.
"""

import random
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script (the figures): the repository on the path
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from hw.link import frame as fr  # noqa: E402
from hw.link import link as lk  # noqa: E402

MASK = (1 << 29) - 1
BAUD = 115200
BYTE_MS = 10_000 / BAUD * 1.0  # 10 bits per byte
FIFO = 33  # 32-entry TX FIFO + the shift register
READ_MS = 0.02  # one readinto call on the device


class Clock:
    """A device's crystal: ticks_ms at a true time, and its continuous value."""

    def __init__(self, ppm, start):
        self.rate = 1 + ppm / 1e6
        self.start = start

    def cont(self, t):
        """The continuous ms count (no wrap) at true ms ``t``."""
        return self.start + t * self.rate

    def ticks(self, t):
        return int(self.cont(t)) & MASK

    def true_of(self, value):
        """True ms when the continuous count reads ``value`` (not wrapped)."""
        return (value - self.start) / self.rate


class Wire:
    """One direction of the cable."""

    def __init__(self, rng, drop=0.0, corrupt=0.0, dup=0.0):
        self.rng = rng
        self.drop, self.corrupt, self.dup = drop, corrupt, dup
        self.free_at = 0.0
        self.inflight = []  # (arrival true ms, byte)
        self.cuts = []
        self.sent = 0
        self.damaged = 0

    def write(self, t, data):
        """Send ``data`` from true ms ``t``; return the true ms the write returns."""
        ends = []
        for b in data:
            start = max(t, self.free_at)
            end = start + BYTE_MS
            self.free_at = end
            ends.append(end)
            self.sent += 1
            if any(a <= end and start < z for a, z in self.cuts):
                continue
            r = self.rng.random()
            if r < self.drop:
                self.damaged += 1
                continue
            if r < self.drop + self.corrupt:
                b ^= 1 << self.rng.randrange(8)
                self.damaged += 1
            self.inflight.append((end, b))
            if self.rng.random() < self.dup:
                self.inflight.append((end, b))
                self.damaged += 1
        # the write returns once all but FIFO bytes have left for the line
        if len(ends) > FIFO:
            return max(t, ends[len(ends) - FIFO - 1])
        return t

    def take(self, t, most):
        """Up to ``most`` bytes arrived by true ms ``t``."""
        i = 0
        while i < len(self.inflight) and i < most and self.inflight[i][0] <= t:
            i += 1
        got = bytes(b for _, b in self.inflight[:i])
        del self.inflight[:i]
        return got


class Recorder:
    """A handler that keeps what the link delivered."""

    def __init__(self):
        self.logs = []
        self.presses = []
        self.events = []

    def on_log(self, buf, start, n):
        self.logs.append(bytes(buf[start:start + n]))

    def on_press(self, seat, t, key, arg):
        self.presses.append((seat, t, key, arg))

    def on_link(self, event):
        self.events.append(event)


class Device:
    """One handheld: a clock, a Link, a loop."""

    def __init__(self, pair, role, clock, nonce):
        self.pair = pair
        self.role = role
        self.clock = clock
        self.t = 0.0  # this device's true time in its loop
        self.out = None  # the Wire it writes to
        self.inp = None
        self.rec = Recorder()
        self.make_link(nonce)

    def make_link(self, nonce):
        self.link = lk.Link(self.role, self, lambda: self.clock.ticks(self.t), self.rec, nonce)

    # the port, as busio.UART with timeout=0
    def write(self, buf, n):
        self.t = self.out.write(self.t, bytes(buf[:n]))

    def readinto(self, buf):
        self.pair.catch_up(self)  # the other end runs meanwhile (a spin waits for it)
        data = self.inp.take(self.t, len(buf))
        self.t += READ_MS
        if not data:
            return None
        buf[:len(data)] = data
        return len(data)


class Pair:
    """A host and a guest on one simulated cable."""

    def __init__(self, seed=1, ppm=(0.0, 100.0), loop_ms=(1.0, 4.0), refresh_ms=25.0,
                 refresh_p=0.1, drop=0.0, corrupt=0.0, dup=0.0):
        self.rng = random.Random(seed)
        rng = self.rng
        self.loop_ms, self.refresh_ms, self.refresh_p = loop_ms, refresh_ms, refresh_p
        starts = [rng.uniform(0, 1 << 29), rng.uniform(0, 1 << 29)]
        self.host = Device(self, lk._ROLE_HOST, Clock(ppm[0], starts[0]), rng.getrandbits(16))
        self.guest = Device(self, lk._ROLE_GUEST, Clock(ppm[1], starts[1]), rng.getrandbits(16))
        ab, ba = Wire(rng, drop, corrupt, dup), Wire(rng, drop, corrupt, dup)
        self.host.out = self.guest.inp = ab
        self.guest.out = self.host.inp = ba
        self.host.t = rng.uniform(0, 5)
        self.guest.t = rng.uniform(0, 5)
        self.app = {id(self.host): None, id(self.guest): None}  # step(device) per device
        self.busy = None  # the device whose read is running the other one

    def cut(self, start, end):
        """Pull the cable from true ms start to end."""
        self.host.out.cuts.append((start, end))
        self.guest.out.cuts.append((start, end))

    def restart(self, device):
        """That end restarts: a fresh Link with a new nonce."""
        device.make_link(self.rng.getrandbits(16))

    def step(self, device):
        app = self.app[id(device)]
        if app is not None:
            app(device)
        device.link.poll()
        if self.rng.random() < self.refresh_p:
            device.t += self.refresh_ms * self.rng.uniform(0.5, 1.5)
        else:
            device.t += self.rng.uniform(*self.loop_ms)

    def catch_up(self, device):
        """Run the other end's loop up to ``device``'s time (not from inside its own)."""
        other = self.guest if device is self.host else self.host
        if self.busy is not None:
            return
        self.busy = device
        try:
            while other.t < device.t:
                self.step(other)
        finally:
            self.busy = None

    def run(self, until):
        """Run both loops to true ms ``until``."""
        host, guest = self.host, self.guest
        while min(host.t, guest.t) < until:
            self.step(host if host.t <= guest.t else guest)

    def linked(self):
        return host_linked(self.host.link) and self.guest.link.state == lk._LINKED


def host_linked(link):
    return link.state == lk._LINKED and link.peer != fr._NO_SEAT


def wrap(x):
    """``x`` (ms, may be a float) reduced to [-2**28, 2**28): a wrap-aware difference."""
    return ((x + (1 << 28)) % (1 << 29)) - (1 << 28)


def keypad_stamp(clock, t, scan_ms=None, debounce=3, phase=0.0):
    """The ticks_ms a keypad stamps a press made at true ms ``t`` with (None: exact).

    Scans run every ``scan_ms`` on the device's clock from ``phase``; a press is
    queued at the scan that has seen it ``debounce`` times, stamped with that scan's time.
    """
    c = clock.cont(t)
    if scan_ms is not None:
        k = -(-(c - phase) // scan_ms)  # first scan at or after the press
        c = phase + (k + debounce - 1) * scan_ms
    return int(c) & MASK


def sync_trial(seed, ppm, seconds=300.0, every=(200.0, 1500.0), **pair_args):
    """Guest presses at random true times for ``seconds``; the host maps each one.

    Returns ``(errors, pair)``: per press, the mapped host time minus the host's clock
    (continuous) at the moment the guest's clock read the stamp: the estimate's error,
    with the rounding of the mapped time to whole ms.
    """
    import random as _random

    pair = Pair(seed=seed, ppm=(0.0, ppm), **pair_args)
    rng = _random.Random(seed + 1000)
    pending, t = [], 3000.0
    while t < seconds * 1000:
        t += rng.uniform(*every)
        pending.append(t)
    stamped, mapped = [], []

    def guest_step(dev):
        while pending and pending[0] <= dev.t and dev.link.state == lk._LINKED:
            press = pending.pop(0)
            g = dev.clock.ticks(press)
            assert dev.link.send_press(g, 1)
            stamped.append((press, g))
        dev.link.drained(dev.clock.ticks(dev.t))

    pair.host.rec.on_press = lambda seat, g, key, arg: mapped.append(
        pair.host.link.sync.to_host(g))
    pair.app[id(pair.guest)] = guest_step
    pair.run(seconds * 1000 + 500)
    errors = []
    for (press, g), m in zip(stamped, mapped):
        theta = pair.guest.clock.cont(press) - pair.host.clock.cont(press)  # guest - host
        errors.append(wrap(m - g) + wrap(theta))
    return errors, pair


def fair_trial(seed, ppm, gap_ms, pairs=100, scan_ms=None, **pair_args):
    """Host and guest press ``gap_ms`` apart (either first), ``pairs`` times; the host judges.

    The host judges like a linked game: its own presses on its own clock, the guest's
    mapped and placed through ``gate``, released in time order up to ``gate.limit``.
    Returns ``(results, waits, pair)``: per pair "ok" (the earlier press judged first),
    "tie" (same host time) or "wrong"; and the ms each host press waited to be judged.
    """
    import random as _random

    from hw.link.fair import _NOT_YET as NOT_YET
    from engine.ticks import ticks_diff

    pair = Pair(seed=seed, ppm=(0.0, ppm), **pair_args)
    rng = _random.Random(seed + 2000)
    phases = (rng.uniform(0, scan_ms or 1), rng.uniform(0, scan_ms or 1))
    plan = []  # (true ms, who, pair index)
    t = 3000.0
    for i in range(pairs):
        t += rng.uniform(300, 700)
        first = rng.randrange(2)
        plan.append((t, first, i))
        plan.append((t + gap_ms, 1 - first, i))
    plan.sort()
    todo = {0: [p for p in plan if p[1] == 0], 1: [p for p in plan if p[1] == 1]}
    stamps = {}
    for press, who, i in plan:
        dev = pair.host if who == 0 else pair.guest
        stamps[(who, i)] = keypad_stamp(dev.clock, press, scan_ms, phase=phases[who])
    queue, order, waits = [], {}, []
    host_link = pair.host.link

    def due(dev, who):
        items = todo[who]
        while items and dev.clock.ticks(dev.t) - stamps[(who, items[0][2])] & MASK < 1 << 28:
            yield items.pop(0)

    def host_step(dev):
        for press, who, i in due(dev, 0):
            queue.append((stamps[(0, i)], 0, i, dev.t))
        lim = host_link.gate.limit(dev.clock.ticks(dev.t))
        if lim == NOT_YET:
            return
        queue.sort(key=lambda q: ticks_diff(q[0], lim))
        while queue and ticks_diff(queue[0][0], lim) <= 0:
            stamp, who, i, since = queue.pop(0)
            order.setdefault(i, []).append((who, stamp))
            if who == 0:
                waits.append(dev.t - since)
        host_link.gate.judged_to(lim)

    def guest_step(dev):
        for press, who, i in due(dev, 1):
            assert dev.link.send_press(stamps[(1, i)], i & 0xFF)
        dev.link.drained(dev.clock.ticks(dev.t))

    def on_press(seat, g, key, arg):
        host_t = host_link.gate.place(host_link.sync.to_host(g))
        index = [i for (who, i) in stamps if who == 1 and stamps[(1, i)] == g and (i & 0xFF) == key]
        queue.append((host_t, 1, index[0], pair.host.t))

    pair.host.rec.on_press = on_press
    pair.app[id(pair.host)] = host_step
    pair.app[id(pair.guest)] = guest_step
    pair.run(plan[-1][0] + 2000)
    results = []
    for press, who, i in plan[::2]:
        judged = order.get(i, [])
        if len(judged) < 2:
            results.append("missing")
        elif judged[0][1] == judged[1][1]:
            results.append("tie")
        else:
            results.append("ok" if judged[0][0] == who else "wrong")
    return results, waits, pair


def main():
    """Print the simulated figures docs/LINK.md quotes (CPython; a few minutes)."""
    import statistics

    print("link on a simulated cable (CPython: tests/link_sim.py; 115200 baud; loops of 1-4 ms"
          " with a 12-38 ms pass one time in ten)")
    for ppm in (0.0, 100.0):
        errors, drifts = [], []
        for seed in (1, 2, 3, 4):
            e, pair = sync_trial(seed, ppm, seconds=300)
            errors += e
            drifts.append(pair.host.link.sync.drift / 2**24 * 1e6)
        size = sorted(abs(x) for x in errors)
        print("  guest %3g ppm fast, 4 x 5 min: %d presses, error p50 %.2f ms, p99 %.2f ms, max"
              " %.2f ms, mean %+.2f ms; drift estimated %s ppm"
              % (ppm, len(size), size[len(size) // 2], size[int(len(size) * 0.99)], size[-1],
                 statistics.mean(errors), ", ".join("%.0f" % d for d in drifts)))
        assert size[int(len(size) * 0.99)] <= 2.0
    for scan in (None, 1.953):
        for gap in (2.0, 3.0, 4.0):
            results, waits = [], []
            for seed in (1, 2, 3, 4):
                r, w, _ = fair_trial(seed, 100.0, gap, pairs=100, scan_ms=scan)
                results += r
                waits += w
            waits.sort()
            counts = {k: results.count(k) for k in ("ok", "tie", "wrong", "missing")}
            print("  presses %g ms apart, %s: %s; host presses waited p50 %.1f ms, p95 %.1f ms"
                  % (gap, "exact stamps" if scan is None else "keypads scanning every %g ms"
                     % scan, counts, waits[len(waits) // 2], waits[int(len(waits) * 0.95)]))
            assert counts["missing"] == 0


if __name__ == "__main__":
    main()
