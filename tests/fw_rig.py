"""A test rig that runs the real firmware (hw/) on CPython with tools.cpstubs.

The rig builds the firmware exactly as ``code.py`` does (``hw.main.build``: board
profile, display, one keypad scanner, usb_cdc.data, nvm), on Blinka's real
displayio, and drives it loop by loop on the fake ``supervisor`` clock. Key events
move the pins of the firmware's own keypad scanner, which scans and debounces them
as a board does and stamps each event with its scan's time. A ``Tracer`` chained onto the firmware's game records what the
device's engine decided, to compare with a replay of the log it streamed.
"""

import sys
import displayio

from tools import cpstubs

cpstubs.install()

from engine.trace import Tracer, replay_text  # noqa: E402
from hw import main as hw_main  # noqa: E402
from hw.board.pads import position  # noqa: E402
from hw.board.profiles import KEY_START  # noqa: E402
from tools.cpstubs import board, keypad, supervisor, usb_cdc  # noqa: E402
from tools.cpstubs.screen import make_display  # noqa: E402

WRAP = 1 << 29


def key_for(seat, pos):
    """Return the logical key (= the Pico profile's key number) of ``pos`` on ``seat``'s pad."""
    for button in range(8):
        if position(seat, button) == pos:
            return seat * 8 + button
    raise ValueError(pos)


def split_matches(text):
    """Split a streamed log into one text per match (each starts with ``CSLOG 1``)."""
    chunks = []
    for line in text.splitlines():
        if line == "CSLOG 1":
            chunks.append([])
        if chunks:
            chunks[-1].append(line)
    return ["\n".join(c) + "\n" for c in chunks]


def replay(text):
    """Replay one match's log on a fresh engine; return its trace lines."""
    lines, err = replay_text(text)
    if err is not None:  # a failure message for the test
        raise AssertionError("the streamed log does not replay: %s\n%s" % (err, text))
    return lines


class Rig:
    """The firmware on a desktop, one loop at a time."""

    def __init__(self, start=1000, settings=None, builtin=None, board_id="raspberry_pi_pico",
                 seed=12345, data_port=True, held=(), fram=None):
        cpstubs.reset()
        if fram is not None:  # the record's FRAM on the Pico's I2C1 (hw.store.fram)
            sys.modules["busio"].attach("GP27", "GP26", fram)
        keypad.held_at_start.update(held)  # keys held down at power-on
        usb_cdc.reset(data=data_port)  # False: booted without it (ESP32-S2/S3)
        displayio.release_displays()
        display = None
        if builtin is not None:
            display = make_display(*builtin)
        board.configure(board_id, display)
        supervisor.set_ticks(start)
        env = dict(settings or {})
        self.profile, self.app = hw_main.build(getenv=env.get, seed=seed)
        self.game = self.app.game
        self.follow_games = False
        self.scanner = keypad.scanners[-1]
        self.trace = []
        Tracer(self.game, self.trace.append)  # chains onto the firmware's own sink
        self.app.step(supervisor.now())

    # ------------------------------------------------------------- driving

    @property
    def now(self):
        """The fake clock."""
        return supervisor.now()

    def step(self, ms=2):
        """Move the clock on by ``ms`` and run one loop (with ``follow_games``, a new
        engine -- a match or a demo of another game -- is traced on into ``trace``)."""
        supervisor.advance(ms)
        self.app.step(supervisor.now())
        if self.follow_games and self.app.game is not self.game and self.app.game is not None:
            self.game = self.app.game
            Tracer(self.game, self.trace.append)

    def run(self, ms, dt=5):
        """Run loops for ``ms`` of fake time, ``dt`` ms apart."""
        while ms > 0:
            self.step(dt)
            ms -= dt

    def run_until(self, cond, limit=60000, dt=5):
        """Run loops until ``cond()``; fail after ``limit`` ms of fake time."""
        spent = 0
        while not cond():
            assert spent < limit, "condition not reached in %d ms" % limit
            self.step(dt)
            spent += dt

    def tap(self, key, t=None, hold=20):
        """Press ``key`` at ``t`` (default now) and release it ``hold`` ms later.

        The scanner debounces as a board does: each transition reaches the firmware
        3.9-5.9 ms after the pin moved, so a tap is seen within ``hold + 6`` ms.
        """
        t = self.now if t is None else t
        self.scanner.press(key, t)
        self.scanner.release(key, (t + hold) % WRAP)

    def press_pos(self, seat, pos, t=None, hold=20):
        """``seat`` presses the button of table position ``pos``."""
        self.tap(key_for(seat, pos), t, hold)

    def start_match(self):
        """From the title: START (menu), START (match); run until the first deal is in play."""
        from hw.app.modes import MENU, TITLE

        if self.app.mode == TITLE:
            self.tap(KEY_START)
            self.run(60)
        assert self.app.mode == MENU
        self.tap(KEY_START)
        self.run(60)
        self.run_until(lambda: self.game.phase == 2)  # PLAY

    # ------------------------------------------------------------- reading

    def log_text(self):
        """Everything the firmware wrote to usb_cdc.data."""
        return bytes(usb_cdc.data.written).decode("ascii")

    def coverable(self):
        """Coverable positions now."""
        return [p for p in range(8) if (self.game.coverable >> p) & 1]

    def device_trace(self):
        """The device engine's trace, with its last tick judged (as a log's end does)."""
        self.game.finish()
        return list(self.trace)


def menu_set(rig, item, value):
    """On the menu: move the cursor to ``item`` (pad A's near-row button 2: down) and
    step its value to ``value`` (button 4: next)."""
    menu = rig.app.menu
    for _ in range(20):
        if menu.cursor == item:
            break
        rig.tap(1)
        rig.run(40)
    assert menu.cursor == item
    for _ in range(8):
        if menu.value(item) == value:
            break
        rig.tap(3)
        rig.run(40)
    assert menu.value(item) == value
