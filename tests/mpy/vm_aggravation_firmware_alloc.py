# vm-timeout: 240
# vm-dirs: engine hw tests
"""Proves in MicroPython that the firmware allocates nothing per frame playing Aggravation.

As ``vm_speed_firmware_alloc.py`` (the real firmware built by ``hw.main.build`` on the
fakes of ``tests/mpy/fakecp``, ``App.step`` frame by frame, key events scripted into
the scanner's queue), with Aggravation remembered in the record (``hw.games.aggravation``
in the heap from boot): idle title and menu frames, the Aggravation demo and the
Frustration demo (CPU vs CPU), a two-player match whose frames read column presses
(a stack pressed at once, a column selected, its line chosen, a cancel, a press on the
other pad row), a player out of cards tapping and calling (a held tap counting its
window down on the screen), and a match against the CPU. Each frame kind: 0 bytes
(``gc.mem_alloc()`` with the collector off) and, where it repeats, again under
``heap_lock()``. The controls' ``target`` alone, on every button of both pads, too.

Run: node tests/mpy/vm.mjs --dir engine --dir hw --dir tests tests/mpy/vm_aggravation_firmware_alloc.py
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/fakecp")  # before any firmware import

import board  # noqa: E402  (the fakes)
import microcontroller  # noqa: E402

from mpyharness import Report, locked, measure  # noqa: E402

from engine.family import OVER, PLAY  # noqa: E402
from engine.ticks import ticks_add  # noqa: E402
from hw.app.modes import DONE, GAME, MENU, READY, TITLE  # noqa: E402
from hw.games import index_of  # noqa: E402
from hw.menu import Menu  # noqa: E402
from hw.board.profiles import KEY_START  # noqa: E402
from hw.games.aggravation.keys import column_button, line_of  # noqa: E402

FRAME_MS = 2
START_T = (1 << 29) - 40000

microcontroller.nvm = microcontroller.ByteArray(4096)  # a Pico's: the record fits
menu = Menu(("beginner", "normal", "expert"))  # the record an Aggravation match leaves
menu.choose(index_of("aggravation"))
menu.save(microcontroller.nvm)
menu = None

from hw.main import build  # noqa: E402

r = Report("vm_aggravation_firmware_alloc")
profile, app = build(getenv={"CSPEED_PIEZO": "GP28"}.get, seed=99)
app.nvm = None  # as vm_speed_firmware_alloc.py: the record's save is measured on its own
events = app.buttons.events
state = [START_T]
STEP = app.step  # bound once: reading app.step makes a bound method (16 bytes)
COLUMN = bytearray(2 * 28)  # (seat, pos) -> the pad button of its column
LINE = bytearray(28)
for s in range(2):
    for p in range(28):
        if p % 14 < 13:
            COLUMN[s * 28 + p] = column_button(s, p)
            LINE[p] = line_of(p)


def run(n):
    step = STEP
    t = state[0]
    for _ in range(n):
        t = ticks_add(t, FRAME_MS)
        step(t)
    state[0] = t


def run_until_mode(mode, limit=300000):
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


def lowest(mask):
    pos = 0
    while not (mask >> pos) & 1:
        pos += 1
    return pos


def acts():
    game = app.game
    return game.covers[0] + game.covers[1] + game.illegals[0] + game.illegals[1] + game.taps


def press_stack(seat, pos):
    """The column of ``pos`` on ``seat``'s pad, then its line if the column was selected."""
    button = COLUMN[seat * 28 + pos]
    before = app.presses
    tap(seat * 8 + button)
    run(10)
    if app.presses == before:
        tap(seat * 8 + (button & 4) + LINE[pos])
        run(10)


def press_round(k):
    """One seat covers (with cards) or taps a pair (out of cards), 40 frames apart."""
    game = app.game
    seat = k & 1
    if app.mode == GAME and game.phase == PLAY:
        mask = game.coverable if game.packs[seat] else game.pairs
        held = game.held(seat, state[0])
        if held >= 0:  # the held rank's partner: the call
            mask = 0
            card = game.hold_card[seat]
            for p in range(28):
                if p != held and (game.pairs >> p) & 1 and game.tops[p] >> 2 == card >> 2:
                    mask = 1 << p
                    break
        if mask:
            press_stack(seat, lowest(mask))
    run(40)


def play(rounds, until=-1):
    for k in range(rounds):
        if app.mode == until:
            return True
        press_round(k)
    return app.mode == until


