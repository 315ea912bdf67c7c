"""Issue 23 item 2: tools.deploy never leaves a kit that does not boot.

A full drive, a read-only drive, a drive where a file sits where the firmware's
folder goes (or a folder where its file goes), a write that fails at any step of
the copy: one line on stderr, exit 2, and the drive still boots the old firmware
(every file of it byte for byte); a deploy that completes leaves the new firmware
whole and nothing of its own behind.
"""

import errno
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import deploy

ROOT = Path(__file__).resolve().parent.parent
NULL = open(os.devnull, "w")  # noqa: SIM115


def make_drive(path, old=True):
    """A CIRCUITPY drive holding an 'old firmware' (distinct bytes in every file)."""
    path.mkdir(exist_ok=True)
    (path / "boot_out.txt").write_text("Adafruit CircuitPython 10.2.1; Raspberry Pi Pico\n")
    if old:
        for package in deploy.PACKAGES:
            (path / package).mkdir()
            (path / package / "__old__.py").write_text("OLD = %r\n" % package)
            (path / package / "main.py").write_text("# old %s\n" % package)
        (path / "code.py").write_text("import hw.main  # old\n")
        (path / "boot.py").write_text("# old boot\n")
        (path / "settings.toml").write_text('CSPEED_ROTATION = "180"\n')
    return path


def snapshot(drive):
    """Every file on the drive and its bytes (folders as None)."""
    return {str(p.relative_to(drive)): (None if p.is_dir() else p.read_bytes())
            for p in sorted(drive.rglob("*"))}


def is_new_firmware(drive):
    for package in deploy.PACKAGES:
        here = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / package).rglob("*.py"))
        there = sorted(p.relative_to(drive).as_posix() for p in (drive / package).rglob("*")
                       if p.is_file())
        if here != there:
            return False
        for name in here:
            if (drive / name).read_bytes() != (ROOT / name).read_bytes():
                return False
    return ((drive / "code.py").read_bytes() == (ROOT / "code.py").read_bytes()
            and (drive / "boot.py").read_bytes() == (ROOT / "boot.py").read_bytes())


def leftovers(drive):
    return [p.name for p in drive.iterdir() if p.name.startswith(".cspeed")]


