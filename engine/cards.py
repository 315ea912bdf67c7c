"""Card codes and their two-letter notation.

A card is one small int, ``code = rank * 4 + suit``: rank 0..12 is A 2 .. 9 T J Q K,
suit 0..3 is C D H S. Only the rank matters to the rules (``code >> 2``); the suit
is for the screen. :data:`NO_CARD` (255) marks an empty position.
"""

from engine.compat import const

_RANKS = const("A23456789TJQK")
_SUITS = const("CDHS")
_RANK_BYTES = const(b"A23456789TJQK")
_SUIT_BYTES = const(b"CDHS")
NO_CARD = const(255)
_DECK_SIZE = const(52)

# Built once at import: indexing this tuple never allocates.
CARD_NAMES = tuple(r + s for r in _RANKS for s in _SUITS)


def rank(card):
    """Return the rank 0..12 (A..K) of a card code."""
    return card >> 2


def suit(card):
    """Return the suit 0..3 (C, D, H, S) of a card code."""
    return card & 3


def is_red(card):
    """Return True for diamonds and hearts."""
    return (card & 3) in (1, 2)


def card_name(card):
    """Return the notation of a card code, e.g. ``"TD"`` (a constant string)."""
    return CARD_NAMES[card]


def parse_card(text):
    """Return the code of a card written like ``"5C"``, or -1 if it is not one."""
    if len(text) != 2:
        return -1
    r = _RANKS.find(text[0])
    s = _SUITS.find(text[1])
    if r < 0 or s < 0:
        return -1
    return r * 4 + s


def write_card(buf, i, card):
    """Write a card's two letters into ``buf`` at ``i``; return the next index."""
    buf[i] = _RANK_BYTES[card >> 2]
    buf[i + 1] = _SUIT_BYTES[card & 3]
    return i + 2