def targets():
    """Every button of both pads through the kind (selections come and go)."""
    kind = app.kind
    game = app.game
    for seat in range(2):
        for button in range(8):
            kind.target(game, seat, button)
    game.controls.reset()


def selectable():
    """A (seat, column button) whose press selects a column, or (-1, -1)."""
    game = app.game
    for seat in range(2):
        for owner in range(2):
            n = game.row_len[owner]
            for column in range(n - 4 if n > 4 else 0):
                legal = 0
                k = column
                while k < n:
                    if (game.coverable >> (owner * 14 + k)) & 1:
                        legal += 1
                    k += 4
                if legal != 1:
                    return seat, COLUMN[seat * 28 + owner * 14 + column]
    return -1, -1


r.check(app.kind.KEY == "aggravation" and app.game.GAME == "aggravation" and app.mode == TITLE,
        "Aggravation remembered in the record: its engine built at boot, title shown")
run(5)
frames("title, idle (Aggravation in the heap)", run, (3000,))

info("attract begins (AggravationBot seats, log header)", run_until_mode, (READY,))
r.check(app.attract and app.seats[0].bot.__class__.__name__ == "AggravationBot",
        "the demo plays Aggravation, CPU vs CPU")
before = acts()
frames("the Aggravation demo: a whole demo match, CPU vs CPU", run_until_mode, (DONE,),
       lock=False)
r.check(app.mode == DONE and acts() > before + 10 and app.game.calls >= 1,
        "the demo was played to a call (%d presses)" % (acts() - before))
info("the Frustration demo begins", run_until_mode, (READY,))
r.check(app.game.rules.frustration == 1, "the second demo plays Frustration")
before = acts()
frames("the Frustration demo: a whole demo match, CPU vs CPU", run_until_mode, (DONE,),
       lock=False)
r.check(app.mode == DONE and app.game.scoops >= 1,
        "Frustration was played out (%d presses, %d scoops)" % (acts() - before,
                                                               app.game.scoops))
run_until_mode(READY)
tap(0)
r.check(app.mode == TITLE, "a button ended the demo")

info("START: the menu is built", tap, (KEY_START,))
r.check(app.mode == MENU, "menu")
frames("menu, idle", run, (2000,))
info("START: a 2-player Aggravation match begins", tap, (KEY_START,))
run_until_mode(GAME)
game = app.game
while game.phase != PLAY:
    run(1)
run(500)
frames("Aggravation game, idle for 6 s", run, (3000,))
frames("every button of both pads through the controls", targets, ())

seat, button = -1, -1
for k in range(400):
    seat, button = selectable()
    if seat >= 0 and game.packs[0] and game.packs[1]:
        break
    press_round(k)
r.check(seat >= 0, "a column of several stacks to select")
if seat >= 0:
    frames("a column press that selects", tap, (seat * 8 + button,), lock=False)
    r.check(game.controls.selection(game, seat, state[0]) >= 0, "the column is selected")
    frames("selected: frames with its labels", run, (20,))
    frames("a line with no stack: cancel", tap, (seat * 8 + (button & 4) + 3,), lock=False)
    tap(seat * 8 + button)
    frames("the line press that presses its stack", tap, (seat * 8 + (button & 4),),
           lock=False)
    tap(seat * 8 + button)
    frames("a press on the other pad row: judged afresh", tap, (seat * 8 + (button ^ 4),),
           lock=False)
run(300)
before = acts()
frames("40 press rounds by both seats", play, (40,), lock=False)
r.check(acts() > before + 5, "presses happened (%d)" % (acts() - before))
frames("play on to the end of the match (taps and calls)", play, (100000, DONE), lock=False)
r.check(app.mode == DONE and game.match_over and game.calls >= 1,
        "the match was played out (%d games, %d taps, %d calls)" % (game.games, game.taps,
                                                                    game.calls))

tap(0)  # the menu (its cursor still on Players)
tap(3)  # 1 player vs CPU
r.check(app.mode == MENU and app.menu.vs_cpu(), "menu: 1 player vs CPU")
info("START: Aggravation vs the CPU begins", tap, (KEY_START,))
run_until_mode(GAME)
frames("Aggravation vs the CPU: the whole match", play, (100000, DONE), lock=False)
r.check(app.mode == DONE, "the match vs the CPU was played out")
r.check(app.game.phase == OVER, "its last game is over")
r.done()
