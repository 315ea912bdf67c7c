# vm-timeout: 120
# vm-dirs: engine hw tests
"""Proves in MicroPython that the firmware's main loop allocates nothing in steady state.

The requirement: "each loop only touches what changed; no per-frame allocation in the
firmware's own code". This script builds the real firmware exactly as ``code.py`` does
(``hw.main.build``: profile, display, one keypad scanner, usb_cdc.data, nvm) inside
the MicroPython 1.27 VM and drives ``App.step(now)`` frame by frame, with key events
scripted into the scanner's queue. Each claim is measured twice (growth of
``gc.mem_alloc()`` with the collector off, and a run under ``heap_lock()``):

* (a) idle game frames (nothing pressed; periodic ``clock`` log lines included);
* (b) frames that read a press from the queue, give it to the engine, log it, and
  the next frames that judge it and redraw (covers, illegal presses, locks), up to
  whole 2-player matches (game ends, result screens, next game's shuffle and deal);
* (c) frames where CPU seats play: 1 player vs CPU (whole match) and attract mode
  (CPU vs CPU demo);
* (d) idle title and menu frames, and menu key presses.

Idle frames must also *touch* nothing: the fakes count every scene write (palette
entry, tile, ``hidden``, flip, position, ``root_group``) in ``displayio.touches``,
and ``display.refresh()`` must be the frame's only call out.

What this proves, and what it does not: CircuitPython's native modules are replaced
by the fakes in ``tests/mpy/fakecp/`` (strict where it is cheap: range checks on
tiles, pixel values and colours, read-only ``keypad.Event``, an ``nvm`` that never
resizes, a ``terminalio.FONT`` with real glyphs; Bitmaps as big as the real ones).
Their per-frame setters store ints, as the native ones do. The firmware imports no
Python library besides its own ``engine/`` and ``hw/`` (this script checks that
``adafruit_display_text`` and ``adafruit_displayio_layout`` were never imported):
all text is glyph tiles (``hw.draw.text``), so a changing pack count, score or message is
a tile index, never a rendered label. So the proof covers everything a frame runs
in Python on a board. Set-up moments are allowed to allocate and are reported as
"info" lines with their bytes: building a screen (one at a time: title, menu,
table), starting a match or a demo (rules, CPU players, the log header). Abandoning
a match and a keypad queue overflow log constant ``#`` comments.

Run: node tests/mpy/vm.mjs --dir engine --dir hw --dir tests tests/mpy/vm_firmware_alloc.py
(pytest runs it via test_micropython.py, which reads the vm-dirs line above).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/fakecp")  # before any firmware import

import board  # noqa: E402  (the fakes)
import displayio  # noqa: E402
import usb_cdc  # noqa: E402

from mpyharness import Report, locked, measure  # noqa: E402

from engine.family import PLAY
from engine.ticks import ticks_add  # noqa: E402
from hw.app.modes import DONE, GAME, MENU, READY, TITLE
from hw.main import build  # noqa: E402
from hw.board.pads import position  # noqa: E402
from hw.board.profiles import KEY_START  # noqa: E402

FRAME_MS = 2  # one loop every 2 ms (the scan interval)
JUDGE_FRAMES = 40  # frames between two scripted presses (80 ms)
START_T = (1 << 29) - 40000  # the 2**29 tick wrap comes 40 s in (during the demo)


class Device:
    """The firmware, and a script that plays its buttons (all methods allocation-free)."""

    def __init__(self):
        # board.DISPLAY picks the "builtin" profile; a piezo on GP28 makes the sounds real.
        self.profile, self.app = build(getenv={"CSPEED_PIEZO": "GP28"}.get, seed=2024)
        self.game = self.app.game
        self.events = self.app.buttons.events
        self.step = self.app.step
        self.t = START_T
        self.k = 0  # scripted presses so far: picks positions and seats
        self.keys = bytearray(16)  # seat * 8 + table position -> logical key
        for seat in range(2):
            for button in range(8):
                self.keys[seat * 8 + position(seat, button)] = seat * 8 + button

    def run(self, n, dt=FRAME_MS):
        """Run ``n`` frames, ``dt`` ms apart."""
        step = self.step
        t = self.t
        for _ in range(n):
            t = ticks_add(t, dt)
            step(t)
        self.t = t

    def run_until_mode(self, mode, limit=100000):
        """Run frames until the app is in ``mode``; False after ``limit`` frames."""
        app = self.app
        for _ in range(limit):
            if app.mode == mode:
                return True
            self.run(1)
        return app.mode == mode

    def tap(self, key):
        """Queue a press and release of ``key`` seen now, then run one frame."""
        self.events.push(key, True, self.t)
        self.events.push(key, False, self.t)
        self.run(1)

    def late_presses(self, n):
        """``n`` frames, each reading a press by A stamped 1 ms after the frame's now
        (scanned after the loop read the clock)."""
        for _ in range(n):
            key = self.keys[self.pick(self.k % 3 != 0)]
            self.k += 1
            late = ticks_add(self.t, FRAME_MS + 1)
            self.events.push(key, True, late)
            self.events.push(key, False, late)
            self.run(1)

    def press(self, seat, pos):
        """``seat`` taps the button of table position ``pos``: the frame that reads it."""
        self.tap(self.keys[seat * 8 + pos])

    def pick(self, coverable):
        """A coverable position (or, if ``coverable`` is False, one that is not), or -1."""
        mask = self.game.coverable
        pos = self.k % 8
        for _ in range(8):
            if ((mask >> pos) & 1) == (1 if coverable else 0):
                return pos
            pos = (pos + 1) % 8
        return -1

    def press_judged(self, seat, coverable):
        """``seat`` presses a (non-)coverable position if the game is in play, then
        JUDGE_FRAMES frames run (the press is judged and drawn)."""
        self.k += 1
        if self.app.mode == GAME and self.game.phase == PLAY:
            pos = self.pick(coverable)
            if pos >= 0:
                self.press(seat, pos)
        self.run(JUDGE_FRAMES)

    def play(self, rounds, until=-1, seats=3):
        """Up to ``rounds`` presses by the seats in bit mask ``seats``, in turn (every 8th
        is on a position that is not coverable); stops once the app is in mode ``until``.
        Returns True if it got there."""
        app = self.app
        for _ in range(rounds):
            if app.mode == until:
                return True
            seat = self.k & 1
            if not (seats >> seat) & 1:
                seat = 1 - seat
            self.press_judged(seat, self.k % 8 != 0)
        return app.mode == until


r = Report("vm_firmware_alloc")
dev = Device()
app = dev.app
game = dev.game
display = board.DISPLAY
port = usb_cdc.data


def frames(what, fn, args, touched=None, lock=True):
    """Check that ``fn(*args)`` allocates 0 bytes: measured, then (``lock``) run again
    under heap_lock. ``touched``: None, or the number of scene writes the measured run
    must make. Returns the measured run's scene writes."""
    frames0 = app.frames
    touches0 = displayio.touches
    refreshes0 = display.refreshes
    used = measure(fn, *args)
    n = app.frames - frames0
    touches = displayio.touches - touches0
    refreshes = display.refreshes - refreshes0
    ok = locked(fn, *args) if lock else None
    r.check(used in (0, None) and ok is not False,
            "%s: %d frames, %s bytes, %d scene writes%s"
            % (what, n, used, touches, "; again under heap_lock" if ok else ""))
    r.check(refreshes == n, "%s: one display.refresh() per frame" % what)
    if touched is not None:
        r.check(touches == touched, "%s: %d scene writes" % (what, touched), "(%d)" % touches)
    return touches


