"""Issue 23 items 3, 7, 8, 9, 11, 12: every path a tool writes is checked before its work.

A folder where a file goes, a file where a folder goes, a FIFO (the emulator's
``--nvm FIFO`` blocked forever), a device (``/dev/full``), a place that cannot be
written, a GIF or PNG with another extension, a model file that is not one: one
line ``tools.NAME: ...`` on stderr, exit 2, nothing run and nothing left behind.
A disk that fills up during a run is one line and exit 2 too.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tool_args import TOOLS, run_tool

ROOT = Path(__file__).resolve().parents[1]


def bad_paths(tmp, kind):
    """``[(label, path)]`` that a tool must refuse for an output of ``kind``."""
    folder = tmp / "a-folder"
    folder.mkdir(exist_ok=True)
    plain = tmp / "a-file"
    plain.write_text("mine")
    fifo = tmp / "a-fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    cases = [("a FIFO", fifo), ("under a file", plain / "x"), ("in /proc", Path("/proc/x.out"))]
    if kind == "folder":
        return cases + [("a file", plain), ("/dev/full", Path("/dev/full"))]
    cases += [("a folder", folder), ("/dev/full", Path("/dev/full")), ("/dev/null", Path("/dev/null"))]
    if kind == "gif":
        cases += [("not .gif", tmp / "out.txt"), ("a .bmp", tmp / "out.bmp")]
    if kind == "png":
        cases += [("not .png", tmp / "out.txt"), ("a .gif", tmp / "out.gif")]
    if kind == "model":
        big = tmp / "big.pdf"
        big.write_bytes(b"%PDF" + bytes(40000))
        cases += [("a bigger file", big)]
    return cases


def listing(tmp):
    return sorted((str(p.relative_to(tmp)), p.is_dir() or p.read_bytes()) for p in tmp.rglob("*")
                  if not p.is_fifo())


OUTPUTS = [(tool, option, kind) for tool, (_, _, outputs) in sorted(TOOLS.items())
           for option, kind in outputs]


@pytest.mark.parametrize("tool, option, kind", OUTPUTS, ids=lambda v: str(v))
def test_an_output_that_cannot_be_written_is_refused_before_the_work(tool, option, kind,
                                                                    tmp_path):
    base = TOOLS[tool][0]
    for label, path in bad_paths(tmp_path, kind):
        before = listing(tmp_path)
        status, _, err, ran = run_tool(tool, base + [option, str(path)], tmp_path)
        assert ran is None, (option, label, "the tool ran")
        assert status == 2, (option, label, err)
        assert err.count("\n") == 1 and err.startswith("tools.%s: " % tool), (label, err)
        assert option in err and "Traceback" not in err, (label, err)
        assert listing(tmp_path) == before, (option, label)


@pytest.mark.parametrize("tool, option, kind", OUTPUTS, ids=lambda v: str(v))
def test_a_good_output_is_taken(tool, option, kind, tmp_path):
    base = TOOLS[tool][0]
    name = {"gif": "new/out.gif", "png": "new/out.PNG", "folder": "new/dir"}.get(kind, "new/out.bin")
    status, _, err, ran = run_tool(tool, base + [option, str(tmp_path / name)], tmp_path)
    assert ran is not None, (option, status, err)


def test_the_simulators_check_plots_before_the_first_game(tmp_path):
    plain = tmp_path / "plots.png"
    plain.write_text("x")
    for tool in ("simulate", "row_claims", "speed_houses"):
        status, _, err, ran = run_tool(tool, ["--plots", str(plain)], tmp_path)
        assert ran is None and status == 2, (tool, err)
        assert err == "tools.%s: cannot write into --plots %s: it is a file, not a folder\n" % (
            tool, plain)


def test_emulate_nvm_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "nvm.fifo"
    os.mkfifo(fifo)
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    run = subprocess.run([sys.executable, "-m", "tools.emulate", "--headless", "--nvm", str(fifo),
                          "--until", "100"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr == "tools.emulate: cannot write --nvm %s: it is a FIFO (named pipe)\n" % fifo


# ------------------------------------------------------- item 7: tools.replay's streams

def replay(args, **kw):
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "tools.replay"] + args, cwd=ROOT, timeout=60,
                          **kw)


def test_replay_with_stdin_closed_is_one_line():
    run = subprocess.run("%s -m tools.replay - <&-" % sys.executable, shell=True, cwd=ROOT,
                         capture_output=True, timeout=60, executable="/bin/bash")
    assert run.returncode == 1, run.stderr
    assert run.stderr == b"tools.replay: standard input is closed\n"


def test_replay_to_a_full_device_is_one_line():
    with open("/dev/full", "w") as full:
        run = replay([str(ROOT / "tests" / "golden" / "rules.log")], stdout=full,
                     stderr=subprocess.PIPE)
    assert run.returncode == 1, run.stderr
    assert run.stderr == b"tools.replay: cannot write the trace: No space left on device\n"


def test_replay_of_a_folder_is_one_line(tmp_path):
    run = replay([str(tmp_path)])
    assert run.returncode == 1 and run.stderr.count(b"\n") == 1, run.stderr
    assert run.stderr.startswith(b"tools.replay: ") and b"Traceback" not in run.stderr


# ------------------------------------------ item 9: a disk that fills up during a run

def _has_unshare():
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k t /mnt"],
                           capture_output=True)
    return probe.returncode == 0


needs_mounts = pytest.mark.skipif(not _has_unshare(), reason="needs unshare -rm and tmpfs mounts")


def on_small_disk(command, tmp_path, size_k, fill_k=0):
    """Run ``command`` (a shell line, ``$D`` = a fresh tmpfs of ``size_k`` KB) in its own mount
    namespace; ``fill_k`` KB of it are taken first."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = ("mount -t tmpfs -o size=%dk t %s && D=%s && "
              "{ [ %d -eq 0 ] || head -c %dk /dev/zero > $D/filler; } && %s"
              % (size_k, disk, disk, fill_k, fill_k, command))
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(["unshare", "-rm", "bash", "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


@needs_mounts
@pytest.mark.parametrize("option", ["--log", "--trace"])
def test_emulate_on_a_disk_that_fills_up_mid_run_is_one_line(option, tmp_path):
    run = on_small_disk("CSPEED_ATTRACT_S=1 %s -m tools.emulate --headless --nvm none --seed 3"
                        " --seconds 600 %s $D/out" % (sys.executable, option), tmp_path, 64, 60)
    assert run.returncode == 2, run.stdout[-500:] + run.stderr
    assert run.stderr.endswith("tools.emulate: cannot write %s %s/disk/out: No space left on"
                               " device\n" % (option, tmp_path)), run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


@needs_mounts
def test_emulate_nvm_on_a_disk_that_fills_up_mid_run_is_one_line(tmp_path):
    run = on_small_disk("%s -m tools.emulate --headless --seed 3 --seconds 200 --demo "
                        "--nvm $D/nvm.bin --frames $D/frames" % sys.executable, tmp_path, 256, 0)
    assert run.returncode == 2, run.stdout[-500:] + run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert "No space left on device" in run.stderr and run.stderr.startswith("tools.emulate: ")


@needs_mounts
def test_simulate_plots_on_a_disk_that_fills_up_keep_the_table(tmp_path):
    run = on_small_disk("%s -m tools.simulate --games 4 --jobs 1 --quiet --sweep-games 0 "
                        "--plots $D/plots" % sys.executable, tmp_path, 64, 56)
    assert run.returncode == 2, run.stdout[-500:] + run.stderr
    assert "A wins (95% CI)" in run.stdout
    assert run.stderr == ("tools.simulate: cannot write into --plots %s/disk/plots: No space left"
                          " on device\n" % tmp_path)
