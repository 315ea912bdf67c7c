"""Run a tool's command line in-process up to the point where its work would start.

Each tool's work (the firmware run, the simulation, the capture) is replaced by
:class:`Ran`, raised with what the tool handed it, so a test (and
``tests/fuzz/test_fuzz_tools.py``) can check every argument the tool accepts
without running anything, and that every argument it refuses costs one line on
stderr and exit status 2 before any work.

``TOOLS`` lists, per tool, its numeric options (with a value inside the range),
its outputs and its inputs: the fuzzer draws command lines from them.
"""

import contextlib
import importlib
import io
import os
import sys
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "hil" / "two_players.script"


class Ran(Exception):
    """The tool reached its work: ``what`` is what it passed on."""

    def __init__(self, what):
        super().__init__("ran")
        self.what = what


def _raise(*args, **kwargs):
    raise Ran((args, kwargs))


def _patches(tool):
    """The stand-ins for a tool's work (context managers)."""
    if tool == "emulate":
        return [mock.patch("tools.emulate.__main__._run", _raise)]
    if tool == "picosim":
        return [mock.patch("tools.picosim.run.run", _raise),
                mock.patch("tools.picosim.run.missing", lambda: None)]
    if tool == "capture":
        import serial

        return [mock.patch.object(serial, "serial_for_url", _raise)]
    if tool == "simulate":
        return [mock.patch("tools.simulate.simulate", _raise)]
    if tool in ("row_claims", "speed_houses"):
        return [mock.patch("tools.%s.run" % tool, _raise)]
    if tool == "hil":
        return [mock.patch("tools.hil.targets.run_emulate", _raise),
                mock.patch("tools.hil.targets.run_picosim", _raise)]
    if tool == "wiring":
        return [mock.patch("tools.wiring.draw_png", _raise),
                mock.patch("tools.wiring.draw_layout", _raise),
                mock.patch("tools.wiring.update_doc", _raise)]
    return []


def run_tool(tool, argv, cwd):
    """Return ``(status, stdout, stderr, ran)``; ``status`` is None when it ran."""
    module = importlib.import_module("tools.%s" % tool if tool not in ("emulate", "picosim", "hil")
                                     else "tools.%s.__main__" % tool)
    out, err = io.StringIO(), io.StringIO()
    ran = None
    status = None
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.ExitStack() as stack:
            for patch in _patches(tool):
                stack.enter_context(patch)
            stack.enter_context(contextlib.redirect_stdout(out))
            stack.enter_context(contextlib.redirect_stderr(err))
            try:
                status = module.main(list(argv))
            except Ran as done:
                ran = done.what
            except SystemExit as stop:
                status = stop.code
    finally:
        os.chdir(old)
    return status, out.getvalue(), err.getvalue(), ran


# tool: (argv every run starts with, {numeric option: a value in range}, outputs
# [(option, kind)], kind "file" / "folder" / "gif" / "png" / "model"), inputs)
TOOLS = {
    "emulate": (["--headless", "--nvm", "none"],
                {"--seconds": "2.5", "--until": "900", "--seed": "7", "--start-ticks": "100",
                 "--scale": "2"},
                [("--log", "file"), ("--trace", "file"), ("--gif", "gif"),
                 ("--screenshot", "png"), ("--frames", "folder"), ("--nvm", "model"),
                 ("--fram", "model")]),
    "picosim": (["--quiet"],
                {"--seconds": "3.5", "--attract": "2", "--seed": "7"},
                [("--screenshot", "png"), ("--gif", "gif"), ("--frames", "folder"),
                 ("--console", "file"), ("--log", "file"), ("--json", "file"),
                 ("--latency", "file"), ("--nvm", "model"), ("--fram", "model"),
                 ("--workdir", "folder")]),
    "capture": (["/dev/ttyNONE"],
                {"--matches": "3", "--seconds": "1.5"},
                [("--out", "folder")]),
    "simulate": (["--quiet"],
                 {"--games": "5", "--matches": "5", "--seed": "3", "--jobs": "1",
                  "--sweep-games": "0"},
                 [("--plots", "folder")]),
    "row_claims": ([], {"--games": "4", "--seed": "3", "--jobs": "1"}, [("--plots", "folder")]),
    "speed_houses": ([], {"--games": "8", "--seed": "3", "--jobs": "1"},
                     [("--plots", "folder")]),
    "hil": ([str(SCENARIO)], {"--tolerance": "10"}, [("--workdir", "folder")]),
    "wiring": ([], {}, [("--png", "png"), ("--layout", "png")]),
}

BAD_NUMBERS = ("inf", "-inf", "nan", "-1", "1e3", "1e999", "0x10", "1_000", "+5",
               "\u0661\u0662", "\uff13", "99999999999999999999999", "", " ", "2.5.1", "abc")
