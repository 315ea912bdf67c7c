# vm-timeout: 180
# vm-dirs: engine hw tests
"""Proves in MicroPython that the firmware allocates nothing per frame playing Speed.

As ``vm_firmware_alloc.py`` (the real firmware built by ``hw.main.build`` on the fakes
of ``tests/mpy/fakecp``, ``App.step`` frame by frame, key events scripted into the
scanner's queue), with Speed remembered in the record (``hw.games.speed`` in the
heap from boot): idle title and menu frames, the Speed demo (CPU vs CPU), a
two-player Speed match whose frames read card presses (played at once, or selected),
pile presses (played, illegal: the lock), CANCEL and presses that play nothing, and a
match against the CPU. Each frame kind: 0 bytes (``gc.mem_alloc()`` with the collector
off) and, where it repeats, again under ``heap_lock()``.

Run: node tests/mpy/vm.mjs --dir engine --dir hw --dir tests tests/mpy/vm_speed_firmware_alloc.py
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/fakecp")  # before any firmware import

import board  # noqa: E402  (the fakes)
import microcontroller  # noqa: E402

from mpyharness import Report, locked, measure  # noqa: E402

from engine.cards import NO_CARD  # noqa: E402
from engine.family import PLAY
from engine.ticks import ticks_add  # noqa: E402
from hw.app.modes import DONE, GAME, MENU, READY, TITLE
from hw.games import index_of  # noqa: E402
from hw.menu import Menu  # noqa: E402
from hw.board.profiles import KEY_START  # noqa: E402
from hw.games.speed.keys import CANCEL, pile_button, slot_button  # noqa: E402

FRAME_MS = 2
START_T = (1 << 29) - 40000

microcontroller.nvm = microcontroller.ByteArray(4096)  # a Pico's: the record fits
menu = Menu(("beginner", "normal", "expert"))  # the record a Speed match leaves
menu.choose(index_of("speed"))
menu.save(microcontroller.nvm)
menu = None

from hw.main import build  # noqa: E402

r = Report("vm_speed_firmware_alloc")
profile, app = build(getenv={"CSPEED_PIEZO": "GP28"}.get, seed=99)
# From here on the record is not written (as in vm_firmware_alloc.py, whose nvm is too
# small for it): a save between games is a slice assignment, measured on its own by
# vm_record_alloc.py; the frames here are the firmware's own.
app.nvm = None
events = app.buttons.events
display = board.DISPLAY
state = [START_T]
BUTTONS = bytearray(5)  # hand slot -> pad button
for s in range(5):
    BUTTONS[s] = slot_button(s)


STEP = app.step  # bound once: reading app.step makes a bound method (16 bytes)


def run(n):
    step = STEP
    t = state[0]
    for _ in range(n):
        t = ticks_add(t, FRAME_MS)
        step(t)
    state[0] = t


def run_until_mode(mode, limit=200000):
    for _ in range(limit):
        if app.mode == mode:
            return True
        run(1)
    return app.mode == mode


def tap(key):
    events.push(key, True, state[0])
    events.push(key, False, state[0])
    run(1)


def frames(what, fn, args, lock=True):
    frames0 = app.frames
    used = measure(fn, *args)
    n = app.frames - frames0
    ok = locked(fn, *args) if lock else None
    r.check(used in (0, None) and ok is not False,
            "%s: %d frames, %s bytes%s" % (what, n, used, "; again under heap_lock" if ok else ""))


def info(what, fn, args):
    print("info", "%s: %s bytes" % (what, measure(fn, *args)))


def kind_of(seat, slot):
    """0: fits no pile, 1: one pile, 2: both; -1: an empty slot."""
    game = app.game
    if game.hands[seat * 5 + slot] == NO_CARD:
        return -1
    legal = game.legal[seat]
    return ((legal >> slot) & 1) + ((legal >> (5 + slot)) & 1)


def find(seat, kind):
    for slot in range(5):
        if kind_of(seat, slot) == kind:
            return slot
    return -1


def plays():
    game = app.game
    return game.covers[0] + game.covers[1] + game.illegals[0] + game.illegals[1]


def press_round(k):
    """Both seats press something (a one-pile card; or a card and a pile; or a misfit
    and a pile), 40 frames apart; all allocation-free."""
    game = app.game
    seat = k & 1
    if app.mode == GAME and game.phase == PLAY:
        slot = find(seat, 1)
        if slot >= 0 and k % 5 != 4:
            tap(seat * 8 + BUTTONS[slot])
        else:
            slot = find(seat, 2)
            if slot < 0:
                slot = find(seat, 0)
            if slot >= 0:
                tap(seat * 8 + BUTTONS[slot])
                run(10)
                tap(seat * 8 + pile_button(seat, k & 2 >> 1))
    run(40)


def play(rounds, until=-1):
    for k in range(rounds):
        if app.mode == until:
            return True
        press_round(k)
    return app.mode == until


r.check(app.kind.KEY == "speed" and app.game.GAME == "speed" and app.mode == TITLE,
        "Speed remembered in the record: its engine built at boot, title shown")
run(5)
frames("title, idle (Speed in the heap)", run, (3000,))

info("attract begins (Speed: SpeedBot seats, log header)", run_until_mode, (READY,))
r.check(app.attract and app.seats[0].bot.__class__.__name__ == "SpeedBot",
        "the demo plays Speed, CPU vs CPU")
before = plays()
frames("the Speed demo: a whole demo match, CPU vs CPU", run_until_mode, (DONE,), lock=False)
r.check(app.mode == DONE and plays() > before + 10, "the demo was played (%d plays)"
        % (plays() - before))
info("the next demo (a house-rule variation) begins", run_until_mode, (READY,))
r.check(app.game.rules.cards == 15, "the second demo plays 15 cards each")
tap(0)
r.check(app.mode == TITLE, "a button ended the demo")

info("START: the menu is built", tap, (KEY_START,))
r.check(app.mode == MENU, "menu")
frames("menu, idle", run, (2000,))
info("START: a 2-player Speed match begins", tap, (KEY_START,))
run_until_mode(GAME)
game = app.game
while game.phase != PLAY:
    run(1)
run(500)
frames("Speed game, idle for 6 s", run, (3000,))

slot = find(0, 1)
if slot >= 0:
    covers = game.covers[0]
    frames("a card that fits one pile: played by its press", tap, (BUTTONS[slot],), lock=False)
    run(40)
    r.check(game.covers[0] == covers + 1, "it was played")
slot = find(0, 0)
if slot < 0:
    slot = find(0, 2)
frames("a card press that selects", tap, (BUTTONS[slot],), lock=False)
r.check(game.controls.selection(game, 0) == slot, "the card is selected")
frames("CANCEL", tap, (CANCEL,), lock=False)
frames("a lone pile press (nothing selected)", tap, (pile_button(0, 0),))
tap(BUTTONS[slot])
frames("the pile press that plays the selected card", tap, (pile_button(0, 0),), lock=False)
r.check(game.covers[0] + game.illegals[0] > 0, "the pile press made a play")
run(300)
held_before = plays()
frames("40 press rounds by both seats", play, (40,), lock=False)
r.check(plays() > held_before + 10, "plays happened (%d)" % (plays() - held_before))
frames("play on to the end of the match", play, (100000, DONE), lock=False)
r.check(app.mode == DONE and game.match_over, "the Speed match was played out (%d games)"
        % game.games)

tap(0)  # the menu (its cursor still on Players)
tap(3)  # 1 player vs CPU
r.check(app.mode == MENU and app.menu.vs_cpu(), "menu: 1 player vs CPU")
info("START: Speed vs the CPU begins", tap, (KEY_START,))
run_until_mode(GAME)
frames("Speed vs the CPU: the whole match", play, (100000, DONE), lock=False)
r.check(app.mode == DONE, "the match vs the CPU was played out")
r.done()
