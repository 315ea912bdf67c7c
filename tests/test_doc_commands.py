"""Every shell command README.md and docs/*.md quote runs as printed (issue 11 item 6).

The commands are found by ``tests/doc_commands.py``. Each one is in exactly one of
two declared lists, and both lists are checked against the docs both ways (a quoted
command in neither list fails, and so does a listed command no doc quotes any more):

* ``RUN``: run with bash, in doc order, in a copy of the repository (its tracked and
  new files; ``.venv`` and ``node_modules`` linked from this checkout, as after
  ``make venv node_modules``), with no display and no sound; each must exit 0.
  Long runs are shortened unless ``DOC_COMMANDS_FULL=1``: ``--games``/``--matches``
  counts become small (``SHORT``) and ``make bench`` gets ``BENCH_QUICK=1``.
* ``NOT_RUN``: with the reason (a board, a drive, a Windows or macOS machine, software
  installed on the reader's computer, a placeholder such as ``FILE``, or minutes of
  work that another test already does). The ``make`` commands among them that name
  real values are dry-run (``make -n``): the target and its variables exist.

A command is keyed by its first line without its trailing ``# comment``.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_commands import quoted  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FULL = os.environ.get("DOC_COMMANDS_FULL", "") not in ("", "0")
SHORT = ((r"--games \d+", "--games 20"), (r"--matches \d+", "--matches 6"),
         (r"--sweep-games \d+", "--sweep-games 10"))

RUN = (
    "make replay LOG=tests/golden/rules.log",
    'make simulate ARGS="--games 2000 --levels normal:expert --jobs 2"',
    ".venv/bin/python -m tools.aggravation_claims --games 2000 --seed 1 --jobs 2 --plots docs/img",
    'make simulate ARGS="--game aggravation --games 2000 --seed 1 --jobs 2"',
    "make wiring",
    "make bench",
    ".venv/bin/python -m tools.NAME --help",  # every tool (expanded below)
    "make play",
    ".venv/bin/python -m tools.cpstack where",
    ".venv/bin/python -m tools.wiring --profile feather_esp32s3_tft",
    "make venv",
    ".venv/bin/python -m tools.emulate --headless --nvm none --seed 7 --script docs/example.script",
    "tools/replay out/match.log",
    ".venv/bin/python -m tools.emulate --link --headless --autoplay expert --game grid --seed 5"
    " --ppm 100 --nvm none --log build/link/match.log",
    "cmp build/link/match-A.log build/link/match-B.log",
    "tools/replay build/link/match-B.log",
    ".venv/bin/python -m tools.emulate",
    "CSPEED_ATTRACT_S=5 make play",
    ".venv/bin/python -m tools.emulate.bench",
    ".venv/bin/python -m tools.hil --emulate tests/hil/two_players.script",
    'make simulate ARGS="--games 20000 --levels normal:normal --seed 1 --jobs 2 --plots docs/img'
    ' --sweep-games 1000"',
    'make simulate ARGS="--games 20000 --levels normal:normal --seed 1 --jobs 2 --rules'
    ' deadlock=100 --json"',
    'make simulate ARGS="--games 5000 --levels normal:normal --seed 1 --jobs 2 --rules deadlock=4"',
    'make simulate ARGS="--games 2000 --levels beginner:normal,normal:beginner,normal:expert,'
    'expert:normal,expert:beginner,beginner:expert,beginner:beginner,expert:expert,'
    'perfect:perfect --seed 1 --jobs 2"',
    ".venv/bin/python -m tools.row_claims --games 4000 --seed 1 --plots docs/img",
    ".venv/bin/python -m tools.row_claims --games 2000 --seed 2 --levels beginner:beginner",
    ".venv/bin/python -m tools.speed_houses --games 2000 --seed 1 --plots docs/img",
    'make simulate ARGS="--game row --matches 2000 --seed 1 --jobs 1"',
    'make simulate ARGS="--game row --matches 2000 --seed 1 --jobs 1 --rules match=either"',
    "make pictures",  # in the copy: the pictures drawn there must equal the repository's
    "SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy .venv/bin/pytest -q tests/test_fw_speed.py -k tie",
    # docs/EMULATOR.md: the pictures of the cards (in the copy: the repo's stay as they are)
    ".venv/bin/python -m tools.emulate --headless --size 320x240 --script docs/cards.script"
    " --seed 12345 --nvm none --until 2900 --screenshot docs/img/cards-320x240.png",
    ".venv/bin/python -m tools.emulate --headless --size 240x240 --script docs/cards.script"
    " --seed 12345 --nvm none --until 2900 --screenshot docs/img/cards-240x240.png",
    ".venv/bin/python -m tools.emulate --headless --size 240x135 --script docs/cards.script"
    " --seed 12345 --nvm none --until 2900 --screenshot docs/img/cards-240x135.png",
    ".venv/bin/python -m tools.emulate --headless --size 320x240 --script docs/cards.script"
    " --seed 12345 --nvm none --until 3080 --screenshot docs/img/tie-320x240.png",
    # docs/RULES-AGGRAVATION.md: the handheld's controls, measured, and its pictures
    ".venv/bin/python -m tools.aggravation_pad --games 2000 --seed 1 --jobs 2",
    ".venv/bin/python -m tools.emulate --headless --size 320x240 --script docs/aggravation.script"
    " --seed 3 --nvm none --until 8380 --screenshot docs/img/aggravation-320x240.png",
    ".venv/bin/python -m tools.emulate --headless --size 240x240 --script docs/aggravation.script"
    " --seed 3 --nvm none --until 8380 --screenshot docs/img/aggravation-240x240.png",
    ".venv/bin/python -m tools.emulate --headless --size 240x135 --script docs/aggravation.script"
    " --seed 3 --nvm none --until 8380 --screenshot docs/img/aggravation-240x135.png",
    ".venv/bin/python -m tools.emulate --headless --size 320x240 --script docs/aggravation.script"
    " --seed 3 --nvm none --until 10020 --screenshot docs/img/aggravation-call-320x240.png",
)

BOARD = "needs a board plugged in (its serial port or its CIRCUITPY drive)"
PLACEHOLDER = "a placeholder for the reader's own file, port or name"
INSTALL = "installs software on the reader's computer (root, the internet or a home folder)"
WINDOWS = "a Windows or macOS command"
XVFB = ("the Xvfb walk-through (Xvfb and xdotool are not installed by the repo);"
        " tests/test_emulate_xvfb.py does these steps when Xvfb is there")
PICOSIM = ("the emulated Pico: minutes per run and the CircuitPython stack (make cpstack);"
           " tests/test_picosim.py and tests/test_hil.py run it")
LINKRIG = ("two emulated Picos: minutes per run and the CircuitPython stack (make cpstack);"
           " tests/test_picosim_link.py runs the rig and the link figures")
CPSTACK = "the CircuitPython stack, which a copy of the repository lacks; tests/test_cpstack.py"
NOT_RUN = {
    "make test": "this test is part of make test",
    "JOBS=0 make test": "this test is part of make test",
    "make check": "a part of make test (this test is in make test)",
    "make node_modules": "npm ci of the MicroPython VM; in the copy node_modules is this"
    " checkout's (a link): make test and make bench run it first",
    "make link": LINKRIG,
    ".venv/bin/python -m tools.picosim.link --code tools/picosim/device/link_ping_code.py"
    " --setting A:LINK_ROLE=ping --setting A:LINK_PINGS=100 --setting B:LINK_ROLE=echo"
    " --ppm B:2000 --drop ab:5 --cut 1000:1500 --reset B@2000 --stop-on A:done --seconds 8":
    LINKRIG,
    "python tests/link_sim.py": ("minutes of simulated matches;"
                                 " tests/test_link_sync.py runs shorter ones"),
    "make picosim": PICOSIM,
    "make capture PORT=/dev/ttyACM1": BOARD,
    "make capture": "named in prose; the command is make capture PORT=...",
    "make replay LOG=matches/match-001.log": "replays the file make capture wrote from a board",
    "make deploy DRIVE=/media/$USER/CIRCUITPY": BOARD,
    "make deploy DRIVE=/Volumes/CIRCUITPY": BOARD + "; macOS",
    "make deploy DRIVE=...": PLACEHOLDER,
    ".venv/bin/python -m serial.tools.miniterm /dev/ttyACM1": BOARD,
    ".venv/bin/python -m serial.tools.miniterm /dev/ttyACM1 > match.cslog": BOARD,
    ".venv/bin/python -m serial.tools.miniterm /dev/pts/N": "the pty a running emulator prints",
    ".venv/bin/python - <<'PY' > match.log": "reads the pty a running emulator prints",
    "tools/replay match.log": "replays what the command before it recorded from a running emulator",
    "cat /dev/pts/N": "the pty a running emulator prints",
    "tools/replay LOG": PLACEHOLDER,
    "tools/replay FILE": PLACEHOLDER,
    "make replay LOG=FILE": PLACEHOLDER,
    ".venv/bin/python -m tools.deploy /media/$USER/CIRCUITPY --libs": BOARD,
    ".venv/bin/python -m tools.hil --port /dev/ttyACM1 tests/hil/two_players.script": BOARD,
    ".venv/bin/python -m tools.hil --port /dev/pts/N tests/hil/two_players.script":
        "the pty of an emulator a person runs beside it",
    ".venv/bin/python -m tools.hil --emulate --write-expected my.script": PLACEHOLDER,
    ".venv/bin/python -m tools.hil --picosim tests/hil/two_players.script": PICOSIM,
    "make hil": PICOSIM,
    ".venv/bin/python -m tools.picosim": PICOSIM,
    ".venv/bin/python -m tools.picosim --script my.script --seed 7 --seconds 20 --latency lat.json"
    " --screenshot end.png": PICOSIM,
    ".venv/bin/python -m tools.picosim --setting CSPEED_DIAG=1 --diag --json report.json"
    " --seconds 30": PICOSIM,
    ".venv/bin/python -m tools.picosim --code tools/picosim/device/heap_code.py --mpy none --diag": PICOSIM,
    ".venv/bin/python -m tools.picosim --code tools/picosim/device/qstr_code.py --setting"
    " PROBE_GAMES=3 --seconds 25": PICOSIM,
    ".venv/bin/python -m tools.picosim --script docs/covers.script --seed 7 --attract 0"
    " --seconds 16 --latency build/covers.json": PICOSIM,
    ".venv/bin/python -m tools.picosim.heap --games aggravation": PICOSIM,
    ".venv/bin/python -m tools.picosim --game aggravation --script docs/aggravation-covers.script"
    " --seed 7 --attract 0 --seconds 17 --latency build/aggravation-covers.json": PICOSIM,
    "make powercut": PICOSIM + " (every cut point: about 40 minutes)",
    "make libcost": PICOSIM,
    "make heap": PICOSIM,
    "make cpstack": CPSTACK + " fetches from a local HTTP server (this downloads from the web)",
    "make cpstack-unix": CPSTACK + " dry-runs it (this clones CircuitPython from GitHub and"
    " compiles for minutes, with gcc-multilib)",
    ".venv/bin/python -m tools.cpstack check": CPSTACK + " runs it on a fresh machine and on"
    " the real files",
    ".venv/bin/python -m tools.cpstack install uf2 FILE": PLACEHOLDER,
    "sudo apt-get install gcc-multilib": INSTALL,
    ".venv/bin/python -m tools.emulate --button-test": "the button test in a window a person"
    " presses keys in, open until closed",
    ".venv/bin/python -m tools.emulate --link --game speed --ppm 50": "two windows two people"
    " play in, open until closed (tests/test_emulate_link.py runs --link headless)",
    ".venv/bin/python -m tools.emulate --link": "as --link --game speed --ppm 50",
    ".venv/bin/python -m tools.picosim --game row --attract 2 --setting CSPEED_DIAG=1 --diag"
    " --seconds 12": PICOSIM,
    ".venv/bin/python -m tools.picosim --code tools/picosim/device/crc_code.py --seconds 25":
        PICOSIM,
    ".venv/bin/python -m tools.picosim --code tools/picosim/device/link_heap_code.py"
    " --seconds 8": PICOSIM,
    ".venv/bin/python -m tools.picosim.linkbench --firmware --no-diag --seconds 20 --ppm 0":
        PICOSIM + " (two chips: about 4 minutes; tests/test_picosim_link_play.py runs the"
        " firmware linked)",
    ".venv/bin/python -m tools.picosim.linkbench --firmware --game row --seconds 20 --ppm 100":
        PICOSIM + " (two chips: about 6 minutes)",
    "CSPEED_ATTRACT_S=0 .venv/bin/python -m tools.emulate --window --nvm none --seed 7":
        "a window a person plays in, open until closed",
    "make fuzz": "tests/fuzz at 100,000 cases (an hour); make test runs the same tests smaller",
    "make fuzz FUZZ_CASES=200000 FUZZ_SEED=7": "as make fuzz",
    "make fuzz FUZZ_CASES=100000 FUZZ_SEED=11": "as make fuzz",
    "make fuzz FUZZ_CASES=… FUZZ_SEED=…": PLACEHOLDER,
    "make soak": "tests/test_soak.py for 200 cycles; make test runs it for 2",
    "make soak SOAK_CYCLES=…": PLACEHOLDER,
    "python3 -m venv ~/circup-venv": INSTALL,
    "~/circup-venv/bin/pip install circup": INSTALL,
    "circup --path /media/$USER/CIRCUITPY install -r lib/requirements.txt": BOARD,
    "circup --path /Volumes/CIRCUITPY install -r lib/requirements.txt": BOARD + "; macOS",
    "circup --path D:\\ install -r lib/requirements.txt": BOARD + "; " + WINDOWS,
    "lsblk -o LABEL,MOUNTPOINT": "lists the reader's drives to find the board's",
    "pip install": "named as what fails outside a virtual environment",
    "sudo apt install pipx": INSTALL,
    "pipx ensurepath": INSTALL,
    "pipx install circup": INSTALL,
    "brew install pipx": INSTALL + "; macOS",
    "py -m pip install --user pipx": INSTALL + "; " + WINDOWS,
    "py -m pipx ensurepath": INSTALL + "; " + WINDOWS,
    "py -m pip install pyserial": INSTALL + "; " + WINDOWS,
    "py -m tools.deploy D:\\": BOARD + "; " + WINDOWS,
    "py -m tools.capture COM4 --out matches --trace": BOARD + "; " + WINDOWS,
    "py -m tools.replay matches\\match-001.log": WINDOWS,
    "sudo apt-get install -y xvfb xdotool": XVFB,
    "Xvfb :99 -screen 0 1024x768x24 -nolisten tcp &": XVFB,
    "DISPLAY=:99 .venv/bin/python -m tools.emulate --scale 2 --nvm none --seed 11"
    " --log /tmp/x.log &": XVFB,
    "sleep 3": XVFB,
    "export DISPLAY=:99": XVFB,
    "xdotool mousemove 512 384": XVFB,
    "xdotool key space; sleep 0.5; xdotool key space; sleep 2.3": XVFB,
    "for k in a s d f q w e r; do xdotool key $k; sleep 0.15; done": XVFB,
    '.venv/bin/python -c "from PIL import ImageGrab;': XVFB,
    "xdotool key Escape": XVFB,
    "tools/replay /tmp/x.log": XVFB,
}
# make commands of NOT_RUN with real values: `make -n` shows the target and variables exist.
DRY_RUN = ("make test", "make check", "make node_modules", "make picosim", "make capture PORT=/dev/ttyACM1",
           "make replay LOG=matches/match-001.log", "make deploy DRIVE=/media/$USER/CIRCUITPY",
           "make deploy DRIVE=/Volumes/CIRCUITPY", "make hil", "make fuzz",
           "make fuzz FUZZ_CASES=200000 FUZZ_SEED=7", "make fuzz FUZZ_CASES=100000 FUZZ_SEED=11",
           "make soak", "make libcost", "make heap", "JOBS=0 make test", "make cpstack", "make cpstack-unix", "make link")


def key(command):
    """A command's first line, without its ``# comment`` or a continuing backslash."""
    first = command.split("\n")[0]
    first = re.sub(r"\s+#.*$", "", first).strip()
    return re.sub(r"\s+\\$", "", first) if "\n" in command else first


