"""The host's estimate of a guest's clock: offset and drift from NTP-style exchanges.

Each exchange gives four ``ticks_ms`` stamps: ``t1`` the host sends a request, ``t2``
the guest reads it, ``t3`` the guest sends its reply, ``t4`` the host reads that.
Its round trip is ``(t4 - t1) - (t3 - t2)`` and its offset (guest minus host) is
``((t2 - t1) + (t3 - t4)) / 2``, exact when both ways took as long. The exchanges are
taken in buckets of ``bucket``; each bucket becomes one point: the mean of its
samples whose round trip is within 1 ms of the bucket's lowest (the least delayed by
either loop; 1 ms, not 0, because stamps in whole ms make one true round trip read
as two values, and keeping only the lower would favour some phases of the two
clocks and bias the offset). The last ``points`` points, minus any whose round trip
exceeds the window's lowest by more than 2 ms, get a least-squares line:
the offset now and the drift. :meth:`ClockSync.to_host` maps a guest stamp
(``ticks_ms`` modulo 2**29, wrap-aware) to the host's clock through it.

Implementation Notes
--------------------

All in small ints (below 2**30 on a 32-bit board, so nothing allocates): offsets are
kept relative to ``base`` (the first exchange's offset, moved along when the offset
drifts away from it), samples in half ms, points in quarter ms; the fit's x is host
time in units of 256 ms back from the newest point (at most 32 points from the last
98 s, within 256 ms of the newest, so every sum and product stays below 2**30);
the drift comes out in units of 2**-24 (0.06 ppm) by long division, the offset in
1/16 ms. docs/LINK.md gives the error budget.
"""

from engine.compat import const
from engine.ticks import ticks_diff

_MASK = const((1 << 29) - 1)
_RTT_MAX_MS = const(60)  # an exchange slower than this says nothing useful
_RTT_SLACK_MS = const(2)  # points this much slower than the window's fastest are left out
_X_SHIFT = const(8)  # fit x unit: 256 ms
_DRIFT_SHIFT = const(24)  # drift unit: 2**-24 ms per ms
_DRIFT_MAX = const(1 << 15)  # |drift| below 2**15 units: about 1950 ppm
_DT_MAX = const(1 << 14)  # ms of extrapolation at most (keeps drift x dt below 2**29)
_Y_MAX = const(1 << 10)  # quarter ms: a point further than this from the newest is dropped
_X_OLDEST = const(384)  # x units (98 s): older points are dropped (keeps the sums small)
_REBASE = const(1 << 12)  # half ms: offsets further than this from base move base


