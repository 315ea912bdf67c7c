"""The title screen and the match menu, drawn for both seats.

The title reads upright for A and upside down for B. The menu is read from seat A
(either pad moves it: near-row buttons 1/2 move the cursor up/down, 3/4 change the
value; far-row buttons do the same); seat B sees a short upside-down note. Like the
game screen, both scenes are built once and :meth:`MenuView.update` only re-sets
labels whose text changed (each option's texts, and the line and cursor positions,
are made once at start-up: the firmware's code allocates nothing on a menu change).

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``adafruit_display_text.bitmap_label``;
``hw.gfx``; draws a ``hw.menu.Menu``.
"""

import displayio

from hw import gfx
from hw.menu import LABELS

TITLE = "California Speed"
PRESS_START = "Press START"
MENU_HELP = "1/2 move  3/4 change  START play"
MENU_NOTE_B = "Menu is on A's side - START plays"
CPU_MISSING = "(CPU player not installed)"


class TitleView:
    """The title screen."""

    def __init__(self, width, height):
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        big = max(1, min(width // 120, height // 60))
        for seat in range(2):
            flip = seat == 1
            sign = -1 if flip else 1
            mid = height // 2
            self.group.append(gfx.label(TITLE, flip, gfx.GOLD, big, (0.5, 0.5),
                                        (width // 2, mid + sign * height // 8)))
            self.group.append(gfx.label(PRESS_START, flip, gfx.TEXT, 1, (0.5, 0.5),
                                        (width // 2, mid + sign * (height // 8 + 14 * big + 8))))

    def update(self, now):
        """Nothing moves on the title screen (yet)."""


class MenuView:
    """The menu: one line per visible option, a cursor, help lines."""

    def __init__(self, width, height, menu):
        self.menu = menu
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        line = max(14, height // 11)
        self.line = line
        help_y = height - line // 2 - 2
        # Centred, but on a short screen (240x135) six options would run into the help
        # line: start higher so the last one ends a glyph (12 px) + 2 above it.
        self.top = min(height // 2 - line, help_y - 14 - (len(LABELS) - 1) * line)
        margin = max(6, width // 20)
        self.texts = tuple(tuple("%s: %s" % (LABELS[item], value) for value in choices)
                           for item, choices in enumerate(menu.choices))
        self.lines = []
        for item in range(len(LABELS)):
            lab = gfx.label(self.texts[item][0], False, gfx.TEXT, 1, (0.0, 0.5),
                            (margin + 12, self.top + item * line))
            self.lines.append(lab)
            self.group.append(lab)
        self.cursor = gfx.label(">", False, gfx.GOLD, 1, (0.0, 0.5), (margin, self.top))
        self.group.append(self.cursor)
        self.group.append(gfx.label(TITLE, False, gfx.GOLD, 1, (0.5, 0.5),
                                    (width // 2, max(self.top - line - 4, line // 2 + 2 + line))))
        self.group.append(gfx.label(MENU_HELP, False, gfx.DIM, 1, (0.5, 0.5),
                                    (width // 2, help_y)))
        if not menu.levels:
            self.group.append(gfx.label(CPU_MISSING, False, gfx.DIM, 1, (0.5, 0.5),
                                        (width // 2, height - 3 * line // 2 - 2)))
        self.group.append(gfx.label(MENU_NOTE_B, True, gfx.DIM, 1, (0.5, 0.5),
                                    (width // 2, line // 2 + 2)))
        # Where the option lines and the cursor sit, by visible row: made once, because
        # building a position tuple on every menu change would allocate.
        rows = range(len(LABELS))
        self.line_places = tuple((margin + 12, self.top + row * line) for row in rows)
        self.cursor_places = tuple((margin, self.top + row * line) for row in rows)
        self.changes = -1
        self.margin = margin

    def update(self, now):
        """Re-draw the options if the menu changed."""
        menu = self.menu
        if menu.changes == self.changes:
            return
        self.changes = menu.changes
        row = 0
        for item in range(len(LABELS)):
            lab = self.lines[item]
            if not menu.visible(item):
                lab.hidden = True
                continue
            gfx.set_text(lab, self.texts[item][menu.values[item]])
            place = self.line_places[row]
            if lab.anchored_position[1] != place[1]:
                lab.anchored_position = place
            lab.hidden = False
            if item == menu.cursor:
                self.cursor.anchored_position = self.cursor_places[row]
            row += 1

    def shown_lines(self):
        """Return the texts of the visible option lines, top to bottom (for tests)."""
        rows = [lab for lab in self.lines if not lab.hidden]
        rows.sort(key=lambda lab: lab.anchored_position[1])
        return [lab.text for lab in rows]
