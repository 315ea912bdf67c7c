"""Run a Python script in CircuitPython 10.2.1's own interpreter, laid out as vm.mjs does.

    python tests/mpy/cpvm.py [--timeout S] [--dir D]... [--heapsize N] script.py [args...]

The interpreter is ``circuitpython-unix-10.2.1-i386`` (the unix port built with an
RP2040 full build's language flags: 32-bit small ints, float32, ``const``,
``micropython.heap_lock``, ``gc.mem_alloc``; no hardware modules), found by
:mod:`tools.cpstack` (``make cpstack-unix`` builds it; ``CSPEED_CIRCUITPYTHON`` names
the folder it is kept in).

Implementation Notes
--------------------

* Same contract as vm.mjs beside it (the MicroPython 1.27 WebAssembly VM), so one test
  runs on both: each ``--dir`` (default: engine, tests) is copied, ``.py`` files only,
  into a scratch project directory; the script goes to its repo path there (or to
  ``run/<name>`` if it lives outside the repo); ``sys.path`` starts with the script's
  directory, then the project; the working directory is the project; ``__file__`` is
  the script's absolute path. ``compiled`` directories go as ``.mpy``, as on a board
  (a script opts in with ``# vm-mpy: D1 D2`` in tests/test_micropython.py). Exit codes: the script's own, 1 on an uncaught
  exception, 2 on usage errors, 124 on timeout (the process is killed).
* Unlike MicroPython's unix port and vm.mjs, CircuitPython prints an uncaught
  exception's traceback on **stdout** (a board's console), not stderr.
* Files on the path never shadow a *built-in* module in CircuitPython (``random``,
  ``json``, ``os``...): a fake of one must go into ``sys.modules`` first. The hardware
  modules (``keypad``, ``displayio``...) are not built into this interpreter, so fakes
  of those load from files as in the MicroPython VM.
* Heap: 1 MiB by default, as vm.mjs (``-X heapsize``); a Pico has about 168 KB.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # run as a script; appended: the firmware's code.py is no stdlib
from tools import cpstack  # noqa: E402

CP_BIN = cpstack.path("unix")
DEFAULT_DIRS = ("engine", "tests")
TIMEOUT_EXIT = 124


def missing_reason():
    """Why the interpreter cannot run here, or None if it can."""
    if not CP_BIN.is_file():
        return cpstack.missing_line("unix")
    if not os.access(CP_BIN, os.X_OK):
        return f"{CP_BIN} is not executable"
    return None


def _copy_py(src, dst):
    """Copy the .py files under src to dst, skipping dot directories and __pycache__."""
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "__pycache__"]
        rel = Path(dirpath).relative_to(src)
        for name in filenames:
            if name.endswith(".py"):
                (dst / rel).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(Path(dirpath) / name, dst / rel / name)


def _compile_mpy(proj, top):
    """Replace each .py under proj/top by its .mpy, named as the board names it."""
    mpy_cross = cpstack.path("mpy-cross")
    for source in sorted((proj / top).rglob("*.py")):
        rel = source.relative_to(proj)
        subprocess.run([str(mpy_cross), *cpstack.MPY_CROSS_FLAGS, "-o", str(source.with_suffix(".mpy")), "-s", str(rel),
                        str(source)], check=True, capture_output=True)
        source.unlink()


def missing_mpy_reason():
    """Why the firmware cannot be compiled for this interpreter, or None if it can."""
    return None if cpstack.path("mpy-cross").is_file() else cpstack.missing_line("mpy-cross")


def run(script, args=(), timeout=120, dirs=None, heapsize="1M", compiled=()):
    """Run script; return a CompletedProcess (text stdout/stderr, returncode as above).

    ``compiled``: copied directories loaded as ``.mpy`` (CircuitPython's mpy-cross
    10.2.1), as ``tools.deploy`` installs the firmware: no compiler's parse tree on the
    heap at an import, as on a board."""
    script = Path(script).resolve()
    explicit = dirs is not None
    dirs = [ROOT / d for d in (dirs if explicit else DEFAULT_DIRS)]
    for d in dirs:
        if explicit and not d.is_dir():
            raise FileNotFoundError(f"no such directory: {d}")
    with tempfile.TemporaryDirectory(prefix="cpvm-") as tmp:
        proj = Path(tmp) / "proj"
        proj.mkdir()
        for d in dirs:
            if d.is_dir():
                _copy_py(d, proj / d.relative_to(ROOT))
        for top in compiled:
            _compile_mpy(proj, top)
        try:
            vm_script = proj / script.relative_to(ROOT)
        except ValueError:
            vm_script = Path(tmp) / "run" / script.name
        vm_script.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(script, vm_script)
        env = dict(os.environ, MICROPYPATH=f"{vm_script.parent}:{proj}")
        cmd = [str(CP_BIN), "-X", f"heapsize={heapsize}", str(vm_script), *map(str, args)]
        with subprocess.Popen(cmd, cwd=proj, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) as p:
            try:
                out, err = p.communicate(timeout=timeout or None)
                code = p.returncode
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
                err += f"cpvm: timeout after {timeout}s running {script}; interpreter killed\n"
                code = TIMEOUT_EXIT
    return subprocess.CompletedProcess(cmd, code, out, err)


def main(argv):
    usage = "usage: python tests/mpy/cpvm.py [--timeout S] [--dir D]... [--heapsize N] script.py [args...]"
    timeout, dirs, heapsize, script, args = 120, None, "1M", None, []
    it = iter(argv)
    try:
        for a in it:
            if script is not None:
                args.append(a)
            elif a == "--timeout":
                timeout = float(next(it))
            elif a == "--dir":
                dirs = (dirs or []) + [next(it)]
            elif a == "--heapsize":
                heapsize = next(it)
            elif a.startswith("-"):
                raise ValueError(f"unknown option {a}")
            else:
                script = a
        if script is None:
            raise ValueError("no script given")
    except (StopIteration, ValueError) as e:
        print(f"cpvm: {e or 'an option needs a value'}\n{usage}", file=sys.stderr)
        return 2
    reason = missing_reason()
    if reason:
        print(f"cpvm: {reason}", file=sys.stderr)
        return 2
    try:
        p = run(script, args, timeout, dirs, heapsize)
    except FileNotFoundError as e:
        print(f"cpvm: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    return p.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
