"""The emulator: the unchanged firmware (``boot.py``, ``code.py``) under CPython.

:class:`Emulator` installs the CircuitPython stand-ins of ``tools.cpstubs``, then
swaps in this package's desktop parts: ``board.DISPLAY`` (:mod:`.display`),
``usb_cdc.data`` (:mod:`.port`), ``microcontroller.nvm`` (:mod:`.nvm`), the
record's optional I2C FRAM (``--fram``, :mod:`.fram`), and the
``supervisor.ticks_ms`` clock (:mod:`.clock`), and runs ``boot.py`` and
``code.py`` as a board would. ``code.py`` loops forever calling
``step(ticks_ms())``; after each step the emulator takes its one turn,
:meth:`Emulator._between_loops` (the firmware's ``App.step`` is wrapped for that,
not ``ticks_ms``: libraries such as ``bitmap_label`` read ``ticks_ms()`` mid-step too):

1. save a PNG frame if the last loop drew something (``--frames``);
2. move time on: wall clock (window), or virtual time (headless: straight to the
   next scheduled event or 10 ms on, so scripted runs are fast and repeatable);
3. run what is due (script keys become keyboard events; the demo's stop; test probes);
4. read ALL pygame events, in this one place: keys go to the pads stamped with
   this tick (:mod:`.keys`), F1 toggles the help, Esc / closing the window quits;
5. stop (raise :class:`Stop` out of the firmware's loop) when the time is up.

``hw.main.build`` is wrapped (not edited) to pass ``--seed``, to wrap the App's
``step`` as above, and to keep the firmware's ``App`` for the demo,
``--trace`` and tests. The next ``ticks_ms()`` then returns the moved clock.
``hw.main.fail`` is wrapped too: a bad setting draws the firmware's error screen,
and where the device would sleep on it forever the emulator keeps taking its turns
(frames, time, events), so the run ends as ``until_ms``, Esc, the window or SIGTERM
say; ``stopped`` holds the message.
"""

import contextlib
import heapq
import io
import os
import runpy
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOARD_ID = "desktop_emulator"
FRAM_PINS = ("GP27", "GP26")  # SCL, SDA: the Pico profiles' (hw.board.profiles)


def _with_setting(getenv, key, value):
    """``getenv`` (default ``os.getenv``) with ``key`` set to ``value`` unless settings.toml sets it."""
    get = getenv or os.getenv

    def lookup(name):
        found = get(name)
        return value if name == key and found is None else found
    return lookup
VIRTUAL_STEP_MS = 10  # headless: a loop every 10 virtual ms when nothing is due
REAL_LOOP_S = 0.002  # window: pace loops like the board's 2 ms key scan


def _made_for(path):
    """``path``, its folder made if missing (the argument checks leave nothing behind)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    return path


class Stop(Exception):
    """Raised from the clock to leave the firmware's forever loop."""


class OutputFailed(Stop):
    """A file the emulator writes failed (a full disk): the run ends; ``failure`` says which."""