def _quoted_by_key():
    out = {}
    for command, docs in quoted().items():
        out.setdefault(key(command), (command, docs))
    return out


QUOTED = _quoted_by_key()


def test_every_quoted_command_is_declared_once_and_every_declared_one_is_quoted():
    declared = list(RUN) + list(NOT_RUN)
    assert len(declared) == len(set(declared)), "a command is in both lists (or twice)"
    missing = [k for k in QUOTED if k not in declared]
    assert not missing, ("quoted in the docs but in neither RUN nor NOT_RUN of %s: %s"
                         % (Path(__file__).name, missing))
    stale = [k for k in declared if k not in QUOTED]
    assert not stale, "listed but no doc quotes it any more: %s" % stale
    assert set(DRY_RUN) <= set(NOT_RUN)
    assert all(reason.strip() for reason in NOT_RUN.values())


# ------------------------------------------------------------------ running them


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A copy of the repository's files, with this checkout's .venv and node_modules."""
    if not (ROOT / ".venv" / "bin" / "python").exists() or not (ROOT / "node_modules").exists():
        pytest.skip("needs .venv and node_modules (make venv node_modules)")
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    dest = tmp_path_factory.mktemp("clone") / "california-speed"
    for name in filter(None, files):
        src = ROOT / os.fsdecode(name)
        if src.is_file():
            (dest / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / os.fsdecode(name))  # mtimes kept: make's stamps hold
    for link in (".venv", "node_modules"):
        (dest / link).symlink_to(ROOT / link)
    return dest


def _env(clone):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MAKEFLAGS", "MFLAGS", "MAKELEVEL",
                        "CSPEED_ATTRACT_S", "PYTHONPATH")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONDONTWRITEBYTECODE="1",
               XDG_CACHE_HOME=str(clone / ".cache"))
    if not FULL:
        env["BENCH_QUICK"] = "1"
    return env


def _tools():
    """Every tools module with a command line (argparse)."""
    names = []
    for path in sorted((ROOT / "tools").iterdir()):
        main = path / "__main__.py" if path.is_dir() else path
        if main.suffix == ".py" and main.exists() and "argparse" in main.read_text():
            names.append(path.stem if path.is_file() else path.name)
    return names


def _to_run(command):
    commands = [command]
    if key(command) == ".venv/bin/python -m tools.NAME --help":
        commands = [command.replace("NAME", name) for name in _tools()]
    if not FULL:
        for pattern, short in SHORT:
            commands = [re.sub(pattern, short, c) for c in commands]
    return commands


def _check_wiring(clone, out):
    # make wiring regenerates BUILD.md's pin table: the committed one must be current
    assert (clone / "docs" / "BUILD.md").read_text() == (ROOT / "docs" / "BUILD.md").read_text()


def _check_example(clone, out):
    for name in ("frames", "run.gif", "end.png", "match.log"):
        assert (clone / "out" / name).exists(), name


def _check_replay(clone, out):
    assert '"ev": "deal"' in out and '"r": "tie"' in out  # docs/example.script's A3+B3


def _check_play(clone, out):
    assert (clone / "build" / "emulator-play" / "demo.gif").exists()


def _check_pictures(clone, out):
    from tools import pictures

    for name, args in pictures.PICTURES:
        for each in pictures.files(name, args):
            assert pictures.compare(each, args, clone / each, ROOT / each) is None, each


CHECKS = {
    "make wiring": _check_wiring,
    ".venv/bin/python -m tools.emulate --headless --nvm none --seed 7 --script docs/example.script":
        _check_example,
    "tools/replay out/match.log": _check_replay,
    "make play": _check_play,
    "make pictures": _check_pictures,
}


def _run_ids():
    return [re.sub(r"\s+", "_", k)[:60] for k in RUN]


@pytest.mark.parametrize("name", RUN, ids=_run_ids())
def test_quoted_command_runs_as_printed(name, clone):
    if name not in QUOTED:
        pytest.fail("no doc quotes %r any more" % name)
    command, docs = QUOTED[name]
    for line in _to_run(command):
        run = subprocess.run(["bash", "-c", line], cwd=clone, env=_env(clone),
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, "%s quotes `%s`: exit %d\n%s%s" % (
            ", ".join(docs), line, run.returncode, run.stdout[-2000:], run.stderr[-2000:])
        assert "Traceback" not in run.stderr, line
    check = CHECKS.get(name)
    if check:
        check(clone, run.stdout)


@pytest.mark.parametrize("name", DRY_RUN, ids=[re.sub(r"\s+", "_", k) for k in DRY_RUN])
def test_quoted_make_command_parses(name, clone):
    run = subprocess.run(["bash", "-c", name.replace("make ", "make -n ", 1)], cwd=clone,
                         env=_env(clone), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, (name, run.stderr)
    assert run.stdout.strip(), name  # the recipe it would run


def test_make_bench_after_make_play_sets_up_the_vm(tmp_path):
    """After only `make play` (a .venv, no node_modules), `make bench` installs the VM first."""
    for name in ("Makefile", "requirements-dev.txt", "package.json", "package-lock.json"):
        shutil.copy2(ROOT / name, tmp_path / name)
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / ".stamp").touch()  # what make play's bootstrap leaves
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "bench_engine.py").touch()
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    dry = subprocess.run(["make", "-n", "bench"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    steps = dry.stdout.splitlines()
    npm = [i for i, s in enumerate(steps) if s.startswith("npm ci")]
    bench = [i for i, s in enumerate(steps) if "tools.bench_engine" in s]
    assert npm and bench and npm[0] < bench[0], dry.stdout
    assert not any("-m venv" in s for s in steps), dry.stdout  # .venv is kept
