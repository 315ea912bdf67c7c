"""Copy the firmware onto a mounted CIRCUITPY drive.

Usage: ``python3 -m tools.deploy /media/$USER/CIRCUITPY [--settings FILE] [--libs [--py]] [--dry-run]``

Copies ``engine/`` and ``hw/`` (their ``.py`` files; both folders are replaced
whole, so no stale module survives), the device libraries found in ``lib/`` (if
you keep a copy there; ``lib/requirements.txt`` itself stays behind),
``settings.toml`` (``--settings FILE``, or ``tools/settings.toml`` when the drive
has none or only the empty one CircuitPython creates on a fresh drive: a non-empty
one -- it may hold Wi-Fi secrets -- is never overwritten unless asked), ``boot.py``
and, last, ``code.py`` (CircuitPython restarts on every write; writing ``code.py``
last means it restarts into a complete tree).

It refuses a folder that is not a CircuitPython drive (no ``boot_out.txt``), and
afterwards lists the libraries of ``lib/requirements.txt`` still missing from the
drive, with the ``circup`` command that installs them.

``--libs`` installs those libraries offline, at exactly the versions pinned there
(``module==version``), from the Python environment running this tool (the project's
``.venv``, where ``requirements-dev.txt`` installs the same PyPI packages): each
package's own files, as the wheel's RECORD lists them, go into the drive's ``lib/``,
compiled to ``.mpy`` by CircuitPython's ``mpy-cross`` 10.2.1 (``--mpy-cross PATH``,
default the one :mod:`tools.cpstack` keeps, which ``make cpstack`` fetches;
MicroPython's ``mpy-cross`` makes files CircuitPython refuses), else as ``.py``, saying
so and naming that command (``--py`` forces ``.py``). A library's older copy (``.py`` or ``.mpy``, file or folder) is removed first:
a stale ``.py`` would shadow a new ``.mpy``. A version other than the pinned one
installed here is an error.
"""

import argparse
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path, PurePosixPath

from tools import cpstack

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "hw")
SETTINGS_TEMPLATE = ROOT / "tools" / "settings.toml"
MPY_CROSS = cpstack.path("mpy-cross")


class DeployError(Exception):
    """The target cannot be deployed to."""


def check_drive(drive):
    """Raise ``DeployError`` unless ``drive`` is a mounted CircuitPython drive."""
    drive = Path(drive)
    if not drive.is_dir():
        raise DeployError("%s is not a folder: pass the mounted CIRCUITPY drive, "
                          "e.g. /media/$USER/CIRCUITPY" % drive)
    if not (drive / "boot_out.txt").is_file():
        raise DeployError("%s is not a CircuitPython drive (it has no boot_out.txt). "
                          "Flash CircuitPython first (docs/BUILD.md), plug the board in, "
                          "and pass the folder where its CIRCUITPY drive is mounted."
                          % drive)
    return drive


