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
come again a countdown of 1.5 s (``_BACK_MS``), then play resumes; a long START meanwhile
ends the match as abandoned. Lost or damaged frames are sent again by ``hw.link``.
The host restarting ends the guest's match as abandoned ("The host restarted"). A
guest restarting mid-match rejoins: once it links again the host sends it the
match's lines from the header on (kept in the host's 2 KB ``out`` buffer while they
fit; past that, the match is abandoned as for the host), then play resumes after the
countdown. Two hosts or two guests on one cable: a message on the link screen.

This module is what both sides share (:class:`LinkSession`: the link screen, START,
the faults); each side's own half is ``hw.app.link_host`` (:class:`HostSession`) or
``hw.app.link_guest`` (:class:`GuestSession`), and a handheld loads only its own.

Implementation Notes
--------------------

Imported only when *Link* is chosen, and forgotten with ``hw.link`` when the player
leaves the link screen, so an unlinked handheld carries none of it. After set-up,
a press, a log line sent or received (but the ``rules`` line at a match's start,
which sets the match up) and a frame allocate nothing: the guest's line reader
parses numbers in place from the frame's bytes.
"""

from engine.compat import const
from engine.ticks import ticks_add, ticks_diff
from hw.app.modes import DONE, LINK, MENU, READY

# Module-private constants are folded into the code (no interned name each: every
# name link play adds costs every game's heap, docs/FIRMWARE.md). The halves keep
# private copies of the ones they share (tests/test_link_play.py checks they agree).
_BACK_MS = const(1500)  # the countdown after the link came back
_BAUD = const(460800)  # 21.7 us a byte: docs/LINK.md's error budget
_MSG_LINK_LOST = const(27)  # hw.messages: "Link lost" (the cable is out, the match waits)
_MSG_LINK_BACK = const(28)  # ... "Link back - ready": a countdown, then play resumes
# hw.link.link's events
_EV_LINKED = const(1)
_EV_REJOINED = const(2)
_EV_HOST_RESTARTED = const(3)
_EV_NO_HOST = const(5)
_EV_LOST = const(6)
_EV_BACK = const(7)
_EV_FULL = const(8)
_EV_VERSION = const(9)
# hw.app.linked's code, forgotten when link play is left
_CODE = const(("hw.app.linked", "hw.app.link_host", "hw.app.link_guest", "hw.link.link",
               "hw.link.sync", "hw.link.fair", "hw.link.frame"))

# What the link screen says (hw.views.link_view rows 0-3).
_ROLE_TEXT = const((b"This handheld: host (A)", b"This handheld: guest (B)"))
_SEARCHING_TEXT = const(b"Looking for the other...")
_LINKED_TEXT = const(b"Linked")
_START_TEXT = const(b"START: play a match")
_LEAVE_TEXT = const(b"Hold START: leave Link")
_LOST_TEXT = const(b"Link lost: check cable")
_TWO_HOSTS_TEXT = const((b"Two hosts on one cable", b"Make one the guest (B)"))
_NO_HOST_TEXT = const((b"Two guests on one cable", b"Make one the host (A)"))
_FULL_TEXT = const((b"The host has no free seat", b"Unplug the other guest"))
_VERSION_TEXT = const((b"The other handheld's", b"firmware differs: update"))


def start(app):
    """The menu's *Link*: open the cable in the menu's role, show the link screen."""
    try:
        port = app.link()
    except (ValueError, RuntimeError, OSError, ImportError) as err:  # pins taken, no UART
        print("link: cannot open the cable's port: %s" % err)
        return
    app.session = session(app, app.menu.link, port, app.clock, app.seeds.next())
    if app.session.host:
        app.log.link = app.session
    app._show(LINK)  # pylint: disable=protected-access


def session(app, role, port, clock, nonce):
    """The session of ``role`` (0: host, 1: guest): only that side's half is loaded."""
    if role == 0:
        from hw.app.link_host import HostSession

        return HostSession(app, port, clock, nonce)
    from hw.app.link_guest import GuestSession

    return GuestSession(app, port, clock, nonce)


def open_uart(tx, rx):
    """The link's port: ``busio.UART`` on ``tx``/``rx`` (board pins), never blocking."""
    import busio

    return busio.UART(tx, rx, baudrate=_BAUD, timeout=0, receiver_buffer_size=512)


