"""The title screen and the match menu, drawn for both seats.

The title reads upright for A and upside down for B. The menu is read from seat A
(either pad moves it: near-row buttons 1/2 move the cursor up/down, 3/4 change the
value; far-row buttons do the same); seat B sees a short upside-down note. The menu's
heading is its first item, the game ("Game: Shared row"); below it at most
:data:`ROWS` option lines, a window that scrolls with the cursor when the chosen game
has more options than fit (the shared row's nine). All text
is ``hw.draw.text.Text`` (glyph tiles over the one glyph sheet). Each scene is built only
while it is shown (``hw.app`` builds one screen at a time); the menu's option texts
are made when it is built, so a menu key only stores tile indices.

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.text``; draws a
``hw.menu.Menu``.
"""

import displayio

from hw.draw import gfx
from hw.menu import GAME
from hw.draw.text import LEFT, Text

TITLE = b"California Speed"
PRESS_START = b"Press START"
MENU_HELP = b"1/2 move  3/4 change  START play"
MENU_NOTE_B = b"Menu is on A's side - START plays"
CPU_MISSING = b"(CPU player not installed)"
ROWS = 6  # option lines under the heading (the 2x4 game's six options all fit)


def _text(glyphs, text, color, scale, flip, at, group):
    """A centred, fixed text: made, written, appended to ``group``."""
    field = Text(glyphs, len(text), color, scale, flip, (0.5, 0.5), at)
    field.set(text)
    group.append(field.group)
    return field


class TitleView:
    """The title screen."""

    def __init__(self, width, height, glyphs, warning=None):
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        self.warning = None  # a setting fell back to its default: said at the top
        if warning:
            columns = max(8, width // gfx.GLYPH_W - 2)
            text = warning[:columns]
            self.warning = Text(glyphs, len(text), gfx.GOLD, 1, False, (0.5, 0),
                                (width // 2, 2))
            self.warning.set(text)
            self.group.append(self.warning.group)
        big = max(1, min(width // 120, height // 60))
        for seat in range(2):
            flip = seat == 1
            sign = -1 if flip else 1
            mid = height // 2
            _text(glyphs, TITLE, gfx.GOLD, big, flip, (width // 2, mid + sign * height // 8),
                  self.group)
            _text(glyphs, PRESS_START, gfx.TEXT, 1, flip,
                  (width // 2, mid + sign * (height // 8 + 14 * big + 8)), self.group)

    def update(self, now):
        """Nothing moves on the title screen (yet)."""


class MenuView:
    """The menu: one line per visible option (the cursor is its first column), help lines."""

    def __init__(self, width, height, menu, glyphs):
        self.menu = menu
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        line = max(14, height // 11)
        self.line = line
        help_y = height - line // 2 - 2
        # Centred, but on a short screen (240x135) six options would run into the help
        # line: start higher so the last one ends a glyph (12 px) + 2 above it.
        self.top = min(height // 2 - line, help_y - 14 - (ROWS - 1) * line)
        margin = max(6, width // 20)
        # Every line's texts for the chosen game's items (a game chosen in the menu
        # rebuilds this screen: its options are other items).
        self.texts = {}
        for item in menu.order:
            self.texts[item] = tuple(("%s: %s" % (menu.label(item), value)).encode()
                                     for value in menu.choices(item))
        longest = max(len(t) for item in menu.order if item != GAME for t in self.texts[item])
        self.lines = []
        for row in range(ROWS):
            field = Text(glyphs, longest + 2, gfx.TEXT, 1, False, (0.0, 0.5),
                         (margin, self.top + row * line), LEFT)
            self.lines.append(field)
            self.group.append(field.group)
        # The heading: the game, where the title was (the first item of the menu).
        heading = max(len(t) for t in self.texts[GAME]) + 2
        self.heading = Text(glyphs, heading, gfx.GOLD, 1, False, (0.5, 0.5),
                            (width // 2, max(self.top - line - 4, line // 2 + 2 + line)), LEFT)
        self.group.append(self.heading.group)
        self.first = 0  # the first option shown in the window (an index into menu.shown())
        _text(glyphs, MENU_HELP, gfx.DIM, 1, False, (width // 2, help_y), self.group)
        if not menu.levels:
            _text(glyphs, CPU_MISSING, gfx.DIM, 1, False,
                  (width // 2, height - 3 * line // 2 - 2), self.group)
        _text(glyphs, MENU_NOTE_B, gfx.DIM, 1, True, (width // 2, line // 2 + 2), self.group)
        self.changes = -1
        self.margin = margin

    def update(self, now):
        """Re-draw the options if the menu changed."""
        menu = self.menu
        if menu.changes == self.changes:
            return
        self.changes = menu.changes
        self.heading.put(0, 62 if menu.cursor == GAME else 32)  # ">"
        self.heading.write(2, self.texts[GAME][menu.value(GAME)], True)
        # The window of option lines follows the cursor (plain loops: a menu key's
        # frame allocates nothing, as a game frame).
        at = 0
        count = 0
        for item in menu.order:
            if item != GAME and menu.visible(item):
                if item == menu.cursor:
                    at = count
                count += 1
        first = self.first
        if at < first:
            first = at
        elif at >= first + ROWS:
            first = at - ROWS + 1
        first = max(0, min(first, count - ROWS))
        self.first = first
        row = 0
        index = 0
        for item in menu.order:
            if item == GAME or not menu.visible(item):
                continue
            if first <= index < first + ROWS:
                field = self.lines[row]
                field.put(0, 62 if item == menu.cursor else 32)  # ">"
                field.write(2, self.texts[item][menu.value(item)], True)
                field.hidden = False
                row += 1
            index += 1
        for rest in range(row, ROWS):
            self.lines[rest].hidden = True

    def shown_lines(self):
        """Return the texts of the visible option lines, top to bottom (for tests)."""
        out = []
        for field in (self.heading,) + tuple(self.lines):
            if not field.hidden:
                text = field.text
                out.append(text[1:].strip() if text.startswith(">") else text)
        return out
