"""Copy the firmware onto a mounted CIRCUITPY drive.

Usage: ``python3 -m tools.deploy /media/$USER/CIRCUITPY [--settings FILE] [--libs] [--py] [--dry-run]``

Copies ``engine/`` and ``hw/`` (both folders replaced whole, so no stale module
survives) compiled to ``.mpy`` by CircuitPython's ``mpy-cross`` 10.2.1 (see below;
compiled, the firmware interns fewer names and leaves kilobytes more heap in play,
docs/FIRMWARE.md), or as ``.py`` with ``--py`` or when that ``mpy-cross`` is not
there (saying so), the device libraries found in ``lib/`` (if
you keep a copy there; ``lib/requirements.txt`` itself stays behind),
``settings.toml`` (``--settings FILE``, or ``tools/settings.toml`` when the drive
has none or only the empty one CircuitPython creates on a fresh drive: a non-empty
one -- it may hold Wi-Fi secrets -- is never overwritten unless asked), ``boot.py``
and, last, ``code.py`` (CircuitPython restarts on every write; writing ``code.py``
last means it restarts into a complete tree).

It refuses a folder that is not a CircuitPython drive (no ``boot_out.txt``), and
afterwards lists the libraries of ``lib/requirements.txt`` still missing from the
drive, with the ``circup`` command that installs them.

The old firmware boots until the new one is complete (:class:`Swap`): before
anything is written, the drive is checked (a file where a folder of the firmware
goes or a folder where a file goes, a read-only drive, too little space for the new
files beside the old ones: one line, exit 2, nothing changed); the new files are
then copied whole into ``.cspeed-new/`` on the drive, and only then moved into
place, each old item moved aside into ``.cspeed-old/`` (renames: no data copied),
``code.py`` last; a failure at any step moves everything back. The two folders are
removed at the end.

``--libs`` installs those libraries offline, at exactly the versions pinned there
(``module==version``), from the Python environment running this tool (the project's
``.venv``, where ``requirements-dev.txt`` installs the same PyPI packages): each
package's own files, as the wheel's RECORD lists them, go into the drive's ``lib/``,
compiled to ``.mpy`` by CircuitPython's ``mpy-cross`` 10.2.1 (``--mpy-cross PATH``,
default the one :mod:`tools.cpstack` keeps, which ``make cpstack`` fetches;
MicroPython's ``mpy-cross`` makes files CircuitPython refuses), else as ``.py``, saying
so and naming that command (``--py`` forces ``.py``). A library's older copy (``.py`` or
``.mpy``, file or folder) is removed once the new one is in place: a stale ``.py``
would shadow a new ``.mpy``. A version other than the pinned one
installed here is an error.
"""

import errno
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path, PurePosixPath

from tools import cli, cpstack

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "hw")
SETTINGS_TEMPLATE = ROOT / "tools" / "settings.toml"
MPY_CROSS = cpstack.path("mpy-cross")


class DeployError(Exception):
    """The target cannot be deployed to."""