class LinkSession:
    """What both sides of link play share (see the module docstring); ``HostSession``
    and ``GuestSession`` fill in their halves."""

    def __init__(self, app, host, link, port):
        self.app = app
        self.host = host
        self.seat = 0 if host else 1
        self.port = port
        self.link = link
        self.linked = False
        self.lost = False
        self.back_until = 0
        self.counting = False
        self.problem = None  # (line, line): a conflict or the other end restarting
        self.changes = 0  # the link screen's lines changed
        self.in_match = False
        self.shown = -1  # the link screen shows the lines of ``changes`` this
        self.dropped = 0  # presses the window or a queue could not take

    # ------------------------------------------------------------ every pass
    def poll(self, now):
        """Read the cable, act on it, send what is due (call first in every pass)."""
        self.link.poll()
        self.after_read()
        if self.counting and ticks_diff(now, self.back_until) >= 0:
            self.counting = False

    def after_read(self):
        """What the frames just read asked for that cannot be done inside the read."""

    def paused(self):
        """While presses are not played, the message saying why (the link is lost, or
        counting down once back); else 0."""
        if self.lost:
            return _MSG_LINK_LOST
        return _MSG_LINK_BACK if self.counting else 0

    def tick(self, now):
        """After the app read its keys (``now``: past every press read)."""

    def time(self, now):
        """The time a frame is drawn at."""
        return now

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
        if app.mode != LINK or app.view is None:  # (None: let go for a table not built)
            app._show(LINK)  # pylint: disable=protected-access

    def close(self):
        """Leave link play: let the pins go."""
        deinit = getattr(self.port, "deinit", None)
        if deinit is not None:
            deinit()

    def clear_presses(self):
        """A match ends or begins: nothing waits any more."""

    # ------------------------------------------------------------ link events
    def on_link(self, event):
        """``hw.link.link.Link``'s events."""
        self.changes += 1
        if event == _EV_LINKED:
            self.linked = True
            self.lost = False
            self.problem = None
        elif event == _EV_LOST:
            self.lost = True
        elif event == _EV_BACK:
            self.lost = False
            if self.in_match:
                self.counting = True
                self.back_until = ticks_add(self.link.clock(), _BACK_MS)
        elif event == _EV_REJOINED:  # host: the guest restarted (its half goes on)
            self.lost = False
        elif event == _EV_HOST_RESTARTED:  # guest: the host restarted (its half goes on)
            self.linked = False
            self.lost = False
        else:  # two hosts, two guests, no seat, another firmware
            self.linked = False
            self.problem = (_NO_HOST_TEXT if event == _EV_NO_HOST
                            else _FULL_TEXT if event == _EV_FULL
                            else _VERSION_TEXT if event == _EV_VERSION else _TWO_HOSTS_TEXT)

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
        if self.problem is not None:
            view.show(0, self.problem[0])
            view.show(1, self.problem[1])
        elif self.lost:
            view.show(0, _LOST_TEXT)
            view.show(1, _ROLE_TEXT[self.seat])
        else:
            view.show(0, _LINKED_TEXT if self.linked else _SEARCHING_TEXT)
            view.show(1, _ROLE_TEXT[self.seat])
        view.show(2, _START_TEXT if self.linked and not self.lost else b"")
        view.show(3, _LEAVE_TEXT)

    # ------------------------------------------------------------ START
    def _start_tapped(self, now):
        """START tapped while linked: on the link screen or after a match, a match
        begins (each half's ``begin_match``: the guest's asks the host)."""
        app = self.app
        if (app.mode == LINK or app.mode == DONE) and self.linked and not self.lost:
            self.begin_match(now)

    def _start_held(self, now):
        """START held while linked: leave link play (the link screen), or abandon the
        match (the guest asks the host to), or back to the link screen."""
        mode = self.app.mode
        if mode == LINK:
            self.leave()
        elif READY <= mode < DONE:
            self.start_held(now)
        else:
            self.leave_match()

    def no_memory(self, problem, err=None):
        """The match could not be set up here or on the other handheld: abandoned on
        both (each half first tells the log or the host), the link screen says so (and
        the console, here: what could not be allocated)."""
        self.app.card_tiles = None  # (a half-built table's cards)
        if err is not None:
            print("link: not enough memory for this game linked: %s" % err)
        self.problem = problem
        self.leave_match()
