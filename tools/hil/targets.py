"""Run a scenario on a target and return the bytes its firmware sent on ``usb_cdc.data``."""

import contextlib
import os
import tempfile
from pathlib import Path

BOOT_ALLOWANCE_MS = 8000  # picosim: emulated ms from code.py to the title, with room


class TargetError(Exception):
    """A target could not run the scenario (one-line message)."""


@contextlib.contextmanager
def _environment(settings):
    saved = {k: os.environ.get(k) for k in settings}
    os.environ.update({k: str(v) for k, v in settings.items()})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run_emulate(scenario, workdir=None):
    """The in-process Blinka emulator, headless, virtual time, fresh nvm."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from tools.emulate.main import Emulator

    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(workdir or tmp, "emulate-%s.log" % scenario.name)
        if os.path.exists(log):
            os.remove(log)
        with _environment(scenario.settings):
            emu = Emulator(virtual=True, seed=scenario.seed, nvm_path=None, log_path=log,
                           until_ms=scenario.seconds * 1000)
            try:
                emu.add_script(scenario.events)
                emu.run()
            finally:
                emu.close()
        if emu.failure:
            raise TargetError("emulate: %s" % emu.failure)
        if emu.stopped is not None:
            raise TargetError("emulate: the firmware stopped on its error screen: %s"
                              % emu.stopped)
        return Path(log).read_bytes()


def run_picosim(scenario, workdir):
    """The real CircuitPython Pico UF2 in rp2040js: keys as GPIO edges."""
    from tools.picosim import analyze
    from tools.picosim.__main__ import seeded_code
    from tools.picosim.run import PicoError, run

    workdir = Path(workdir) / ("picosim-" + scenario.name)
    workdir.mkdir(parents=True, exist_ok=True)
    events = [(ms + BOOT_ALLOWANCE_MS, key, down) for ms, key, down in scenario.logical_events()]
    try:
        result = run(workdir / "run", seconds=scenario.seconds + BOOT_ALLOWANCE_MS / 1000,
                     events=events, settings=scenario.settings,
                     code=seeded_code(workdir, scenario.seed))
    except PicoError as err:
        raise TargetError(str(err)) from None
    problems = analyze.console_problems(result.console)
    if problems:
        raise TargetError("picosim: %s (console: %s)" % (problems[0], workdir / "run"))
    drawn = [b for b in result.bursts if b["changed"]]
    if not drawn or result.ms(drawn[0]["start"]) > BOOT_ALLOWANCE_MS:
        raise TargetError("picosim: the title was not drawn within %d ms of code.py"
                          % BOOT_ALLOWANCE_MS)
    (workdir / "data.log").write_bytes(result.data)
    return result.data


def run_port(scenario, port, workdir=None):
    """A real board over USB: see :mod:`tools.hil.port`."""
    from tools.hil.port import run_board

    return run_board(scenario, port)
