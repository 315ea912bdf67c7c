"""The link screen: which role this handheld plays, and how the cable is doing.

Shown by the menu's *Link* action (``hw.app.linked``) between matches: "Linking as
host (A)...", "Linked: START plays", "Two hosts on one cable: make one the guest",
"Link lost". A heading and :data:`ROWS` lines of text, each set only when it changes.

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.text``.
Set-up only: building it allocates; :meth:`LinkView.show` writes bytes into fixed
fields (no allocation).
"""

import displayio

from hw.draw import gfx
from hw.draw.text import LEFT, Text

ROWS = 4


class LinkView:
    """A heading and up to :data:`ROWS` lines; ``group`` is the root."""

    def __init__(self, width, height, glyphs, heading):
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        scale = 2 if width >= 300 else 1
        self.columns = max(8, width // (gfx.GLYPH_W * scale) - 2)
        line_h = (gfx.GLYPH_H + 6) * scale  # (a local: a module constant is an interned name)
        y = height // 2 - (ROWS + 1) * line_h // 2
        title = Text(glyphs, len(heading), gfx.GOLD, scale, False, (0, 0.5),
                     (gfx.GLYPH_W * scale, y), LEFT, gfx.FELT)
        title.set(heading)
        self.group.append(title.group)
        self.fields = []
        for i in range(ROWS):
            y += line_h
            field = Text(glyphs, self.columns, gfx.TEXT, scale if i == 0 else 1, False,
                         (0, 0.5), (gfx.GLYPH_W * scale, y), LEFT, gfx.FELT)
            self.group.append(field.group)
            self.fields.append(field)
        self.shown = [None] * ROWS

    def show(self, row, text):
        """Line ``row`` reads ``text`` (bytes; cut to the field)."""
        if self.shown[row] is not text:
            self.shown[row] = text
            self.fields[row].set(text)

    def update(self, now):
        """Nothing moves by itself (``hw.app.linked`` sets the lines)."""

    def shown_lines(self):
        """The lines on the screen (for tests and the emulator)."""
        return [bytes(t).decode() for t in self.shown if t is not None]
