"""The button test screen: both pads as they sit on the table, START, counts, how to leave.

Drawn as a player at seat A sees the handheld: pad B at the top, upside down (its
near row along the top edge, its texts turned for B), pad A at the bottom (near row
along the bottom edge), each row left to right as on the pad; START on the right of
the middle band, as in docs/BUILD.md's layout, with the title and how to leave on
its left. Each button is a box with two lines: its name and the pin the profile
wired it to (``n1 GP0``), and its press count with its bounces (``12 b0``: 12
presses, no bounce; red once a bounce was seen). The box is grey until the button is first pressed, green after,
and gold while it is held.

Implementation Notes
--------------------

Built when the mode is entered and dropped when it is left (``hw.app``), like every
screen; imported only then. Per frame, :meth:`ButtonView.update` redraws only the
boxes of keys that changed (palette entries and tile indices of ``hw.draw.text.Text``
fields, numbers written digit by digit) and the hold-to-leave countdown: 0 B.

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.text``; shows a
``hw.views.button_check.ButtonTest``.
"""

import displayio

from hw.draw import gfx
from hw.board.profiles import KEY_START
from hw.draw.text import LEFT, Text

TITLE = b"BUTTON TEST"
LEGEND = b"bN: bounces"  # beside the title: "12 b0" is 12 presses, no bounce
HELP = b"Hold START 2 s to leave"
HOLDING = b"Keep holding START: "

UNTESTED = 0x3A3A3A  # never pressed yet
TESTED = 0x1F7A3F  # pressed at least once
HELD = gfx.GOLD  # held now
BOUNCED = 0xFF7070  # the count line once a bounce was seen
CELL_COLS = 9  # text columns of a pad button's box ("f4 GP15", "9999 b999")
START_COLS = 10  # "START GP22"
MID_H = 2 * gfx.GLYPH_H + 6  # the middle band: title and help, START's box
ROW_MAX = 46  # a pad row's height, at most
PAD = 2  # between boxes
BOX_CELL = 2  # a box is a 1-bit bitmap of BOX_CELL x BOX_CELL pixels per bit


class _Cell:
    """One key's box: a solid panel and two text lines."""

    def __init__(self, group, glyphs, solid, x, y, w, h, cols, flip, name):
        self.fill = gfx.palette(UNTESTED)
        box = displayio.Group(scale=BOX_CELL, x=x, y=y)  # the shared bitmap, scaled
        box.append(displayio.TileGrid(solid, pixel_shader=self.fill))
        group.append(box)
        cx = x + w // 2
        cy = y + h // 2
        half = gfx.GLYPH_H // 2
        sign = -1 if flip else 1  # the reader's top line is below for B
        self.name = Text(glyphs, cols, gfx.TEXT, 1, flip, (0.5, 0.5), (cx, cy - sign * half))
        self.name.set(name[:cols])
        self.count = Text(glyphs, cols, gfx.DIM, 1, flip, (0.5, 0.5), (cx, cy + sign * half),
                          LEFT)
        group.append(self.name.group)
        group.append(self.count.group)
        self.cols = cols

    def show(self, held, tested, presses, bounces):
        """Colour and counts (ints and constant bytes only)."""
        fill = HELD if held else (TESTED if tested else UNTESTED)
        if self.fill[0] != fill:
            self.fill[0] = fill
        ink = gfx.BLACK if held else gfx.TEXT
        if self.name.palette[1] != ink:
            self.name.palette[1] = ink
        count_ink = gfx.BLACK if held else (BOUNCED if bounces else gfx.DIM)
        if self.count.palette[1] != count_ink:
            self.count.palette[1] = count_ink
        count = self.count
        n = _digits(presses)
        count.number(0, presses, n)
        count.put(n, 32)
        count.put(n + 1, 98)  # "b"
        count.number(n + 2, bounces, count.width - n - 2)  # and blanks after it


def _digits(value):
    n = 1
    while value >= 10:
        value //= 10
        n += 1
    return n


