"""Zero heap bytes in Speed's steady state: plays, clock, turns, remakes, whole games.

Runs in the MicroPython VM (tests/test_micropython.py). Every check is measured twice:
the growth of gc.mem_alloc() with the collector off, and a run under heap_lock().
Set-up (SpeedGame, SpeedRules, LogWriter, the decks) happens before any measurement.
"""
# vm-timeout: 300

from mpyharness import Report, measure, locked
from speed_alloc_cases import SpeedDriver, cases, game_drivers
from engine.family import DEALING, OVER, STUCK
from engine.logwriter import LogWriter
from engine.speed import SpeedGame

report = Report("vm_speed_alloc")
rows, rest, whole = cases()
report.check(rest.phase == STUCK and whole.phase == STUCK, "the stuck decks are stuck after their deal")
for name, fn, a, b, c, n in rows:
    report.free("%s x%d" % (name, n), fn, a, b, c, n=n)
for g, what in ((rest, "rest"), (whole, "whole")):
    report.check(g.remakes >= 3 and g.deals >= 20 and g.phase in (STUCK, DEALING),
                 "turns and remakes (%s) happened and stayed stuck (%d deals, %d remakes)"
                 % (what, g.deals, g.remakes))

for d in game_drivers():
    used = measure(d.play_game)
    g = d.game
    report.check(g.phase == OVER, "a whole game ended (cards %d, same %d, remake %d: %d deals, %d covers)"
                 % (g.rules.cards, g.same, g.rules.remake, g.deals, g.covers[0] + g.covers[1]))
    report.check(used in (0, None), "a whole game allocates 0 bytes", "(%s bytes)" % used)

g = SpeedGame()
g.shuffle(99)
g.start(0)
d = SpeedDriver(g, 99)
d.step()
report.check(locked(d.play_game) is not False and g.phase == OVER, "a whole game under heap_lock")

w = LogWriter()
report.free("LogWriter.press (play 9)", w.press, 536870911, 1, 9)
report.check(bytes(w.press(1000, 0, 9)) == b"press 1000 A 9\n", "LogWriter formats a play")
report.done()
