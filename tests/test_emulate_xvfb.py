"""A real window: the emulator under Xvfb opens, shows the firmware and answers keys.

Skipped when Xvfb is not installed (CI installs only Python and npm packages; the
headless tests in test_emulate.py cover the behaviour). Keys are sent with
xdotool, or with the XTEST extension through ctypes when xdotool is missing; the
screen is read back with Pillow's ImageGrab from the X server itself.
"""

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCREEN = (800, 600)

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")


def _free_display():
    for n in range(90, 140):
        if not os.path.exists("/tmp/.X%d-lock" % n) and \
                not os.path.exists("/tmp/.X11-unix/X%d" % n):
            return ":%d" % n
    pytest.skip("no free X display number")


class Keys:
    """Press keys on an X display: xdotool if present, else XTEST via ctypes."""

    def __init__(self, display):
        self.display = display
        self.xdotool = shutil.which("xdotool")
        if not self.xdotool:
            x11 = ctypes.util.find_library("X11")
            xtst = ctypes.util.find_library("Xtst")
            if not (x11 and xtst):
                pytest.skip("neither xdotool nor libXtst to send keys")
            self.x11, self.xtst = ctypes.CDLL(x11), ctypes.CDLL(xtst)
            self.x11.XOpenDisplay.restype = ctypes.c_void_p
            self.x11.XStringToKeysym.restype = ctypes.c_ulong
            self.dpy = ctypes.c_void_p(self.x11.XOpenDisplay(display.encode()))
        self.point(SCREEN[0] // 2, SCREEN[1] // 2)  # focus follows the pointer (no WM)

    def point(self, x, y):
        if self.xdotool:
            self._xdotool("mousemove", str(x), str(y))
        else:
            self.xtst.XTestFakeMotionEvent(self.dpy, -1, x, y, 0)
            self.x11.XFlush(self.dpy)

    def tap(self, *names):
        """Press and release keys (X keysym names), all down together."""
        if self.xdotool:
            self._xdotool("keydown", "--delay", "0", *names)
            time.sleep(0.05)
            self._xdotool("keyup", "--delay", "0", *names)
            return
        codes = [self.x11.XKeysymToKeycode(self.dpy, self.x11.XStringToKeysym(n.encode()))
                 for n in names]
        for down in (1, 0):
            for code in codes:
                self.xtst.XTestFakeKeyEvent(self.dpy, code, down, 0)
            self.x11.XFlush(self.dpy)
            time.sleep(0.05)

    def _xdotool(self, *args):
        subprocess.run([self.xdotool, *args], env=dict(os.environ, DISPLAY=self.display),
                       check=True, timeout=10)


def grab(display):
    from PIL import ImageGrab

    return ImageGrab.grab(xdisplay=display)


def wait_for(predicate, seconds=15.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return predicate()


def test_window_opens_and_answers_keys(tmp_path):
    display = _free_display()
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "%dx%dx24" % SCREEN,
                             "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    emu = None
    try:
        assert wait_for(lambda: os.path.exists("/tmp/.X11-unix/X" + display[1:]), 10)
        env = dict(os.environ, DISPLAY=display, SDL_AUDIODRIVER="dummy",
                   PYTHONPATH=str(ROOT))
        env.pop("SDL_VIDEODRIVER", None)  # make test sets "dummy": here we want X11
        env.pop("WAYLAND_DISPLAY", None)
        log = tmp_path / "serial.log"
        emu = subprocess.Popen([sys.executable, "-m", "tools.emulate", "--scale", "1",
                                "--nvm", "none", "--seed", "5", "--log", str(log),
                                "--seconds", "60"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        def title_shown():  # the window shows the title's green felt (its 320x240 panel)
            from PIL import ImageChops

            image = grab(display)
            r, g, b = image.convert("RGB").split()
            felt = ImageChops.multiply(ImageChops.multiply(
                r.point(lambda v: 255 if v < 40 else 0), g.point(lambda v: 255 if v > 60 else 0)),
                b.point(lambda v: 255 if v < 60 else 0)).histogram()[255]
            return image if felt > 320 * 240 // 2 else None
        title = wait_for(lambda: title_shown() or emu.poll() is not None, 60)  # CI may be slow
        if emu.poll() is not None:
            raise AssertionError("the emulator ended before its window showed the title: "
                                 + emu.communicate()[0][-2000:])
        if not title:
            grab(display).save(tmp_path / "screen.png")
        assert title, "no emulator window with the title screen appeared (%s)" % (
            tmp_path / "screen.png")
        keys = Keys(display)
        keys.tap("space")  # START: title -> menu
        assert wait_for(lambda: grab(display).tobytes() != title.tobytes(), 5)
        keys.tap("space")  # START: the match begins; cards are dealt 1.5 s later
        # Wait for the game itself (its "start" line), not a fixed time: CI may be slow.
        assert wait_for(lambda: log.exists() and "\nstart " in log.read_text(), 20)
        time.sleep(0.5)  # past the deal window
        keys.tap("a", "j")  # A's and B's keys over position 0, in one go
        time.sleep(0.3)
        keys.tap("Escape")
        out, _ = emu.communicate(timeout=20)
        assert emu.returncode == 0, out
        presses = [l.split() for l in log.read_text().splitlines() if l.startswith("press ")]
        assert [(p[2], p[3]) for p in presses] == [("A", "0"), ("B", "0")], presses
        # Read in one pass they share a timestamp (one tick); a real X server may
        # deliver them a pass apart, so allow a few ms here: tests/test_emulate.py
        # proves the one-tick path deterministically.
        assert abs(int(presses[0][1]) - int(presses[1][1])) <= 30
    finally:
        if emu is not None and emu.poll() is None:
            emu.kill()
            emu.wait()
        xvfb.terminate()
        xvfb.wait(timeout=10)
