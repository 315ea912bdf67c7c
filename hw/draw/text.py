"""Text as a row of glyph tiles: changing a character is storing one tile index.

A :class:`Text` is a fixed-width field of ``width`` characters: ONE ``TileGrid``
(``width x 1`` tiles of ``GLYPH_W x GLYPH_H``) over the glyph sheet of
``hw.draw.gfx.glyph_sheet``, in a group that places it and scales it. Writing text
stores tile indices, only those that differ, so a frame that changes a digit
redraws one glyph cell and allocates nothing. Text is given as ``bytes`` (indexing
bytes gives ints; iterating a ``str`` would make a string per character).

Upside-down text (seat B's) is the same TileGrid with ``flip_x`` and ``flip_y``:
that reverses the tile order and turns every glyph, so the text reads left to
right for a reader on the other side. Anchors are given as the reader sees them
(``(0, 0.5)`` = "starts at the reader's left", whichever way up).

The field's background is transparent (``background=None``) or a colour, which
makes the field an opaque box (cheaper to draw: nothing below it is read).

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx`` (the glyph sheet layout).
"""

import displayio

from hw.draw.gfx import FIRST_CHAR, GLYPH_H, GLYPH_W, LAST_CHAR

LEFT = 0
CENTER = 1
RIGHT = 2

_SPACE = 32


class Text:
    """A ``width``-character text field (see the module doc); ``group`` is its layer."""

    def __init__(self, sheet, width, color, scale=1, upside_down=False, anchor=(0.5, 0.5),
                 at=(0, 0), align=CENTER, background=None):
        pal = displayio.Palette(2)
        pal[0] = 0 if background is None else background
        pal[1] = color
        if background is None:
            pal.make_transparent(0)
        self.palette = pal
        self.grid = displayio.TileGrid(sheet, pixel_shader=pal, width=width, height=1,
                                       tile_width=GLYPH_W, tile_height=GLYPH_H,
                                       default_tile=0)
        self.width = width
        self.align = align
        self.upside_down = upside_down
        if upside_down:
            self.grid.flip_x = True
            self.grid.flip_y = True
            anchor = (1.0 - anchor[0], 1.0 - anchor[1])
        w = width * GLYPH_W * scale
        h = GLYPH_H * scale
        self.group = displayio.Group(scale=scale, x=at[0] - int(anchor[0] * w),
                                     y=at[1] - int(anchor[1] * h))
        self.group.append(self.grid)
        self.pixel_width = w
        self.pixel_height = h

    @property
    def hidden(self):
        """True if the field is not drawn."""
        return self.group.hidden

    @hidden.setter
    def hidden(self, value):
        if self.group.hidden != value:
            self.group.hidden = value

    def put(self, i, code):
        """Show the character ``code`` (an int, 32..126) at column ``i``."""
        if not FIRST_CHAR <= code <= LAST_CHAR:
            code = _SPACE
        tile = code - FIRST_CHAR
        grid = self.grid
        if grid[i] != tile:
            grid[i] = tile

    def write(self, i, text, pad=False):
        """Show ``text`` (bytes) from column ``i`` on; ``pad``: blank the columns after it
        (else they are left alone)."""
        n = len(text)
        for k in range(self.width - i if pad else min(n, self.width - i)):
            self.put(i + k, text[k] if k < n else _SPACE)

    def number(self, i, value, digits):
        """Show ``value`` (>= 0) left-aligned in ``digits`` columns from ``i``."""
        n = 1
        scale = 10
        while value >= scale and n < digits:
            n += 1
            scale *= 10
        for k in range(digits):
            if k < n:
                scale //= 10
                self.put(i + k, 48 + (value // scale) % 10)
            else:
                self.put(i + k, _SPACE)

    def set(self, text):
        """Show ``text`` (bytes), aligned as the field is; blanks elsewhere."""
        n = len(text)
        width = self.width
        if self.align == LEFT:
            start = 0
        elif self.align == RIGHT:
            start = width - n
        else:
            start = (width - n) // 2
        for i in range(width):
            k = i - start
            self.put(i, text[k] if 0 <= k < n else _SPACE)

    @property
    def text(self):
        """The text shown, blanks trimmed (a new ``str``: for tests and tools)."""
        grid = self.grid
        return "".join(chr(grid[i] + FIRST_CHAR) for i in range(self.width)).strip()
