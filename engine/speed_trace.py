"""Speed's fields of the replay trace (RULES-SPEED.md section 7)."""

from engine.family import EV_DEAL, EV_OVER, EV_TICK
from engine.trace_fields import cards, pair, positions


def body(g, ev):
    """The game's own keys of event ``ev``'s trace line (text after ``"t": T``)."""
    if ev == EV_OVER:
        return ', "points": %s' % pair(g.points[0], g.points[1]) if g.rules.points else ""
    if ev != EV_DEAL and ev != EV_TICK:
        return ""
    text = ', "tops": %s, "hands": [%s, %s], "draws": %s, "sides": %s' % (
        cards(g.tops), cards(g.hands[0:5]), cards(g.hands[5:10]), pair(g.draws[0], g.draws[1]),
        pair(g.sides[0], g.sides[1]))
    if ev == EV_TICK:
        text += ', "legal": [%s, %s]' % (positions(g.legal[0], 10), positions(g.legal[1], 10))
    return text
