"""Link play, the guest's side: it plays the host's log and sends its presses (docs/LINK.md).

:class:`GuestSession` is :class:`hw.app.linked.LinkSession` for seat B: it copies each
line of the host's match log to its own serial log as it came (so both logs are byte
for byte the same) and plays it on its own engine; its presses go to the host stamped
on its own ``keypad`` clock, followed by a watermark; its screen's time is the host's,
estimated from the latest line. The host's half is ``hw.app.link_host``: each handheld
loads only its own.

Implementation Notes
--------------------

Imported by ``hw.app.linked.start`` for the guest only, forgotten with it. After
set-up a press, a log line played (but the ``rules`` line at a match's start, which
sets the match up) and a frame allocate nothing: numbers are parsed in place from the
frame's bytes.
"""

from engine.compat import const
from engine.family import OK
from engine.ticks import ticks_add, ticks_diff
from hw.app.linked import LinkSession
from hw.app.modes import GAME, LINK, TABLE_SCREEN
from hw.link.link import Link

# Private constants are folded into the code (no interned names); those shared with
# hw.app.linked, hw.app.link_host and hw.link are checked equal by the tests.
_ROLE_GUEST = const(2)  # hw.link.link
_KEY_PLAY = const(0)  # a PRESS frame's key byte: a play (its argument: the engine's)
_KEY_TAP = const(1)  # START tapped here: begin a match (link screen, match over)
_KEY_HOLD = const(2)  # START held here: abandon the match
_EV_LINKED = const(1)  # hw.link.link's events
_EV_HOST_RESTARTED = const(3)
_KEY_NO_MEMORY = const(3)  # this heap could not hold the match: abandon it
_ABANDONED_HOST = const(b"match abandoned (the host restarted)")
_ABANDONED_LOST = const(b"match abandoned (link lost)")
_HOST_GONE = const((b"The host restarted", b"match abandoned"))
_NO_MEMORY = const((b"Not enough memory", b"for this game linked"))
_ABANDON = const(b"# match abandoned")

_end = bytearray(2)  # where _int stopped (little-endian): a returned pair would allocate


def _int(buf, i, end):
    """The decimal number at ``buf[i:]``; the index after it in ``_end`` (no allocation:
    MicroPython builds a tuple to return two values)."""
    value = 0
    while i < end:
        c = buf[i]
        if c < 48 or c > 57:
            break
        value = value * 10 + c - 48
        i += 1
    _end[0] = i & 0xFF
    _end[1] = i >> 8
    return value