def _div_round(num, den):
    """``num / den`` rounded to the nearest int (``den > 0``), small ints throughout."""
    if num >= 0:
        return (num + (den >> 1)) // den
    return -((-num + (den >> 1)) // den)


def _scaled_div(num, shift, den):
    """``(num << shift) // den`` for ``0 <= num``, ``0 < den < 2**28``, small ints throughout."""
    q = num // den
    r = num - q * den
    for _ in range(shift):
        q += q
        r += r
        if r >= den:
            r -= den
            q += 1
    return q


class ClockSync:
    """Offset and drift of one guest's clock relative to the host's.

    ``ready`` once one exchange was taken; ``offset16`` (1/16 ms, relative to ``base``
    ms) and ``drift`` (2**-24 units) hold the line at host time ``ref``. ``samples``,
    ``rejected`` and ``points_used`` count what went in. ``points`` at most 32.
    """

    def __init__(self, points=32, bucket=8):
        self.size = points
        self.bucket = bucket
        self.p_t = [0] * points  # host time of each point (ms)
        self.p_y = [0] * points  # its offset minus base, quarter ms
        self.p_rtt = [0] * points  # its lowest round trip, ms
        self.count = 0  # points held
        self.head = 0  # next slot
        self.s_t = [0] * bucket  # the open bucket's samples: host time, ms
        self.s_y = [0] * bucket  # offset minus base, half ms
        self.s_rtt = [0] * bucket
        self.s_n = 0
        self.base = 0
        self.ready = False
        self.ref = 0
        self.offset16 = 0
        self.drift = 0
        self.samples = self.rejected = self.points_used = 0

    def sample(self, t1, t2, t3, t4):
        """Take one exchange; return its round trip in ms (-1 if rejected)."""
        rtt = ticks_diff(t4, t1) - ticks_diff(t3, t2)
        if rtt < 0 or rtt > _RTT_MAX_MS or ticks_diff(t3, t2) < 0:
            self.rejected += 1
            return -1
        a = ticks_diff(t2, t1)  # offset + the request's way
        if not self.ready and self.s_n == 0:
            self.base = a
        # 2 x offset - 2 x base, wrap-aware: (t2 - t1) + (t3 - t4) with both terms near a
        y = 2 * ticks_diff(a, self.base) + ticks_diff(t3 - t4 - a, 0)
        if y > _REBASE or y < -_REBASE:  # the offset drifted far from base: move base along
            shift = y >> 1
            self.base = ticks_diff(self.base + shift, 0)
            for i in range(self.size):
                self.p_y[i] -= 4 * shift
            for i in range(self.bucket):
                self.s_y[i] -= 2 * shift
            self.offset16 -= 16 * shift
            y -= 2 * shift
        self.samples += 1
        k = self.s_n
        self.s_t[k] = (t1 + (rtt >> 1)) & _MASK  # the host's time halfway through
        self.s_y[k] = y
        self.s_rtt[k] = rtt
        self.s_n = k + 1
        # The open bucket as a point (in the ring's next slot, held once the bucket is
        # full): the mean of its samples within 1 ms of its lowest round trip.
        low = self.s_rtt[0]
        for k in range(1, self.s_n):
            if self.s_rtt[k] < low:
                low = self.s_rtt[k]
        first = -1
        used = sy = st = 0
        for k in range(self.s_n):
            if self.s_rtt[k] <= low + 1:
                if first < 0:
                    first = k
                used += 1
                sy += self.s_y[k]
                st += ticks_diff(self.s_t[k], self.s_t[first])
        i = self.head
        self.p_rtt[i] = low
        self.p_t[i] = (self.s_t[first] + st // used) & _MASK
        self.p_y[i] = _div_round(4 * sy, 2 * used)  # half ms -> quarter ms
        held = self.count + 1 if self.count < self.size else self.size
        if self.s_n >= self.bucket:
            self.s_n = 0
            self.head = (i + 1) % self.size
            self.count = held
        self._fit(i, held)
        return rtt

    def _fit(self, newest, n_points):
        """Fit a line to the points (``newest`` the latest) whose round trip is near the best."""
        p_t = self.p_t
        p_y = self.p_y
        p_rtt = self.p_rtt
        t0 = p_t[newest]
        y0 = p_y[newest]
        fast = p_rtt[newest]
        for k in range(n_points):
            if p_rtt[k] < fast:
                fast = p_rtt[k]
        n = sx = sy = sxx = sxy = 0
        for k in range(n_points):
            if p_rtt[k] > fast + _RTT_SLACK_MS:
                continue
            x = ticks_diff(p_t[k], t0) >> _X_SHIFT
            y = p_y[k] - y0
            if x > 0 or x < -_X_OLDEST or y > _Y_MAX or y < -_Y_MAX:
                continue
            n += 1
            sx += x
            sy += y
            sxx += x * x
            sxy += x * y
        self.points_used = n
        if n == 0:
            return
        drift = self.drift
        den = n * sxx - sx * sx  # n^2 x the variance of x
        if n >= 3 and den >= n * n * 16:  # the points span about a second or more
            num = n * sxy - sx * sy
            # slope in quarter ms per 256 ms -> 2**-24 ms per ms: x 2**24 / 1024 = x 2**14
            if num >= 2 * den:  # 2 quarter ms per 256 ms: the 1953 ppm of _DRIFT_MAX
                drift = _DRIFT_MAX
            elif -num >= 2 * den:
                drift = -_DRIFT_MAX
            elif num >= 0:
                drift = _scaled_div(num, 14, den)
            else:
                drift = -_scaled_div(-num, 14, den)
        # the line at x = 0 in 1/16 ms: 4 x mean y minus drift x mean x
        # (2**-24 ms/ms x 256 ms = 2**-16 ms; in 1/16 ms: >> 12)
        self.drift = drift
        self.ref = t0
        self.offset16 = 4 * y0 + _div_round(4 * sy - ((drift * sx) >> 12), n)
        self.ready = True

    def to_host(self, guest_t):
        """The host's clock when the guest's read ``guest_t`` (both ticks_ms, mod 2**29)."""
        host_t = guest_t - self.base - (self.offset16 >> 4)  # near enough for the drift
        dt = ticks_diff(host_t, self.ref)
        if dt > _DT_MAX:
            dt = _DT_MAX
        elif dt < -_DT_MAX:
            dt = -_DT_MAX
        off = self.offset16 + ((self.drift * dt) >> 20)  # 2**-24 ms x 16 = 2**-20
        return (guest_t - self.base - ((off + 8) >> 4)) & _MASK
