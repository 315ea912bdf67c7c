"""Drawing building blocks: colours, palettes, solid panels, the glyph and card sheets.

Everything here is made once at start-up, so that a frame changes the picture only
by storing ints (a tile index, a palette entry), which allocates nothing:

* :func:`glyph_sheet` renders printable ASCII (32..126) of a fixed-cell font
  (``terminalio.FONT``, 6x12) into ONE 1-bit bitmap, one tile per character: the
  tile of byte ``c`` is ``c - 32``. ``hw.draw.text.Text`` shows text as a TileGrid over it.
* :func:`rank_sheet` holds the 13 ranks (``A 2 .. 10 J Q K``, "10" as one tile) and
  a blank, one ``RANK_TILE_W x RANK_TILE_H`` tile each (font pixels, drawn
  ``scale x scale`` screen pixels each: pre-scaled, no scaled group); a rank's glyphs
  are packed by their ink (one blank column between two), so "10" needs 9 columns,
  not 12: the pixels a cover redraws are what it costs. 6 and 9 are underlined, as on
  real cards, so that a 9 seen upside down never reads as a 6; and
  :func:`suit_sheet` the 4 suits (clubs, diamonds, hearts, spades, in card-code
  order; drawn here, because ``terminalio.FONT`` on a board has no suit glyphs) and
  a blank, ``SUIT_SIZE`` square. A card shows one tile of each, in the card's own
  palette (red or black); what a cover costs is the pixels it redraws (about 5.6 us
  each through displayio on the emulated Pico), see ``hw.games.grid.table``.

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``, ``terminalio``. The glyphs are read
through ``font.get_glyph`` (CircuitPython's ``fontio.BuiltinFont`` gives a cell of
one shared bitmap; Blinka's gives one bitmap per glyph) once, at start-up.
"""

import displayio

from engine.compat import const

BLACK = 0x000000
WHITE = 0xFFFFFF
RED = 0xD01010
FELT = 0x0B5D2A  # the table
FACE = 0xF4F1E6  # a card's face
EDGE = 0x404040  # a card's border
EMPTY = 0x0E4A24  # an empty position's outline
PENDING = 0xFF9900
HINT = 0x33DDFF
FLASH = 0xFF3CF0  # a flashing card's border (a tie): magenta, unlike any other mark
LOCKED = 0xB01818
PANEL = 0x063A1A  # the info strips
TEXT = 0xFFFFFF
DIM = 0x9FC9AA
GOLD = 0xFFD23F

GLYPH_W = 6  # the terminal font's cell
GLYPH_H = 12
FIRST_CHAR = 32  # tile 0 of the glyph sheet is a space
LAST_CHAR = 126

RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_TILE_W = 9  # "10": the two glyphs' ink (3 and 5 columns) and a column between
RANK_TILE_H = 10  # glyph rows 2-11: the ranks' ink (2-9, Q's tail 10), the underline (11)
_RANK_TOP = const(2)  # the glyph cell's first row in a rank tile
_UNDERLINED = const((5, 8))  # the ranks 6 and 9 (rank codes): underlined, as on real cards
UNDERLINE_ROW = 9  # the underline's row in a rank tile (glyph row 11; row 10 a gap)
UNDERLINE_W = 5  # the underline's width in font pixels (a glyph's ink is 5 wide)
BLANK_RANK = 13  # the rank sheet's blank tile
BLANK_SUIT = 4  # the suit sheet's blank tile
BORDER = 2  # a card's border, in pixels

SUIT_SIZE = 9
_SUIT_ROWS = const((
    # clubs
    ("...###...", "..#####..", "...###...", ".##.#.##.", "#########",
     ".##.#.##.", "....#....", "...###...", "........."),
    # diamonds
    ("....#....", "...###...", "..#####..", ".#######.", "#########",
     ".#######.", "..#####..", "...###...", "....#...."),
    # hearts
    (".##...##.", "####.####", "#########", "#########", ".#######.",
     "..#####..", "...###...", "....#....", "........."),
    # spades
    ("....#....", "...###...", "..#####..", ".#######.", "#########",
     "#########", ".##.#.##.", "....#....", "...###..."),
))


def palette(*colors, transparent=None):
    """Return a ``displayio.Palette`` of ``colors``; index ``transparent`` is see-through."""
    pal = displayio.Palette(len(colors))
    for i, color in enumerate(colors):
        pal[i] = color
    if transparent is not None:
        pal.make_transparent(transparent)
    return pal