def pinned_libraries(root=ROOT):
    """Return ``[(name, version or None)]`` from ``lib/requirements.txt``."""
    pins = []
    for line in (root / "lib" / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins.append((name.split(">=")[0].strip(), version.strip() or None))
    return pins


def required_libraries(root=ROOT):
    """Return the library names listed in ``lib/requirements.txt``."""
    return [name for name, _ in pinned_libraries(root)]


def distribution_name(module):
    """Return the PyPI name of an Adafruit library, e.g. ``adafruit-circuitpython-ticks``."""
    if not module.startswith("adafruit_"):
        raise DeployError("%s: only adafruit_* libraries can be installed offline" % module)
    return "adafruit-circuitpython-" + module[len("adafruit_"):].replace("_", "-")


def library_files(module, version):
    """Return ``[(installed .py file, path inside lib/)]`` of one pinned library.

    Raises ``DeployError`` if it is not installed here, or not at ``version``.
    """
    dist_name = distribution_name(module)
    try:
        dist = metadata.distribution(dist_name)
    except metadata.PackageNotFoundError:
        raise DeployError("%s (%s) is not installed in this Python: run `make venv` and use "
                          ".venv/bin/python, or install it with circup" % (module, dist_name)) from None
    if version is not None and dist.version != version:
        raise DeployError("%s %s is installed here but lib/requirements.txt pins %s: run "
                          "`make venv`" % (dist_name, dist.version, version))
    files = []
    for entry in dist.files or ():
        rel = PurePosixPath(str(entry))
        if rel.suffix != ".py" or "__pycache__" in rel.parts:
            continue
        if rel.parts[0] == module or rel.name == module + ".py":
            files.append((Path(str(dist.locate_file(entry))), rel))
    if not files:
        raise DeployError("%s: no %s module in %s's files" % (dist_name, module, dist_name))
    return sorted(files, key=lambda f: str(f[1]))


def compile_mpy(source, target, mpy_cross, name):
    """Compile ``source`` to ``target`` with CircuitPython's mpy-cross."""
    result = subprocess.run([str(mpy_cross), "-o", str(target), "-s", name, str(source)],
                            capture_output=True, text=True)
    if result.returncode:
        raise DeployError("mpy-cross failed on %s: %s" % (source, result.stderr.strip()))


def install_libraries(drive, root=ROOT, mpy_cross=None, dry_run=False, out=sys.stdout):
    """Copy the pinned libraries into ``drive/lib`` (``.mpy`` if ``mpy_cross``); return files."""
    lib = Path(drive) / "lib"
    plans = [(module, library_files(module, version))
             for module, version in pinned_libraries(root)]  # check every pin first
    written = []
    for module, files in plans:
        for old in (lib / module, lib / (module + ".py"), lib / (module + ".mpy")):
            if dry_run or not (old.exists() or old.is_symlink()):
                continue
            if old.is_dir():
                shutil.rmtree(old)
            else:
                old.unlink()
        for source, rel in files:
            target = lib.joinpath(*rel.parts)
            if mpy_cross is not None:
                target = target.with_suffix(".mpy")
            out.write("%s -> %s\n" % (rel, target))
            if dry_run:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if mpy_cross is not None:
                compile_mpy(source, target, mpy_cross, str(rel))
            else:
                shutil.copyfile(source, target)
            written.append(target)
    return written


def module_name(requirement):
    """Return the module a circup requirement installs, e.g. ``adafruit_ili9341``."""
    name = requirement.lower().replace("-", "_")
    if name.startswith("adafruit_circuitpython_"):
        name = "adafruit_" + name[len("adafruit_circuitpython_"):]
    return name


def missing_libraries(drive, root=ROOT):
    """Return the required libraries not found in the drive's ``lib/``."""
    lib = Path(drive) / "lib"
    missing = []
    for requirement in required_libraries(root):
        module = module_name(requirement)
        if not any((lib / (module + ext)).exists() for ext in ("", ".py", ".mpy")):
            missing.append(requirement)
    return missing


def has_settings(drive):
    """Return True if the drive's ``settings.toml`` holds anything.

    CircuitPython creates an empty ``settings.toml`` when it formats a fresh CIRCUITPY
    drive (``supervisor/shared/filesystem.c``); that placeholder does not count.
    """
    path = Path(drive) / "settings.toml"
    if not path.is_file():
        return False
    try:
        return bool(path.read_bytes().strip())
    except OSError:
        return True  # unreadable: leave it alone


def plan(drive, root=ROOT, settings=None):
    """Return the ``[(source, destination)]`` copies, in the order they are made."""
    drive = Path(drive)
    copies = []
    lib = root / "lib"
    for item in sorted(lib.iterdir()) if lib.is_dir() else ():
        if item.name in ("requirements.txt", "README.md") or item.name.startswith("."):
            continue
        copies.append((item, drive / "lib" / item.name))
    for package in PACKAGES:
        for source in sorted((root / package).rglob("*.py")):
            copies.append((source, drive / source.relative_to(root)))
    if settings is not None:
        copies.append((Path(settings), drive / "settings.toml"))
    elif not has_settings(drive) and SETTINGS_TEMPLATE.exists():
        copies.append((SETTINGS_TEMPLATE, drive / "settings.toml"))
    copies.append((root / "boot.py", drive / "boot.py"))
    copies.append((root / "code.py", drive / "code.py"))
    return copies


def deploy(drive, root=ROOT, settings=None, dry_run=False, out=sys.stdout):
    """Copy the firmware to ``drive``; return the list of files written."""
    drive = check_drive(drive)
    if settings is not None and not Path(settings).is_file():
        raise DeployError("settings file %s not found" % settings)
    copies = plan(drive, root, settings)
    if not dry_run:
        for package in PACKAGES:
            if (drive / package).is_dir():
                shutil.rmtree(drive / package)
    written = []
    for source, target in copies:
        out.write("%s -> %s\n" % (source.relative_to(root) if source.is_relative_to(root)
                                  else source, target))
        if dry_run:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(source, target)
        else:
            shutil.copyfile(source, target)
        written.append(target)
    return written


def main(argv=None):
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="tools.deploy", description=__doc__.split("\n")[0])
    parser.add_argument("drive", help="the mounted CIRCUITPY folder")
    parser.add_argument("--settings", help="a settings.toml to install (overwrites)")
    parser.add_argument("--dry-run", action="store_true", help="only list the copies")
    parser.add_argument("--libs", action="store_true",
                        help="also install the libraries pinned in lib/requirements.txt, "
                             "offline, from this Python's site-packages")
    parser.add_argument("--py", action="store_true", help="with --libs: .py files, no .mpy")
    parser.add_argument("--mpy-cross", metavar="PATH",
                        help="CircuitPython's mpy-cross (default: %s if present)" % MPY_CROSS)
    args = parser.parse_args(argv)
    try:
        mpy_cross = None
        if args.libs and not args.py:
            mpy_cross = Path(args.mpy_cross) if args.mpy_cross else MPY_CROSS
            if not mpy_cross.is_file():
                if args.mpy_cross:
                    raise DeployError("no mpy-cross at %s" % mpy_cross)
                sys.stdout.write("(libraries go as .py: %s)\n" % cpstack.missing_line("mpy-cross"))
                mpy_cross = None
        deploy(args.drive, settings=args.settings, dry_run=args.dry_run)
        if args.libs:
            install_libraries(args.drive, mpy_cross=mpy_cross, dry_run=args.dry_run)
    except DeployError as err:
        sys.stderr.write("tools.deploy: %s\n" % err)
        return 2
    missing = missing_libraries(args.drive)
    if missing:
        sys.stdout.write("\nLibraries missing on the drive: %s\nInstall them with:\n"
                         "  circup --path %s install -r lib/requirements.txt\n"
                         % (", ".join(missing), args.drive))
    if not args.dry_run:
        sys.stdout.write("Done. Unplug the board and plug it back in once: boot.py (the match-log serial port) runs only at power-up, and the Pico has no RESET button.\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
