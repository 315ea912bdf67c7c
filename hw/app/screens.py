"""One screen at a time: the title, the menu, the table, the stats or the button test.

Only the current screen exists: it is built when it is shown and dropped when another
is, with a ``gc.collect()`` before the build (the old scene is freed first, so the
heap's high-water mark is one screen's) and one after it (the build's garbage is gone
before play, so no collection is due during play); screen changes only. The glyph
sheet (``hw.draw.gfx.glyph_sheet``) is made once and shared by all screens; the card
sheets once per game, with its first table. The title's and the menu's, the stats
screen's and the button test's code is imported only while they are shown.

Implementation Notes
--------------------

:class:`Screens` is a part of :class:`hw.app.App` (a mixin): it owns ``view``,
``screen``, ``glyphs``, ``card_tiles``, ``cards_layer`` (the table view's cards, if
it groups them) and the counters ``screens`` and ``collects``,
and reads the app's ``display``, ``mode``, ``menu``, ``kind`` and ``game``.
"""

import gc

from engine.compat import const

from hw.app.modes import (
    BUTTONS, BUTTONS_SCREEN, LINK, MENU, MENU_SCREEN, NO_SCREEN, STATS, STATS_SCREEN,
    TABLE_SCREEN, TITLE, TITLE_SCREEN,
)
from hw.games import forget
from hw.store.record import ByteStore

_LINK_SCREEN = const(5)  # hw.app.modes: the link screen (hw.app.linked builds it)


class Screens:
    """Showing, building and dropping the one screen (see the module docstring)."""

    def _show(self, mode):
        self.mode = mode
        if mode == TITLE:
            screen = TITLE_SCREEN
            self.idle_from = -1
        elif mode == MENU:
            screen = MENU_SCREEN
            self.paused = False
            self.attract = False
        elif mode == STATS:
            screen = STATS_SCREEN
            from hw.views.stats_reset import ResetGesture  # only while shown (see _build)

            self.reset_gesture = ResetGesture()
            self.start_down = False  # the held START's release is the stats screen's
        elif mode == BUTTONS:
            screen = BUTTONS_SCREEN
            self.start_down = False  # START's events are the test's now
        elif mode == LINK:
            screen = _LINK_SCREEN
            self.paused = False
        else:
            screen = TABLE_SCREEN
        if screen != self.screen:
            self._build(screen)

    def _let_go(self, screen):
        """Drop the current screen's scene on the way to ``screen`` (the code only it
        needs forgotten too) and collect: what comes next gets the heap in one piece."""
        display = self.display
        if display.root_group is not None:
            display.root_group = None  # the display lets go of the old scene
        self.view = None
        self.cards_layer = None
        if self.screen == STATS_SCREEN and screen != STATS_SCREEN:
            self.reset_gesture = None
            forget("hw.views.stats_view")  # their code goes with their screen
            forget("hw.views.stats_reset")
        if screen > MENU_SCREEN >= self.screen:  # the title's and the menu's code goes
            forget("hw.views.menu_view")
        if self.screen == _LINK_SCREEN and screen != _LINK_SCREEN:
            forget("hw.views.link_view")  # (its code, loaded by hw.app.linked)
        if self.screen == BUTTONS_SCREEN and screen != BUTTONS_SCREEN:
            self.button_test = None
            forget("hw.views.button_view")
            forget("hw.views.button_check")
        self.screen = NO_SCREEN
        gc.collect()

    def _build(self, screen):
        """Drop the current screen's scene, collect, build ``screen``'s and show it."""
        self._let_go(screen)
        display = self.display
        width = display.width
        height = display.height
        if screen == TITLE_SCREEN:
            from hw.views.menu_view import TitleView  # only while shown (see above)

            view = TitleView(width, height, self.glyphs, self.warning)
        elif screen == MENU_SCREEN:
            from hw.views.menu_view import MenuView

            view = MenuView(width, height, self.menu, self.glyphs)
        elif screen == STATS_SCREEN:
            from hw.views.stats_view import StatsView  # only while shown (see _build's start)

            view = StatsView(width, height, self.menu.record, self.menu.levels,
                             self.reset_gesture, self.glyphs,
                             on_fram=isinstance(self.nvm, ByteStore))
        elif screen == BUTTONS_SCREEN:
            from hw.views.button_check import ButtonTest  # only while shown (see _build's start)
            from hw.views.button_view import ButtonView

            self.button_test = ButtonTest(getattr(self.buttons, "wiring", None),
                                          self.start_at if self.test_from_boot else None)
            view = ButtonView(width, height, self.glyphs, self.button_test)
        elif screen == _LINK_SCREEN:
            view = self.session.view(width, height, self.glyphs)
        else:
            kind = self.kind
            if self.card_tiles is None:
                self.card_tiles = kind.sheets(width, height)
            if self.session is not None:  # link play: the table seen from its seat
                view = kind.view(width, height, self.glyphs, self.card_tiles, self.session.seat)
            else:
                view = kind.view(width, height, self.glyphs, self.card_tiles)
            forget("hw.draw.card_fit")  # the cards' layout code: needed to build only
        # the table's cards, hidden between games (hw.app.match); read here, not per frame
        self.cards_layer = getattr(view, "cards_layer", None) if screen == TABLE_SCREEN else None
        self.view = view
        self.screen = screen
        self.screens += 1
        gc.collect()  # the build's garbage, so that no collection falls in play
        self.collects += 2
        display.root_group = view.group

    @property
    def title_view(self):
        """The title screen's view while it is shown, else None."""
        return self.view if self.screen == TITLE_SCREEN else None

    @property
    def menu_view(self):
        """The menu's view while it is shown, else None."""
        return self.view if self.screen == MENU_SCREEN else None

    @property
    def stats_view(self):
        """The stats screen's view while it is shown, else None."""
        return self.view if self.screen == STATS_SCREEN else None

    @property
    def button_view(self):
        """The button test's view while it is shown, else None."""
        return self.view if self.screen == BUTTONS_SCREEN else None

    @property
    def table(self):
        """The game table's view while it is shown, else None."""
        return self.view if self.screen == TABLE_SCREEN else None
