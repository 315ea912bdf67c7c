# vm-timeout: 300
# vm-dirs: engine hw tests
# vm-mpy: engine hw
"""Estimates the firmware's heap on a Pico: free after build, lowest free over 10 demo matches.

The VM's heap is bigger than a Pico's, so this script first takes a *ballast*
(one bytearray) that leaves as much free as CircuitPython 10.2.1 leaves to
``code.py`` on a Raspberry Pi Pico (:data:`PICO_FREE`, measured in the emulated
Pico), less what the fakes of the native modules cost here (their code is Python
here, C on a board; measured as the heap their import takes). Then it builds the
firmware exactly as ``code.py`` does (``hw.main.build``) and plays: the title idles
into attract mode, and 10 demo matches (CPU vs CPU) run, each followed by a visit
to the menu and the start of a 2-player match that is abandoned (START held) --
every screen built and dropped again and again. Any ``MemoryError`` fails the run.

Printed (``info``): free heap after build and lowest free heap seen (sampled after
each phase and every few hundred frames, after a collection: the live bytes, which
decide a ``MemoryError``), both as a Pico estimate. Checked: free
after build >= :data:`BUILD_FREE_MIN`, nothing raised, the lowest free stays above
:data:`LOW_FREE_MIN`, and only one screen's scene exists at a time.

Only CircuitPython's own interpreter gives these figures (a fixed heap, 32-bit
objects as on the board, the firmware loaded as ``.mpy`` as ``tools.deploy`` installs
it: an import compiling a source file would hold its parse tree, which a board never
does); in MicroPython's WebAssembly VM, whose heap grows on demand
and whose collector does not see the same roots, the script says so and checks
only that the 10 matches run.

It is an estimate: the fakes' objects (TileGrid, Group, Palette...) are Python
instances here, C structs on a board; Bitmaps take the same bytes. The real figure
comes from ``CSPEED_DIAG`` on the emulated Pico (``hw.diag``).
"""

import gc
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/fakecp")  # before any firmware import

PICO_FREE = 168128  # gc.mem_free() when code.py starts (CircuitPython 10.2.1, Pico)
BUILD_FREE_MIN = 60000
LOW_FREE_MIN = 25000
# The stand-ins' scene costs more than the Pico's native displayio objects: on
# 2026-12-02 the 2x4 table's lowest free was 40,272 B here (the firmware as .mpy) and
# 43,520 B on the real CircuitPython 10.2.1 in the emulated Pico (make heap, the judge,
# with every game's code loaded first, which this script does not do). The ballast
# leaves that much more room, so the stand-ins' extra bytes alone cannot raise a
# MemoryError the Pico would not; the budgets above are for this estimate.
STANDIN_EXTRA = 12000
FRAME_MS = 5
DEMOS = 10

CIRCUITPYTHON = sys.implementation.name == "circuitpython"
gc.collect()
_start_alloc = gc.mem_alloc()
import board  # noqa: E402,F401  (the fakes: native modules on a board)
import displayio  # noqa: E402,F401
import keypad  # noqa: E402,F401
import microcontroller  # noqa: E402,F401
import pwmio  # noqa: E402,F401
import supervisor  # noqa: E402,F401
import terminalio  # noqa: E402,F401
import usb_cdc  # noqa: E402,F401

from mpyharness import Report  # noqa: E402

gc.collect()
fakes = gc.mem_alloc() - _start_alloc
room = PICO_FREE - fakes  # what the firmware may use here, as on a Pico
# A fixed heap (CircuitPython's interpreter, -X heapsize) takes the ballast; a heap
# that grows on demand (MicroPython's WebAssembly VM) cannot be made Pico-sized, so
# there only the estimates below are made (from heap used, not heap left).
BALLAST = CIRCUITPYTHON and gc.mem_free() < 4000000
ballast = bytearray(gc.mem_free() - room - STANDIN_EXTRA) if BALLAST else None  # noqa: F841  (held)
gc.collect()
base = gc.mem_alloc()  # the heap in use before the firmware is imported


def pico_free():
    """The Pico estimate of the free heap now: what is left of PICO_FREE after the
    firmware's own bytes (in use now, garbage included) -- the fakes' excluded."""
    return PICO_FREE - (gc.mem_alloc() - base)


from engine.ticks import ticks_add  # noqa: E402
from hw.app.modes import DONE, GAME, MENU, READY, TITLE
from hw.main import build  # noqa: E402
from hw.board.profiles import KEY_START  # noqa: E402

r = Report("vm_firmware_heap")
print("info", "fakes of the native modules take %d bytes here; %s"
      % (fakes, "heap cut to a Pico's by a ballast" if BALLAST else "heap grows here: no ballast"))

_, app = build(getenv={}.get, seed=7)
gc.collect()
build_free = pico_free()
if CIRCUITPYTHON:
    print("info", "Pico estimate: free after build %d bytes" % build_free)
    r.check(build_free >= BUILD_FREE_MIN, "free after build >= %d" % BUILD_FREE_MIN,
            "(%d)" % build_free)
else:
    print("info", "heap figures come from CircuitPython's interpreter only (not this VM)")

events = app.buttons.events
low = [build_free]
t = [1000]


def sample():
    gc.collect()  # live bytes: what decides a MemoryError (garbage is collected first)
    free = pico_free()
    if free < low[0]:
        low[0] = free


def run(n):
    step = app.step
    now = t[0]
    for i in range(n):
        now = ticks_add(now, FRAME_MS)
        step(now)
        if i % 1000 == 0:
            sample()
    t[0] = now


def until(mode, limit=200000):
    step = app.step
    now = t[0]
    for i in range(limit):
        if app.mode == mode:
            break
        now = ticks_add(now, FRAME_MS)
        step(now)
        if i % 1000 == 0:
            sample()
    t[0] = now
    return app.mode == mode


def tap(key):
    events.push(key, True, t[0])
    events.push(key, False, ticks_add(t[0], 1))
    run(2)


def one_screen():
    kinds = (app.title_view is not None) + (app.menu_view is not None) + \
        (app.table is not None)
    return kinds == 1


ok = True
demos = 0
screens_ok = True
try:
    for round_no in range(DEMOS):
        # The demos stay on the 2x4 game: STANDIN_EXTRA was measured on its table (the
        # other games' heap is judged on the emulated Pico, tests/test_picosim.py).
        app.attract_game = 0
        if not until(READY):  # the title idles into the demo
            ok = False
            break
        screens_ok = screens_ok and one_screen()
        if not until(DONE):
            ok = False
            break
        demos += 1
        sample()
        tap(0)  # a button ends the demo: the title
        tap(KEY_START)  # the menu
        screens_ok = screens_ok and app.mode == MENU and one_screen()
        tap(KEY_START)  # a 2-player match
        until(GAME)
        run(400)
        screens_ok = screens_ok and one_screen()
        events.push(KEY_START, True, t[0])  # held a second: abandoned, the menu
        run(300)
        events.push(KEY_START, False, t[0])
        run(2)
        sample()
        app._show(TITLE)  # pylint: disable=protected-access  (back to the title)
        run(2)
except MemoryError:
    ok = False
    print("info", "MemoryError after %d demo matches" % demos)
r.check(ok and demos == DEMOS, "%d demo matches with menu visits, no MemoryError" % demos)
r.check(screens_ok, "one screen's scene at a time")
if CIRCUITPYTHON:
    print("info", "Pico estimate: lowest free %d bytes" % low[0])
    r.check(low[0] >= LOW_FREE_MIN, "lowest free >= %d" % LOW_FREE_MIN, "(%d)" % low[0])
r.done()