class Emulator:
    """One emulated board. Configure, :meth:`schedule` things, then :meth:`run`."""

    def __init__(self, *, width=320, height=240, scale=2, virtual=False, seed=None,
                 start=None, nvm_path=None, fram_path=None, log_path=None, frames_dir=None,
                 until_ms=None, trace_path=None, hold_start_ms=None, game=None, cable=None,
                 caption=None):
        with contextlib.redirect_stdout(io.StringIO()):  # Blinka's "GENERIC_X86" notice
            from tools import cpstubs
            from tools.emulate.display import EmuDisplay

            self.board = cpstubs.install(BOARD_ID)
        from tools.emulate import clock as clocks
        from tools.emulate.keys import TITLE, legend_lines
        from tools.emulate.nvm import FileNVM
        from tools.emulate.port import PtyPort
        import displayio
        import pygame
        self._pygame = pygame  # read every loop: looked up once
        self._supervisor = sys.modules["supervisor"]  # the stand-in whose clock we move
        displayio.release_displays()  # one display at a time (a previous session's)
        # A window shows the key legend under the panel; headless, nobody sees it.
        self.display = EmuDisplay(width, height, scale, caption=caption or TITLE,
                                  legend=() if virtual else legend_lines())
        self.board.configure(BOARD_ID, display=self.display)

        self.failure = None  # "cannot write --log FILE: reason": why the run ended early
        self.stopped = None  # the message hw.main.fail showed: the firmware stopped on it
        self.error_view = None  # ... and its screen (hw.views.error_view), if one was drawn
        self.terminated = False  # set by a SIGTERM handler: the run ends at the next turn
        self.log_path = log_path
        # One run, one stream: a log appended to a file from an earlier run would not replay.
        self.log_file = open(_made_for(log_path), "wb") if log_path else None
        self.port = PtyPort(tee=self.log_file)
        usb_cdc, micro = sys.modules["usb_cdc"], sys.modules["microcontroller"]
        self._stand_ins = (usb_cdc.data, micro.nvm)  # put back by close()
        usb_cdc.data = self.port
        micro.nvm = FileNVM(nvm_path)
        micro.nvm.on_error = lambda err: self.output_failed("--nvm", nvm_path, err)
        if game is not None:  # the menu's chosen game, saved as the firmware saves it
            from tools.emulate.nvm import choose_game

            choose_game(micro.nvm, game)
        self.fram = None
        if fram_path is not None:  # the record's optional FRAM, on the Pico's I2C1 pins
            from tools.emulate.fram import FileFRAM

            self.fram = FileFRAM(fram_path)
            self.fram.on_error = lambda err: self.output_failed("--fram", fram_path, err)
            sys.modules["busio"].attach(FRAM_PINS[0], FRAM_PINS[1], self.fram)

        start = clocks.default_start() if start is None else start
        self.clock = clocks.VirtualClock(start) if virtual else clocks.RealClock(start)
        self.cable = cable  # tools.emulate.link.Cable: the link cable's UART (--link)
        self.step_ms = VIRTUAL_STEP_MS
        if cable is not None:  # the cable's clock: skewed, and in step with the other end
            from tools.emulate.link import LinkClock

            self.clock = LinkClock(cable, start)
            self.step_ms = 1  # a board's loop comes round in a few ms, not 10
            sys.modules["busio"].UART = cable.uart_class()
        self.seed = seed
        self.until_ms = until_ms
        self.frames_dir = frames_dir
        self.trace_path = trace_path
        self.hold_start_ms = hold_start_ms  # START held from power-on this long (button test)
        self.frames = []  # (elapsed ms, path) of PNG frames written
        self.app = None  # the firmware's hw.app.App, once built
        self.keyboard = None
        self.every_loop = []  # fn(emulator, now), run at step 3 of every turn
        self._due = []  # heap of (elapsed ms, order, fn)
        self._order = 0
        self._drawn = 0  # display.refreshes when a frame was last saved
        self._loop_start = time.monotonic()
        self.now = self.clock.now()
        self.loops = 0
        self.help_shown = False

    # ------------------------------------------------------------- scheduling

    def schedule(self, ms, fn):
        """Run ``fn(emulator)`` between loops once ``ms`` ms of the session have passed."""
        heapq.heappush(self._due, (ms, self._order, fn))
        self._order += 1

    def add_script(self, events):
        """Schedule ``[(ms, key name, down)]`` (see :mod:`.script`) as keyboard events."""
        import pygame
        from tools.emulate.keys import key_event

        for ms, name, down in events:
            event = key_event(name, down)
            self.schedule(ms, lambda emu, e=event: pygame.event.post(e))

    def elapsed(self):
        """Milliseconds since the session started."""
        return self.clock.elapsed()

    # -------------------------------------------------------------------- run

    def run(self):
        """Run ``boot.py`` then ``code.py`` until stopped; return the firmware App."""
        import sys

        import hw
        import hw.main

        main = hw.main  # code.py forgets it once started: wrapped here, put back each run
        build = main.build

        def build_and_keep(getenv=None, seed=None):
            if self.fram is not None:  # the builtin-display profile names no FRAM pins
                getenv = _with_setting(getenv, "CSPEED_FRAM", ",".join(FRAM_PINS))
            name, app = build(getenv, self.seed if seed is None else seed)
            self._attach(app)
            return name, app

        fail = main.fail

        def fail_and_stay(err, getenv=None, forever=True):
            # The device stays on its error screen forever; here the emulator's turns
            # go on, so --until, Esc, closing the window and SIGTERM still end the run.
            view = fail(err, getenv, forever=False)
            self.stopped, self.error_view = str(err), view
            if not forever:
                return view
            while True:
                self._between_loops()

        import hw.diag

        diag_run = hw.diag.run

        def without_heap_figures(app, ticks_ms, level=1):
            # CSPEED_DIAG=1: the figures are CircuitPython's gc.mem_free()/mem_alloc(),
            # which CPython lacks; the firmware runs on without them.
            print("diag: no heap figures on the desktop (CircuitPython's gc.mem_free);"
                  " tools.picosim --diag has them")
            app.run(ticks_ms)

        self._supervisor.set_ticks(self.now)
        self._start_held_at_power_on()
        sys.modules["hw.main"] = main
        hw.main = main
        main.build = build_and_keep
        main.fail = fail_and_stay
        hw.diag.run = without_heap_figures
        try:
            runpy.run_path(str(ROOT / "boot.py"), run_name="__main__")
            runpy.run_path(str(ROOT / "code.py"), run_name="__main__")
        except Stop:
            pass
        finally:
            main.build = build
            main.fail = fail
            hw.diag.run = diag_run
            try:
                self._save_frame()
            except OutputFailed:
                pass
            if self.log_file is not None and self.port.error is None:
                try:
                    self.log_file.flush()
                except OSError as err:
                    self.output_failed("--log", self.log_path, err)
        return self.app

    def output_failed(self, option, path, err):
        """Note that writing ``option``'s file failed; the run ends at the next turn."""
        if self.failure is None:
            from tools.cli import why

            self.failure = "cannot write %s %s: %s" % (option, path, why(err))

    def _start_held_at_power_on(self):
        """``hold_start_ms``: START is down before the firmware makes its scanner, and
        released that long into the session (the button test mode, ``--button-test``).

        A person holding Space as the window opens cannot be seen here: SDL reports
        only modifier keys already held when a window gets the focus; the keyboard's
        auto-repeat, if on, delivers Space to the new window as a fresh press.
        """
        if self.hold_start_ms is None:
            return
        from hw.board.profiles import KEY_START

        sys.modules["keypad"].held_at_start.add(KEY_START)
        self.schedule(self.hold_start_ms,
                      lambda emu: emu.keyboard.scanner.release(KEY_START, emu.now))

    def close(self):
        """Release the window, the serial port and the log file."""
        import displayio

        displayio.release_displays()
        sys.modules["usb_cdc"].data, sys.modules["microcontroller"].nvm = self._stand_ins
        sys.modules["busio"].detach_all()
        if self.cable is not None:
            busio = sys.modules["busio"]
            if hasattr(busio, "UART"):
                del busio.UART  # the stand-in has none (no Link on a plain emulator)
            self.cable.close()
        self.board.configure("raspberry_pi_pico")  # cpstubs' default board, no display
        self.port.close()
        if self.log_file is not None:
            try:
                self.log_file.close()
            except OSError as err:  # what was still buffered did not fit
                self.output_failed("--log", self.log_path, err)
            self.log_file = None

    def _attach(self, app):
        from tools.emulate.keys import Keyboard

        self.app = app
        sys.modules["keypad"].held_at_start.clear()  # the scanner is made: power-on is over
        self.keyboard = Keyboard(app.buttons.scanner)
        firmware_step = app.step
        write = None
        if self.trace_path:
            out = open(_made_for(self.trace_path), "w", encoding="utf-8")

            def write(text):
                if self.failure is not None:
                    return
                try:
                    out.write(text + "\n")
                    out.flush()
                except OSError as err:  # a full disk: the run ends at the next turn
                    self.output_failed("--trace", self.trace_path, err)
        traced = [None]

        def follow():
            # The tracer chains onto the firmware's own sink: both see every event. A
            # match of another game has a new engine (hw.games): trace that one on.
            if write is not None and app.game is not traced[0]:
                from engine.trace import Tracer

                traced[0] = app.game
                Tracer(app.game, write)

        def step(now):
            firmware_step(now)
            follow()
            self._between_loops()
        app.step = step  # App.run reads app.step after build()
        follow()

    # ------------------------------------------------------- between two loops

    def _between_loops(self):
        self.loops += 1
        if self.terminated:
            raise Stop
        if self.port.error is not None:
            self.output_failed("--log", self.log_path, self.port.error)
        if self.failure is not None:
            raise OutputFailed(self.failure)
        self._save_frame()
        self._move_time()
        self.now = now = self.clock.now()
        self._supervisor.set_ticks(now)
        elapsed = self.clock.elapsed()
        while self._due and self._due[0][0] <= elapsed:
            heapq.heappop(self._due)[2](self)
        for fn in self.every_loop:
            fn(self, now)
        self._read_events(now)

    def _move_time(self):
        clock = self.clock
        elapsed = clock.elapsed()
        if self.until_ms is not None and elapsed >= self.until_ms:
            raise Stop
        if clock.virtual:
            target = elapsed + self.step_ms
            if self._due:
                target = min(target, max(self._due[0][0], elapsed))
            if self.until_ms is not None:
                target = min(target, self.until_ms)
            clock.advance_to(target)
        else:
            spare = REAL_LOOP_S - (time.monotonic() - self._loop_start)
            if spare > 0:
                time.sleep(spare)
            self._loop_start = time.monotonic()

    def _read_events(self, now):
        pygame = self._pygame
        for event in pygame.event.get():
            kind = event.type
            if kind == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                raise Stop
            if kind == pygame.KEYDOWN and event.key == pygame.K_F1:
                self.toggle_help()
            elif kind in (pygame.KEYDOWN, pygame.KEYUP):
                if self.keyboard is not None:
                    self.keyboard.handle(event, now)
            elif kind in (pygame.QUIT, pygame.WINDOWCLOSE):
                raise Stop
            elif kind in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED,
                          pygame.WINDOWSIZECHANGED):
                self.display.show_window()

    def toggle_help(self):
        """Show or hide the key map over the window (F1)."""
        from tools.emulate.help import overlay

        self.help_shown = not self.help_shown
        size = self.display._pygame_screen.get_size()  # pylint: disable=protected-access
        self.display.overlay = overlay(size) if self.help_shown else None
        self.display.show_window()

    def _save_frame(self):
        display = self.display
        if self.frames_dir is None or display.refreshes == self._drawn:
            return
        self._drawn = display.refreshes
        if not display.changed:
            return
        path = os.path.join(self.frames_dir, "frame_%07d.png" % self.clock.elapsed())
        try:
            os.makedirs(self.frames_dir, exist_ok=True)
            display.save(path)
        except OSError as err:
            self.output_failed("--frames", self.frames_dir, err)
            raise OutputFailed(self.failure) from None
        self.frames.append((self.clock.elapsed(), path))
