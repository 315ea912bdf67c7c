"""One card on a screen, readable from both seats: two corner indices and a centre pip.

Every game screen (the 2x4 table, and the other games' screens) draws its cards with
:class:`CardView` over one :class:`Shapes` (the bitmaps and the layout all cards of a
screen share). The drawing design is in ``hw.games.grid.table``'s module doc: a card is a few
opaque TileGrids; showing another card sets tile indices and one palette entry, so a
steady-state frame allocates nothing.

A card is drawn as real cards are, so that both players read every card::

    +-----------+      the index (rank, suit) upright for seat A in the top-left
    |10 v       |      corner, the same index turned 180 degrees (upright for seat B)
    |     V     |      in the bottom-right corner, and a large suit pip in the
    |       ^ 01|      centre (turned for the card's owner), when the card has room
    +-----------+

The two indices are where a 180-degree turn of the card puts them, so a card looks the
same in either row except for its pip. 6 and 9 are underlined (``hw.draw.gfx``): B's 9 never
reads as A's 6. :func:`card_layout` chooses the arrangement for a card's size: the rank
beside its suit ("side") when the card is wide enough, else the suit under the rank
("stack"), the largest rank scale that fits (up to :data:`GLYPH_SCALE_MAX`), then the
largest pip that fits between the indices (up to :data:`PIP_SCALE_MAX`, none if none
fits). At 320x240: ranks 20 px tall, a 18 px pip; 240x240 the same; 240x135: ranks 20
px tall, stacked, no pip.

Implementation Notes
--------------------

What a cover costs is the pixels it redraws (about 5.6 us each through displayio on the
emulated Pico): both indices and the pip, 1,446 px a card at 320x240 (the one-index
design of before: 756 px). :data:`GLYPH_SCALE_MAX` and :data:`PIP_SCALE_MAX` bound it.
The corner suits are drawn at scale 1 (:data:`CORNER_SUIT_SCALE`): the rank is what a
player matches, the pip and the ink's colour show the suit.

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``; ``engine.cards``.
"""

import displayio

from engine.cards import NO_CARD, is_red, rank, suit
from engine.compat import const
from hw.draw import gfx

GLYPH_SCALE_MAX = 2  # the corner ranks' largest scale (what a cover redraws: its cost)
PIP_SCALE_MAX = 2  # the centre pip's largest scale
PIP_SCALE_MIN = 2  # a smaller pip would be no larger than the corners' suits: none
CORNER_SUIT_SCALE = 1  # the corner suits' scale
SIDE = 0  # an index is the rank with its suit beside it
STACK = 1  # an index is the rank with its suit under it
INSET = gfx.BORDER + 1  # an index's distance from the card's edge


def suit_scale(scale):
    """The corner suits' scale on cards whose ranks are drawn at ``scale``."""
    return CORNER_SUIT_SCALE


def card_glyphs_h(scale):
    """Height in pixels of a stacked index (rank, a gap, suit) at rank scale ``scale``."""
    return gfx.RANK_TILE_H * scale + 1 + gfx.SUIT_SIZE * suit_scale(scale)


def card_layout(width, height, rank_scale=None, suit_scale_=None, pip_scale=None):
    """Return the layout of a ``width x height`` card (``hw.draw.card_fit.card_layout``: a
    dict of ``arrangement``, the scales and the boxes of A's ``rank``, ``suit`` and the
    ``pip``)."""
    from hw.draw.card_fit import card_layout as fit  # build time only: see hw.draw.card_fit

    return fit(width, height, rank_scale, suit_scale_, pip_scale)


def card_sheets(card_w, card_h):
    """Return ``(ranks, suits, pips)``: the sheets for ``card_w x card_h`` cards
    (``pips`` None if the card has no room for a pip)."""
    from hw.draw.card_fit import card_sheets as sheets

    return sheets(card_w, card_h)


_BACK = const(-2)  # show(): the card's back (no card code); link play's hidden hand
_BACK_COLOUR = const(0x23408F)

