"""Issue 23's kinds under a fuzzer: tool arguments and output paths, settings values,
drives that are full, read-only or occupied.

``make test`` runs a few hundred command lines, a few dozen settings and drives
(``FUZZ_TOOL_CASES``, ``FUZZ_SETTINGS_CASES``, ``FUZZ_DRIVE_CASES``,
``FUZZ_MOUNT_CASES``; seed ``FUZZ_SEED``); ``make fuzz`` runs many more with the same
code. Counts per outcome are printed (``-s``). A failure names the seed and the case.
"""

import collections
import errno
import io
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import argfuzz
import drivefuzz
import setfuzz

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("FUZZ_SEED", "1"))
TOOL_CASES = int(os.environ.get("FUZZ_TOOL_CASES", "400"))
SETTINGS_CASES = int(os.environ.get("FUZZ_SETTINGS_CASES", "30"))
DRIVE_CASES = int(os.environ.get("FUZZ_DRIVE_CASES", "60"))
MOUNT_CASES = int(os.environ.get("FUZZ_MOUNT_CASES", "2"))


def report(title, counts):
    print("\n%s (seed %d)" % (title, SEED))
    for key, n in sorted(counts.items()):
        print("  %-40s %6d" % (key, n))


def test_every_command_line_is_run_or_refused_in_one_line(tmp_path):
    counts = collections.Counter()
    for k in range(TOOL_CASES):
        rnd = random.Random(SEED * 1000003 + k)
        work = tmp_path / ("c%d" % k)
        work.mkdir()
        tool, argv, good, labels = argfuzz.case(rnd, work, k)
        try:
            outcome = argfuzz.check(tool, argv, good, work)
        except AssertionError as err:
            raise AssertionError("FUZZ_SEED=%d tool case %d: tools.%s %r (%s): %s"
                                 % (SEED, k, tool, argv, labels, err)) from err
        counts["%s %s" % (tool, outcome)] += 1
        shutil.rmtree(work)
    report("tool argument fuzz: %d command lines" % TOOL_CASES, counts)
    assert sum(n for key, n in counts.items() if key.endswith("ran")) > TOOL_CASES // 10


def _run_settings(env):
    """``hw.main.run`` on a Pico with ``env``: ``(outcome, console message, view)``."""
    from fw_rig import Rig

    from hw import main as hw_main
    from hw.app import App
    from tools import cpstubs

    cpstubs.reset()
    stopped = []
    real_fail, real_step = hw_main.fail, App.step

    def stop(err, getenv=None, forever=True):
        view = real_fail(err, getenv, forever=False)
        stopped.append((str(err) if isinstance(err, ValueError)
                        else "%s: %s" % (type(err).__name__, err), view))
        raise SystemExit(3)

    def ran(self, now):
        raise SystemExit(4)

    from hw import diag

    real_diag = diag.run
    hw_main.fail, App.step = stop, ran
    diag.run = lambda app, ticks_ms: ran(app, 0)  # CSPEED_DIAG=1 (its figures need CircuitPython)
    try:
        hw_main.run(getenv=env.get)
    except SystemExit as end:
        if end.code == 4:
            return "started", None, None
        return "stopped", stopped[0][0], stopped[0][1]
    finally:
        hw_main.fail, App.step, diag.run = real_fail, real_step, real_diag
    raise AssertionError("run() returned")


