"""The same seeded games give byte-identical traces on CPython and in MicroPython."""

import subprocess
import sys

from test_micropython import ROOT, run_vm

SCRIPT = ROOT / "tests" / "mpy" / "trace_games.py"


def test_traces_are_identical_on_cpython_and_micropython():
    cpython = subprocess.run([sys.executable, str(SCRIPT)], cwd=ROOT, capture_output=True,
                             text=True, check=True, env={"PYTHONPATH": str(ROOT)}).stdout
    vm = run_vm(SCRIPT, timeout=300)
    assert vm.returncode == 0, vm.stderr
    assert cpython.count('"ev": "deal"') >= 48 and '"r": "cover"' in cpython
    assert "lost-tie" in cpython and '"ev": "over"' in cpython
    assert vm.stdout == cpython