def cell_name(test, key):
    """The box's first line: ``n1 GP0`` (``START GP22``)."""
    label = test.labels[key]
    short = label if key == KEY_START else label[1:]
    return short + b" " + test.pins[key]


class ButtonView:
    """The button test screen (see the module doc)."""

    def __init__(self, width, height, glyphs, test):
        self.test = test
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        col_w = width // 4
        row_h = min(ROW_MAX, (height - MID_H) // 4)
        top = (height - 4 * row_h - MID_H) // 2
        cols = min(CELL_COLS, (col_w - PAD) // gfx.GLYPH_W)
        self.cells = [None] * len(test.labels)
        box_w = col_w - PAD
        box_h = row_h - PAD
        solid = gfx.solid((box_w + 1) // BOX_CELL, (box_h + 1) // BOX_CELL)  # all pad boxes
        # Rows top to bottom: B near, B far, (middle), A far, A near.
        for seat in range(2):
            for button in range(8):
                key = seat * 8 + button
                far = button >= 4
                if seat == 0:
                    row = 2 if far else 3
                    col = button & 3
                else:
                    row = 1 if far else 0
                    col = 3 - (button & 3)  # B's left is A's right
                y = top + row * row_h + (MID_H if row >= 2 else 0)
                self.cells[key] = _Cell(self.group, glyphs, solid, col * col_w + PAD // 2,
                                        y + PAD // 2, box_w, box_h, cols,
                                        seat == 1, cell_name(test, key))
        mid = top + 2 * row_h
        start_w = max(col_w, START_COLS * gfx.GLYPH_W + 2 * PAD)
        start_x = width - start_w
        start_solid = gfx.solid((start_w - PAD + 1) // BOX_CELL, (MID_H - PAD + 1) // BOX_CELL)
        self.cells[KEY_START] = _Cell(self.group, glyphs, start_solid, start_x + PAD // 2,
                                      mid + PAD // 2, start_w - PAD, MID_H - PAD, START_COLS,
                                      False, cell_name(test, KEY_START))
        text_cols = max(8, (start_x - 2 * PAD) // gfx.GLYPH_W)
        left = PAD + 2
        self.title = Text(glyphs, len(TITLE), gfx.GOLD, 1, False, (0.0, 0.5),
                          (left, mid + MID_H // 2 - gfx.GLYPH_H // 2 - 1), LEFT)
        self.title.set(TITLE)
        legend_x = left + (len(TITLE) + 2) * gfx.GLYPH_W
        self.legend = Text(glyphs, len(LEGEND), gfx.DIM, 1, False, (0.0, 0.5),
                           (legend_x, mid + MID_H // 2 - gfx.GLYPH_H // 2 - 1), LEFT)
        self.legend.set(LEGEND)
        self.group.append(self.legend.group)
        self.help = Text(glyphs, text_cols, gfx.TEXT, 1, False, (0.0, 0.5),
                         (left, mid + MID_H // 2 + gfx.GLYPH_H // 2 + 1), LEFT)
        self.help.set(HELP)
        self.group.append(self.title.group)
        self.group.append(self.help.group)
        self.changes = -1
        self.left_shown = -2  # the countdown shown (-1: the help line)
        for key in range(len(self.cells)):
            test.dirty[key] = 1

    def update(self, now):
        """Redraw the keys that changed and the hold-to-leave countdown."""
        test = self.test
        if test.changes != self.changes:
            self.changes = test.changes
            dirty = test.dirty
            for key in range(len(dirty)):
                if dirty[key]:
                    dirty[key] = 0
                    self.cells[key].show(test.down[key], test.tested[key],
                                         test.presses[key], test.bounces[key])
        left = test.hold_left(now)
        if left >= 0:
            left = (left + 999) // 1000  # whole seconds, rounded up
        if left != self.left_shown:
            self.left_shown = left
            if left < 0:
                self.help.set(HELP)
            else:
                self.help.write(0, HOLDING, True)
                self.help.number(len(HOLDING), left, 1)
