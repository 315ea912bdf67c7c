"""A plain screen of glyph text: a bad setting's message, readable on the device.

On a board a person sees only the display, so a setting that stops the firmware
(``hw.board.profiles.SettingError``, a missing pin) is shown here as well as printed on
the console. :func:`wrap` breaks the message into lines that fit the screen.

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx`` (glyph sheet, colours),
``hw.draw.text``. Set-up only: it allocates, and is never built during play.
"""

import displayio

from hw.draw import gfx
from hw.draw.text import LEFT, Text

HEADING = b"SETTINGS ERROR"
LINE_H = gfx.GLYPH_H + 2


def wrap(message, columns):
    """Return ``message`` as a list of lines of at most ``columns`` characters."""
    lines = []
    line = ""
    for word in message.split():
        while len(word) > columns:  # a very long value is cut across lines
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:columns])
            word = word[columns:]
        if line and len(line) + 1 + len(word) > columns:
            lines.append(line)
            line = word
        else:
            line = line + " " + word if line else word
    if line:
        lines.append(line)
    return lines


def _ascii(text):
    """``text`` as bytes the glyph sheet can draw (others shown as ``?``)."""
    return bytes(c if gfx.FIRST_CHAR <= c <= gfx.LAST_CHAR else 63
                 for c in text.encode("utf-8"))


class ErrorView:
    """A heading and ``message`` wrapped to the screen's width, upright for pad A."""

    def __init__(self, width, height, glyphs, message, heading=HEADING):
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.BLACK)
        self.group.append(background)
        columns = max(8, width // gfx.GLYPH_W - 2)
        rows = max(1, height // LINE_H - 2)
        self.lines = [heading.decode()] + wrap(message, columns)[:rows]
        y = LINE_H // 2 + 2
        for i, line in enumerate(self.lines):
            field = Text(glyphs, len(line), gfx.RED if i == 0 else gfx.TEXT, 1, False,
                         (0, 0.5), (gfx.GLYPH_W, y), LEFT)
            field.set(_ascii(line))
            self.group.append(field.group)
            y += LINE_H

    def update(self, now):
        """Nothing moves."""

    def shown_lines(self):
        """The lines on the screen (for tests and the emulator)."""
        return list(self.lines)


def show(display, message, heading=HEADING):
    """Show ``message`` on ``display`` (built for the occasion) and refresh it."""
    view = ErrorView(display.width, display.height, gfx.glyph_sheet(), message, heading)
    display.root_group = view.group
    display.refresh()
    return view
