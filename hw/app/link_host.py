"""Link play, the host's side: it judges both seats and streams the log (docs/LINK.md).

:class:`HostSession` is :class:`hw.app.linked.LinkSession` for the handheld that owns
the match (seat A): its own presses and the guest's wait in two small queues and are
given to the engine in time order up to ``hw.link.fair.Gate.limit``; every line its
match log writes goes to the guest too (:meth:`HostSession.write`), kept from the
match's ``CSLOG 1`` header on while it fits, so a guest that restarts gets the match so
far. The guest's half is ``hw.app.link_guest``: each handheld loads only its own.

Implementation Notes
--------------------

Imported by ``hw.app.linked.start`` for the host only, forgotten with it. After
set-up a press (queued, judged), a log line sent and a frame allocate nothing.
"""

from engine.compat import const
from engine.ticks import ticks_add, ticks_diff
from hw.app.linked import LinkSession
from hw.app.modes import DONE, LINK, READY
from hw.link.link import Link

# Private constants are folded into the code (no interned names); those shared with
# hw.app.linked, hw.app.link_guest and hw.link are checked equal by the tests.
_QUEUE = const(16)  # presses waiting to be judged, per seat
_OUT_SIZE = const(2048)  # the match's lines so far (a guest that restarts gets them again)
_MAX_PAYLOAD = const(200)  # hw.link.frame's: a LOG frame carries whole lines up to this
_ROLE_HOST = const(1)  # hw.link.link
_NOT_YET = const(-1)  # hw.link.fair
_KEY_PLAY = const(0)  # a PRESS frame's key byte: a play (its argument: the engine's)
_KEY_TAP = const(1)  # START tapped on the guest: begin a match (link screen, match over)
_KEY_HOLD = const(2)  # START held on the guest: abandon the match
_KEY_NO_MEMORY = const(3)  # the guest's heap could not hold the match: abandon it
_BACK_MS = const(1500)  # the countdown after the guest came back
_ABANDONED_HELD = const(b"match abandoned (START held)")  # as hw.app's held START
_ABANDONED_GUEST = const(b"match abandoned (the guest restarted)")
_ABANDONED_FULL = const(b"match abandoned (link log overflowed)")
_ABANDONED_MEMORY = const(b"match abandoned (not enough memory)")
_EV_REJOINED = const(2)  # hw.link.link's: the guest restarted and took its seat again
_GUEST_GONE = const((b"The guest restarted", b"match abandoned"))
_NO_MEMORY = const((b"Not enough memory", b"for this game linked"))
_GUEST_NO_MEMORY = const((b"The guest's memory", b"is too small for it"))
_FELL_BEHIND = const((b"The link fell behind", b"match abandoned"))