def held(what, fn, args):
    """Check that ``fn(*args)`` runs under heap_lock."""
    frames0 = app.frames
    ok = locked(fn, *args)
    r.check(ok is not False, "%s: %d frames under heap_lock" % (what, app.frames - frames0))


def info(what, fn, args):
    """Run ``fn(*args)`` and print what it allocated (a set-up moment: allowed to)."""
    used = measure(fn, *args)
    print("info", "%s: %s bytes" % (what, used))
    return used


def presses():
    return game.covers[0] + game.covers[1] + game.illegals[0] + game.illegals[1]


def start_match():
    """From the winner's message: a button opens the menu, START starts a match."""
    dev.tap(0)
    dev.tap(KEY_START)
    dev.run_until_mode(GAME)


# ------------------------------------------------------------------ (d) title
r.check(dev.profile == "builtin" and app.mode == TITLE and hasattr(app.buzzer, "pwm"),
        "built by hw.main.build (display, keypad, usb_cdc, nvm, piezo): title shown")
r.check("adafruit_display_text" not in sys.modules
        and "adafruit_displayio_layout" not in sys.modules,
        "the firmware imports no Adafruit library (text is glyph tiles)")
r.check(app.table is None and app.menu_view is None and app.title_view is not None,
        "only the title's scene exists")
