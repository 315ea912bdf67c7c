"""The CIRCUITPY drive the emulated Pico boots from, built from this repository.

:func:`drive_files` returns ``{path: bytes}``: ``boot.py``, ``code.py`` (or a
``code.py`` given instead), ``settings.toml`` made from ``KEY=VALUE`` settings, the
firmware's ``engine/`` and ``hw/`` packages, and in ``lib/`` the Adafruit libraries
the firmware imports, with their own imports, taken from the pinned PyPI packages
installed in the venv (requirements-dev.txt).

Implementation Notes
--------------------

Which libraries: every ``import`` in ``engine/`` and ``hw/`` (and, in turn, in each
library taken) naming an ``adafruit_*`` module found in the venv's site-packages;
imports inside ``try: ... except ImportError`` (typing-only imports) are optional
and not followed. A package brings only the submodules imported from it, plus its
``__init__``. So the drive follows the firmware when another engineer changes what
it imports.

``.mpy``: ``mpy=("lib",)`` compiles the libraries with CircuitPython 10.2.1's own
``mpy-cross`` (MicroPython's makes files CircuitPython will not load);
``"project"`` does the same for ``engine/`` and ``hw/``. :data:`MPY_DEFAULT` is both,
as ``tools.deploy`` installs a kit: compiled code interns only the names it needs
(no local variable names), which keeps the qstr pools, and so the heap, smaller
(about 8 KB once every game has been played, measured on the emulated Pico), and
boots faster. ``boot.py`` and ``code.py`` stay source (CircuitPython looks them up by
those names). A file's source name (``mpy-cross -s``) is its :func:`device_file`, the
string CircuitPython interns for its ``__file__`` when importing it: one interned name
per module, not two (a traceback names the ``.mpy``). Each compiled file is kept for the
life of the process, keyed by its name and bytes: a test session builds a drive per run,
and a hundred ``mpy-cross`` processes per drive would cost seconds each time.
"""

import ast
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from tools import cpstack

ROOT = Path(__file__).resolve().parents[2]
MPY_CROSS = cpstack.path("mpy-cross")
PROJECT_PACKAGES = ("engine", "hw")
MPY_DEFAULT = ("lib", "project")  # what the drive holds as .mpy unless told otherwise
NOT_DEVICE = ("adafruit_blinka", "adafruit_platformdetect", "adafruit_pureio")


class DriveError(Exception):
    """The drive cannot be built (the message says why)."""


def site_packages():
    """The venv's site-packages (where the pinned Adafruit libraries are installed)."""
    return Path(sysconfig.get_paths()["purelib"])


def _optional(tree):
    """Nodes of ``import`` statements inside ``try: ... except ImportError``."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            names = set()
            for handler in node.handlers:
                kind = handler.type
                for k in (kind.elts if isinstance(kind, ast.Tuple) else [kind]):
                    names.add(getattr(k, "id", None))
            if names & {"ImportError", "ModuleNotFoundError", "Exception", None}:
                for stmt in node.body:
                    for sub in ast.walk(stmt):
                        skip.add(id(sub))
    return skip


def imported_modules(source, module_name, is_package):
    """Return the absolute module names ``source`` imports (optional ones left out)."""
    tree = ast.parse(source)
    skip = _optional(tree)
    found = []
    package = module_name if is_package else module_name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(p for p in parts + [base] if p)
            found.append(base)
            found += [base + "." + alias.name for alias in node.names]  # maybe submodules
    return found


def _lib_file(name, site):
    """``(relative path, is package)`` of library module ``name`` in ``site``, or None."""
    rel = Path(*name.split("."))
    if (site / rel / "__init__.py").is_file():
        return rel / "__init__.py", True
    if (site / rel.with_suffix(".py")).is_file():
        return rel.with_suffix(".py"), False
    return None


def library_files(site=None, roots=()):
    """Return ``{relative path under lib/: source path}`` of the libraries the firmware
    imports (and those ``roots`` name, e.g. a measurement's), with what they import."""
    site = site or site_packages()
    todo = list(roots)
    for package in PROJECT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            todo += imported_modules(path.read_text(encoding="utf-8"), name, False)
    taken, seen = {}, set()
    while todo:
        name = todo.pop()
        if name in seen or not name.startswith("adafruit_") or name.startswith(NOT_DEVICE):
            continue
        seen.add(name)
        found = _lib_file(name, site)
        if found is None:
            continue
        rel, is_package = found
        taken[str(rel)] = site / rel
        parts = name.split(".")
        for i in range(1, len(parts)):  # the packages above it run first
            todo.append(".".join(parts[:i]))
        todo += imported_modules((site / rel).read_text(encoding="utf-8"), name, is_package)
    return taken


def settings_toml(settings):
    """``settings.toml`` text for ``{KEY: value}`` (every value written as a string)."""
    lines = ["# settings.toml written by tools/picosim"]
    for key, value in settings.items():
        text = str(value).replace("\\", "\\\\").replace('"', '\\"')
        lines.append('%s = "%s"' % (key, text))
    return "\n".join(lines) + "\n"


_COMPILED = {}  # (name, source bytes) -> .mpy bytes


def mpy_cross(source, name):
    """Compile ``source`` (bytes) with CircuitPython's mpy-cross; return the .mpy bytes."""
    key = (name, bytes(source))
    if key not in _COMPILED:
        _COMPILED[key] = _compile(key[1], name)
    return _COMPILED[key]


def _compile(source, name):
    if not MPY_CROSS.is_file():
        raise DriveError(cpstack.missing_line("mpy-cross"))
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.py"
        dst = Path(tmp) / "out.mpy"
        src.write_bytes(source)
        done = subprocess.run([str(MPY_CROSS), *cpstack.MPY_CROSS_FLAGS, "-s", name, "-o", str(dst), str(src)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise DriveError("mpy-cross %s: %s" % (name, done.stderr.strip().splitlines()[-1:]))
        return dst.read_bytes()


def device_file(rel):
    """The ``__file__`` CircuitPython gives the module at ``rel`` on the drive (sys.path
    is ``['', '/', '/lib']``: the project is found from ``''``, a library from ``/lib``)."""
    return "/" + rel if rel.startswith("lib/") else rel


def _maybe_mpy(rel, source, compile_it):
    if compile_it and rel.endswith(".py"):
        rel = rel[:-3] + ".mpy"
        return rel, mpy_cross(source, device_file(rel))
    return rel, source


def drive_files(settings=None, mpy=None, code=None, extra=None, libraries=()):
    """Return ``{path on the drive: bytes}`` (see the module docstring)."""
    mpy = MPY_DEFAULT if mpy is None else mpy
    files = {"boot.py": (ROOT / "boot.py").read_bytes(),
             "code.py": Path(code).read_bytes() if code else (ROOT / "code.py").read_bytes(),
             "settings.toml": settings_toml(settings or {}).encode("utf-8")}
    for package in PROJECT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel, data = _maybe_mpy(path.relative_to(ROOT).as_posix(), path.read_bytes(),
                                   "project" in mpy)
            files[rel] = data
    for rel, path in sorted(library_files(roots=libraries).items()):
        rel, data = _maybe_mpy("lib/" + rel.replace(os.sep, "/"), path.read_bytes(), "lib" in mpy)
        files[rel] = data
    files.update(extra or {})
    return files


if __name__ == "__main__":  # list the drive: python -m tools.picosim.drive
    for rel, data in sorted(drive_files(mpy=()).items()):
        print("%7d %s" % (len(data), rel))
    sys.exit(0)
