"""tools/picosim: the unchanged firmware on the real CircuitPython 10.2.1 Pico UF2.

The UF2 runs in rp2040js (an emulated RP2040); the tests need the UF2, the bootrom
and CircuitPython's mpy-cross (``tools.cpstack``, ``make cpstack``) and skip, naming
the missing file and that command, where one is absent.

One emulated session is shared by the tests that need the Pico (about 18 s of
emulated time, 1-3 minutes of wall time): boot; the title; after 1 s idle the
firmware's attract demo (CPU vs CPU); START ends it; START opens the menu; START
begins a two-player match with the menu's defaults; then both players press
through the Pico profile's GPIO pins every 200 ms; it ends in a quiet moment. The
same session is then played again in ``tools/emulate`` (``tools.picosim.mirror``),
with the device's logged presses at the device's game times, and the two pictures
are compared pixel for pixel.

A second, short session (6.5 s emulated) holds START from power-on: the button test
mode comes up, prints its console lines and counts a press.
"""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tools.picosim import analyze
from tools.picosim.run import missing, profile_pins

ROOT = Path(__file__).resolve().parent.parent
REASON = missing()
needs_pico = pytest.mark.skipif(REASON is not None, reason=REASON or "")

SEED = 4242
SETTINGS = {"CSPEED_ATTRACT_S": "1"}
MENU_MS = (7000, 7600, 8200)  # stop the demo; title -> menu; menu -> match
PRESS_FROM_MS, PRESS_TO_MS, PRESS_EVERY_MS = 10600, 14000, 200
RUN_S = 15.5


def script_text():
    """The session's key script (tools/emulate's format; ms after code.py starts)."""
    lines = ["%d tap START" % ms for ms in MENU_MS]
    for i, ms in enumerate(range(PRESS_FROM_MS, PRESS_TO_MS, PRESS_EVERY_MS)):
        lines.append("%d tap %s%d" % (ms, "AB"[i % 2], (i * 3) % 8))
    return "\n".join(lines) + "\n"


class Session:
    """The shared picosim run and what was read from it."""


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    from tools.emulate import script as scripts
    from tools.emulate.keys import logical_keys
    from tools.picosim.__main__ import seeded_code
    from tools.picosim.run import run

    tmp = tmp_path_factory.mktemp("picosim")
    names = logical_keys()
    out = Session()
    out.events = [(ms, names[n], down) for ms, n, down in scripts.parse(script_text())]
    out.keys = profile_pins()[0]
    out.result = run(tmp / "run", seconds=RUN_S, events=out.events, settings=SETTINGS,
                     code=seeded_code(tmp, SEED), capture_frames=True)
    out.matches = analyze.split_matches(out.result.data)
    out.status, out.results = analyze.replay_results(out.result.data)
    out.presses = analyze.press_latencies(out.result, out.keys, results=out.results)
    return out


@pytest.fixture(scope="module")
def desktop(session):
    from tools.picosim.mirror import mirror

    return mirror(session.result, session.events, SEED, SETTINGS, session.keys)


def _trace(text):
    from tools.replay import replay

    out = io.StringIO()
    assert replay(io.StringIO(text), out) == 0, text
    return [json.loads(line) for line in out.getvalue().splitlines()]


# ----------------------------------------------------------------- the Pico


@needs_pico
def test_boots_and_runs_without_traceback_or_safe_mode(session):
    result = session.result
    assert "code.py" in result.console
    assert analyze.console_problems(result.console) == [], result.console
    assert result.ms(result.done["t"]) >= RUN_S * 1000  # ran the whole time
    assert (result.done["width"], result.done["height"]) == (320, 240)  # MADCTL: landscape


