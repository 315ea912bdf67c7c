"""Seeded shared-row games give byte-identical traces on CPython, in MicroPython 1.27
and (when the interpreter is there, tests/mpy/cpvm.py) in CircuitPython 10.2.1's own
unix interpreter."""

import subprocess
import sys

import pytest

from test_micropython import ROOT, run_vm

SCRIPT = ROOT / "tests" / "mpy" / "row_trace_games.py"


def _cpython():
    return subprocess.run([sys.executable, str(SCRIPT)], cwd=ROOT, capture_output=True,
                          text=True, check=True, env={"PYTHONPATH": str(ROOT)}).stdout


def test_row_traces_are_identical_on_cpython_and_micropython():
    cpython = _cpython()
    vm = run_vm(SCRIPT, timeout=300)
    assert vm.returncode == 0, vm.stderr
    assert cpython.count('"ev": "deal"') >= 50 and '"r": "cover"' in cpython
    for word in ('"lost-tie"', '"ev": "stuck"', '"ev": "over"', '"ev": "match"', "null"):
        assert word in cpython, word
    assert vm.stdout == cpython


def test_row_traces_are_identical_on_cpython_and_circuitpython():
    from mpy import cpvm  # tests/mpy/cpvm.py: CircuitPython's unix interpreter

    reason = cpvm.missing_reason()
    if reason:
        pytest.skip(reason)
    cp = cpvm.run(SCRIPT, timeout=300)
    assert cp.returncode == 0, cp.stdout + cp.stderr
    assert cp.stdout == _cpython()