def why(err):
    """An OSError's reason, and the file it names."""
    name = getattr(err, "filename", None)
    reason = err.strerror or str(err)
    return "%s: %s" % (name, reason) if name else reason


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
    """Compile ``source`` to ``target`` with CircuitPython's mpy-cross; ``name``: the
    module's ``__file__`` on the board (``/lib/NAME.mpy``), so that CircuitPython interns
    one name for the file and its source name, not two."""
    command = [str(mpy_cross), *cpstack.MPY_CROSS_FLAGS, "-o", str(target), "-s", name, str(source)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        raise DeployError("mpy-cross failed on %s: %s" % (source, result.stderr.strip()))


def _compiled(source, rel, work, mpy_cross, name):
    """``source`` compiled to ``rel`` under folder ``work``; returns that file."""
    compiled = Path(work).joinpath(*rel.parts)
    compiled.parent.mkdir(parents=True, exist_ok=True)
    compile_mpy(source, compiled, mpy_cross, name)
    return compiled


def install_libraries(drive, root=ROOT, mpy_cross=None, dry_run=False, out=sys.stdout):
    """Copy the pinned libraries into ``drive/lib`` (``.mpy`` if ``mpy_cross``); return files.

    Compiled on this computer first, then put on the drive by a :class:`Swap`: each
    library's older copies (``.py``, ``.mpy``, folder) go once the new one is there.
    """
    with tempfile.TemporaryDirectory(prefix="cspeed-libs-") as work:
        swap = Swap(Path(drive), out)
        add_libraries(swap, work, root, mpy_cross, dry_run)
        return swap.run(dry_run)


def add_libraries(swap, work, root=ROOT, mpy_cross=None, dry_run=False):
    """Add the pinned libraries to ``swap`` (compiled into folder ``work`` if ``mpy_cross``)."""
    plans = [(module, library_files(module, version))
             for module, version in pinned_libraries(root)]  # check every pin first
    for module, files in plans:
        units = set()
        for source, rel in files:
            rel = PurePosixPath("lib", *rel.parts)
            if mpy_cross is not None:
                rel = rel.with_suffix(".mpy")
                if not dry_run:
                    source = _compiled(source, rel, work, mpy_cross, "/" + str(rel))
            swap.add(source, rel, label=str(rel.relative_to("lib")))
            units.add(swap.unit(rel))
        for stale in (module, module + ".py", module + ".mpy"):
            if PurePosixPath("lib", stale) not in units:
                swap.remove(PurePosixPath("lib", stale))


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


def deploy(drive, root=ROOT, settings=None, dry_run=False, out=sys.stdout, libs=False,
           mpy_cross=None):
    """Copy the firmware (and with ``libs`` the pinned libraries) to ``drive``.

    Returns the list of files written. One :class:`Swap`: the libraries go first,
    ``code.py`` last, and nothing old moves until everything new is on the drive.
    """
    drive = check_drive(drive)
    if settings is not None and not Path(settings).is_file():
        raise DeployError("settings file %s not found" % settings)
    swap = Swap(drive, out)
    with tempfile.TemporaryDirectory(prefix="cspeed-mpy-") as work:
        if libs:
            add_libraries(swap, work, root, mpy_cross, dry_run)
        return _add_firmware(swap, drive, root, settings, work, mpy_cross, dry_run).run(dry_run)


def _add_firmware(swap, drive, root, settings, work, mpy_cross, dry_run):
    for source, target in plan(drive, root, settings):
        label = source.relative_to(root) if source.is_relative_to(root) else source
        files = sorted(p for p in source.rglob("*") if p.is_file()) if source.is_dir() \
            else [source]
        for path in files:
            rel = PurePosixPath(*target.relative_to(drive).parts)
            if source.is_dir():
                rel = rel.joinpath(*path.relative_to(source).parts)
            if mpy_cross is not None and rel.parts[0] in PACKAGES:
                # Compiled, the firmware interns fewer names and the board runs no
                # compiler: kilobytes of heap in play (docs/FIRMWARE.md).
                rel = rel.with_suffix(".mpy")
                if not dry_run:
                    path = _compiled(path, rel, work, mpy_cross, str(rel))
            swap.add(path, rel, label=label)
    return swap


STAGE = ".cspeed-new"  # on the drive: the new files, complete before anything old moves
OLD = ".cspeed-old"  # on the drive: the old items moved aside, removed at the end
MARGIN = 8192  # bytes kept free beyond the new files (FAT directory entries)


class Swap:
    """Put new files on a drive so that the old firmware boots until the new is complete.

    ``add(source, rel)`` files (``rel`` a path on the drive); the *unit* replaced is
    the top folder for the firmware's packages (``engine/``, ``hw/``: replaced whole,
    so no stale module survives), the item under ``lib/`` for a library, else the
    file. ``remove(rel)`` an old item once the new units are in (a library's stale
    ``.py`` beside its new ``.mpy``). :meth:`run` checks, copies into :data:`STAGE`,
    then renames unit by unit in the order added (``code.py`` last, as ``plan`` puts
    it), moving each old unit into :data:`OLD`; any failure moves everything back.
    """

    def __init__(self, drive, out):
        self.drive = Path(drive)
        self.out = out
        self.files = []  # (source, rel, label)
        self.units = []  # rel of each unit, in order
        self.removals = []  # rel of old items to take away
        self.made = []  # folders the swap made on the drive (lib/)

    @staticmethod
    def unit(rel):
        """The item that ``rel`` replaces as a whole."""
        parts = rel.parts
        if parts[0] in PACKAGES:
            return PurePosixPath(parts[0])
        if parts[0] == "lib" and len(parts) > 2:
            return PurePosixPath(*parts[:2])
        return rel

    def add(self, source, rel, label=None):
        """Copy ``source`` to ``rel`` on the drive."""
        self.files.append((Path(source), rel, label if label is not None else source))
        unit = self.unit(rel)
        if unit not in self.units:
            self.units.append(unit)

    def remove(self, rel):
        """Take ``rel`` away (if there) once the new units are in place."""
        if rel not in self.removals:
            self.removals.append(rel)

    # ------------------------------------------------------------------ checks

    def check(self):
        """Raise ``DeployError`` if the drive cannot take the new files (nothing written)."""
        for unit in self.units:
            folder = any(rel != unit for _, rel, _ in self.files if self.unit(rel) == unit)
            path = self.drive.joinpath(*unit.parts)
            for parent in list(unit.parents)[:-1]:
                there = self.drive.joinpath(*parent.parts)
                if there.exists() and not there.is_dir():
                    raise DeployError("%s on the drive is a file where the firmware's folder %s/"
                                      " goes: move it off the drive or rename it, then deploy"
                                      " again" % (parent, parent))
            if not path.exists():
                continue
            if folder and not path.is_dir():
                raise DeployError("%s on the drive is a file where the firmware's folder %s/"
                                  " goes: move it off the drive or rename it, then deploy again"
                                  % (unit, unit))
            if not folder and path.is_dir():
                raise DeployError("%s on the drive is a folder where the firmware's file %s goes:"
                                  " move it off the drive or rename it, then deploy again"
                                  % (unit, unit))

    def check_writable(self):
        """Raise ``DeployError`` if nothing can be written on the drive."""
        probe = self.drive / ".cspeed-probe"
        try:
            with open(probe, "wb"):
                pass
            try:
                os.remove(probe)
            except OSError:
                os.remove(probe)  # once more: the probe must not stay behind
        except OSError as err:
            if err.errno == errno.EROFS:
                raise DeployError("the drive %s is read-only: mount it writable (unplug the"
                                  " board and plug it in again), then deploy again"
                                  % self.drive) from None
            raise DeployError("cannot write on the drive %s: %s" % (self.drive, why(err))) from None

    def check_space(self):
        """Raise ``DeployError`` if the new files do not fit beside the old ones."""
        try:
            info = os.statvfs(self.drive)
            block = max(info.f_frsize or info.f_bsize, 512)
            free = info.f_bavail * block
        except (AttributeError, OSError):  # Windows: shutil's figure, in bytes
            block, free = 4096, shutil.disk_usage(self.drive).free
        need = MARGIN
        folders = set()
        for source, rel, _ in self.files:
            need += -(-source.stat().st_size // block) * block
            folders.update(rel.parents)
        need += len(folders) * block
        if need > free:
            raise DeployError("not enough space on the drive: the new files need %d KB beside the"
                              " old firmware (it stays until the new one is complete), the drive"
                              " has %d KB free: delete files you do not need from it (old"
                              " libraries in lib/?), then deploy again"
                              % (-(-need // 1024), free // 1024))

    # -------------------------------------------------------------------- run

    def run(self, dry_run=False):
        """Check, copy, swap; return the files written (``dry_run``: only listed)."""
        for source, rel, label in self.files:
            self.out.write("%s -> %s\n" % (label, self.drive.joinpath(*rel.parts)))
        self.check()
        if dry_run:
            return []
        self.check_writable()
        for leftover in (STAGE, OLD):  # an earlier deploy that was cut off: ours to remove
            if (self.drive / leftover).exists():
                shutil.rmtree(self.drive / leftover)
        self.check_space()
        stage, old = self.drive / STAGE, self.drive / OLD
        try:
            for source, rel, _ in self.files:
                target = stage.joinpath(*rel.parts)
                os.makedirs(target.parent, exist_ok=True)
                shutil.copyfile(source, target)
        except OSError as err:
            self._discard()
            raise DeployError("cannot copy the new firmware onto the drive: %s (nothing"
                              " changed: the old firmware is still there)" % why(err)) from None
        done = []  # (rel, had an old one), in the order made
        try:
            for unit in self.units:
                done.append((unit, self._swap(stage, old, unit)))
            for rel in self.removals:
                path = self.drive.joinpath(*rel.parts)
                if os.path.lexists(path):
                    aside = old.joinpath("removed", *rel.parts)
                    os.makedirs(aside.parent, exist_ok=True)
                    os.rename(path, aside)
                    done.append((rel, "removed"))
        except OSError as err:
            back = self._roll_back(stage, old, done)
            self._discard()
            raise DeployError("cannot put the new firmware in place: %s (%s)" % (
                why(err), "the old firmware is back in place" if back else
                "the drive may be half updated: deploy again")) from None
        self._discard(quiet=False)
        return [self.drive.joinpath(*rel.parts) for _, rel, _ in self.files]

    def _swap(self, stage, old, unit):
        """Move the old ``unit`` aside and the new one in; return True if there was an old one."""
        path = self.drive.joinpath(*unit.parts)
        had = os.path.lexists(path)
        if had:
            aside = old.joinpath(*unit.parts)
            os.makedirs(aside.parent, exist_ok=True)
            os.rename(path, aside)
        try:
            if not path.parent.exists():  # lib/ on a fresh drive: gone again on a roll back
                self.made.append(path.parent)
                os.makedirs(path.parent)
            os.rename(stage.joinpath(*unit.parts), path)
        except OSError:
            if had:  # this unit's own old item back first
                os.rename(old.joinpath(*unit.parts), path)
            raise
        return had

    def _roll_back(self, stage, old, done):
        """Undo ``done`` swaps, newest first; return True if all went back."""
        ok = True
        for rel, had in reversed(done):
            path = self.drive.joinpath(*rel.parts)
            try:
                if had == "removed":
                    os.rename(old.joinpath("removed", *rel.parts), path)
                    continue
                back = stage.joinpath(*rel.parts)
                os.makedirs(back.parent, exist_ok=True)
                os.rename(path, back)
                if had:
                    os.rename(old.joinpath(*rel.parts), path)
            except OSError:
                ok = False
        for folder in reversed(self.made):
            try:
                os.rmdir(folder)
            except OSError:
                ok = False
        return ok

    def _discard(self, quiet=True):
        """Remove the stage and the old items (best effort; said unless ``quiet``)."""
        for name in (STAGE, OLD):
            path = self.drive / name
            if not path.exists():
                continue
            try:
                shutil.rmtree(path)
            except OSError as err:
                if not quiet:
                    self.out.write("(the new firmware is in place; %s could not be removed: %s:"
                                   " delete it from the drive)\n" % (path, why(err)))


def main(argv=None):
    """Command-line entry point."""
    parser = cli.Parser("tools.deploy", description=__doc__.split("\n")[0])
    parser.add_argument("drive", help="the mounted CIRCUITPY folder")
    parser.add_argument("--settings", help="a settings.toml to install (overwrites)")
    parser.add_argument("--dry-run", action="store_true", help="only list the copies")
    parser.add_argument("--libs", action="store_true",
                        help="also install the libraries pinned in lib/requirements.txt, "
                             "offline, from this Python's site-packages")
    parser.add_argument("--py", action="store_true",
                        help="copy .py files (firmware and libraries), compile nothing")
    parser.add_argument("--mpy-cross", metavar="PATH",
                        help="CircuitPython's mpy-cross (default: %s if present)" % MPY_CROSS)
    args = parser.parse_args(argv)
    try:
        mpy_cross = None
        if not args.py:
            mpy_cross = Path(args.mpy_cross) if args.mpy_cross else MPY_CROSS
            if not mpy_cross.is_file():
                if args.mpy_cross:
                    raise DeployError("no mpy-cross at %s" % mpy_cross)
                sys.stdout.write("(the firmware%s goes as .py, which leaves less heap in play:"
                                 " %s)\n" % (" and libraries" if args.libs else "",
                                              cpstack.missing_line("mpy-cross")))
                mpy_cross = None
        deploy(args.drive, settings=args.settings, dry_run=args.dry_run, libs=args.libs,
               mpy_cross=mpy_cross)
    except DeployError as err:
        return cli.fail("tools.deploy", err)
    except OSError as err:  # the drive went away between the checks and the copy
        return cli.fail("tools.deploy", "cannot deploy to %s: %s" % (args.drive, why(err)))
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
