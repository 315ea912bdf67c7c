"""One card on a screen: its border, face, rank and suit, upright or turned for seat B.

Every game screen (the 2x4 table, and the other games' screens) draws its cards with
:class:`CardView` over one :class:`Shapes` (the bitmaps all cards of a screen share).
The drawing design is in ``hw.table_view``'s module doc: a card is a few opaque
TileGrids; showing another card sets tile indices and one palette entry, so a
steady-state frame allocates nothing.

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.gfx``; ``engine.cards``.
"""

import displayio

from engine.cards import NO_CARD, is_red, rank, suit
from hw import gfx

# A cover redraws its card's rank and suit tiles: at scale 2 that is 756 px, at 3 1,296
# px, at ~5.6 us per pixel through displayio on the emulated Pico (125 MHz). Scale 2
# keeps a cover that changes two cards and three borders inside 30 ms, press to pixel.
GLYPH_SCALE_MAX = 2


def suit_scale(scale):
    """The suits' scale on cards whose ranks are drawn at ``scale`` (the same, now; a
    separate sheet and tile, so a suit may be drawn smaller than the rank)."""
    return scale


def card_glyphs_h(scale):
    """Height in pixels of a card's rank, gap and suit at rank scale ``scale``."""
    return (gfx.RANK_TILE_H + 1) * scale + gfx.SUIT_SIZE * suit_scale(scale)


class Shapes:
    """The bitmaps every card shares (all 1-bit, made once per table)."""

    def __init__(self, card_w, card_h, ranks, suits):
        inner_w = card_w - 2 * gfx.BORDER
        inner_h = card_h - 2 * gfx.BORDER
        self.hbar = gfx.solid(inner_w, gfx.BORDER)  # top and bottom edges
        self.vbar = gfx.solid(gfx.BORDER, inner_h)  # left and right edges
        self.face = gfx.solid(inner_w, inner_h)
        self.ranks = ranks
        self.suits = suits


class CardView:
    """One table position (see the module doc); ``group`` holds its layers."""

    def __init__(self, shapes, x, y, width, height, scale, flipped):
        b = gfx.BORDER
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.flipped = flipped
        self.scale = scale
        self.group = displayio.Group(x=x, y=y)
        self.paper = gfx.palette(gfx.FELT)
        self.group.append(displayio.TileGrid(shapes.face, pixel_shader=self.paper, x=b, y=b))
        self.ink = gfx.palette(gfx.FACE, gfx.BLACK)
        rank_w = gfx.RANK_TILE_W * scale
        rank_h = gfx.RANK_TILE_H * scale
        suit_s = gfx.SUIT_SIZE * suit_scale(scale)
        top = (height - card_glyphs_h(scale)) // 2
        places = (((width - rank_w) // 2, top, rank_w, rank_h),
                  ((width - suit_s) // 2, top + rank_h + scale, suit_s, suit_s))
        tiles = []
        for sheet, blank, (x, y, w, h) in ((shapes.ranks, gfx.BLANK_RANK, places[0]),
                                           (shapes.suits, gfx.BLANK_SUIT, places[1])):
            if flipped:  # turn the card 180 degrees: mirror the place, flip the tile
                x = width - x - w
                y = height - y - h
            tile = displayio.TileGrid(sheet, pixel_shader=self.ink, tile_width=w,
                                      tile_height=h, default_tile=blank, x=x, y=y)
            if flipped:
                tile.flip_x = True
                tile.flip_y = True
            tile.hidden = True
            self.group.append(tile)
            tiles.append(tile)
        self.rank, self.suit = tiles
        self.edge = gfx.palette(gfx.EMPTY)
        for bitmap, ex, ey in ((shapes.hbar, b, 0), (shapes.hbar, b, height - b),
                               (shapes.vbar, 0, b), (shapes.vbar, width - b, b)):
            self.group.append(displayio.TileGrid(bitmap, pixel_shader=self.edge, x=ex, y=ey))
        self.card = NO_CARD
        self.red = False
        self.border = gfx.EMPTY

    def show(self, card):
        """Show card code ``card`` (``NO_CARD``: an empty position)."""
        if card == self.card:
            return
        was = self.card
        self.card = card
        if card == NO_CARD:
            self.rank.hidden = True
            self.suit.hidden = True
            self.paper[0] = gfx.FELT
            return
        tile = rank(card)
        if self.rank[0] != tile:
            self.rank[0] = tile
        tile = suit(card)
        if self.suit[0] != tile:
            self.suit[0] = tile
        red = is_red(card)
        if red != self.red:
            self.red = red
            self.ink[1] = gfx.RED if red else gfx.BLACK
        if was == NO_CARD:
            self.paper[0] = gfx.FACE
            self.rank.hidden = False
            self.suit.hidden = False

    def mark(self, color):
        """Set the border colour."""
        if color != self.border:
            self.border = color
            self.edge[0] = color
