"""The same seeded games give byte-identical traces on CPython, in MicroPython 1.27 and in
CircuitPython 10.2.1's own unix interpreter (tests/mpy/cpvm.py; skipped, with the reason,
when it is absent): every game of ``engine.games``, each from its
``tests/mpy/<key>_trace_games.py``."""

import subprocess
import sys

import pytest

from engine.games import KEYS
from test_micropython import ROOT, VMS, run_vm

# What each game's traces must show, so that the comparison covers its rules.
MUST = {
    "grid": ('"r": "cover"', '"lost-tie"', '"ev": "over"'),
    "row": ('"r": "cover"', '"lost-tie"', '"ev": "stuck"', '"ev": "over"', '"ev": "match"',
            "null"),
    "speed": ('"r": "cover"', '"lost-tie"', '"ev": "stuck"', '"ev": "over"', '"ev": "match"',
              "null", '"points"', '"sides": [0, 0]'),
    "aggravation": ('"r": "tap"', '"r": "call"', '"ev": "dry"', '"ev": "scoop"', '"lost-tie"',
                    '"why": "call"', '"why": "share"', '"why": "both-call"', '"ev": "match"',
                    '"shares"', '"r": "cover"', '"r": "locked"'),
}
_traces = {}


def script(key):
    return ROOT / "tests" / "mpy" / ("%s_trace_games.py" % key)


def cpython_traces(key):
    if key not in _traces:
        out = subprocess.run([sys.executable, str(script(key))], cwd=ROOT, capture_output=True,
                             text=True, check=True, env={"PYTHONPATH": str(ROOT)}).stdout
        assert out.count('"ev": "deal"') >= 48
        for word in MUST.get(key, ('"ev": "over"',)):
            assert word in out, (key, word)
        _traces[key] = out
    return _traces[key]


def test_every_game_has_its_trace_games():
    assert all(script(key).is_file() for key in KEYS)


@pytest.mark.parametrize("vm", VMS)
@pytest.mark.parametrize("key", KEYS)
def test_traces_are_identical_on_cpython_and_the_vm(key, vm):
    p = run_vm(script(key), timeout=300, vm=vm)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    assert p.stdout == cpython_traces(key)
