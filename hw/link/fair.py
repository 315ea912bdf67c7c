"""The fairness rule: the host judges time T only once every guest's clock has passed T.

A guest sends its presses in the order it read them, then a watermark: "every press
I stamped up to W has been sent". The host maps W to its own clock (hw.link.sync) and
tells the :class:`Gate`. The host's loop asks :meth:`Gate.limit` how far it may take
its engine now: no further than the slowest guest's watermark, so a guest press can
never arrive for a tick already judged, and the order of two presses depends on their
stamps, never on which frame came first.

Implementation Notes
--------------------

Up to ``seats`` seats (the host's own, 0, is never waited for). A guest press that
maps to a time the host has already judged (the estimate moved by a fraction of a ms
between two updates) is placed on the first tick not yet judged (:meth:`Gate.place`),
so a log's times never go backwards. Times are ticks_ms modulo 2**29, wrap-aware.
Nothing here allocates.
"""

from engine.compat import const
from engine.ticks import ticks_diff

_MASK = const((1 << 29) - 1)
_NOT_YET = const(-1)


class Gate:
    """How far the host may judge, from its guests' watermarks."""

    def __init__(self, seats=5):
        self.seats = seats
        self.horizon = [0] * seats  # host time each guest is known to have passed
        self.known = bytearray(seats)  # 1: a watermark came since the seat joined
        self.active = bytearray(seats)  # 1: a guest sits there
        self.judged = 0  # the host has judged every tick up to this one
        self.started = False

    def join(self, seat):
        """A guest took ``seat``: nothing may be judged until its first watermark."""
        self.active[seat] = 1
        self.known[seat] = 0

    def leave(self, seat):
        """The guest of ``seat`` is gone (abandoned match): stop waiting for it."""
        self.active[seat] = 0

    def watermark(self, seat, host_t):
        """Seat ``seat`` has sent every press up to host time ``host_t``."""
        if not self.known[seat] or ticks_diff(host_t, self.horizon[seat]) > 0:
            self.horizon[seat] = host_t
            self.known[seat] = 1

    def limit(self, now):
        """The latest host time that may be judged at ``now``; ``NOT_YET`` (-1) if none."""
        lim = now
        for s in range(1, self.seats):
            if self.active[s]:
                if not self.known[s]:
                    return _NOT_YET
                if ticks_diff(self.horizon[s], lim) < 0:
                    lim = self.horizon[s]
        if self.started and ticks_diff(lim, self.judged) < 0:
            return self.judged
        return lim

    def may_advance(self, now):
        """True if every tick up to ``now`` may be judged."""
        return self.limit(now) == now

    def judged_to(self, t):
        """The host has judged every tick up to ``t``."""
        self.judged = t
        self.started = True

    def place(self, host_t):
        """Where a guest press mapped to ``host_t`` goes: never on a tick already judged."""
        if self.started and ticks_diff(host_t, self.judged) <= 0:
            return (self.judged + 1) & _MASK
        return host_t