class Shapes:
    """The bitmaps and the layout every card of a screen shares (made once a screen).

    ``ranks``/``suits``/``pips`` are ``hw.draw.gfx`` sheets (:func:`card_sheets`); their
    scales are read off their heights, so sheets made for the one-index cards of before
    (``rank_sheet(None, s)``, ``suit_sheet(s)``, no pips) still work."""

    def __init__(self, card_w, card_h, ranks, suits, pips=None):
        inner_w = card_w - 2 * gfx.BORDER
        inner_h = card_h - 2 * gfx.BORDER
        self.hbar = gfx.solid(inner_w, gfx.BORDER)  # top and bottom edges
        self.vbar = gfx.solid(gfx.BORDER, inner_h)  # left and right edges
        self.face = gfx.solid(inner_w, inner_h)
        self.ranks = ranks
        self.suits = suits
        self.pips = pips
        self.layout = card_layout(card_w, card_h, ranks.height // gfx.RANK_TILE_H,
                                  suits.height // gfx.SUIT_SIZE,
                                  pips.height // gfx.SUIT_SIZE if pips is not None else 0)


class CardView:
    """One card position (see the module doc); ``group`` holds its layers.

    ``rank``/``suit`` are the owner's index (seat A's if not ``flipped``, else B's),
    ``indices[seat]`` each seat's ``(rank, suit)`` tiles, ``pip`` the centre pip's
    TileGrid (None if the card has no room). ``scale`` is kept as given (the rank
    scale the caller chose); the drawing follows the sheets in ``shapes``.
    ``one_index``: only the owner's index, in its corner (a card only its owner plays,
    e.g. a Speed hand card: two fewer layers, about 200 bytes less heap)."""

    def __init__(self, shapes, x, y, width, height, scale, flipped, one_index=False):
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
        layout = shapes.layout
        single = one_index or layout.get("single", False)
        places = [(shapes.ranks, gfx.BLANK_RANK, layout["rank"], False),
                  (shapes.suits, gfx.BLANK_SUIT, layout["suit"], False)]
        if single:  # the owner's index only: seat B's is seat A's turned 180 degrees
            places[0] = places[0][:3] + (flipped,)
            places[1] = places[1][:3] + (flipped,)
        else:
            places.append((shapes.ranks, gfx.BLANK_RANK, layout["rank"], True))
            places.append((shapes.suits, gfx.BLANK_SUIT, layout["suit"], True))
        if layout["pip"] is not None and shapes.pips is not None:
            places.append((shapes.pips, gfx.BLANK_SUIT, layout["pip"], flipped))
        tiles = []
        for sheet, blank, (tx, ty, w, h), turned in places:
            if turned:  # turn 180 degrees: mirror the place, flip the tile
                tx = width - tx - w
                ty = height - ty - h
            tile = displayio.TileGrid(sheet, pixel_shader=self.ink, tile_width=w,
                                      tile_height=h, default_tile=blank, x=tx, y=ty)
            if turned:
                tile.flip_x = True
                tile.flip_y = True
            tile.hidden = True
            self.group.append(tile)
            tiles.append(tile)
        if single:
            self.indices = ((tiles[0], tiles[1]), (tiles[0], tiles[1]))
        else:
            self.indices = ((tiles[0], tiles[1]), (tiles[2], tiles[3]))
        self.rank, self.suit = self.indices[1 if flipped else 0]
        self.pip = tiles[-1] if len(tiles) in (3, 5) else None
        self.ranks = tuple(t for t in tiles if t.bitmap is shapes.ranks)
        self.suits = tuple(t for t in tiles if t.bitmap is not shapes.ranks)  # pip too
        self.tiles = tuple(tiles)
        self.edge = gfx.palette(gfx.EMPTY)
        for bitmap, ex, ey in ((shapes.hbar, b, 0), (shapes.hbar, b, height - b),
                               (shapes.vbar, 0, b), (shapes.vbar, width - b, b)):
            self.group.append(displayio.TileGrid(bitmap, pixel_shader=self.edge, x=ex, y=ey))
        self.card = NO_CARD
        self.red = False
        self.border = gfx.EMPTY

    def show(self, card):
        """Show card code ``card`` (``NO_CARD``: an empty position; -2: the card's back,
        a card whose face this seat may not see in link play)."""
        if card == self.card:
            return
        was = self.card
        self.card = card
        if card == NO_CARD or card == _BACK:
            for tile in self.tiles:
                tile.hidden = True
            self.paper[0] = gfx.FELT if card == NO_CARD else _BACK_COLOUR
            return
        value = rank(card)
        for tile in self.ranks:
            if tile[0] != value:
                tile[0] = value
        value = suit(card)
        for tile in self.suits:
            if tile[0] != value:
                tile[0] = value
        red = is_red(card)
        if red != self.red:
            self.red = red
            self.ink[1] = gfx.RED if red else gfx.BLACK
        if was == NO_CARD or was == _BACK:
            self.paper[0] = gfx.FACE
            for tile in self.tiles:
                tile.hidden = False

    def mark(self, color):
        """Set the border colour."""
        if color != self.border:
            self.border = color
            self.edge[0] = color
