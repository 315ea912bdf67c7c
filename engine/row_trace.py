"""The shared-row game's fields of the replay trace (RULES-ROW.md section 7)."""

from engine.family import EV_DEAL, EV_TICK
from engine.trace_fields import cards, pair, positions


def body(g, ev):
    """The game's own keys of event ``ev``'s trace line (text after ``"t": T``)."""
    if ev != EV_DEAL and ev != EV_TICK:
        return ""
    n = g.piles
    text = ', "tops": %s, "packs": %s, "active": %s' % (
        cards(g.tops[:n]), pair(g.packs[0], g.packs[1]), cards(g.active))
    if ev == EV_TICK:
        text += ', "legal": [%s, %s]' % (positions(g.legal[0], n), positions(g.legal[1], n))
    return text