dev.run(5)
frames("(d) title, idle", dev.run, (3000,), touched=0)  # 12 s in all: the demo waits 20 s

# ---------------------------------------------- (c) attract mode: CPU vs CPU
info("attract begins (CPU seats, log header)", dev.run_until_mode, (READY,))
r.check(app.attract and not app.seats[0].human and not app.seats[1].human,
        "attract mode: both seats are CPU players")
before = presses()
frames("(c) attract: a whole demo match, CPU vs CPU", dev.run_until_mode, (DONE,), lock=False)
r.check(app.mode == DONE and game.match_over, "the demo match was played to its end")
r.check(dev.t < START_T, "the tick counter wrapped (2**29) during the demo")
r.check(presses() > before + 20, "the CPU seats pressed (%d presses)" % (presses() - before))
frames("(c) attract: the winner's message, idle", dev.run, (500,), touched=0)
info("the next demo match begins (new CPU seats)", dev.run_until_mode, (READY,))
held("(c) attract: the next whole demo match", dev.run_until_mode, (DONE,))
r.check(app.mode == DONE, "the next demo match was played out")
info("a button ends the demo (# attract stopped; the title is built)", dev.tap, (0,))
r.check(app.mode == TITLE and not app.attract and app.table is None,
        "a button ended the demo: the title replaced the table")

# ------------------------------------------------------------------- (d) menu
info("(d) START on the title opens the menu (the menu is built)", dev.tap, (KEY_START,))
r.check(app.mode == MENU and app.title_view is None, "START opened the menu")
frames("(d) menu, idle", dev.run, (3000,), touched=0)
frames("(d) menu key: cursor down", dev.tap, (1,))  # pad A button 2; twice (heap_lock)
frames("(d) menu key: cursor up", dev.tap, (0,))
r.check(app.menu.cursor == 0, "the cursor is back on 'Players'")

# ----------------------------------------------- (a), (b) a 2-player match
used = info("START on the menu: begin_match (rules, log header)", dev.tap, (KEY_START,))
r.check(used is None or used > 0, "the measurement sees set-up: begin_match allocates")
r.check(app.mode == READY and app.seats[1].human, "a 2-player match began")
dev.run_until_mode(GAME)
while game.phase != PLAY:
    dev.run(1)
dev.run(500)  # past the "GO!" message
frames("(a) game, one idle frame", dev.run, (1,), touched=0)
logged = port.writes
frames("(a) game, idle for 10 s", dev.run, (5000,), touched=0)
r.check(port.writes - logged >= 2, "idle frames logged their periodic clock lines (%d)"
        % (port.writes - logged))

pos = dev.pick(True)
covers = game.covers[0]
t = dev.t
port.forget()
touched = frames("(b) the frame that reads a press (A, coverable), plays and logs it", dev.press,
                 (0, pos), lock=False)
# The press is stamped with the scan time (the previous frame's), so the engine judges
# it in the same frame (advance to now) and the frame draws it.
r.check(port.text() == b"press %d A %d\nclock %d\n" % (t, pos, dev.t),
        "the press was logged (and the clock line of its judgement)", repr(port.text()))
