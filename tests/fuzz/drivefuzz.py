"""CIRCUITPY drives drawn at random for ``tools.deploy``: full, read-only, occupied.

A case is a drive (boot_out.txt or not; an old firmware or none; a teacher's own
files; a file where ``engine/``, ``hw/`` or ``lib/`` goes or a folder where
``code.py`` goes; leftovers of a deploy that was cut off; a settings.toml that is
absent, empty or the teacher's), with or without ``--libs``, and a fault: none, a
drive that is full (a capacity: ``statvfs`` reports it and every copy counts
against it, ``ENOSPC`` past it), read-only (``EROFS`` from the first write), or one
write that fails at a random step (``EIO``, ``ENOSPC``, ``EROFS``, ``EACCES``).

The contract (:func:`check`): either ``DeployError`` in one line and the drive as
it was (an earlier deploy's ``.cspeed-*`` leftovers, ours, may be gone), or the new
firmware whole, every other file untouched, a teacher's settings kept, nothing of
the deploy's own left behind.
"""

import errno
import os
import random
import shutil
from pathlib import Path

from tools import deploy

ROOT = Path(__file__).resolve().parents[2]
OURS = (".cspeed-new", ".cspeed-old")


class Faults:
    """The file-system steps of a deploy, with a fault plan (see the module docstring)."""

    def __init__(self, monkeypatch):
        self.plan = None
        self.steps = 0
        self.used = 0
        self.capacity = None
        self.mid_copy_full = 0
        for name in ("copyfile", "copytree", "rmtree"):
            monkeypatch.setattr(deploy.shutil, name, self._wrap(getattr(shutil, name), name))
        for name in ("replace", "rename", "mkdir", "remove", "makedirs"):
            monkeypatch.setattr(deploy.os, name, self._wrap(getattr(os, name), name))
        self._real_statvfs = os.statvfs
        monkeypatch.setattr(deploy.os, "statvfs", self._statvfs)

        def writing_open(file, mode="r", *args, **kwargs):
            if any(c in mode for c in "wax+") and self._on_drive((file,)):
                self._fault("open")
            return open(file, mode, *args, **kwargs)
        monkeypatch.setattr(deploy, "open", writing_open, raising=False)

    drive = None  # faults hit only paths on this drive (not the computer's temp files)

    def arm(self, plan=None, capacity=None):
        self.plan, self.capacity, self.steps, self.used = plan, capacity, 0, 0

    def _on_drive(self, args):
        root = str(self.drive) if self.drive is not None else None
        return root is not None and any(str(a).startswith(root) for a in args
                                        if isinstance(a, (str, os.PathLike)))

    def _statvfs(self, path):
        info = self._real_statvfs(path)
        if self.capacity is None:
            return info
        return os.statvfs_result((512, 512, info.f_blocks, (self.capacity - self.used) // 512,
                                  (self.capacity - self.used) // 512) + tuple(info[5:]))

    def _fault(self, name):
        self.steps += 1
        if self.plan is None:
            return
        kind, at, code = self.plan
        if kind == "once" and self.steps == at:
            raise OSError(code, os.strerror(code))
        if kind == "from" and self.steps >= at and name != "rmtree":
            raise OSError(code, os.strerror(code))

    def _wrap(self, fn, name):
        def wrapped(*args, **kwargs):
            if not self._on_drive(args[1:] if name == "copyfile" else args):
                return fn(*args, **kwargs)
            self._fault(name)
            if name == "copyfile" and self.capacity is not None:
                size = -(-os.path.getsize(args[0]) // 512) * 512
                if self.used + size > self.capacity:
                    self.mid_copy_full += 1
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                self.used += size
            return fn(*args, **kwargs)
        return wrapped


def make(rnd, path):
    """A random drive at ``path``; return ``(has boot_out, settings text or None)``."""
    path.mkdir()
    has_boot_out = rnd.random() < 0.95
    if has_boot_out:
        (path / "boot_out.txt").write_text("Adafruit CircuitPython 10.2.1; Raspberry Pi Pico\n")
    if rnd.random() < 0.7:  # an old firmware
        for package in deploy.PACKAGES:
            (path / package).mkdir()
            (path / package / ("old_%d.py" % rnd.randint(0, 9))).write_text("OLD = 1\n")
        (path / "code.py").write_text("# old\n")
        (path / "boot.py").write_text("# old boot\n")
    settings = rnd.choice((None, "", 'CIRCUITPY_WIFI_SSID = "school"\n'))
    if settings is not None:
        (path / "settings.toml").write_text(settings)
    if rnd.random() < 0.5:  # the teacher's own files
        (path / "notes.txt").write_text("class 4B\n" * rnd.randint(1, 50))
        (path / "fonts").mkdir()
        (path / "fonts" / "big.bdf").write_bytes(bytes(rnd.randint(0, 3000)))
    if rnd.random() < 0.3:
        (path / "lib").mkdir(exist_ok=True)
        (path / "lib" / rnd.choice(("adafruit_ticks.py", "adafruit_ticks.mpy",
                                    "neopixel.mpy"))).write_text("# old lib\n")
    if rnd.random() < 0.15:  # a name the firmware needs, taken by something else
        name = rnd.choice(("engine", "hw", "lib", "code.py", "boot.py"))
        target = path / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
        if name.endswith(".py"):
            target.mkdir()
            (target / "x").write_text("mine")
        else:
            target.write_text("mine")
    if rnd.random() < 0.15:  # a deploy cut off earlier
        leftover = path / rnd.choice(OURS) / "engine"
        leftover.mkdir(parents=True)
        (leftover / "half.py").write_text("# cut\n")
    return has_boot_out, settings


ERRORS = (("not a CircuitPython drive", "not a CircuitPython drive"),
          ("on the drive is a", "a name the firmware needs is taken"),
          ("read-only", "read-only"), ("not enough space", "not enough space"),
          ("cannot copy the new firmware", "a copy failed: old firmware kept"),
          ("cannot put the new firmware in place", "a rename failed: rolled back"),
          ("cannot write on the drive", "cannot write on the drive"))


def kind(error):
    """A short name for a deploy's one-line error (for the counts)."""
    for words, name in ERRORS:
        if words in error:
            return name
    return error[:40]


def snapshot(path):
    return {str(p.relative_to(path)): (None if p.is_dir() else p.read_bytes())
            for p in sorted(path.rglob("*"))}


def without_ours(snap):
    return {k: v for k, v in snap.items() if not k.startswith(OURS)}


def check(drive, before, settings, libs, error, out):
    """Judge one case; return its outcome name."""
    after = snapshot(drive)
    if error is not None:
        assert "\n" not in error, error
        assert without_ours(after) == without_ours(before), "a refused deploy changed the drive"
        return "refused"
    for package in deploy.PACKAGES:
        here = sorted(str(p.relative_to(ROOT / package)) for p in (ROOT / package).rglob("*.py"))
        there = sorted(str(p.relative_to(drive / package))
                       for p in (drive / package).rglob("*") if p.is_file())
        assert there == here, package
        for name in here:
            assert (drive / package / name).read_bytes() == (ROOT / package / name).read_bytes()
    for name in ("code.py", "boot.py"):
        assert (drive / name).read_bytes() == (ROOT / name).read_bytes(), name
    if settings:
        assert (drive / "settings.toml").read_text() == settings
    else:
        assert (drive / "settings.toml").read_bytes() == \
            (ROOT / "tools" / "settings.toml").read_bytes()
    mine = {k: v for k, v in without_ours(before).items()
            if k.split("/")[0] not in ("engine", "hw", "code.py", "boot.py", "settings.toml")
            and not (libs and k.startswith("lib/adafruit_"))}
    for key, value in mine.items():
        assert after.get(key, "gone") == value, "the deploy changed %s" % key
    assert not [k for k in after if k.startswith(OURS)] or "could not be removed" in out
    return "deployed"
