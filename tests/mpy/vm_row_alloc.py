"""Zero heap bytes in the shared-row game's steady state: presses, clock, redeals, games.

Runs in the MicroPython VM (tests/test_micropython.py). Every check is measured twice:
the growth of gc.mem_alloc() with the collector off, and a run under heap_lock().
Set-up (RowGame, RowRules, LogWriter, the decks) happens before any measurement.
"""
# vm-timeout: 300

from mpyharness import Report, measure, locked
from row_alloc_cases import RowDriver, cases, game_drivers
from engine.family import DEALING, OVER, STUCK
from engine.logwriter import LogWriter
from engine.row import RowGame

report = Report("vm_row_alloc")
rows, stuck_all, stuck_two = cases()
report.check(stuck_all.phase == STUCK and stuck_two.phase == STUCK,
             "the no-match decks are stuck after their deal")
for name, fn, a, b, c, n in rows:
    report.free("%s x%d" % (name, n), fn, a, b, c, n=n)
report.check(stuck_all.deals >= 4 and stuck_all.phase in (STUCK, DEALING),
             "redeals (all) happened and stayed stuck (%d deals)" % stuck_all.deals)
report.check(stuck_two.deals >= 6 and stuck_two.phase in (STUCK, DEALING),
             "redeals (two) happened and stayed stuck (%d deals)" % stuck_two.deals)

for d in game_drivers():
    used = measure(d.play_game)
    g = d.game
    report.check(g.phase == OVER, "a whole game ended (piles %d, match %d, redeal %d: %d deals, %d covers)"
                 % (g.piles, g.match_mode, g.rules.redeal, g.deals, g.covers[0] + g.covers[1]))
    report.check(used in (0, None), "a whole game allocates 0 bytes", "(%s bytes)" % used)

g = RowGame()
g.shuffle(99)
g.start(0)
d = RowDriver(g, 99)
d.step()
report.check(locked(d.play_game) is not False and g.phase == OVER, "a whole game under heap_lock")

w = LogWriter()
report.free("LogWriter.press (pile 5)", w.press, 536870911, 1, 5)
report.check(bytes(w.press(1000, 0, 5)) == b"press 1000 A 5\n", "LogWriter formats a pile press")
report.done()
