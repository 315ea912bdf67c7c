"""code.py for finding the interned-name steps on the emulated Pico
(``--code tools/picosim/device/qstr_code.py``; ``PROBE_GAMES = "3"`` in the settings:
load only the first three games).

Builds the app as ``code.py`` does, then loads and forgets each game's modules in turn
(as ``hw.diag.warm``), then interns made-up attribute names ten at a time, printing
the free heap after a collection at each step (``probe ... free=``). CircuitPython's
interned-name table (qstr pools) grows by doubling, so a step of kilobytes between two
lines is a new pool allocated whole, and the names before it are the headroom that was
left. CircuitPython 10.2.1 has no ``micropython.qstr_info()``: the heap shows it.
"""

import gc
import os
import time

time.sleep(0.2)  # prints in code.py's first ~50 ms can be lost before the console is open
import hw.main  # noqa: E402

app = hw.main.build()[1]
from hw import games  # noqa: E402

ONLY = int(os.getenv("PROBE_GAMES") or str(len(games.GAMES)))


def free():
    gc.collect()
    return gc.mem_free()


class Box:
    pass


print("probe build free=%d" % free())
for index in range(ONLY):
    for name in games.use(index).MODULES:
        __import__(name)
    games.use(app.menu.game)
    print("probe after-%s free=%d" % (games.GAMES[index][0], free()))
for k in range(80):
    box = Box()
    for j in range(10):
        setattr(box, "zq%d_%d" % (k, j), 0)  # setattr interns the name
    print("probe names=%d free=%d" % (10 * (k + 1), free()))
print("probe done")
while True:
    time.sleep(1)