@needs_pico
def test_title_then_frames_drawn_by_the_real_displayio(session):
    drawn = [b for b in session.result.bursts if b["changed"]]
    first = drawn[0]
    assert first["pixels"] == 320 * 240  # the title: one full-screen refresh
    assert len(drawn) >= 10  # the demo and the match redraw as they go
    small = [b for b in drawn[1:] if b["pixels"] < 320 * 240 // 4]
    assert len(small) > len(drawn) // 2  # most refreshes redraw a card or two, not all
    frames = list(session.result.frames())
    assert len(frames) == len(drawn)
    assert not np.array_equal(frames[0][1], frames[-1][1])


@needs_pico
def test_attract_demo_played_and_its_log_replays(session):
    demo, match = session.matches[0], session.matches[-1]
    data = session.result.data.decode()
    assert "# attract\nCSLOG 1" in data and "# attract stopped (button)" in data
    trace = _trace(demo)
    assert sum(1 for e in trace if e["ev"] == "press") >= 1  # the CPUs played
    assert demo != match and len(session.matches) == 2


@needs_pico
def test_scripted_game_through_gpio_replays(session, tmp_path):
    assert session.status == 0
    log = tmp_path / "match.log"
    log.write_text(session.matches[-1])
    done = subprocess.run([sys.executable, "-m", "tools.replay", str(log)], cwd=str(ROOT),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    trace = _trace(session.matches[-1])
    assert [json.loads(line) for line in done.stdout.splitlines()] == trace
    presses = [e for e in trace if e["ev"] == "press"]
    scripted = len(range(PRESS_FROM_MS, PRESS_TO_MS, PRESS_EVERY_MS))
    assert len(presses) == scripted  # every GPIO press reached the engine, once
    assert {e["p"] for e in presses} == {"A", "B"}
    assert any(e["r"] == "cover" for e in presses)
    # Each scripted press is stamped with the device's clock 3-7 ms after the device's
    # clock at its edge: keypad's third scan, 4-7 ticks of 977 us (tools.picosim.analyze).
    labelled = [p for p in session.presses if "log_t" in p]
    assert len(labelled) == scripted
    assert all(3 <= p["scan_ms"] <= 7 for p in labelled), \
        [(p["t_ms"], p["scan_ms"]) for p in labelled]


@needs_pico
def test_screen_is_the_desktop_emulators_picture_of_the_same_game(session, desktop):
    """Pixel for pixel: same firmware source, same presses at the same game times."""
    assert desktop.seed_ok, "the desktop's match did not get the device's shuffle seed"
    # Both engines reached the same table; it is the device log's replayed state.
    trace = _trace(session.matches[-1])
    last_tops = [e["tops"] for e in trace if "tops" in e][-1]
    from engine.cards import NO_CARD, card_name

    assert [None if c == NO_CARD else card_name(c) for c in desktop.tops] == \
        [None if c in (None, "--") else c for c in last_tops]
    shown = session.result.frame
    assert shown.shape == desktop.pixels.shape
    diff = np.argwhere((shown != desktop.pixels).any(axis=2))
    assert len(diff) == 0, "%d pixels differ, e.g. (y, x) %s" % (len(diff), diff[:5].tolist())


@needs_pico
def test_press_to_pixel_is_measured_for_each_press(session):
    timed = [p for p in session.presses if "latency_ms" in p]
    summary = analyze.latency_summary(session.presses)
    assert summary["presses"] >= len(range(PRESS_FROM_MS, PRESS_TO_MS, PRESS_EVERY_MS))
    covers = [p for p in timed if p.get("r") == "cover"]
    assert covers, session.presses
    for p in covers:
        # A cover is drawn: after the scan (>= 3.9 ms), before the next press.
        assert 3.9 <= p["to_first_byte_ms"] < p["latency_ms"] < PRESS_EVERY_MS
    assert summary["latency_ms"]["median"] <= summary["latency_ms"]["p95"]


# ------------------------------------------- the button test mode, from power-on

BUTTON_SCRIPT = "0 down START\n5000 up START\n5500 tap A0\n"  # START held from power-on
BUTTON_RUN_S = 6.5


@pytest.fixture(scope="module")
def button_session(tmp_path_factory):
    from tools.emulate import script as scripts
    from tools.emulate.keys import logical_keys
    from tools.picosim.run import run

    names = logical_keys()
    events = [(ms, names[n], down) for ms, n, down in scripts.parse(BUTTON_SCRIPT)]
    return run(tmp_path_factory.mktemp("picosim_btn") / "run", seconds=BUTTON_RUN_S,
               events=events, settings={"CSPEED_ATTRACT_S": "0"})


@needs_pico
def test_start_held_at_power_on_opens_the_button_test_and_counts_a_press(button_session):
    """On the real keypad a key held when the scanner is made reports nothing until the
    firmware's rescan: the mode comes up, START's hold and A n1's press are printed."""
    import re

    result = button_session
    assert analyze.console_problems(result.console) == [], result.console
    assert "btn test on:" in result.console
    lines = re.findall(r"btn (\S+) (\S+) (down|up) t=(\d+) presses=(\d+) bounces=(\d+)",
                       result.console)
    assert [(k, pin, state, int(n)) for k, pin, state, _, n, _ in lines] == [
        ("START", "GP22", "down", 1), ("START", "GP22", "up", 1),
        ("An1", "GP0", "down", 1), ("An1", "GP0", "up", 1)], result.console
    t = [int(line[3]) for line in lines]
    assert 1000 <= t[1] - t[0] < 5000 and 30 <= t[3] - t[2] <= 50  # START held past 1 s; a tap
    r, g, b = result.frame[190, 5][:3]  # A n1's box (bottom left): green once pressed
    assert g > 100 and r < 60 and b < 90, (r, g, b)


# ------------------------------------------------------- without the Pico


def test_diag_lines_are_parsed_generically():
    from tools.picosim.run import Result

    result = Result(t0=1_000_000)
    result.console_chunks = [(1_500_000, "\x1b]0;\U0001f40dcode.py | 10.2.1\x1b\\diag boot "
                                         "free=168000\r\n"),
                             (2_000_000, "\x1b[2K\x1b[0Ghello\r\ndiag build free=91234 "),
                             (3_500_000, "lowest=-5\r\ndiag stats frames=10 loop_us=1130 x=ab\r\n")]
    records = analyze.diag_records(result)
    assert [r["tag"] for r in records] == ["boot", "build", "stats"]
    assert records[0] == {"tag": "boot", "t_ms": 0.5, "free": 168000}  # after the title
    records = records[1:]
    assert records[0]["free"] == 91234 and records[0]["lowest"] == -5
    assert records[0]["t_ms"] == 2.5  # the time its last chunk arrived
    assert records[1] == {"tag": "stats", "t_ms": 2.5, "frames": 10, "loop_us": 1130, "x": "ab"}


def test_device_clock_is_circuitpythons_1024_hz_tick():
    start = (1 << 29) - (1 << 16)  # supervisor.ticks_ms() at reset
    assert analyze.device_ticks_ms(0) == start
    assert analyze.device_ticks_ms(977_000) == start  # 977 us: tick 1, still ms 0
    assert analyze.device_ticks_ms(977_000_000) == start + 976  # tick 1000: 1 000 000 // 1024
    assert analyze.device_ticks_ms(2 * 977_000) == start + 1  # tick 2: 2000 // 1024
    assert analyze.device_ticks_ms(999_999_000) == start + 999  # tick 1023, the short one
    assert analyze.device_ticks_ms(1_000_000_000) == start + 1000  # a new second: tick 1024
    assert analyze.device_ticks_ms(70_000_000_000) == 70_000 - (1 << 16)  # wrapped


def test_presses_are_labelled_from_the_device_clock_not_from_each_other():
    from tools.picosim.run import Result

    pins = list(range(17))
    result = Result(t0=1_000_000_000)  # 1 s after reset
    result.edges = [{"t": result.t0 + ms * 1_000_000, "pin": pin, "high": False}
                    for ms, pin in ((100, 0), (300, 8), (500, 0))]
    at = [analyze.device_ticks_ms(e["t"]) for e in result.edges]
    # A0 at 100 ms stamped 5 ms on; B's 300 ms press (B0 is table position 4) 70 ms
    # late, as a press stamped by the game loop would be; A0 again at 500 ms, 7 ms on.
    result.data = ("CSLOG 1\npress %d A 0\npress %d B 4\npress %d A 0\n"
                   % (at[0] + 5, at[1] + 70, at[2] + 7)).encode()
    presses = analyze.press_latencies(result, pins, results=["cover", "illegal", "locked"])
    assert [p.get("scan_ms") for p in presses] == [5, None, 7]
    assert [p.get("r") for p in presses] == ["cover", None, "locked"]


def test_console_problems():
    assert analyze.console_problems("code.py\nhello\n") == []
    tb = "Traceback (most recent call last):\n  File ...\nMemoryError: memory allocation failed"
    assert analyze.console_problems(tb) == ["a traceback on the console", "MemoryError"]
    assert analyze.console_problems("You are in safe mode because:\n") == \
        ["CircuitPython is in safe mode"]


def test_fat_image_holds_long_names_and_data():
    from tools.picosim.fat import SECTOR, make_image

    files = {"settings.toml": b"A = \"1\"\n", "lib/adafruit_display_text/bitmap_label.mpy":
             bytes(range(256)) * 5, "code.py": b"print(1)\n"}
    image = make_image(files, 2048)
    assert len(image) == 2048 * SECTOR and image[510:512] == b"\x55\xaa"
    assert image[54:62] == b"FAT12   "

    def utf16(text):
        return text.encode("utf-16-le")

    for name in ("settings.toml", "bitmap_label.mpy", "adafruit_display_text"):
        assert utf16(name[:5]) in image  # the long name's first LFN slot
    assert bytes(range(256)) * 5 in image  # contiguous file data
    assert image.count(b"print(1)\n") == 1


def test_drive_brings_every_adafruit_library_the_firmware_imports():
    from tools.picosim.drive import drive_files, library_files

    libs = library_files()
    imported = set()
    for package in ("engine", "hw"):
        for path in (ROOT / package).rglob("*.py"):
            for line in path.read_text().splitlines():
                words = line.split()
                if len(words) >= 2 and words[0] in ("import", "from") and \
                        words[1].startswith("adafruit_"):
                    imported.add(words[1])
    assert imported  # the firmware uses Adafruit libraries
    for name in imported:
        rel = name.replace(".", "/")
        assert rel + ".py" in libs or rel + "/__init__.py" in libs, name
    files = drive_files({"CSPEED_ATTRACT_S": "3"}, mpy=())
    assert files["settings.toml"].decode().splitlines()[-1] == 'CSPEED_ATTRACT_S = "3"'
    assert files["code.py"] == (ROOT / "code.py").read_bytes()
    assert all(not p.startswith("lib/adafruit_blinka") for p in files)


@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_drive_libraries_compile_with_circuitpythons_mpy_cross():
    from tools.picosim.drive import drive_files

    files = drive_files(mpy=("lib",))
    mpys = [p for p in files if p.startswith("lib/") and p.endswith(".mpy")]
    assert mpys and not [p for p in files if p.startswith("lib/") and p.endswith(".py")]
    assert all(files[p][:2] == b"C\x06" for p in mpys)  # mpy v6 (CircuitPython 10)


def test_tool_errors_are_one_line_and_exit_2(tmp_path, monkeypatch):
    from tools.picosim import __main__ as cli
    from tools.picosim import run as runs

    monkeypatch.setattr(runs, "UF2", tmp_path / "absent.uf2")
    done = _cli(cli, ["--seconds", "1", "--workdir", str(tmp_path)])
    assert done[0] == 2 and "is missing: run `make cpstack`" in done[2]
    assert len(done[2].strip().splitlines()) == 1
    monkeypatch.undo()
    if REASON is None:
        done = _cli(cli, ["--setting", "NOEQUALS", "--workdir", str(tmp_path)])
        assert done[0] == 2 and done[2].startswith("tools.picosim: --setting needs KEY=VALUE")
        assert len(done[2].strip().splitlines()) == 1


def _cli(cli, argv):
    import contextlib

    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(argv)
    return status, out.getvalue(), err.getvalue()


def test_command_line_help_runs():
    done = subprocess.run([sys.executable, "-m", "tools.picosim", "--help"], cwd=str(ROOT),
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert done.returncode == 0 and "--latency" in done.stdout


# ------------------------------------------- the shared-row game on the Pico

# A second session (issue 13): the Pico boots with "Shared row" remembered in its nvm
# (the flash model given the sector a menu choice wrote) and CSPEED_DIAG=1. The
# firmware demos the row game after 1 s idle; START ends it and opens the menu; pad A
# sets "Match by: suit" (up, up, +, +: from the default "rank or suit" through "rank";
# a blind press then often plays); START
# begins a two-player row match; both players press through the GPIO pins.
ROW_SEED = 1313
ROW_SETTINGS = {"CSPEED_ATTRACT_S": "1", "CSPEED_DIAG": "1"}
ROW_MENU = ((6500, "START"), (7100, "START"), (7400, "A0"), (7550, "A0"), (7700, "A3"),
            (7850, "A3"), (8300, "START"))
ROW_PRESS_FROM_MS, ROW_PRESS_TO_MS, ROW_PRESS_EVERY_MS = 10700, 13000, 150
ROW_RUN_S = 16.5  # past the diag sample after the presses (every 3 s from the build, ~3 s in)


def row_script_text():
    lines = ["%d tap %s" % item for item in ROW_MENU]
    for i, ms in enumerate(range(ROW_PRESS_FROM_MS, ROW_PRESS_TO_MS, ROW_PRESS_EVERY_MS)):
        lines.append("%d tap %s%d" % (ms, "AB"[i % 2], (i * 5) % 8))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def row_session(tmp_path_factory):
    from tools.emulate import script as scripts
    from tools.emulate.keys import logical_keys
    from tools.picosim.__main__ import game_nvm, seeded_code
    from tools.picosim.run import run

    tmp = tmp_path_factory.mktemp("picosim_row")
    names = logical_keys()
    out = Session()
    out.nvm = game_nvm("row")
    out.events = [(ms, names[n], down) for ms, n, down in scripts.parse(row_script_text())]
    out.keys = profile_pins()[0]
    out.result = run(tmp / "run", seconds=ROW_RUN_S, events=out.events, settings=ROW_SETTINGS,
                     code=seeded_code(tmp, ROW_SEED), capture_frames=True,
                     flash={"nvm": out.nvm})
    out.matches = analyze.split_matches(out.result.data)
    out.diag = analyze.diag_records(out.result)
    return out


@needs_pico
def test_row_game_demo_and_match_on_the_pico_replay(row_session):
    result = row_session.result
    assert analyze.console_problems(result.console) == [], result.console
    data = result.data.decode()
    assert "# attract\nCSLOG 1\nrules game=row piles=4 match=either redeal=all" in data
    demo, match = row_session.matches[0], row_session.matches[-1]
    assert len(row_session.matches) == 2
    assert match.splitlines()[1].startswith("rules game=row piles=4 match=suit redeal=all")
    demo_trace = _trace(demo)
    assert any(e["ev"] == "press" for e in demo_trace)  # the row bots played
    assert any(e["ev"] == "deal" and len(e["tops"]) == 4 for e in demo_trace)
    trace = _trace(match)
    presses = [e for e in trace if e["ev"] == "press"]
    scripted = len(range(ROW_PRESS_FROM_MS, ROW_PRESS_TO_MS, ROW_PRESS_EVERY_MS))
    assert len(presses) == scripted  # every GPIO press reached the engine, once
    assert {e["p"] for e in presses} == {"A", "B"} and {e["pos"] for e in presses} <= {0, 1, 2, 3}
    assert {e["r"] for e in presses} & {"cover", "illegal"}


@needs_pico
def test_row_game_allocates_nothing_per_frame_on_the_pico(row_session):
    build = [r for r in row_session.diag if r["tag"] == "build"]
    stats = [r for r in row_session.diag if r["tag"] == "stats"]
    assert build and build[0]["free"] > 20000, row_session.diag
    last = stats[-1]
    scripted = len(range(ROW_PRESS_FROM_MS, ROW_PRESS_TO_MS, ROW_PRESS_EVERY_MS))
    assert last["press_n"] > scripted // 2 and last["idle_n"] > 0  # the GPIO presses' frames
    assert last["press_alloc"] == 0 and last["idle_alloc"] == 0, stats
    for record in row_session.diag:  # the figures, for the record (pytest -s)
        print("row game on the Pico: " + " ".join("%s=%s" % kv for kv in record.items()))


@needs_pico
def test_row_screen_is_the_desktop_emulators_picture(row_session):
    from tools.picosim.mirror import mirror

    settings = {k: v for k, v in ROW_SETTINGS.items() if k != "CSPEED_DIAG"}
    desktop = mirror(row_session.result, row_session.events, ROW_SEED, settings,
                     row_session.keys, nvm=row_session.nvm)
    assert desktop.seed_ok, "the desktop's match did not get the device's shuffle seed"
    shown = row_session.result.frame
    diff = np.argwhere((shown != desktop.pixels).any(axis=2))
    assert len(diff) == 0, "%d pixels differ, e.g. (y, x) %s" % (len(diff), diff[:5].tolist())


# ------------------------------------------------------- Speed on the Pico

SPEED_SEED = 777
SPEED_SETTINGS = {"CSPEED_ATTRACT_S": "1", "CSPEED_DIAG": "1"}
SPEED_MENU_MS = (9000, 9500, 10000)  # stop the Speed demo; title -> menu; menu -> match
SPEED_PRESS_FROM_MS, SPEED_PRESS_TO_MS, SPEED_PRESS_EVERY_MS = 12200, 16400, 150
SPEED_RUN_S = 18.5
# Speed's pads (hw/games/speed/keys.py), as tools/emulate script keys (table positions):
# A's cards 0-4 = A0 A1 A2 A3 A5, A's piles = A7 (left) / A4 (right);
# B's cards 0-4 = B4 B5 B6 B7 B2, B's piles = B3 (left) / B0 (right).
SPEED_CARDS = (("A0", "A1", "A2", "A3", "A5"), ("B4", "B5", "B6", "B7", "B2"))
SPEED_PILES = (("A7", "A4"), ("B3", "B0"))


def speed_script_text():
    """Blind play: each player in turn presses a card then a pile (a card that fits one
    pile is played by the first press, the pile press then plays nothing)."""
    lines = ["%d tap START" % ms for ms in SPEED_MENU_MS]
    for i, ms in enumerate(range(SPEED_PRESS_FROM_MS, SPEED_PRESS_TO_MS, SPEED_PRESS_EVERY_MS)):
        seat, j = (i // 2) % 2, i // 4
        key = SPEED_CARDS[seat][j % 5] if i % 2 == 0 else SPEED_PILES[seat][j % 2]
        lines.append("%d tap %s" % (ms, key))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def speed_session(tmp_path_factory):
    """The Pico booted with Speed remembered in its nvm (as after a Speed match was
    chosen): the Speed demo, then a two-player Speed match pressed through GPIO, with
    CSPEED_DIAG on."""
    from tools.emulate import script as scripts
    from tools.emulate.keys import logical_keys
    from tools.picosim.__main__ import game_nvm, seeded_code
    from tools.picosim.run import run

    tmp = tmp_path_factory.mktemp("picosim_speed")
    names = logical_keys()
    out = Session()
    out.events = [(ms, names[n], down) for ms, n, down in scripts.parse(speed_script_text())]
    out.result = run(tmp / "run", seconds=SPEED_RUN_S, events=out.events,
                     settings=SPEED_SETTINGS, code=seeded_code(tmp, SPEED_SEED),
                     flash={"nvm": game_nvm("speed")})
    out.matches = analyze.split_matches(out.result.data)
    out.diag = analyze.diag_records(out.result)
    return out


def _replayed_speed(text):
    """The engine a Speed log leaves (its last tick judged), replayed on the desktop."""
    from engine.grid import GridGame
    from engine.log import play_lines

    games = [GridGame()]
    play_lines(games[0], text.split("\n"), games.append)
    game = games[-1]
    game.finish()
    return game


@needs_pico
def test_speed_on_the_pico_demo_and_match_replay_and_the_screen_is_the_logs(speed_session):
    result = speed_session.result
    assert analyze.console_problems(result.console) == [], result.console
    data = result.data.decode()
    assert "# attract\nCSLOG 1\nrules game=speed " in data  # the demo plays Speed
    demo, match = speed_session.matches[0], speed_session.matches[-1]
    assert demo != match and match.splitlines()[1].startswith("rules game=speed cards=20 ")
    for text in (demo, match):
        trace = _trace(text)  # tools.replay reads it without an error
        assert any(e["ev"] == "press" for e in trace)
    presses = [e for e in _trace(match) if e["ev"] == "press"]
    assert {e["p"] for e in presses} == {"A", "B"} and any(e["r"] == "cover" for e in presses)
    # Fewer plays than key presses: a card that fits both piles (or none) waits for a
    # pile key, a pile key with no card selected plays nothing.
    assert len(presses) < len(range(SPEED_PRESS_FROM_MS, SPEED_PRESS_TO_MS, SPEED_PRESS_EVERY_MS))

    # The Pico's last frame shows the hands and piles of the log's replay: each card's
    # face drawn by the desktop's SpeedView from the replayed engine, pixel for pixel
    # (RGB565; the borders carry selections and locks, which the log does not).
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from tools import cpstubs

    cpstubs.install()
    from hw.draw import gfx
    from hw.games.speed.keys import Controls
    from hw.games.speed.table import SpeedView, card_sheets, hand_places, pile_places, speed_layout
    from tools.cpstubs.screen import make_display, snapshot

    game = _replayed_speed(match)
    assert game.GAME == "speed"
    game.controls = Controls()
    display = make_display(320, 240)
    view = SpeedView(320, 240, gfx.glyph_sheet(), card_sheets(320, 240))
    display.root_group = view.group
    view.update(game, game.clock, 0, False)
    desktop = np.asarray(snapshot(display), dtype=np.uint8)
    device = result.frame
    geo = speed_layout(320, 240)
    boxes = [(x, y, geo["hand_w"], geo["hand_h"]) for x, y in hand_places(geo)]
    boxes += [(x, y, geo["pile_w"], geo["pile_h"]) for x, y in pile_places(geo)]
    b = gfx.BORDER
    for x, y, w, h in boxes:
        for image in (device, desktop):
            assert image[y + b:y + h - b, x + b:x + w - b].shape == (h - 2 * b, w - 2 * b, 3)
        shift = np.array([3, 2, 3], dtype=np.uint8)
        got = device[y + b:y + h - b, x + b:x + w - b] >> shift
        want = desktop[y + b:y + h - b, x + b:x + w - b] >> shift
        assert np.array_equal(got, want), (x, y)


@needs_pico
def test_speed_on_the_pico_allocates_nothing_per_frame(speed_session):
    """CSPEED_DIAG on the real CircuitPython: 0 B per idle and per press frame in the
    Speed demo and match, and the heap after the build with Speed in it."""
    records = speed_session.diag
    build = [r for r in records if r["tag"] == "build"]
    stats = [r for r in records if r["tag"] == "stats"]
    assert build and build[0]["free"] > 40000, build
    assert stats and stats[-1]["press_n"] > 0 and stats[-1]["idle_n"] > 0, stats
    assert all(r["press_alloc"] == 0 and r["idle_alloc"] == 0 for r in stats), stats
    assert stats[-1]["low"] > 20000, stats
