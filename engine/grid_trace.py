"""The 2x4 game's fields of the replay trace (LOG.md): ``deal`` and ``tick``."""

from engine.family import EV_DEAL, EV_TICK
from engine.trace_fields import cards, pair, positions


def body(g, ev):
    """The game's own keys of event ``ev``'s trace line (text after ``"t": T``)."""
    if ev == EV_DEAL:
        return ', "tops": %s, "packs": %s' % (cards(g.tops), pair(g.packs[0], g.packs[1]))
    if ev == EV_TICK:
        return ', "tops": %s, "packs": %s, "coverable": %s' % (
            cards(g.tops), pair(g.packs[0], g.packs[1]), positions(g.coverable))
    return ""
