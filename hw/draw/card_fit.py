"""Where a card's indices and pip go: the layout ``hw.draw.card_view`` draws (build time only).

Imported while a screen builds its cards and dropped afterwards (``hw.app._build``
forgets it), so its code takes no heap during play. See ``hw.draw.card_view``'s module doc
for the design; :func:`card_layout` is re-exported there.

Implementation Notes
--------------------

**Software and Dependencies:** ``hw.draw.gfx``; the scale limits of ``hw.draw.card_view``.
"""

from hw.draw import gfx
from hw.draw.card_view import (
    CORNER_SUIT_SCALE, GLYPH_SCALE_MAX, INSET, PIP_SCALE_MAX, PIP_SCALE_MIN, SIDE, STACK,
)


def _index(arrangement, rs, ss):
    """Return ``(w, h, (rank x, y), (suit x, y))`` of an index in its own box."""
    rank_w = gfx.RANK_TILE_W * rs
    rank_h = gfx.RANK_TILE_H * rs
    suit_s = gfx.SUIT_SIZE * ss
    if arrangement == SIDE:  # the suit beside the rank, centred on the glyphs' ink
        y = max(0, (8 * rs - suit_s) // 2)
        return rank_w + rs + suit_s, max(rank_h, y + suit_s), (0, 0), (rank_w + rs, y)
    width = max(rank_w, suit_s)
    return (width, rank_h + 1 + suit_s, ((width - rank_w) // 2, 0),
            ((width - suit_s) // 2, rank_h + 1))


def _apart(a, b):
    """True if boxes ``(x, y, w, h)`` ``a`` and ``b`` do not overlap (they may touch:
    the glyph tiles have blank margins)."""
    return (a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or
            a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1])


def _fit(width, height, arrangement, rs, ss, ps):
    """Return the layout (see :func:`card_layout`) if it fits a card, else None."""
    w, h, rank_at, suit_at = _index(arrangement, rs, ss)
    inner_w = width - 2 * INSET
    inner_h = height - 2 * INSET
    if w > inner_w or h > inner_h:
        return None
    a = (INSET, INSET, w, h)
    b = (width - INSET - w, height - INSET - h, w, h)
    if not _apart(a, b):
        return None
    pip = None
    if ps:
        size = gfx.SUIT_SIZE * ps
        pip = ((width - size) // 2, (height - size) // 2, size, size)
        if not (_apart(pip, a) and _apart(pip, b)):
            return None
    rank_box = (INSET + rank_at[0], INSET + rank_at[1], gfx.RANK_TILE_W * rs,
                gfx.RANK_TILE_H * rs)
    suit_box = (INSET + suit_at[0], INSET + suit_at[1], gfx.SUIT_SIZE * ss,
                gfx.SUIT_SIZE * ss)
    return {"arrangement": arrangement, "rank_scale": rs, "suit_scale": ss,
            "pip_scale": ps, "rank": rank_box, "suit": suit_box, "pip": pip}


def card_layout(width, height, rank_scale=None, suit_scale_=None, pip_scale=None):
    """Return the layout of a ``width x height`` card: a dict of ``arrangement``
    (:data:`SIDE` or :data:`STACK`), ``rank_scale``, ``suit_scale``, ``pip_scale`` (0:
    no pip) and the boxes ``(x, y, w, h)`` of seat A's upright ``rank`` and ``suit``
    and of the ``pip`` (None if none); seat B's index is A's turned 180 degrees.

    Scales left None are chosen (the largest that fit, see the module doc); given
    ones (the scales of the sheets at hand) are kept, except a pip that does not fit,
    which is dropped. A card too small for two indices gets one, A's, centred.
    """
    ranks = (rank_scale,) if rank_scale else tuple(range(GLYPH_SCALE_MAX, 0, -1))
    ss = suit_scale_ or CORNER_SUIT_SCALE
    if pip_scale is None:
        pips = tuple(range(PIP_SCALE_MAX, PIP_SCALE_MIN - 1, -1)) + (0,)
    else:
        pips = (pip_scale, 0) if pip_scale else (0,)
    for rs in ranks:
        for ps in pips:
            for arrangement in (SIDE, STACK):
                layout = _fit(width, height, arrangement, rs, ss, ps)
                if layout is not None:
                    return layout
    rs = ranks[-1]  # one index, centred: what fits at all
    w, h, rank_at, suit_at = _index(STACK, rs, ss)
    x = (width - w) // 2
    y = (height - h) // 2
    return {"arrangement": STACK, "rank_scale": rs, "suit_scale": ss, "pip_scale": 0,
            "rank": (x + rank_at[0], y + rank_at[1], gfx.RANK_TILE_W * rs,
                     gfx.RANK_TILE_H * rs),
            "suit": (x + suit_at[0], y + suit_at[1], gfx.SUIT_SIZE * ss, gfx.SUIT_SIZE * ss),
            "pip": None, "single": True}


def card_sheets(card_w, card_h):
    """Return ``(ranks, suits, pips)``: the sheets for ``card_w x card_h`` cards at the
    scales of :func:`card_layout` (``pips`` None if the card has no room for a pip)."""
    layout = card_layout(card_w, card_h)
    ps = layout["pip_scale"]
    return (gfx.rank_sheet(None, layout["rank_scale"]), gfx.suit_sheet(layout["suit_scale"]),
            gfx.suit_sheet(ps) if ps else None)