r.check(game.covers[0] == covers + 1 and touched > 0, "the cover was drawn")
r.check(app.buzzer.on and app.buzzer.pwm.frequency == 1760, "the piezo beeps the cover")
frames("(b) the next frame: nothing changed, nothing touched", dev.run, (1,), touched=0,
       lock=False)
dev.run(JUDGE_FRAMES)
pos = dev.pick(True)
covers = game.covers[0]
same_ms = ticks_add(dev.t, FRAME_MS)  # scanned in the ms the next frame reads as its now
dev.events.push(dev.keys[pos], True, same_ms)
dev.events.push(dev.keys[pos], False, same_ms)
touched = frames("(b) a press stamped with the frame's own now", dev.run, (1,), lock=False)
r.check(game.covers[0] == covers + 1 and touched > 0,
        "it was judged and drawn in the frame that read it")
dev.run(JUDGE_FRAMES)
held("(b) B presses a coverable position, judged", dev.press_judged, (1, True))
bad = dev.pick(False)
illegals = game.illegals[0]
frames("(b) A presses a position that is not coverable", dev.press, (0, bad), lock=False)
r.check(game.illegals[0] == illegals + 1 and app.table.locked[0] == 1,
        "the illegal press locked A (LOCKED shown)")
frames("(b) A's lock runs out", dev.run, (300,))
r.check(app.table.locked[0] == 0, "the lock ended")
held("(b) B presses a position that is not coverable, judged", dev.press_judged, (1, False))
dev.run(300)  # B's lock ends

# Feedback (hw.app.feedback): a tie's flash and notes, a locked press's note.
pos = dev.pick(True)
ties = game.ties
for seat in range(2):
    dev.events.push(dev.keys[seat * 8 + pos], True, dev.t)
    dev.events.push(dev.keys[seat * 8 + pos], False, dev.t)
frames("(b) a tie: both seats press one position in one scan", dev.run, (2,), lock=False)
r.check(game.ties == ties + 1, "it was a tie")
frames("(b) the tie's flash and notes, to their end", dev.run, (300,))
r.check(app.feedback.flash == 0 and app.table.flash == 0, "the flash ended (drawn unlit)")
r.check(app.table.lines[0] == app.table.lines[1] == 0, "the notes ended")
frames("(b) A presses a position that is not coverable (a note)", dev.press,
       (0, dev.pick(False)), lock=False)
frames("(b) A presses while locked (a note)", dev.press, (0, dev.pick(True)), lock=False)
r.check(app.feedback.notes[0] != 0, "A's line carries a note")
frames("(b) the notes and the lock run out", dev.run, (700,))

covers = game.covers[0] + game.covers[1]
illegals = game.illegals[0] + game.illegals[1]
games = game.games
frames("(b) 40 presses by both seats", dev.play, (40,), lock=False)
covers = game.covers[0] + game.covers[1] - covers
illegals = game.illegals[0] + game.illegals[1] - illegals
r.check(game.games == games and covers >= 15 and illegals > 0,
        "covers (%d) and illegal presses (%d) happened" % (covers, illegals))
frames("(b) play on to the end of the match (game ends, next games)", dev.play,
       (100000, DONE), lock=False)
r.check(app.mode == DONE and game.match_over, "the match was played out (%d games)" % game.games)
frames("(b) the match's end: its result, then 'START: new match', in turn", dev.run, (2000,))
info("START on the match's end: a new match (same screen)", dev.tap, (KEY_START,))
r.check(app.mode == READY and not game.match_over, "START began a new match")
frames("(b) the new match, played out", dev.play, (100000, DONE), lock=False)
info("(d) a button on the winner's message opens the menu (built)", dev.tap, (0,))
r.check(app.mode == MENU, "the menu is shown")
dev.tap(KEY_START)
dev.run_until_mode(GAME)
held("(b) a whole 2-player match", dev.play, (100000, DONE))
r.check(app.mode == DONE and game.match_over, "that match was played out (%d games)"
        % game.games)

