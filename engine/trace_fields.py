"""Helpers the games' trace modules share: JSON text for cards and positions, by hand.

Implementation Notes
--------------------

The text is what CPython's ``json.dumps`` gives (same spacing), so every interpreter,
MicroPython included, writes byte-identical traces.
"""

from engine.cards import CARD_NAMES, NO_CARD


def cards(codes):
    """A JSON list of card names (``null`` for no card)."""
    return "[" + ", ".join('"%s"' % CARD_NAMES[c] if c != NO_CARD else "null"
                           for c in codes) + "]"


def positions(mask, n=8):
    """A JSON list of the set bits of ``mask`` below ``n``, sorted."""
    return "[" + ", ".join(str(p) for p in range(n) if (mask >> p) & 1) + "]"


def pair(a, b):
    """A JSON list of two ints."""
    return "[%d, %d]" % (a, b)
