# vm-timeout: 120
# vm-dirs: engine hw tests
"""Proves in MicroPython that the key test mode (hw.board.hil_keys) keeps frames at 0 bytes.

The real firmware is built as ``code.py`` does (``hw.main.build``, with the fakes of
``tests/mpy/fakecp``), so ``Buttons.read`` polls the data port (then its ``KeyInjector``)
every frame. Measured (``gc.mem_alloc()`` growth with the collector off, and under
``heap_lock()``): idle title frames with the mode off; the frame that reads the
test-mode command and answers it; idle frames with the mode on; frames that read
injected key lines and act on them (START opens the menu, pad keys move the
cursor). Each claim is checked to have happened (mode on, reply written, the
menu opened, the cursor moved).

Run: node tests/mpy/vm.mjs --dir engine --dir hw --dir tests tests/mpy/vm_testmode_alloc.py
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/fakecp")  # before any firmware import

import supervisor  # noqa: E402  (the fakes)
import usb_cdc  # noqa: E402

from mpyharness import Report  # noqa: E402

from engine.ticks import ticks_add  # noqa: E402
from hw.app.modes import MENU, TITLE
from hw.main import build  # noqa: E402

HELLO = b"CSPEED TEST 1\n"
START_DOWN = b"K 16 1\n"
START_UP = b"K 16 0\n"
DOWN_A = b"K 1 1\nK 1 0\n"  # pad A button 1: menu cursor down

report = Report("vm_testmode_alloc")
profile, app = build(getenv={"CSPEED_ATTRACT_S": "0"}.get, seed=5)
port = usb_cdc.data
report.check(app.buttons.port is port and app.buttons.injector is None,
             "build() gave the buttons the data port (the injector comes with the first bytes)")
state = [(1 << 29) - 5000]


def frames(n):
    t = state[0]
    for _ in range(n):
        t = ticks_add(t, 2)
        supervisor.now = t
        app.step(t)
    state[0] = t


def hello():
    port.feed(HELLO)
    frames(1)


def start_down():
    port.feed(START_DOWN)
    frames(1)


def start_up():
    port.feed(START_UP)
    frames(1)


def cursor_down():
    port.feed(DOWN_A)
    frames(1)


frames(50)
report.check(app.mode == TITLE, "the title is up")
report.free("idle title frames, test mode off (x20)", frames, 20)
port.forget()
hello()  # the first bytes: hw.board.hil_keys is imported and the injector made (allocates)
injector = app.buttons.injector
report.free("a frame that reads the test-mode command again", hello)
report.check(injector.on and b"# test mode on" in port.text(), "test mode on, answered")
report.free("idle title frames, test mode on (x20)", frames, 20)
start_down()
start_up()
frames(10)
report.check(app.mode == MENU, "an injected START tap opened the menu")
before = app.menu.changes
report.free("frames reading an injected pad key (cursor down), x3", cursor_down, n=3)
report.check(app.menu.changes >= before + 5, "injected pad keys moved the menu cursor",
             (before, app.menu.changes))
report.free("frames reading an injected START press line (the warm-up call started the match)", start_down)
report.free("  ... and its release line", start_up)
report.check(app.mode != MENU, "the injected START left the menu for the match")
report.check(injector.bad == 0 and injector.dropped == 0, "no line refused, none dropped")
report.done()
