"""Zero heap bytes in steady state: presses, clock ticks, redeals, whole games, log lines.

Runs in the MicroPython VM (tests/test_micropython.py). Every check is measured twice:
the growth of gc.mem_alloc() with the collector off, and a run under heap_lock().
Set-up (Game, Rules, LogWriter, the deck) happens before any measurement.
"""
# vm-timeout: 300

from mpyharness import Report, measure, locked
from alloc_cases import Driver, cases, game_drivers
from engine.family import OVER, STUCK
from engine.grid import GridGame
from engine.logwriter import LogWriter

report = Report("vm_alloc")
rows, stuck = cases()
report.check(stuck.phase == STUCK, "the no-match deck is stuck after its deal")
for name, fn, a, b, c, n in rows:
    report.free("%s x%d" % (name, n), fn, a, b, c, n=n)
report.check(stuck.deals > 50, "redeals happened (%d deals)" % stuck.deals)

for d in game_drivers():
    used = measure(d.play_game)
    g = d.game
    report.check(g.phase == OVER, "a whole game ended (%d deals, %d covers)" % (g.deals, g.covers[0] + g.covers[1]))
    report.check(used == 0, "a whole game allocates 0 bytes", "(%s bytes)" % used)

g = GridGame()
g.shuffle(99)
g.start(0)
d = Driver(g, 99)
d.step()
report.check(locked(d.play_game) is True and g.phase == OVER, "a whole game under heap_lock")

w = LogWriter()
report.free("LogWriter.press", w.press, 536870911, 1, 7)
report.free("LogWriter.clock", w.clock, 123456)
report.check(bytes(w.press(536870911, 1, 7)) == b"press 536870911 B 7\n", "LogWriter formats a press")
report.check(bytes(w.start(0)) == b"start 0\n", "LogWriter formats a start")
report.done()
