# vm-timeout: 300
"""A refused ``start`` allocates nothing, in every phase and every game of the family.

A start while a game is on is tried on the game's trial copy, made at set-up
(``engine.family``); a game made without one (the firmware's) refuses it at once. For
each game of ``engine.games`` and each phase -- no deck waiting, the deal window, play,
a stuck (dry) pause, the match over, a time behind the clock, an argument not an int --
the start is refused with the expected code, changes nothing, and allocates 0 bytes
(``gc.mem_alloc`` growth and ``micropython.heap_lock``; tests/mpy/mpyharness.py).
"""

from engine import games
from engine.family import (
    DEALING, E_ARG, E_BUSY, E_MATCH_OVER, E_NO_DECK, E_TIME, OVER, PLAY, STUCK,
)
from engine.family_bot import PERFECT
from mpyharness import Report

r = Report("vm_refused_start")


def fresh(key, trial=True, seed=1):
    g = games.game_class(key)(None, None, trial)
    g.shuffle(seed)
    return g


def in_phase(key, phase, trial):
    """A game of ``key`` left in ``phase`` (searched over seeds, no presses), or None."""
    for seed in range(300):
        g = fresh(key, trial, seed)
        g.start(0)
        if phase == DEALING and g.phase == DEALING:
            g.shuffle(seed + 1)  # a deck waits: only the game on refuses the start
            return g, 1
        t = 0
        for _ in range(40):
            t += 50
            g.advance(t)
            if g.phase == phase:
                g.shuffle(seed + 1)
                return g, t + 1
            if g.phase == OVER:
                break
    return None, 0


def match_over(key):
    """A one-game match played to its end by two of the game's CPU players."""
    g = fresh(key)
    g.rules.wins = 1
    g.new_match()
    g.shuffle(3)
    g.start(0)
    bot = games.bot_class(key)
    bots = (bot(g, 0, PERFECT, 1), bot(g, 1, PERFECT, 2))
    t = 0
    while not g.match_over and t < 3000000:
        t += 1
        g.advance(t)
        if g.phase == OVER:  # a drawn game: the next one
            g.shuffle(t)
            g.start(t)
            bots[0].reset(t)
            bots[1].reset(t)
        for seat in range(2):
            n = bots[seat].step(t)
            if n >= 0:
                g.press(seat, n, t)
    g.shuffle(5)
    return g, t + 1


cases = []
for key in games.KEYS:
    idle = games.game_class(key)()
    cases.append((key, "no deck waiting", idle, 0, E_NO_DECK))
    for trial in (True, False):
        kind = "" if trial else ", no trial copy"
        for phase, name in ((DEALING, "deal window"), (PLAY, "play"), (STUCK, "stuck pause")):
            g, t = in_phase(key, phase, trial)
            if g is None:
                r.check(phase == STUCK, "%s: a game in the %s found" % (key, name))
                continue
            cases.append((key, name + kind, g, t, E_BUSY))
    g, t = match_over(key)
    r.check(g.match_over, "%s: a match played to its end" % key)
    cases.append((key, "match over", g, t, E_MATCH_OVER))
    g, t = in_phase(key, PLAY, True)
    g.advance(t + 100)
    cases.append((key, "time behind the clock", g, t, E_TIME))
    cases.append((key, "not an int", g, "0", E_ARG))

for key, name, g, t, code in cases:
    before = (g.phase, g.changes, g.clock, g.has_deck)
    r.check(g.start(t) == code and (g.phase, g.changes, g.clock, g.has_deck) == before,
            "%s, %s: refused (%d), nothing changes" % (key, name, code))
    r.free("%s, %s: refused start x5" % (key, name), g.start, t, n=5)
r.done()
