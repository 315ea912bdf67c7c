"""Aggravation and Frustration's fields of the replay trace (RULES-AGGRAVATION.md section 7).

``deal`` and ``tick`` carry ``rows`` ([A's tops from A's left, B's tops from B's left])
and ``packs``; ``tick`` also ``coverable`` (sorted positions 0-27); in Frustration both
carry ``shares``. ``scoop`` carries ``packs`` (after it). The event names (``dry``,
``scoop``) and the press results (``tap``, ``call``) are the game's own
(``engine.aggravation``); the trace reads them from the game.
"""

from engine.aggravation import EV_SCOOP, POSITIONS, ROW_BASE
from engine.family import EV_DEAL, EV_TICK
from engine.trace_fields import cards, pair, positions


def rows(g):
    """The two rows' tops as a JSON list of two lists of cards."""
    return "[%s, %s]" % (cards(g.tops[0:g.row_len[0]]),
                         cards(g.tops[ROW_BASE:ROW_BASE + g.row_len[1]]))


def body(g, ev):
    """The game's own keys of event ``ev``'s trace line (text after ``"t": T``)."""
    if ev == EV_SCOOP:
        return ', "packs": %s' % pair(g.packs[0], g.packs[1])
    if ev != EV_DEAL and ev != EV_TICK:
        return ""
    text = ', "rows": %s, "packs": %s' % (rows(g), pair(g.packs[0], g.packs[1]))
    if ev == EV_TICK:
        text += ', "coverable": %s' % positions(g.coverable, POSITIONS)
    if g.frustration:
        text += ', "shares": %s' % pair(g.shares[0], g.shares[1])
    return text
