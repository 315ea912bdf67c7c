"""Drawing building blocks: colours, card-face tile sheets, text labels, solid panels.

Everything here is made once at start-up. The card faces use tile sheets so that
showing another card is only ``tilegrid[0] = index`` (no allocation):

* :func:`rank_sheet` renders the 13 ranks (``A 2 .. 10 J Q K``) from a font into
  one 1-bit bitmap, one tile per rank;
* :func:`suit_sheet` draws the 4 suits (clubs, diamonds, hearts, spades, in card-code
  order) as small bitmaps, red or black baked in, because ``terminalio.FONT`` on a
  real board has no suit glyphs.

Text for seat B is upside down: :func:`label` makes a ``bitmap_label.Label`` with
``label_direction="UPD"`` for it (``label.Label`` cannot rotate).

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``, ``terminalio``;
``adafruit_display_text.bitmap_label``.
"""

import displayio
import terminalio
from adafruit_display_text import bitmap_label

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

RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_TILE_W = 12  # two glyphs of the 6x12 terminal font ("10")
RANK_TILE_H = 12

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


def _glyph_blit(font, char, bitmap, x0, y0, baseline, cell=False):
    glyph = font.get_glyph(ord(char))
    if glyph is None:
        return 0
    src = glyph.bitmap
    sx = glyph.tile_index * glyph.width  # BuiltinFont: a row of tiles; BDF: index 0
    # A BuiltinFont glyph is a whole character cell (descent included): its top is the
    # cell's top. CircuitPython reports dy=0 for it, Blinka dy=-descent, so dy is not used.
    top = 0 if cell else baseline - glyph.height - glyph.dy
    for y in range(glyph.height):
        ty = y0 + top + y
        if not 0 <= ty < bitmap.height:
            continue
        for x in range(glyph.width):
            tx = x0 + glyph.dx + x
            if 0 <= tx < bitmap.width and src[sx + x, y]:
                bitmap[tx, ty] = 1
    return glyph.shift_x


def rank_sheet(font=None):
    """Return a 1-bit bitmap with one ``RANK_TILE_W x RANK_TILE_H`` tile per rank."""
    if font is None:
        font = terminalio.FONT
    bitmap = displayio.Bitmap(RANK_TILE_W * len(RANK_TEXT), RANK_TILE_H, 2)
    box = font.get_bounding_box()
    glyph_w = box[0]
    cell = len(box) == 2  # fontio.BuiltinFont (terminalio.FONT): (width, height) cells
    baseline = RANK_TILE_H - 2  # the terminal font's descent
    for i, text in enumerate(RANK_TEXT):
        x = i * RANK_TILE_W + (RANK_TILE_W - glyph_w * len(text)) // 2
        for char in text:
            x += _glyph_blit(font, char, bitmap, x, 0, baseline, cell) or glyph_w
    return bitmap


def suit_sheet():
    """Return a bitmap with one ``SUIT_SIZE`` square tile per suit (1 black, 2 red)."""
    bitmap = displayio.Bitmap(SUIT_SIZE * 4, SUIT_SIZE, 3)
    for suit, rows in enumerate(_SUIT_ROWS):
        ink = 2 if suit in (1, 2) else 1
        for y, row in enumerate(rows):
            for x, cell in enumerate(row):
                if cell == "#":
                    bitmap[suit * SUIT_SIZE + x, y] = ink
    return bitmap


def card_frame(width, height, border=2):
    """Return a card-shaped bitmap: 0 outside the rounded corners, 1 border, 2 face."""
    bitmap = displayio.Bitmap(width, height, 3)
    corner = 3
    for y in range(height):
        for x in range(width):
            dx = min(x, width - 1 - x)
            dy = min(y, height - 1 - y)
            if dx + dy < corner - 1:
                continue  # cut corner: stays 0
            inner = dx >= border and dy >= border and dx + dy >= corner + border - 1
            bitmap[x, y] = 2 if inner else 1
    return bitmap


def label(text, upside_down=False, color=TEXT, scale=1, anchor=(0.5, 0.5), at=(0, 0)):
    """Return a ``bitmap_label.Label``; ``upside_down`` turns it 180 degrees (seat B).

    ``anchor`` is given as the reader sees it; for an upside-down label it is mirrored
    so that, e.g., ``(0, 0.5)`` still means "starts at the reader's left".
    """
    if upside_down:
        anchor = (1.0 - anchor[0], 1.0 - anchor[1])
    return bitmap_label.Label(terminalio.FONT, text=text, color=color, scale=scale,
                              label_direction="UPD" if upside_down else "LTR",
                              anchor_point=anchor, anchored_position=at)


def set_text(lab, text):
    """Set a label's text only if it differs (``text`` should be a constant string)."""
    if lab.text is not text and lab.text != text:
        lab.text = text