class GuestSession(LinkSession):
    """The guest's side of link play (see the module docstring)."""

    def __init__(self, app, port, clock, nonce):
        super().__init__(app, False, Link(_ROLE_GUEST, port, clock, self, nonce,
                                             slot_size=8), port)
        # the host's time, estimated from the latest line's time
        self.host_t = 0
        self.host_at = 0
        self.host_now_last = 0
        self.host_seen = False  # a line with the host's time came since linking
        self.show_due = False  # the table: built once the cable's read is over
        self.keys_from = 0  # the clock as the pass began to read the keys

    # ------------------------------------------------------------ every pass
    def after_read(self):
        if self.show_due:  # (a table built from inside the read ran out of Python stack)
            self.show_due = False
            app = self.app
            try:
                app._show(app.mode)  # pylint: disable=protected-access
            except MemoryError as err:
                self.no_memory(_NO_MEMORY, err)
        self.keys_from = self.link.clock()  # the app reads its keys next

    def tick(self, now):
        """After the app read its keys (``now``: past every press read): every keypad
        event stamped before ``now``, or before the clock read just before the keys
        were (the scanner queues an event in the scan that stamps it), has been read.
        The later of the two goes: the cable's read can take a ms or two."""
        if ticks_diff(self.keys_from, now) > 0:
            now = self.keys_from
        self.link.drained((now - 1) & 0x1FFFFFFF)

    def step(self, now):
        """A pass in a match: the match flow runs at the host's clock."""
        return self.host_now(now)

    def time(self, now):
        """The time a frame is drawn at: the host's clock (but on the link screen)."""
        return now if self.app.mode == LINK else self.host_now(now)

    def on_link(self, event):
        LinkSession.on_link(self, event)
        if event == _EV_LINKED:
            self.host_seen = False  # maybe another host, another clock
        elif event == _EV_HOST_RESTARTED:
            self.host_seen = False
            if self.in_match:
                self.problem = _HOST_GONE
                self.app.log.comment(_ABANDONED_HOST)
                self.leave_match()

    def no_memory(self, problem, err=None):
        self.link.send_press(self.app.last, _KEY_NO_MEMORY, 0)  # the host abandons it
        LinkSession.no_memory(self, problem, err)

    # ------------------------------------------------------------ START
    def begin_match(self, now):
        """START tapped on the link screen or after a match: the host is asked to begin
        one (the link resends the request until it is acknowledged)."""
        self.link.send_press(now, _KEY_TAP, 0)

    def start_held(self, t):
        """START held in a match: ask the host to abandon it (or, lost, do it here)."""
        if self.lost or not self.linked:
            self.app.log.comment(_ABANDONED_LOST)
            self.leave_match()
        else:
            self.link.send_press(t, _KEY_HOLD, 0)

    # ------------------------------------------------------------ presses
    def press(self, n, t):
        """A press of this handheld's player: sent to the host."""
        if not self.paused() and not self.link.send_press(t, _KEY_PLAY, n):
            self.dropped += 1

    # ------------------------------------------------------------ the log
    def host_now(self, now):
        """The host's clock now, estimated from the latest line (never going back
        once a line has come: before, nothing is known to keep it from)."""
        est = ticks_add(self.host_t, ticks_diff(now, self.host_at))
        if self.host_seen:
            if ticks_diff(est, self.host_now_last) < 0:
                est = self.host_now_last
            self.host_now_last = est
        return est

    def _seen(self, t):
        self.host_t = t
        self.host_at = self.link.clock()
        if not self.host_seen or ticks_diff(t, self.host_now_last) > 0:
            self.host_now_last = t
        self.host_seen = True

    def on_log(self, buf, start, n):
        """A LOG frame: whole lines of the host's match log (each ending in a newline,
        as many as fitted one frame). Each is played and logged as it came."""
        end = start + n
        while start < end:
            nl = buf.find(b"\n", start, end)
            if nl < 0:
                nl = end
            self._line(buf, start, nl)
            start = nl + 1

    def _line(self, buf, start, end):
        """One line of the host's log, ``buf[start:end]`` without its newline."""
        app = self.app
        n = end - start
        if n <= 0:
            return
        app.log.copy(buf, start, n)
        c = buf[start]
        game = app.game
        if not self.in_match and c != 114:  # between matches only a rules line counts
            return
        if c == 112:  # press T P N
            t = _int(buf, start + 6, end)
            i = _end[0] | _end[1] << 8
            seat = buf[i + 1] - 65
            pos = _int(buf, i + 3, end)
            self._seen(t)
            if app.mode == 3:
                game.press(seat, pos, t)
        elif c == 99:  # clock T
            t = _int(buf, start + 6, end)
            self._seen(t)
            game.advance(t)
        elif c == 115:  # seed N / start T
            value = _int(buf, start + (5 if buf[start + 1] == 101 else 6), end)
            if buf[start + 1] == 101:
                game.shuffle(value)
            else:
                self._seen(value)
                if game.start(value) == OK:
                    self.follow_start(value)
        elif c == 114:  # rules ...: a match begins (set-up: allocates)
            try:
                self._begin(bytes(buf[start:end]).decode())
            except MemoryError as err:
                self.no_memory(_NO_MEMORY, err)
        elif c == 35:  # a comment: the host's abandon ends the match here too
            if n >= len(_ABANDON):
                for k in range(len(_ABANDON)):
                    if buf[start + k] != _ABANDON[k]:
                        return
                self.leave_match()

    def _begin(self, text):
        from engine.games import DEFAULT, rules_class
        from hw import games

        fields = text.split(" ")[1:]
        key = DEFAULT
        for field in fields:
            if field.startswith("game="):
                key = field[5:]
        index = games.index_of(key)
        if index < 0:
            self.problem = (b"The host plays a game", b"this handheld lacks")
            self.changes += 1
            return
        # the screen goes first: the game's code and table then get the heap in one
        # piece (loaded around the link screen, Aggravation's table did not fit a Pico)
        self.app._let_go(TABLE_SCREEN)  # pylint: disable=protected-access
        rules = rules_class(key)()
        for field in fields:
            name, _, value = field.partition("=")
            if name != "game":
                rules.set(name, value)
        self.follow_match(games.use(index), rules)

    def follow_match(self, kind, rules):
        """The host began a match of ``kind`` with ``rules`` (its log's ``rules``
        line); its lines will start each game."""
        app = self.app
        self.problem = None
        app.stats.match_begins(True, -1)
        app.matches += 1
        app._use(kind)  # pylint: disable=protected-access
        if app.feedback is None:
            from hw.app.feedback import Feedback

            app.feedback = Feedback()
        game = app.game
        game.new_match()
        game.set_rules(rules)
        app.seats[0] = app.humans[0]
        app.seats[1] = app.humans[1]
        self.in_match = True
        app._get_ready(app.menu.hints(), False,  # pylint: disable=protected-access
                       self.host_now(app.last), False)
        self.show_due = True

    def follow_start(self, t):
        """The host's ``start T`` line began a game."""
        app = self.app
        app.logged_at = t
        for controller in app.seats:
            controller.reset(t)
        app.first_play = True
        app.go = False
        app.paused = False
        if app.mode != GAME:
            app.mode = GAME
            self.show_due = True