class HostSession(LinkSession):
    """The host's side of link play (see the module docstring)."""

    def __init__(self, app, port, clock, nonce):
        # 4 frames in flight are plenty at the line's rate (the guest acks every pass);
        # each slot holds the longest line, 200 bytes
        super().__init__(app, True, Link(_ROLE_HOST, port, clock, self, nonce, slots=4,
                                            slot_size=200), port)
        # presses waiting for the gate (times, engine arguments), per seat
        self.times = ([0] * _QUEUE, [0] * _QUEUE)
        self.args = (bytearray(_QUEUE), bytearray(_QUEUE))
        self.heads = bytearray(2)
        self.counts = bytearray(2)
        self.out = bytearray(_OUT_SIZE)  # the log's lines (each ending in a newline)
        self.out_from = 0  # the next line to send
        self.out_to = 0
        self.match_at = 0  # where the match's lines begin (its CSLOG 1 header)
        self.kept = False  # every line of the match is still in ``out``: a rejoin can replay
        self.rejoins = 0
        self.begin_due = False  # the guest's START: begun once the cable's read is over

    # ------------------------------------------------------------ every pass
    def after_read(self):
        app = self.app
        if self.begin_due:  # (a match begun from inside the read ran out of Python stack)
            self.begin_due = False
            if app.mode == LINK or app.mode == DONE:
                self.begin_match(app.last)
        self._pump_log()

    def step(self, now):
        """A pass in a match: judge the presses up to the gate; the flow runs at ``now``."""
        self.judge(now)
        return now

    def on_link(self, event):
        LinkSession.on_link(self, event)
        if event != _EV_REJOINED:
            return
        # the guest restarted: it gets the match so far (if kept), else it is over
        if self.in_match and self.kept:  # it gets the match so far, then play goes on
            self.out_from = self.match_at
            self.rejoins += 1
            self.counting = True
            self.back_until = ticks_add(self.link.clock(), _BACK_MS)
        elif self.in_match:
            self.problem = _GUEST_GONE
            self.app.log.comment(_ABANDONED_GUEST)
            self.leave_match()

    # ------------------------------------------------------------ START

    def begin_match(self, now):
        """Begin a match. One this handheld's heap cannot hold (a MemoryError while
        its table is built) is abandoned, and the link screen says why: never a crash."""
        self.problem = None
        try:
            self.app.begin_match(now)
        except MemoryError as err:
            self.no_memory(_NO_MEMORY, err)

    def no_memory(self, problem, err=None):
        self.app.log.comment(_ABANDONED_MEMORY)  # the guest leaves the match on this line
        LinkSession.no_memory(self, problem, err)

    def start_held(self, now):
        """START held in a match: it is abandoned (the log says so)."""
        self.judge(now)
        self.app.log.comment(_ABANDONED_HELD)
        self.leave_match()

    # ------------------------------------------------------------ presses
    def press(self, n, t):
        """A press of this handheld's player: queued for the gate."""
        if not self.paused():
            self._queue(0, self.link.gate.place(t), n)

    def on_press(self, seat, t, key, arg):
        """The guest's press (``t`` on the guest's clock) or START request."""
        if key == _KEY_PLAY:
            sync = self.link.sync
            if sync.ready and self.in_match and not self.paused():
                self._queue(1, self.link.gate.place(sync.to_host(t)), arg)
        elif key == _KEY_TAP:  # on the link screen or after a match: begun after the read
            mode = self.app.mode
            if mode == LINK or mode == DONE:
                self.begin_due = True
        elif key == _KEY_HOLD:  # in a match: abandoned, as a held START here
            app = self.app
            if READY <= app.mode < DONE:
                self.judge(app.last)
                app.log.comment(_ABANDONED_HELD)
                self.leave_match()
        elif key == _KEY_NO_MEMORY and self.in_match:
            self.no_memory(_GUEST_NO_MEMORY)

    def _queue(self, seat, t, n):
        count = self.counts[seat]
        if count >= _QUEUE:
            self.dropped += 1
            return
        at = (self.heads[seat] + count) % _QUEUE
        self.times[seat][at] = t
        self.args[seat][at] = n
        self.counts[seat] = count + 1

    def judge(self, now):
        """Give the engine every waiting press up to the gate's limit, in time order,
        then advance it to that limit. The lines of a guest's press go on the wire at
        once, before this pass draws (the guest's screen waits for them); the host's
        own go at the next pass's read, after this pass's drawing (its screen first)."""
        app = self.app
        gate = self.link.gate
        game = app.game
        if not game.started:
            # No game yet: nothing to judge, and the clock follows now, so the first
            # game starts at now (a new engine's clock is 0: past 2**28 ms of uptime,
            # now would read as before it, and the game would start at 0).
            app._advance(now)  # pylint: disable=protected-access
            return
        lim = gate.limit(now) if self.linked else now
        if lim == _NOT_YET:
            return
        if ticks_diff(lim, game.clock) < 0:
            lim = game.clock  # a game just started at now: nothing before it to judge
        counts = self.counts
        heads = self.heads
        guests = False  # a guest's press was judged: its lines go before the drawing
        while True:
            seat = -1
            best = 0
            for s in range(2):
                if counts[s]:
                    t = self.times[s][heads[s]]
                    if ticks_diff(t, lim) <= 0 and (seat < 0 or ticks_diff(t, best) < 0):
                        seat = s
                        best = t
            if seat < 0:
                break
            n = self.args[seat][heads[seat]]
            heads[seat] = (heads[seat] + 1) % _QUEUE
            counts[seat] -= 1
            if app.mode == 3:  # GAME (hw.app.modes): presses read in play only
                if ticks_diff(best, game.clock) < 0:
                    best = game.clock
                app.press(seat, n, best)
                guests = guests or seat > 0
        app._advance(lim)  # pylint: disable=protected-access
        gate.judged_to(game.clock)
        if guests:
            self._pump_log()

    def clear_presses(self):
        """A match ends or begins: nothing waits any more."""
        self.counts[0] = self.counts[1] = 0

    # ------------------------------------------------------------ the log
    def write(self, line):
        """``line`` (a log line ending in a newline) goes to the guest too; a
        match's lines are kept from its header on while they fit, for a rejoin."""
        if not self.linked:
            return
        n = len(line)
        if line[0] == 67:  # "CSLOG 1": a match begins (what was sent before is let go)
            self._drop_before(self.out_from)
            self.match_at = self.out_to
            self.kept = True
        if not self._room(n):  # the guest fell too far behind
            self.out_from = self.out_to = self.match_at = 0
            self.kept = False
            self.problem = _FELL_BEHIND
            self.app.log.comment(_ABANDONED_FULL)
            self.leave_match()
            return
        out = self.out
        at = self.out_to
        for k in range(n):
            out[at + k] = line[k]
        self.out_to = at + n

    def _room(self, size):
        """True if ``size`` more bytes fit in ``out``, after letting go of what was sent
        (the match's own lines last: then a rejoin can no longer replay it)."""
        if self.out_to + size <= _OUT_SIZE:
            return True
        self._drop_before(self.match_at if self.kept and self.match_at < self.out_from
                          else self.out_from)
        if self.out_to + size <= _OUT_SIZE:
            return True
        if self.kept:
            self.kept = False
            self._drop_before(self.out_from)
        return self.out_to + size <= _OUT_SIZE

    def _drop_before(self, start):
        out = self.out
        size = self.out_to - start
        for k in range(size):
            out[k] = out[start + k]
        self.out_from -= start
        self.match_at = self.match_at - start if self.match_at >= start else 0
        self.out_to = size

    def _pump_log(self):
        """Send what is waiting in ``out``: as many whole lines as fit one frame, so the
        lines a pass judged (a press and the clock that judges it) travel together."""
        link = self.link
        out = self.out
        while self.out_from < self.out_to and link.window_free() > 0:
            start = end = self.out_from
            while end < self.out_to:
                nl = out.find(b"\n", end, self.out_to)
                if nl < 0 or nl + 1 - start > _MAX_PAYLOAD:
                    break
                end = nl + 1
            if end == start:  # (no whole line yet, or one past a frame: never written)
                return
            if not link.send_log(out, end - start, start):
                return
            self.out_from = end

    def waiting(self):
        """Log bytes not yet given to the link."""
        return self.out_to - self.out_from