def cli(drive, *args):
    return subprocess.run([sys.executable, "-m", "tools.deploy", str(drive), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("occupied, kind, args", [
    ("engine", "file", ()), ("hw", "file", ()), ("code.py", "folder", ()),
    ("boot.py", "folder", ()), ("lib", "file", ("--libs", "--py")),
    ("lib/adafruit_ili9341.py", "folder", ("--libs", "--py")),
    ("lib/adafruit_st7789.py", "folder", ("--libs", "--py"))])
def test_a_name_the_firmware_needs_taken_by_something_else_is_one_line(occupied, kind, args,
                                                                       tmp_path):
    drive = make_drive(tmp_path / "CIRCUITPY")
    target = drive / occupied
    if target.is_dir():
        shutil.rmtree(target)
    elif target.exists():
        target.unlink()
    target.parent.mkdir(exist_ok=True)
    if kind == "file":
        target.write_text("a teacher's notes\n")
    else:
        target.mkdir()
        (target / "keep.txt").write_text("mine\n")
    before = snapshot(drive)
    run = cli(drive, *args)
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("tools.deploy: %s on the drive is a %s" % (occupied, kind))
    assert snapshot(drive) == before


def test_a_deploy_over_an_old_firmware_replaces_it_whole(tmp_path):
    drive = make_drive(tmp_path / "CIRCUITPY")
    run = cli(drive)
    assert run.returncode == 0, run.stderr
    assert is_new_firmware(drive) and leftovers(drive) == []
    assert (drive / "settings.toml").read_text() == 'CSPEED_ROTATION = "180"\n'  # kept


class Fault(OSError):
    pass


@pytest.fixture
def failing(monkeypatch, tmp_path):
    """Make the N-th file-system step of a deploy on a drive under ``tmp_path`` fail once
    (``arm(n, errno)``); the computer's own temporary files are not the drive's."""
    state = {"left": None, "code": errno.ENOSPC, "steps": 0}

    def step(args):
        if not any(str(a).startswith(str(tmp_path)) for a in args
                   if isinstance(a, (str, os.PathLike))):
            return
        state["steps"] += 1
        if state["left"] is not None:
            state["left"] -= 1
            if state["left"] == 0:
                raise Fault(state["code"], os.strerror(state["code"]))

    def wrap(fn):
        def wrapped(*args, **kwargs):
            step(args)
            return fn(*args, **kwargs)
        return wrapped

    for name in ("copyfile", "copytree", "rmtree"):
        monkeypatch.setattr(deploy.shutil, name, wrap(getattr(shutil, name)))
    for name in ("replace", "rename", "mkdir", "remove"):
        monkeypatch.setattr(deploy.os, name, wrap(getattr(os, name)))

    def arm(n, code=errno.ENOSPC):
        state.update(left=n, code=code, steps=0)
    state["arm"] = arm
    return state


@pytest.mark.parametrize("libs", [False, True], ids=["firmware", "with --libs"])
def test_a_write_that_fails_at_any_step_leaves_the_old_firmware_whole(libs, failing, tmp_path):
    """A fault at every step of the deploy in turn: the old firmware or the new, never a mix
    (with --libs on a drive without lib/: a roll back takes away the lib/ it made)."""
    failing["arm"](None)
    deploy.deploy(make_drive(tmp_path / "count"), out=NULL, libs=libs)
    steps = failing["steps"]
    assert steps > 20
    outcomes = {"refused": 0, "done": 0}
    for n in range(1, steps + 1):
        drive = make_drive(tmp_path / ("d%d" % n))
        before = snapshot(drive)
        failing["arm"](n, (errno.ENOSPC, errno.EIO, errno.EROFS)[n % 3])
        out = io.StringIO()
        try:
            deploy.deploy(drive, out=out, libs=libs)
        except deploy.DeployError as err:
            assert "\n" not in str(err)
            assert snapshot(drive) == before, "step %d of %d left a changed drive" % (n, steps)
            assert leftovers(drive) == [], n
            outcomes["refused"] += 1
        else:  # the fault hit after the new firmware was complete (or was retried)
            assert is_new_firmware(drive), n
            assert (drive / "settings.toml").read_bytes() == before["settings.toml"]
            assert leftovers(drive) == [] or "could not be removed" in out.getvalue(), n
            outcomes["done"] += 1
        failing["arm"](None)
        shutil.rmtree(drive)
    assert outcomes["refused"] > steps // 2, outcomes


# ------------------------------------------- real full and read-only drives (tmpfs)

def _has_unshare():
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k t /mnt"],
                          capture_output=True).returncode == 0


needs_mounts = pytest.mark.skipif(not _has_unshare(), reason="needs unshare -rm and tmpfs mounts")


def on_drive(tmp_path, size_k, commands, readonly=False):
    """Make an old-firmware drive on a tmpfs of ``size_k`` KB, then run the deploy on it."""
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    seed = make_drive(tmp_path / "seed")
    script = ["mount -t tmpfs -o size=%dk t %s" % (size_k, drive),
              "cp -r %s/. %s" % (seed, drive)]
    if readonly:
        script.append("mount -o remount,ro %s" % drive)
    script.append("find %s -type f | sort | xargs sha256sum > %s/before.txt" % (drive, tmp_path))
    script.append("%s -m tools.deploy %s %s; echo \"rc=$?\"" % (sys.executable, drive, commands))
    script.append("find %s -type f | sort | xargs sha256sum > %s/after.txt" % (drive, tmp_path))
    script.append("ls -a %s > %s/listing.txt" % (drive, tmp_path))
    run = subprocess.run(["unshare", "-rm", "bash", "-c", " && ".join(script[:-3]) + "; "
                          + "; ".join(script[-3:])], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    return run, (tmp_path / "before.txt").read_text(), (tmp_path / "after.txt").read_text(), \
        (tmp_path / "listing.txt").read_text().split()


@needs_mounts
def test_a_drive_too_full_for_the_new_firmware_is_refused_before_anything_changes(tmp_path):
    run, before, after, listing = on_drive(tmp_path, 256, "")
    assert "rc=2" in run.stdout, run.stdout + run.stderr
    assert run.stderr.startswith("tools.deploy: not enough space on the drive: ")
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert after == before
    assert not [n for n in listing if n.startswith(".cspeed")]


@needs_mounts
def test_a_read_only_drive_is_one_line(tmp_path):
    run, before, after, _ = on_drive(tmp_path, 4096, "", readonly=True)
    assert "rc=2" in run.stdout, run.stdout + run.stderr
    assert run.stderr.startswith("tools.deploy: ") and "read-only" in run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert after == before


@needs_mounts
def test_a_drive_with_room_gets_the_whole_firmware(tmp_path):
    run, before, after, listing = on_drive(tmp_path, 4096, "")
    assert "rc=0" in run.stdout, run.stdout + run.stderr
    assert after != before
    assert not [n for n in listing if n.startswith(".cspeed")]
    assert "code.py" in listing and "engine" in listing and "hw" in listing
