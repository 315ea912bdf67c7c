"""The same seeded games give byte-identical traces on CPython, MicroPython and CircuitPython."""

import subprocess
import sys

import pytest

from test_micropython import ROOT, VMS, run_vm

SCRIPT = ROOT / "tests" / "mpy" / "trace_games.py"


@pytest.fixture(scope="module")
def cpython_traces():
    out = subprocess.run([sys.executable, str(SCRIPT)], cwd=ROOT, capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": str(ROOT)}).stdout
    assert out.count('"ev": "deal"') >= 48 and '"r": "cover"' in out
    assert "lost-tie" in out and '"ev": "over"' in out
    return out


@pytest.mark.parametrize("vm", VMS)
def test_traces_are_identical_on_cpython_and_the_vm(cpython_traces, vm):
    p = run_vm(SCRIPT, timeout=300, vm=vm)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    assert p.stdout == cpython_traces
