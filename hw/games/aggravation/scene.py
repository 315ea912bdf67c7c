"""Builds Aggravation's screen (``hw.games.aggravation.table``): imported to build it only.

The geometry (:func:`agg_layout`), the card sheets (:func:`card_sheets`) and every
TileGrid of the scene (:func:`build`) are made here, once per screen; the kind
(``hw.games.aggravation``) forgets this module as soon as the screen is built, so its
code takes no heap during play, as ``hw.draw.card_fit`` does for the other games.
What the scene is and how it is drawn: ``hw.games.aggravation.table``.

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.card_view``
(``Shapes``: a card's bitmaps and the layout of its indices).
"""

import displayio

from hw.draw import card_view, gfx
from hw.games.aggravation.table import (
    LEFT_WIDTH, LINES, LOCKED_TEXT, MARKS, MESSAGE_WIDTH, SCORE_WIDTH, SELECTED, _write,
)

SLOTS = 14  # cards: both rows together never hold more stacks


def agg_layout(width, height):
    """Return the geometry (a dict of ints) of Aggravation's screen on ``width x height``."""
    strip = max(12, height // 12)
    gap = max(2, width // 80)
    avail = height - 2 * strip
    pitch = avail // LINES
    cell = width // 4
    card_w = cell - 2 * gap
    card_h = pitch - gap
    return {
        "width": width, "height": height, "strip": strip, "gap": gap, "pitch": pitch,
        "top": strip + (avail - LINES * pitch + gap) // 2, "cell": cell, "card_w": card_w,
        "card_h": card_h, "margin": max(2, width // 60),
        "scale": card_view.card_layout(card_w, card_h, pip_scale=0)["rank_scale"],
    }


def card_sheets(width, height):
    """Return ``(ranks, suits)`` for this screen's cards (``hw.draw.card_view``): no
    centre pip (a selected column's labels go there; 14 cards' pips cost heap)."""
    geo = agg_layout(width, height)
    return card_view.card_sheets(geo["card_w"], geo["card_h"])[:2]


def build(view, width, height, glyphs, cards):
    """Make ``view``'s scene: ``group`` and everything ``table`` draws into, hidden where
    nothing is shown yet. ``glyphs``: ``hw.draw.gfx.glyph_sheet()``; ``cards``:
    :func:`card_sheets`."""
    geo = agg_layout(width, height)
    view.geometry = geo
    group = view.group = displayio.Group()
    background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
    group.append(background)
    strip = geo["strip"]
    for seat in range(2):
        box, _ = gfx.panel(0, height - strip if seat == 0 else 0, width, strip, gfx.PANEL,
                           cell=4)
        group.append(box)
    view.between = displayio.TileGrid(gfx.solid(width, 1), pixel_shader=gfx.palette(gfx.DIM))
    group.append(view.between)
    view.cards_layer = displayio.Group()  # hidden by hw.app while "Get ready..." shows
    group.append(view.cards_layer)
    _cards(view, geo, cards)

    ink = gfx.palette(SELECTED, gfx.WHITE)  # the line labels: a button's number
    view.labels = []  # seat A's lines 0-3, then B's
    player = view.player  # link play: the seat seen from (-1: both, facing each other)
    for seat in range(2):
        for line in range(4):
            label = _field(group, glyphs, 1, ink, 0, 0, seat == 1 and player < 0)
            label[0] = 49 + line - gfx.FIRST_CHAR  # "1" ...
            label.hidden = True
            view.labels.append(label)

    # The strips: each seat's left field, score, message and LOCKED, as its reader sees
    # them (B's turned: its left is the screen's right).
    margin = geo["margin"]
    inks = (gfx.palette(gfx.PANEL, gfx.TEXT), gfx.palette(gfx.PANEL, gfx.DIM),
            gfx.palette(gfx.PANEL, gfx.GOLD), gfx.palette(gfx.LOCKED, gfx.GOLD))
    view.left_text = []
    view.score_text = []
    view.messages = []
    view.lock_text = []
    gw = gfx.GLYPH_W
    left_w = LEFT_WIDTH * gw
    score_w = SCORE_WIDTH * gw
    for seat in range(2):
        turned = seat == 1 and player < 0
        bottom = seat == 0 if player < 0 else seat == player
        y = (height - strip // 2 if bottom else strip // 2) - gfx.GLYPH_H // 2
        if not turned:
            left_x = margin
            score_x = width - margin - score_w
            mid = (margin + left_w + score_x) // 2
        else:
            left_x = width - margin - left_w
            score_x = margin
            mid = (margin + score_w + left_x) // 2
        view.left_text.append(_field(group, glyphs, LEFT_WIDTH, inks[0], left_x, y, turned))
        view.score_text.append(_field(group, glyphs, SCORE_WIDTH, inks[1], score_x, y, turned))
        view.messages.append(_field(group, glyphs, MESSAGE_WIDTH, inks[2],
                                    mid - MESSAGE_WIDTH * gw // 2, y, turned))
        lock = _field(group, glyphs, len(LOCKED_TEXT), inks[3],
                      mid - len(LOCKED_TEXT) * gw // 2, y, turned)
        _write(lock, LOCKED_TEXT, 0)
        lock.hidden = True
        view.lock_text.append(lock)


def _field(group, glyphs, width, ink, x, y, turned):
    """A text field of ``width`` glyphs at (x, y), turned for seat B, in ``group``."""
    field = displayio.TileGrid(glyphs, pixel_shader=ink, width=width, height=1,
                               tile_width=gfx.GLYPH_W, tile_height=gfx.GLYPH_H,
                               default_tile=0, x=x, y=y)
    field.flip_x = field.flip_y = turned  # turned: reads left to right from B's seat
    group.append(field)
    return field


def _cards(view, geo, cards):
    """The 14 cards, hidden: ``table.TILES`` TileGrids each, in the scene."""
    w = geo["card_w"]
    h = geo["card_h"]
    b = gfx.BORDER
    shapes = card_view.Shapes(w, h, cards[0], cards[1])
    layout = shapes.layout
    single = layout.get("single", False)  # too small for two indices: A's only
    view.black = gfx.palette(gfx.FACE, gfx.BLACK)  # a card's face and its indices
    view.red = gfx.palette(gfx.FACE, gfx.RED)
    view.edges = tuple(gfx.palette(color) for color in MARKS)
    # (bitmap, blank tile or -1, x, y, w, h, turned) of each of a card's tiles, in the
    # order table.TILES counts them: face, A's rank, B's rank, A's suit, B's suit, bars
    parts = [(shapes.face, -1, b, b, 0, 0, False)]
    for sheet, blank, (tx, ty, tw, th) in ((shapes.ranks, gfx.BLANK_RANK, layout["rank"]),
                                           (shapes.suits, gfx.BLANK_SUIT, layout["suit"])):
        parts.append((sheet, blank, tx, ty, tw, th, False))
        if single:  # no room for B's: a second copy of A's, in the same place
            parts.append((sheet, blank, tx, ty, tw, th, False))
        else:
            parts.append((sheet, blank, w - tx - tw, h - ty - th, tw, th, True))
    for bitmap, ex, ey in ((shapes.hbar, b, 0), (shapes.hbar, b, h - b),
                           (shapes.vbar, 0, b), (shapes.vbar, w - b, b)):
        parts.append((bitmap, -1, ex, ey, 0, 0, False))
    view.dx = bytearray(p[2] for p in parts)  # each tile's place on its card
    view.dy = bytearray(p[3] for p in parts)
    view.tiles = []  # card v's tiles are [TILES * v, TILES * v + TILES)
    for _ in range(SLOTS):
        for k, (bitmap, blank, x, y, tw, th, turned) in enumerate(parts):
            shader = view.edges[0] if k >= 5 else view.black
            if blank < 0:
                tile = displayio.TileGrid(bitmap, pixel_shader=shader, x=x, y=y)
            else:
                tile = displayio.TileGrid(bitmap, pixel_shader=shader, tile_width=tw,
                                          tile_height=th, default_tile=blank, x=x, y=y)
            tile.flip_x = tile.flip_y = turned
            tile.hidden = True
            view.tiles.append(tile)
            view.cards_layer.append(tile)
