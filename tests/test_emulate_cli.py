"""Issue 9 item 11: tools.emulate's bad arguments are one line on stderr and exit 2.

Each case used to end in a traceback, run for hours, or draw overlapping text.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.emulate.script import SPAN_LIMIT_MS, ScriptError, load, parse

ROOT = Path(__file__).resolve().parent.parent


def emulate(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "-m", "tools.emulate", "--headless", "--nvm", "none"]
                          + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def bad_cases(tmp):
    a_file = tmp / "plain"
    a_file.write_text("x")
    latin1 = tmp / "latin1.txt"
    latin1.write_bytes(b"# caf\xe9\n100 tap START\n")
    forever = tmp / "forever.txt"
    forever.write_text("0 tap A1 100000000\n")
    arabic = tmp / "arabic.txt"
    arabic.write_text("\u0664\u0660\u0660 tap A1\n")
    return [
        (["--script", str(latin1)], "script line 1: not UTF-8 text (byte 0xe9)"),
        (["--script", str(forever)], "script line 1: hold 100000000 ms is beyond 3600000 ms"),
        (["--script", str(arabic)], "script line 1: time must be a whole number of ms"),
        (["--seconds", "nan"], "--seconds must be a finite number"),
        (["--seconds", "inf"], "--seconds must be a finite number"),
        (["--seconds", "-1"], "--seconds must be a finite number"),
        (["--until", "-5"], "--until must be >= 0"),
        (["--size", "20000x20000"], "--size must be one of 320x240, 240x240, 240x135"),
        (["--size", "100x100"], "--size must be one of"),
        (["--size", "banana"], "--size must be one of"),
        (["--log", str(a_file / "x.log")], "cannot write --log %s/x.log: %s is not a folder" % (a_file, a_file)),
        (["--log", "/proc/emulator.log"], "cannot write --log /proc/emulator.log: "),
        (["--trace", str(a_file / "t")], "cannot write --trace"),
        (["--gif", str(a_file / "d.gif")], "cannot write --gif"),
        (["--screenshot", "/proc/x.png"], "cannot write --screenshot"),
        (["--frames", str(a_file)], "cannot write --frames %s: " % a_file),
    ]


def test_each_bad_argument_is_one_line_and_exit_2(tmp_path):
    for args, words in bad_cases(tmp_path):
        run = emulate(args, tmp_path)
        assert run.returncode == 2, (args, run.stderr)
        assert run.stderr.startswith("tools.emulate: " + words), (args, run.stderr)
        assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arabic.txt", "forever.txt",
                                                           "latin1.txt", "plain"]


def test_a_script_spans_at_most_an_hour():
    assert parse("%d tap A1 1\n" % (SPAN_LIMIT_MS - 1))[-1][0] == SPAN_LIMIT_MS
    for bad in ("%d tap A1" % SPAN_LIMIT_MS, "%d down q" % (SPAN_LIMIT_MS + 1), "1e3 tap A1",
                "+5 tap A1", "1_000 tap A1", "5 tap A1 \u0663"):
        with pytest.raises(ScriptError, match="line 1"):
            parse(bad)


def test_a_script_that_is_not_utf8_names_its_line(tmp_path):
    path = tmp_path / "s.txt"
    path.write_bytes(b"100 tap START\n\n200 tap A\xff\n")
    with pytest.raises(ScriptError, match="script line 3: not UTF-8"):
        load(str(path))