def test_every_settings_value_starts_the_firmware_or_is_named_on_its_screen(capsys, tmp_path):
    from mpy import cpvm  # tests/mpy/cpvm.py: CircuitPython's unix interpreter
    from hw.board import profiles

    Rig = __import__("fw_rig").Rig
    Rig()  # the stand-ins installed, a Pico configured
    counts = collections.Counter()
    numbers = []
    for k in range(SETTINGS_CASES):
        rnd = random.Random(SEED * 1000003 + k)
        env = setfuzz.case(rnd)
        numbers += [v for key, v in env.items() if key in setfuzz.NUMBER_SETTINGS]
        try:
            outcome, message, view = _run_settings(env)
            setfuzz.check(env, outcome, message, view)
        except BaseException as err:  # noqa: B036 - name the case, whatever it was
            raise AssertionError("FUZZ_SEED=%d settings case %d: %r: %s: %s"
                                 % (SEED, k, env, type(err).__name__, err)) from err
        if outcome == "started":
            counts["started"] += 1
        elif " is used twice" in message:
            counts["stopped: a pin used twice"] += 1
        else:
            counts["stopped: " + message.split(":")[0].split("=")[0][:30]] += 1
        capsys.readouterr()
    report("settings fuzz: %d boots" % SETTINGS_CASES, counts)
    # The number settings read exactly as CircuitPython 10.2.1 reads them.
    if cpvm.missing_reason() is None and numbers:
        script = Path(__file__).resolve().parents[1] / "mpy" / "cp_settings.py"
        listed = tmp_path / "values.json"
        listed.write_text(json.dumps(numbers))
        done = cpvm.run(script, [listed], dirs=("hw", "tests"), timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        # split at "\n" only: the values hold U+2028 and \x0c, which splitlines() breaks at
        device = json.loads([line for line in done.stdout.split("\n") if line.strip()][-1])
        desktop = []
        for value in numbers:
            try:
                desktop.append(profiles.setting_int("CSPEED_ATTRACT_S", value, 20, 0, 3600))
            except profiles.SettingError as err:
                desktop.append(str(err))
        assert device == desktop
        print("  %d number values read alike in CircuitPython's interpreter" % len(numbers))


FAULTS = (None, "full", "read-only", "once")


def test_every_drive_gets_the_whole_firmware_or_keeps_its_old_one(tmp_path, monkeypatch):
    from tools import deploy

    faults = drivefuzz.Faults(monkeypatch)
    counts = collections.Counter()
    for k in range(DRIVE_CASES):
        rnd = random.Random(SEED * 1000003 + k)
        drive = tmp_path / ("d%d" % k)
        faults.arm()
        faults.drive = None
        has_boot_out, settings = drivefuzz.make(rnd, drive)
        faults.drive = drive
        libs = rnd.random() < 0.2
        fault = FAULTS[k % len(FAULTS)]
        before = drivefuzz.snapshot(drive)
        if fault == "full":
            faults.arm(capacity=rnd.choice((0, 50, 200, 400, 600, 900, 2000)) * 1024)
        elif fault == "read-only":
            faults.arm(plan=("from", 1, errno.EROFS))
        elif fault == "once":
            faults.arm(plan=("once", rnd.randint(1, 300),
                             rnd.choice((errno.EIO, errno.ENOSPC, errno.EROFS, errno.EACCES))))
        out = io.StringIO()
        error = None
        try:
            deploy.deploy(drive, out=out, libs=libs)
        except deploy.DeployError as err:
            error = str(err)
        except BaseException as err:  # noqa: B036
            raise AssertionError("FUZZ_SEED=%d drive case %d (%s): %s: %s"
                                 % (SEED, k, fault, type(err).__name__, err)) from err
        faults.arm()
        try:
            outcome = drivefuzz.check(drive, before, settings, libs, error, out.getvalue())
        except AssertionError as err:
            raise AssertionError("FUZZ_SEED=%d drive case %d (%s, libs=%s, error=%r): %s"
                                 % (SEED, k, fault, libs, error, err)) from err
        counts["%s: %s%s" % (fault or "no fault", outcome,
                             (" (%s)" % drivefuzz.kind(error)) if error else "")] += 1
        faults.drive = None
        shutil.rmtree(drive)
    report("drive fuzz: %d deploys" % DRIVE_CASES, counts)
    assert faults.mid_copy_full == 0, "the space check let a copy run into a full drive"
    assert any(key.startswith("no fault: deployed") for key in counts)


def _mounts():
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k t /mnt"],
                          capture_output=True).returncode == 0


@pytest.mark.skipif(not _mounts(), reason="needs unshare -rm and tmpfs mounts")
def test_real_small_drives_get_the_whole_firmware_or_keep_the_old(tmp_path):
    counts = collections.Counter()
    for k in range(MOUNT_CASES):
        rnd = random.Random(SEED * 1000003 + k)
        size = rnd.choice((200, 400, 600, 800, 1024, 1500))
        readonly = rnd.random() < 0.2
        seed = tmp_path / ("seed%d" % k)
        drivefuzz.make(rnd, seed)
        drive = tmp_path / ("drive%d" % k)
        drive.mkdir()
        script = ("mount -t tmpfs -o size=%dk t %s && cp -r %s/. %s && %s"
                  "(cd %s && find . | sort | xargs -d '\\n' -I{} sh -c 'test -d \"{}\" && echo \"{}\" "
                  "|| { printf \"%%s \" \"{}\"; sha256sum < \"{}\"; }') > %s/before.txt; "
                  "%s -m tools.deploy %s > %s/out.txt 2> %s/err.txt; echo $? > %s/rc.txt; "
                  "(cd %s && find . | sort | xargs -d '\\n' -I{} sh -c 'test -d \"{}\" && echo \"{}\" "
                  "|| { printf \"%%s \" \"{}\"; sha256sum < \"{}\"; }') > %s/after.txt"
                  % (size, drive, seed, drive,
                     "mount -o remount,ro %s && " % drive if readonly else "",
                     drive, tmp_path, sys.executable, drive, tmp_path, tmp_path, tmp_path,
                     drive, tmp_path))
        subprocess.run(["unshare", "-rm", "bash", "-c", script], cwd=ROOT, timeout=300,
                       capture_output=True)
        rc = int((tmp_path / "rc.txt").read_text())
        err = (tmp_path / "err.txt").read_text()
        before = (tmp_path / "before.txt").read_text().splitlines()
        after = (tmp_path / "after.txt").read_text().splitlines()
        label = "FUZZ_SEED=%d mount case %d (%d KB%s)" % (SEED, k, size, ", ro" if readonly else "")
        assert "Traceback" not in err, label + err
        if rc == 2:
            assert err.count("\n") == 1 and err.startswith("tools.deploy: "), label + err
            ours = ("./.cspeed-new", "./.cspeed-old")  # an earlier cut deploy's, ours to remove
            assert [l for l in after if not l.startswith(ours)] == \
                [l for l in before if not l.startswith(ours)], label
            counts["refused: " + drivefuzz.kind(err)] += 1
        else:
            assert rc == 0, label + err
            assert not [l for l in after if ".cspeed" in l], label
            assert any(l.startswith("./code.py ") for l in after), label
            counts["deployed"] += 1
    report("real tmpfs drives: %d deploys" % MOUNT_CASES, counts)
