"""Drawing building blocks: colours, palettes, solid panels, the glyph and card sheets.

Everything here is made once at start-up, so that a frame changes the picture only
by storing ints (a tile index, a palette entry), which allocates nothing:

* :func:`glyph_sheet` renders printable ASCII (32..126) of a fixed-cell font
  (``terminalio.FONT``, 6x12) into ONE 1-bit bitmap, one tile per character: the
  tile of byte ``c`` is ``c - 32``. ``hw.text.Text`` shows text as a TileGrid over it.
* :func:`card_sheet` holds what a card face shows, one tile each, drawn at the
  card's scale (``CARD_TILE_W x CARD_TILE_H`` font pixels, each ``scale x scale``
  screen pixels): the 13 ranks (``A 2 .. 10 J Q K``, "10" as one tile), the 4 suits
  (clubs, diamonds, hearts, spades, in card-code order; drawn here, because
  ``terminalio.FONT`` on a board has no suit glyphs) and a blank. A card's glyphs
  are a 1x2 TileGrid over it (rank over suit); its colour (red or black) is the
  card's own palette entry. The sheet is pre-scaled rather than scaled by a group:
  on the emulated Pico a scaled TileGrid cost about 1.5x the time per pixel.

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``, ``terminalio``. The glyphs are read
through ``font.get_glyph`` (CircuitPython's ``fontio.BuiltinFont`` gives a cell of
one shared bitmap; Blinka's gives one bitmap per glyph) once, at start-up.
"""

import displayio

BLACK = 0x000000
WHITE = 0xFFFFFF
RED = 0xD01010
FELT = 0x0B5D2A  # the table
FACE = 0xF4F1E6  # a card's face
EDGE = 0x404040  # a card's border
EMPTY = 0x0E4A24  # an empty position's outline
PENDING = 0xFF9900
HINT = 0x33DDFF
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
CARD_TILE_W = 12  # two glyphs of the 6x12 terminal font ("10")
CARD_TILE_H = 10  # glyph rows 1-10: the ranks' ink is in rows 2-10 of the 6x12 cell
RANK_TOP = 1  # the glyph cell's first row in a rank tile
SUIT_TILE = 13  # tiles 13..16: the suits; 17: blank
BLANK_TILE = 17
BORDER = 2  # a card's border, in pixels

SUIT_SIZE = 9
_SUIT_ROWS = (
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
)


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


def card_sheet(font=None, scale=1):
    """Return the 1-bit card-face sheet at ``scale`` (13 ranks, 4 suits, a blank; tiles
    of ``CARD_TILE_W * scale x CARD_TILE_H * scale``; see the module doc)."""
    font = _font(font)
    tile_w = CARD_TILE_W * scale
    bitmap = displayio.Bitmap(tile_w * (BLANK_TILE + 1), CARD_TILE_H * scale, 2)
    for i, text in enumerate(RANK_TEXT):
        x = i * tile_w + (CARD_TILE_W - GLYPH_W * len(text)) // 2 * scale
        for char in text:
            _blit_glyph(font, ord(char), bitmap, x, CARD_TILE_H, RANK_TOP, scale)
            x += GLYPH_W * scale
    top = CARD_TILE_H - SUIT_SIZE  # the blank row above the suit parts it from the rank
    for suit, rows in enumerate(_SUIT_ROWS):
        x0 = (SUIT_TILE + suit) * tile_w + (CARD_TILE_W - SUIT_SIZE) // 2 * scale
        for y, row in enumerate(rows):
            for x, cell in enumerate(row):
                if cell == "#":
                    _dot(bitmap, x0 + x * scale, (top + y) * scale, scale)
    return bitmap


def solid(width, height):
    """Return a 1-bit ``width x height`` bitmap of zeros (a solid shape's shared bitmap)."""
    return displayio.Bitmap(max(1, width), max(1, height), 1)
