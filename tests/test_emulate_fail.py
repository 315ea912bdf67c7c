"""Issue 23 item 5: a bad setting no longer hangs the emulator or tools.hil.

On the device ``hw.main.fail`` keeps the error screen forever; on the desktop the
run ends as ``--until``/``--seconds`` say (or Esc, closing the window, SIGTERM), the
screenshot shows the error screen, and the exit status says the firmware stopped.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def env(**extra):
    return dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
                SDL_AUDIODRIVER="dummy", **extra)


@pytest.mark.parametrize("setting", ["CSPEED_ROTATION=45", "CSPEED_KEY_PINS=GP0,GP1",
                                     "CSPEED_PROFILE=nothing"])
def test_a_bad_setting_ends_as_until_says_with_the_error_screen(setting, tmp_path):
    key, value = setting.split("=", 1)
    shot = tmp_path / "shot.png"
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "tools.emulate", "--headless", "--nvm", "none",
                          "--until", "500", "--screenshot", str(shot), "--frames",
                          str(tmp_path / "frames")], cwd=tmp_path, env=env(**{key: value}),
                         capture_output=True, text=True, timeout=120)
    assert time.monotonic() - started < 60
    assert run.returncode == 1, run.stdout + run.stderr
    assert "California Speed cannot start: %s" % setting in run.stdout
    assert run.stderr == "tools.emulate: the firmware stopped on its error screen: %s\n" % (
        run.stdout.split("California Speed cannot start: ", 1)[1].splitlines()[0])
    assert "ran 0.5 s of emulated time" in run.stdout
    from PIL import Image

    frames = sorted((tmp_path / "frames").iterdir())
    assert frames, "the error screen was drawn"
    with Image.open(shot) as end, Image.open(frames[-1]) as drawn:
        assert end.convert("RGB").tobytes() == drawn.convert("RGB").tobytes()
        assert len(end.convert("RGB").getcolors(1 << 16)) > 1  # text on the black screen


def test_the_error_screen_is_what_the_screenshot_shows(monkeypatch):
    from tools.emulate.main import Emulator

    monkeypatch.setenv("CSPEED_ROTATION", "45")
    emu = Emulator(virtual=True, until_ms=300)
    try:
        emu.run()
    finally:
        emu.close()
    assert emu.stopped.startswith("CSPEED_ROTATION=45: ")
    assert emu.error_view.shown_lines()[0] == "SETTINGS ERROR"
    assert emu.elapsed() == 300


def test_sigterm_ends_a_window_run_stopped_on_its_error_screen(tmp_path):
    with subprocess.Popen([sys.executable, "-m", "tools.emulate", "--window", "--nvm", "none"],
                          cwd=tmp_path, env=env(CSPEED_ROTATION="45"), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        try:
            deadline = time.monotonic() + 60
            line = ""
            while "cannot start" not in line and time.monotonic() < deadline:
                line = proc.stdout.readline()
            assert "cannot start" in line
            time.sleep(0.5)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=15) == 1
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_hil_names_the_setting_that_stopped_the_firmware(tmp_path):
    path = tmp_path / "bad.script"
    path.write_text("# hil CSPEED_ROTATION=45\n100 tap START\n")
    run = subprocess.run([sys.executable, "-m", "tools.hil", "--emulate", str(path),
                          "--workdir", str(tmp_path / "out")], cwd=ROOT, env=env(),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.startswith("tools.hil: emulate: the firmware stopped on its error screen:"
                                 " CSPEED_ROTATION=45: ")
    assert run.stderr.count("\n") == 1


def test_picosim_counts_the_error_screen_as_a_firmware_problem():
    from tools.picosim.analyze import console_problems

    console = "code.py output:\nCalifornia Speed cannot start: CSPEED_DIAG=yes: must be a whole" \
              " number from 0 to 1\n"
    assert console_problems(console) == [
        "the firmware stopped on its error screen: CSPEED_DIAG=yes: must be a whole number"
        " from 0 to 1"]


def test_diag_on_the_desktop_runs_without_heap_figures(tmp_path):
    """CSPEED_DIAG=1 ended in an AttributeError (gc.mem_free) on CPython (found by the
    settings fuzzer): the emulator says the figures need CircuitPython and runs on."""
    run = subprocess.run([sys.executable, "-m", "tools.emulate", "--headless", "--nvm", "none",
                          "--until", "300"], cwd=tmp_path, env=env(CSPEED_DIAG="1"),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert "diag: no heap figures on the desktop" in run.stdout
    assert "ran 0.3 s of emulated time" in run.stdout