def panel(x, y, width, height, color, cell=8):
    """Return ``(group, palette)``: a solid rectangle, cheap in memory.

    The rectangle is a small bitmap scaled ``cell`` times by its group (so a
    320x240 panel costs a 40x30 bitmap); its colour is ``palette[0]``, changed by
    assigning an int (no allocation). ``width``/``height`` are rounded up to ``cell``.
    """
    pal = palette(color)
    bitmap = displayio.Bitmap(max(1, (width + cell - 1) // cell),
                              max(1, (height + cell - 1) // cell), 1)
    group = displayio.Group(scale=cell, x=x, y=y)
    group.append(displayio.TileGrid(bitmap, pixel_shader=pal))
    return group, pal


def _font(font):
    if font is None:
        import terminalio
        font = terminalio.FONT
    return font


def _blit_glyph(font, code, bitmap, x0, rows, top=0, scale=1):
    """Copy rows ``top..top+rows-1`` of the glyph cell of ``code`` to ``bitmap`` at
    ``(x0, 0)``, each font pixel as ``scale x scale`` pixels."""
    glyph = font.get_glyph(code)
    if glyph is None:
        return
    src = glyph.bitmap
    sx = glyph.tile_index * glyph.width  # BuiltinFont: a row of tiles; BDF: index 0
    for y in range(min(rows, glyph.height - top)):
        for x in range(min(GLYPH_W, glyph.width)):
            if src[sx + x, top + y]:
                _dot(bitmap, x0 + x * scale, y * scale, scale)


def _dot(bitmap, x, y, scale):
    for dy in range(scale):
        for dx in range(scale):
            bitmap[x + dx, y + dy] = 1


def glyph_sheet(font=None):
    """Return a 1-bit bitmap with one ``GLYPH_W x GLYPH_H`` tile per ASCII 32..126."""
    font = _font(font)
    count = LAST_CHAR - FIRST_CHAR + 1
    bitmap = displayio.Bitmap(GLYPH_W * count, GLYPH_H, 2)
    for i in range(count):
        _blit_glyph(font, FIRST_CHAR + i, bitmap, i * GLYPH_W, GLYPH_H)
    return bitmap


def _ink_columns(font, code):
    """Return ``(first, last)`` inked column of the glyph of ``code`` (0, -1 if blank)."""
    glyph = font.get_glyph(code)
    first, last = GLYPH_W, -1
    if glyph is not None:
        sx = glyph.tile_index * glyph.width
        for x in range(min(GLYPH_W, glyph.width)):
            if any(glyph.bitmap[sx + x, y] for y in range(glyph.height)):
                first = min(first, x)
                last = x
    return (first, last) if last >= 0 else (0, -1)


def rank_sheet(font=None, scale=1):
    """Return the 1-bit rank sheet at ``scale``: 13 ranks and a blank (module doc)."""
    font = _font(font)
    tile_w = RANK_TILE_W * scale
    bitmap = displayio.Bitmap(tile_w * (BLANK_RANK + 1), RANK_TILE_H * scale, 2)
    for i, text in enumerate(RANK_TEXT):
        # A glyph's ink is columns 0-4 of its cell; only "10" is packed by its ink
        # (reading a glyph's columns is slow on a board: once, for two glyphs).
        inks = [_ink_columns(font, ord(char)) if len(text) > 1 else (0, GLYPH_W - 2)
                for char in text]
        width = sum(last - first + 1 for first, last in inks) + len(text) - 1
        x = i * tile_w + (RANK_TILE_W - width) // 2 * scale  # the ink's left, centred
        if i in _UNDERLINED:
            for u in range(UNDERLINE_W):
                _dot(bitmap, x + u * scale, UNDERLINE_ROW * scale, scale)
        for char, (first, last) in zip(text, inks):
            _blit_glyph(font, ord(char), bitmap, x - first * scale, UNDERLINE_ROW, _RANK_TOP,
                        scale)
            x += (last - first + 2) * scale
    return bitmap


def suit_sheet(scale=1):
    """Return the 1-bit suit sheet at ``scale``: 4 suits and a blank (module doc)."""
    tile = SUIT_SIZE * scale
    bitmap = displayio.Bitmap(tile * (BLANK_SUIT + 1), tile, 2)
    for suit, rows in enumerate(_SUIT_ROWS):
        for y, row in enumerate(rows):
            for x, cell in enumerate(row):
                if cell == "#":
                    _dot(bitmap, suit * tile + x * scale, y * scale, scale)
    return bitmap


def solid(width, height):
    """Return a 1-bit ``width x height`` bitmap of zeros (a solid shape's shared bitmap)."""
    return displayio.Bitmap(max(1, width), max(1, height), 1)
