"""Link play: one match on two handhelds joined by a cable (issue 22, docs/LINK.md).

The menu's *Link* opens the link screen in the role the menu names. The **host**
(seat A) owns the match: its menu's choices make the rules, it judges both seats'
presses and its match log (``CSLOG 1``) is the protocol -- every line it logs is also
sent to the guest (``hw.link.link.Link.send_log``). The **guest** (seat B) runs the
same engine on those lines and draws the table from its own seat; its presses go to
the host stamped on its own ``keypad`` clock (``send_press``). Both handhelds write
the same lines to their own serial log, so the two logs of a match are identical.

The host judges the tick at time T only once the guest's watermark has passed T
(``hw.link.fair.Gate``): its own presses and the guest's (mapped to the host's clock
by ``hw.link.sync``) wait in two small queues and are given to the engine in time
order up to ``gate.limit(now)``. Either START on the link screen (once "Linked")
begins a match; a long START abandons it as today.

Faults: no frame for 300 ms (the cable out) pauses both ("Link lost"); when frames
come again a countdown of :data:`BACK_MS`, then play resumes; a long START meanwhile
ends the match as abandoned. Lost or damaged frames are sent again by ``hw.link``.
The host restarting ends the guest's match as abandoned ("The host restarted"). A
guest restarting mid-match rejoins: once it links again the host sends it the
match's lines from the header on (kept in the host's 2 KB ``out`` buffer while they
fit; past that, the match is abandoned as for the host), then play resumes after the
countdown. Two hosts or two guests on one cable: a message on the link screen.

Implementation Notes
--------------------

Imported only when *Link* is chosen, and forgotten with ``hw.link`` when the player
leaves the link screen, so an unlinked handheld carries none of it. After set-up,
a press, a log line sent or received (but the ``rules`` line at a match's start,
which sets the match up) and a frame allocate nothing: the guest's line reader
parses numbers in place from the frame's bytes.
"""

from engine.family import OK
from engine.ticks import ticks_add, ticks_diff
from hw.app.modes import DONE, GAME, LINK, MENU, READY
from hw.link import link as lk
from hw.link.fair import NOT_YET

KEY_PLAY = 0  # a PRESS frame's key byte: a play (its argument: the engine's)
KEY_TAP = 1  # START tapped on the guest: begin a match (link screen, match over)
KEY_HOLD = 2  # START held on the guest: abandon the match
KEY_NO_MEMORY = 3  # the guest's heap could not hold the match: abandon it
QUEUE = 16  # presses waiting to be judged, per seat
OUT_SIZE = 2048  # host: the match's lines so far (a guest that restarts gets them again)
BACK_MS = 1500  # the countdown after the link came back
BAUD = 115200
MSG_LINK_LOST = 27  # hw.messages: "Link lost" (the cable is out, the match waits)
MSG_LINK_BACK = 28  # ... "Link back - ready": a countdown, then play resumes
ABANDONED_HELD = b"match abandoned (START held)"  # as hw.app's held START
# hw.app.linked's code, forgotten when link play is left
_CODE = ("hw.app.linked", "hw.link.link", "hw.link.sync", "hw.link.fair", "hw.link.frame")

# What the link screen says (hw.views.link_view rows 0-3).
ROLE_TEXT = (b"This handheld: host (A)", b"This handheld: guest (B)")
SEARCHING = b"Looking for the other..."
LINKED_TEXT = b"Linked"
START_TEXT = b"START: play a match"
LEAVE_TEXT = b"Hold START: leave Link"
LOST_TEXT = b"Link lost: check cable"
CONFLICT_TEXT = {
    lk.EV_TWO_HOSTS: (b"Two hosts on one cable", b"Make one the guest (B)"),
    lk.EV_NO_HOST: (b"Two guests on one cable", b"Make one the host (A)"),
    lk.EV_FULL: (b"The host has no free seat", b"Unplug the other guest"),
}
HOST_GONE = (b"The host restarted", b"match abandoned")
GUEST_GONE = (b"The guest restarted", b"match abandoned")
ABANDONED_HOST = b"match abandoned (the host restarted)"
ABANDONED_GUEST = b"match abandoned (the guest restarted)"
ABANDONED_LOST = b"match abandoned (link lost)"
ABANDONED_FULL = b"match abandoned (link log overflowed)"
ABANDONED_MEMORY = b"match abandoned (not enough memory)"
NO_MEMORY = (b"Not enough memory", b"for this game linked")
GUEST_NO_MEMORY = (b"The guest's memory", b"is too small for it")
_ABANDON = b"# match abandoned"


