"""Run every tests/mpy/vm_*.py in MicroPython 1.27 and in CircuitPython 10.2.1's interpreter.

The two VMs: MicroPython's WebAssembly build (tests/mpy/vm.mjs, under Node) and
CircuitPython's own 32-bit unix interpreter (tests/mpy/cpvm.py, same directory layout and
exit codes; where tools.cpstack has none, skipped with the line naming `make cpstack-unix`).
Each script must exit 0 and print "OK" as its last line (mpyharness.Report.done()).
A script may raise its VM timeout with a line "# vm-timeout: SECONDS" near the top,
and name the repo directories copied into the VM with "# vm-dirs: D1 D2 ..." (passed
to vm.mjs as --dir options; without it vm.mjs copies its defaults, engine and tests).
Also checks that both runners report failures and kill hung VMs.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mpy import cpvm  # tests/mpy/cpvm.py

ROOT = Path(__file__).resolve().parent.parent
MPY = ROOT / "tests" / "mpy"
VM = MPY / "vm.mjs"
PKG = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
SCRIPTS = sorted(MPY.glob("vm_*.py"))
DEFAULT_TIMEOUT = 120
VMS = ("micropython", "circuitpython")


def run_vm(script, timeout=DEFAULT_TIMEOUT, dirs=None, vm="micropython", compiled=()):
    """Run script in a VM; returns the CompletedProcess (text, stdout/stderr captured).

    ``dirs``: repo directories to copy into the VM (None: the runner's defaults).
    ``vm``: "micropython" (1.27, WebAssembly) or "circuitpython" (10.2.1 unix, i386);
    the test is skipped, with the reason, when CircuitPython's interpreter is absent.
    ``compiled``: directories CircuitPython loads as ``.mpy`` (its mpy-cross), as a board
    does; MicroPython 1.27 reads no CircuitPython ``.mpy``, so it gets the sources.
    """
    if vm == "circuitpython":
        reason = cpvm.missing_reason() or (compiled and cpvm.missing_mpy_reason())
        if reason:
            pytest.skip(reason)
        return cpvm.run(script, timeout=timeout, dirs=dirs, compiled=compiled)
    assert vm == "micropython", vm
    node = shutil.which("node")
    if node is None:
        pytest.fail("node not found on PATH: the MicroPython VM tests need Node.js 20+")
    if not PKG.is_dir():
        pytest.fail(f"{PKG.relative_to(ROOT)} is missing: run `make test` (it runs `npm ci`)")
    # The outer timeout is only a backstop: vm.mjs kills the VM itself (exit 124).
    dir_args = [a for d in dirs or () for a in ("--dir", d)]
    return subprocess.run(
        [node, str(VM), "--timeout", str(timeout), *dir_args, str(script)],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout + 30,
    )


def script_timeout(script):
    m = re.search(r"^#\s*vm-timeout:\s*(\d+)", script.read_text()[:2000], re.M)
    return int(m.group(1)) if m else DEFAULT_TIMEOUT


def script_dirs(script):
    """The directories of a "# vm-dirs: D1 D2 ..." line near the top, or None."""
    m = re.search(r"^#\s*vm-dirs:[ \t]*(.*)$", script.read_text()[:2000], re.M)
    return m.group(1).split() if m else None


def script_compiled(script):
    """The directories of a "# vm-mpy: D1 D2 ..." line near the top (CircuitPython loads
    them as .mpy), or ()."""
    m = re.search(r"^#\s*vm-mpy:[ \t]*(.*)$", script.read_text()[:2000], re.M)
    return tuple(m.group(1).split()) if m else ()


def test_vm_scripts_exist():
    assert SCRIPTS, f"no vm_*.py scripts in {MPY}"


@pytest.mark.parametrize("vm", VMS)
@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_vm_script(script, vm):
    p = run_vm(script, script_timeout(script), script_dirs(script), vm, script_compiled(script))
    out = f"--- stdout\n{p.stdout}\n--- stderr\n{p.stderr}"
    assert p.returncode == 0, f"{script.name} exited {p.returncode} in {vm}\n{out}"
    lines = p.stdout.strip().splitlines()
    assert lines and lines[-1] == "OK", f"{script.name} did not end with OK in {vm}\n{out}"


# --- the runner itself -------------------------------------------------------


@pytest.mark.parametrize("vm", VMS)
def test_vm_reports_python_exception(tmp_path, vm):
    s = tmp_path / "boom.py"
    s.write_text("print('before')\ndef f():\n    raise ValueError('boom')\nf()\n")
    p = run_vm(s, timeout=30, vm=vm)
    assert p.returncode == 1
    assert "before" in p.stdout
    tb = p.stdout + p.stderr  # CircuitPython prints tracebacks on stdout (its console)
    assert "ValueError: boom" in tb and 'boom.py", line 3' in tb


@pytest.mark.parametrize("vm", VMS)
def test_vm_dirs_directive_picks_the_copied_directories(tmp_path, vm):
    listing = "import os\nprint(sorted(os.listdir('.')))\n"  # cwd: the VM's project copy
    default = tmp_path / "default.py"
    default.write_text(listing)
    chosen = tmp_path / "chosen.py"
    chosen.write_text("# vm-timeout: 30\n# vm-dirs: hw  engine\n" + listing)
    assert script_dirs(default) is None
    assert script_dirs(chosen) == ["hw", "engine"]
    p = run_vm(default, timeout=30, dirs=script_dirs(default), vm=vm)
    assert p.returncode == 0 and p.stdout.strip() == "['engine', 'tests']", p.stderr
    p = run_vm(chosen, timeout=30, dirs=script_dirs(chosen), vm=vm)
    assert p.returncode == 0 and p.stdout.strip() == "['engine', 'hw']", p.stderr


def test_vm_mpy_directive_loads_the_named_directories_compiled_in_circuitpython(tmp_path):
    s = tmp_path / "which.py"
    s.write_text("# vm-dirs: engine hw\n# vm-mpy: hw\nimport os\n"
                 "print(sorted(f for f in os.listdir('hw') if f.startswith('messages')))\n"
                 "print(sorted(f for f in os.listdir('engine') if f.startswith('ticks')))\n"
                 "import hw.messages\nprint(hw.messages.__file__)\n")
    assert script_compiled(s) == ("hw",)
    p = run_vm(s, timeout=60, dirs=script_dirs(s), vm="circuitpython", compiled=script_compiled(s))
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.split("\n")
    assert lines[:2] == ["['messages.mpy']", "['ticks.py']"], p.stdout  # hw compiled, not engine
    assert lines[2].endswith("/hw/messages.mpy"), p.stdout  # and imported from the .mpy


@pytest.mark.parametrize("vm", VMS)
def test_vm_passes_sys_exit_code(tmp_path, vm):
    s = tmp_path / "exit3.py"
    s.write_text("import sys\nsys.exit(3)\n")
    assert run_vm(s, timeout=30, vm=vm).returncode == 3


@pytest.mark.parametrize("vm", VMS)
def test_vm_exception_under_heap_lock_is_reported_not_hung(tmp_path, vm):
    s = tmp_path / "locked.py"
    s.write_text("import micropython\nmicropython.heap_lock()\nx = [1, 2, 3]\n")
    p = run_vm(s, timeout=30, vm=vm)
    assert p.returncode == 1, p.stderr
    assert "MemoryError" in p.stdout + p.stderr


@pytest.mark.parametrize("vm", VMS)
def test_vm_timeout_kills_a_hung_vm(tmp_path, vm):
    s = tmp_path / "spin.py"
    s.write_text("while True:\n    pass\n")
    p = run_vm(s, timeout=2, vm=vm)
    assert p.returncode == 124
    assert "timeout after 2s" in p.stderr