# ------------------------------------------------ (c) 1 player vs the CPU
dev.tap(0)
dev.tap(3)  # Players: 1 player vs CPU
dev.tap(1)  # cursor to CPU level
dev.tap(3)  # normal
dev.tap(3)  # expert
r.check(app.mode == MENU and app.menu.vs_cpu() and app.menu.level() == 2,
        "menu: 1 player vs an expert CPU")
info("START on the menu: begin_match vs CPU (a CPU seat)", dev.tap, (KEY_START,))
r.check(not app.seats[1].human, "seat B is the CPU")
dev.run_until_mode(GAME)
while game.phase != PLAY:
    dev.run(1)
# The scanner runs in the tick interrupt: a press can carry a timestamp later than the
# `now` the loop read before draining the queue. The pass must then not let the CPU
# seat press behind the game's clock (no clamp, no "#" line).
clamps = app.clamps
port.forget()
frames("(c) vs CPU: 200 presses stamped after the loop's now", dev.late_presses, (200,),
       lock=False)
r.check(app.clamps == clamps and b"#" not in port.text(),
        "no press landed behind the clock (no clamp, no comment)",
        "(%d clamps)" % (app.clamps - clamps))
before = game.covers[1] + game.illegals[1]
frames("(c) vs CPU: 10 s, the human idle", dev.run, (5000,))
r.check(game.covers[1] + game.illegals[1] > before + 5, "the CPU pressed (%d)"
        % (game.covers[1] + game.illegals[1] - before))
frames("(c) vs CPU: the human presses too, to the match's end", dev.play, (100000, DONE, 1),
       lock=False)
r.check(app.mode == DONE and game.match_over, "the match vs CPU was played out (%d games)"
        % game.games)
start_match()
held("(c) a whole match vs CPU", dev.play, (100000, DONE, 1))
r.check(app.mode == DONE, "that match was played out")

# ------------------------------------------------------------- other moments
start_match()
dev.run(100)
dev.events.push(KEY_START, True, dev.t)
info("START held 1 s abandons the match (# comment; the menu is built)", dev.run, (600,))
r.check(app.mode == MENU, "holding START returned to the menu")
dev.events.push(KEY_START, False, dev.t)  # START's release: nothing happens
for _ in range(70):
    dev.events.push(4, False, dev.t)  # releases: ignored, but they fill the queue
frames("keypad queue overflow: cleared, counted, logged", dev.run, (1,), lock=False)
r.check(app.overflows == 1 and app.mode == MENU, "the overflow was counted")

# ------------------------------------------- CSPEED_DIAG: hw.diag's measurement
from hw.diag import Diag  # noqa: E402

start_match()
dev.run(500)
while game.phase != PLAY or not game.coverable:  # a deal with no match: its redeal
    dev.run(1)
diag = Diag(app, dev.t)
gcs = diag.gcs


def diag_frames(n):
    for _ in range(n):
        dev.t = ticks_add(dev.t, FRAME_MS)
        diag.measured_step(app.step, dev.t)


diag_frames(50)
dev.events.push(dev.keys[dev.pick(True)], True, dev.t)
diag_frames(1)
# (The menu is still on 1 player vs CPU: a CPU press may fall in the 50 frames.)
r.check(diag.idle_n + diag.press_n == 51 and diag.press_n >= 1,
        "diag: 51 frames measured, the press frame among them",
        "(%d, %d)" % (diag.idle_n, diag.press_n))
r.check(diag.idle_alloc == 0 and diag.press_alloc == 0, "diag: they allocated 0 bytes",
        "(%d, %d)" % (diag.idle_alloc, diag.press_alloc))
junk = []
diag.measured_step(lambda now: junk.append(bytearray(100)), dev.t)
r.check(diag.idle_alloc >= 100, "diag: a frame that allocates is seen (%d bytes)"
        % diag.idle_alloc)
r.check(diag.gcs == gcs, "diag: no collection during these frames")
r.done()
