"""The way into and out of link play, a part of :class:`hw.app.App`.

The menu's *Link* opens the cable's port in the menu's role and loads
``hw.app.linked`` (the session: the host's judging and streaming, the guest's
reading); leaving link play closes the port and forgets that code again, so a kit
that never links carries none of it.

Implementation Notes
--------------------

**Software and Dependencies:** ``hw.app.linked`` and ``hw.link``, imported only
when Link is chosen; ``hw.games.forget``.
"""

from hw.app.modes import DONE, LINK, MENU


class LinkEntry:
    """Entering and leaving link play, and a linked match's end (mixed into App)."""

    def enter_link(self):
        """The menu's *Link*: open the cable in the menu's role, show the link screen."""
        try:
            port = self.link_open()
        except (ValueError, RuntimeError, OSError, ImportError) as err:  # pins taken, no UART
            print("link: cannot open the cable's port: %s" % err)
            return
        from hw.app.linked import LinkSession

        self.session = LinkSession(self, self.menu.link_role, port, self.clock,
                                   self.seeds.next())
        self.viewer = self.session.seat
        if self.session.host:
            self.log.tee = self.session
        self.link_changes = -1
        self._show(LINK)

    def leave_link(self):
        """Leave link play: the port, and the link's code, go; back to the menu."""
        session = self.session
        self.session = None
        self.log.tee = None
        self.viewer = -1
        session.close()
        from hw.games import forget

        for name in ("hw.app.linked", "hw.link.link", "hw.link.sync", "hw.link.fair",
                     "hw.link.frame"):
            forget(name)
        self._show(MENU)

    def leave_match(self):
        """Link play: the match is over or abandoned: back to the link screen."""
        session = self.session
        session.in_match = False
        session.clear_presses()
        session.changes += 1
        if self.mode != LINK:
            self._show(LINK)

    def remote_start(self):
        """Host: the guest's START on the link screen or after a match."""
        if self.mode == LINK or self.mode == DONE:
            self.begin_match(self.last)

