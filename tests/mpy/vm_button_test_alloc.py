# vm-timeout: 120
# vm-dirs: engine hw tests
"""Proves in MicroPython that the button test mode (hw.views.button_check) keeps frames at 0 bytes,
console lines included.

The real firmware is built as ``code.py`` does (``hw.main.build``, with the fakes of
``tests/mpy/fakecp``); the menu's "Button test" item is opened with pad and START
presses through the keypad queue. Measured (``gc.mem_alloc()`` growth with the
collector off, and under ``heap_lock()``): idle frames in the mode; frames that read
a press or a release (the box lit or dimmed, its count redrawn, and its line written
to the console with ``sys.stdout.write`` of a preallocated buffer: no ``str``); a
press and release 5 ms apart (a bounce counted); a START tap and the frames of a
START hold counting down. Entering and leaving (screen builds) may allocate. Each
claim is checked to have happened (counts, the line written, the mode left). As
nothing is allocated, no collection can fall in the mode, however many presses.

Run: node tests/mpy/vm.mjs --dir engine --dir hw --dir tests tests/mpy/vm_button_test_alloc.py
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/fakecp")  # before any firmware import

import supervisor  # noqa: E402  (the fakes)

from mpyharness import Report  # noqa: E402

from engine.ticks import ticks_add  # noqa: E402
from hw.app.modes import BUTTONS, MENU, TITLE
from hw.main import build  # noqa: E402
from hw.menu import BUTTON_TEST  # noqa: E402
from hw.board.profiles import KEY_START  # noqa: E402

report = Report("vm_button_test_alloc")
profile, app = build(getenv={"CSPEED_ATTRACT_S": "0"}.get, seed=5)
events = app.buttons.events
state = [(1 << 29) - 5000, 0]  # the clock (the tick wrap comes 5 s in), the next key


def frames(n):
    t = state[0]
    for _ in range(n):
        t = ticks_add(t, 2)
        supervisor.now = t
        app.step(t)
    state[0] = t


def tap(key):
    events.push(key, True, state[0])
    events.push(key, False, ticks_add(state[0], 1))
    frames(20)


def press_next():
    """One frame that reads a press of the next pad key (A n1 .. B f4, round)."""
    key = state[1]
    events.push(key, True, state[0])
    frames(1)


def release_next():
    """One frame that reads that key's release."""
    key = state[1]
    state[1] = (key + 1) % 16
    events.push(key, False, state[0])
    frames(1)


def bounce():
    """A press and its release 5 ms apart, read in one frame (a bounce)."""
    t = state[0]
    events.push(6, True, ticks_add(t, -6))
    events.push(6, False, ticks_add(t, -1))
    frames(1)


def start_tap():
    events.push(KEY_START, True, state[0])
    events.push(KEY_START, False, ticks_add(state[0], 40))
    frames(1)


frames(50)
report.check(app.mode == TITLE, "the title is up")
tap(KEY_START)
report.check(app.mode == MENU, "START opened the menu")
for _ in range(12):  # A near 1: up, round past the first item to the last
    if app.menu.cursor == BUTTON_TEST:
        break
    tap(0)
report.check(app.menu.cursor == BUTTON_TEST, "the cursor is on Button test")
tap(KEY_START)
report.check(app.mode == BUTTONS and app.button_view is not None, "START opened the button test")
test = app.button_test
frames(10)
report.check(test.write == sys.stdout.write, "console lines go to sys.stdout.write")
report.free("idle frames in the button test (x20)", frames, 20)
report.free("frames reading a pad press: lit, counted, a console line (x16)", press_next, n=16)
report.check(bytes(test.line[:4]) == b"btn " and test.line.find(b" down t=") > 0,
             "the press's console line was written", bytes(test.line[:48]))
report.free("frames reading a release: dimmed, a console line (x16)", release_next, n=16)
before = test.bounces[6]
report.free("a frame reading a press and release 5 ms apart (a bounce)", bounce)
report.check(test.bounces[6] >= before + 3, "bounces counted", (before, test.bounces[6]))
report.free("a frame reading a START tap", start_tap)
presses = sum(test.presses)
report.check(presses >= 20 and test.presses[KEY_START] >= 3, "the presses were counted", presses)
events.push(KEY_START, True, state[0])
frames(1)
report.free("frames while START is held (the countdown), x50", frames, 50)
report.check(app.button_view.help.text.startswith("Keep holding START"),
             "the countdown is shown")
frames(1000)  # 2 s of START held
report.check(app.mode == MENU and app.button_test is None, "START held 2 s went back to the menu")
report.check("hw.views.button_view" not in sys.modules and "hw.views.button_check" not in sys.modules,
             "the mode's modules were dropped")
events.push(KEY_START, False, state[0])
frames(10)
report.check(app.mode == MENU, "START's release stays in the menu")
report.done()