def start(app):
    """The menu's *Link*: open the cable in the menu's role, show the link screen."""
    try:
        port = app.link()
    except (ValueError, RuntimeError, OSError, ImportError) as err:  # pins taken, no UART
        print("link: cannot open the cable's port: %s" % err)
        return
    app.session = LinkSession(app, app.menu.link, port, app.clock, app.seeds.next())
    if app.session.host:
        app.log.link = app.session
    app._show(LINK)  # pylint: disable=protected-access


def open_uart(tx, rx):
    """The link's port: ``busio.UART`` on ``tx``/``rx`` (board pins), never blocking."""
    import busio

    return busio.UART(tx, rx, baudrate=BAUD, timeout=0, receiver_buffer_size=512)


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


class LinkSession:
    """One handheld's side of link play (see the module docstring)."""

    def __init__(self, app, role, port, clock, nonce):
        self.app = app
        self.host = role == 0
        self.seat = 0 if self.host else 1
        self.port = port
        self.link = lk.Link(lk.ROLE_HOST if self.host else lk.ROLE_GUEST, port, clock, self,
                            nonce, slot_size=200 if self.host else 8)
        self.linked = False
        self.lost = False
        self.back_until = 0
        self.counting = False
        self.problem = None  # (line, line): a conflict or the other end restarting
        self.changes = 0  # the link screen's lines changed
        # host: presses waiting for the gate (times, engine arguments), per seat
        self.times = ([0] * QUEUE, [0] * QUEUE)
        self.args = (bytearray(QUEUE), bytearray(QUEUE))
        self.heads = bytearray(2)
        self.counts = bytearray(2)
        self.out = bytearray(OUT_SIZE if self.host else 0)  # lines for send_log: len, bytes
        self.out_from = 0  # the next line to send
        self.out_to = 0
        self.match_at = 0  # where the match's lines begin (its CSLOG 1 header)
        self.kept = False  # every line of the match is still in ``out``: a rejoin can replay
        self.rejoins = 0
        # guest: the host's time, estimated from the latest line's time
        self.host_t = 0
        self.host_at = 0
        self.host_now_last = 0
        self.host_seen = False  # a line with the host's time came since linking
        self.in_match = False
        # a screen to build, a match to begin: done once the cable's read is over, not
        # from inside it (a table built there ran out of CircuitPython's Python stack)
        self.show_due = False
        self.begin_due = False
        self.shown = -1  # the link screen shows the lines of ``changes`` this
        self.requests = 0  # guest: START taps and holds sent
        self.dropped = 0  # presses the window or a queue could not take

    # ------------------------------------------------------------ every pass
    def poll(self, now):
        """Read the cable, act on it, send what is due (call first in every pass)."""
        self.link.poll()
        app = self.app
        if self.begin_due:  # host: the guest's START
            self.begin_due = False
            if app.mode == LINK or app.mode == DONE:
                self.begin_match(app.last)
        if self.show_due:  # guest: the host's rules or start line
            self.show_due = False
            try:
                app._show(app.mode)  # pylint: disable=protected-access
            except MemoryError:
                self.no_memory(NO_MEMORY)
        if self.host:
            self._pump_log()
        if self.counting and ticks_diff(now, self.back_until) >= 0:
            self.counting = False

    def paused(self):
        """While presses are not played, the message saying why (the link is lost, or
        counting down once back); else 0."""
        if self.lost:
            return MSG_LINK_LOST
        return MSG_LINK_BACK if self.counting else 0

    def tick(self, now):
        """After the app read its keys (``now``: past every press read). Guest: every
        keypad event stamped before ``now`` has been read."""
        if not self.host:
            self.link.drained((now - 1) & 0x1FFFFFFF)

    def step(self, now):
        """A pass in a match: the time the app's match flow runs at (host: ``now``, once
        the presses up to the gate are judged; guest: the host's clock)."""
        if self.host:
            self.judge(now)
            return now
        return self.host_now(now)

    def time(self, now):
        """The time a frame is drawn at (the guest's table: the host's clock)."""
        if self.host or self.app.mode == LINK:
            return now
        return self.host_now(now)

    def leave(self):
        """Leave link play: the port, and the link's code, go; back to the menu."""
        app = self.app
        app.session = None
        app.log.link = None
        self.close()
        from hw.games import forget

        for name in _CODE:
            forget(name)
        app._show(MENU)  # pylint: disable=protected-access

    def reset(self):
        """A match begins: nothing waits."""
        self.in_match = True
        self.clear_presses()

    def leave_match(self):
        """The match is over or abandoned: back to the link screen."""
        app = self.app
        self.in_match = False
        self.clear_presses()
        self.changes += 1
        if app.mode != LINK:
            app._show(LINK)  # pylint: disable=protected-access

    def follow_match(self, kind, rules):
        """Guest: the host began a match of ``kind`` with ``rules`` (its log's ``rules``
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
        """Guest: the host's ``start T`` line began a game."""
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

    def close(self):
        """Leave link play: let the pins go."""
        deinit = getattr(self.port, "deinit", None)
        if deinit is not None:
            deinit()

    # ------------------------------------------------------------ link events
    def on_link(self, event):
        """``hw.link.link.Link``'s events."""
        app = self.app
        self.changes += 1
        if event == lk.EV_LINKED:
            self.host_seen = False  # maybe another host, another clock
            self.linked = True
            self.lost = False
            self.problem = None
        elif event == lk.EV_LOST:
            self.lost = True
        elif event == lk.EV_BACK:
            self.lost = False
            if self.in_match:
                self.counting = True
                self.back_until = ticks_add(self.link.clock(), BACK_MS)
        elif event == lk.EV_REJOINED:  # host: the guest restarted
            self.lost = False
            if self.in_match and self.kept:  # it gets the match so far, then play goes on
                self.out_from = self.match_at
                self.rejoins += 1
                self.counting = True
                self.back_until = ticks_add(self.link.clock(), BACK_MS)
            elif self.in_match:
                self.problem = GUEST_GONE
                app.log.comment(ABANDONED_GUEST)
                self.leave_match()
        elif event == lk.EV_HOST_RESTARTED:  # guest
            self.host_seen = False
            self.linked = False
            self.lost = False
            if self.in_match:
                self.problem = HOST_GONE
                app.log.comment(ABANDONED_HOST)
                self.leave_match()
        else:  # two hosts, two guests, no seat
            self.linked = False
            self.problem = CONFLICT_TEXT.get(event, CONFLICT_TEXT[lk.EV_TWO_HOSTS])

    def view(self, width, height, glyphs):
        """The link screen's view (``hw.views.link_view``), its lines written."""
        from hw.views.link_view import LinkView  # only while shown

        view = LinkView(width, height, glyphs, b"Link")
        self.shown = -1
        self.update(view)
        return view

    def update(self, view):
        """Write the link screen's lines into ``view`` if they changed."""
        if self.shown == self.changes:
            return
        self.shown = self.changes
        self.screen_lines(view)

    def screen_lines(self, view):
        """Write the link screen's lines into ``view`` (``hw.views.link_view``)."""
        if self.problem is not None:
            view.show(0, self.problem[0])
            view.show(1, self.problem[1])
        elif self.lost:
            view.show(0, LOST_TEXT)
            view.show(1, ROLE_TEXT[self.seat])
        else:
            view.show(0, LINKED_TEXT if self.linked else SEARCHING)
            view.show(1, ROLE_TEXT[self.seat])
        view.show(2, START_TEXT if self.linked and not self.lost else b"")
        view.show(3, LEAVE_TEXT)

    # ------------------------------------------------------------ START
    def _start_tapped(self, now):
        """START tapped while linked: on the link screen or after a match, the host
        begins one (the guest asks the host to)."""
        app = self.app
        if (app.mode == LINK or app.mode == DONE) and self.start_tapped(now):
            self.begin_match(now)

    def _start_held(self, now):
        """START held while linked: leave link play (the link screen), or abandon the
        match (the guest asks the host to), or back to the link screen."""
        app = self.app
        mode = app.mode
        if mode == LINK:
            self.leave()
        elif READY <= mode < DONE and not self.host:
            self.start_held(now)  # the host abandons it (the log says so)
        elif READY <= mode < DONE:
            self.judge(now)
            app.log.comment(ABANDONED_HELD)
            self.leave_match()
        else:
            self.leave_match()

    def remote_abandon(self):
        """Host: the guest held START in a match: it is abandoned, as a held START here."""
        app = self.app
        if READY <= app.mode < DONE:
            self.judge(app.last)
            app.log.comment(ABANDONED_HELD)
            self.leave_match()

    def remote_start(self):
        """Host: the guest's START on the link screen or after a match."""
        app = self.app
        if app.mode == LINK or app.mode == DONE:
            self.begin_due = True  # (after the read of the cable this came in)

    def begin_match(self, now):
        """Host: begin a match. One this handheld's heap cannot hold (a MemoryError while
        its table is built) is abandoned, and the link screen says why: never a crash."""
        self.problem = None
        try:
            self.app.begin_match(now)
        except MemoryError:
            self.no_memory(NO_MEMORY)

    def no_memory(self, problem):
        """The match could not be set up here (host) or there (guest): abandoned on both,
        the link screen says so."""
        app = self.app
        app.card_tiles = None  # (a half-built table's cards)
        if self.host:
            app.log.comment(ABANDONED_MEMORY)  # the guest leaves it on this line
        else:
            self.link.send_press(app.last, KEY_NO_MEMORY, 0)
        self.problem = problem
        self.leave_match()
    def start_tapped(self, t):
        """START tapped on the link screen or after a match: True if this side begins it."""
        if not self.linked or self.lost:
            return False
        if self.host:
            return True
        if self.link.send_press(t, KEY_TAP, 0):
            self.requests += 1
        return False

    def start_held(self, t):
        """Guest: START held in a match: ask the host to abandon it (or, lost, do it here)."""
        if self.lost or not self.linked:
            self.app.log.comment(ABANDONED_LOST)
            self.leave_match()
        elif self.link.send_press(t, KEY_HOLD, 0):
            self.requests += 1

    # ------------------------------------------------------------ presses
    def press(self, n, t):
        """A press of this handheld's player: queued (host) or sent (guest)."""
        if self.paused():
            return
        if self.host:
            self._queue(0, self.link.gate.place(t), n)
        elif not self.link.send_press(t, KEY_PLAY, n):
            self.dropped += 1

    def on_press(self, seat, t, key, arg):
        """Host: the guest's press (``t`` on the guest's clock) or START request."""
        if key == KEY_PLAY:
            sync = self.link.sync
            if sync.ready and self.in_match and not self.paused():
                self._queue(1, self.link.gate.place(sync.to_host(t)), arg)
        elif key == KEY_TAP:
            self.remote_start()
        elif key == KEY_HOLD:
            self.remote_abandon()
        elif key == KEY_NO_MEMORY and self.in_match:
            self.no_memory(GUEST_NO_MEMORY)

    def _queue(self, seat, t, n):
        count = self.counts[seat]
        if count >= QUEUE:
            self.dropped += 1
            return
        at = (self.heads[seat] + count) % QUEUE
        self.times[seat][at] = t
        self.args[seat][at] = n
        self.counts[seat] = count + 1

    def judge(self, now):
        """Host: give the engine every waiting press up to the gate's limit, in time order,
        then advance it to that limit."""
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
        if lim == NOT_YET:
            return
        if ticks_diff(lim, game.clock) < 0:
            lim = game.clock  # a game just started at now: nothing before it to judge
        counts = self.counts
        heads = self.heads
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
            heads[seat] = (heads[seat] + 1) % QUEUE
            counts[seat] -= 1
            if app.mode == 3:  # GAME (hw.app.modes): presses read in play only
                if ticks_diff(best, game.clock) < 0:
                    best = game.clock
                app.press(seat, n, best)
        app._advance(lim)  # pylint: disable=protected-access
        gate.judged_to(game.clock)
        self._pump_log()  # the lines judged go out now, not after this pass's drawing

    def clear_presses(self):
        """A match ends or begins: nothing waits any more."""
        self.counts[0] = self.counts[1] = 0

    # ------------------------------------------------------------ host: the log
    def write(self, line):
        """Host: ``line`` (a log line ending in a newline) goes to the guest too; a
        match's lines are kept from its header on while they fit, for a rejoin."""
        if not self.linked:
            return
        n = len(line) - 1
        if line[0] == 67:  # "CSLOG 1": a match begins (what was sent before is let go)
            self._drop_before(self.out_from)
            self.match_at = self.out_to
            self.kept = True
        if not self._room(n + 1):  # the guest fell too far behind
            self.out_from = self.out_to = self.match_at = 0
            self.kept = False
            self.problem = (b"The link fell behind", b"match abandoned")
            self.app.log.comment(ABANDONED_FULL)
            self.leave_match()
            return
        out = self.out
        at = self.out_to
        out[at] = n
        for k in range(n):
            out[at + 1 + k] = line[k]
        self.out_to = at + 1 + n

    def _room(self, size):
        """True if ``size`` more bytes fit in ``out``, after letting go of what was sent
        (the match's own lines last: then a rejoin can no longer replay it)."""
        if self.out_to + size <= OUT_SIZE:
            return True
        self._drop_before(self.match_at if self.kept and self.match_at < self.out_from
                          else self.out_from)
        if self.out_to + size <= OUT_SIZE:
            return True
        if self.kept:
            self.kept = False
            self._drop_before(self.out_from)
        return self.out_to + size <= OUT_SIZE

    def _drop_before(self, start):
        out = self.out
        size = self.out_to - start
        for k in range(size):
            out[k] = out[start + k]
        self.out_from -= start
        self.match_at = self.match_at - start if self.match_at >= start else 0
        self.out_to = size

    def _pump_log(self):
        link = self.link
        out = self.out
        while self.out_from < self.out_to and link.window_free() > 0:
            n = out[self.out_from]
            if not link.send_log(out, n, self.out_from + 1):
                return
            self.out_from += 1 + n

    def waiting(self):
        """Host: log bytes not yet given to the link."""
        return self.out_to - self.out_from

    # ------------------------------------------------------------ guest: the log
    def host_now(self, now):
        """Guest: the host's clock now, estimated from the latest line (never going back
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
        """Guest: one line of the host's match log: play it, and log it as it came."""
        app = self.app
        app.log.copy(buf, start, n)
        end = start + n
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
            except MemoryError:
                self.no_memory(NO_MEMORY)
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
        rules = rules_class(key)()
        for field in fields:
            name, _, value = field.partition("=")
            if name != "game":
                rules.set(name, value)
        self.follow_match(games.use(index), rules)
