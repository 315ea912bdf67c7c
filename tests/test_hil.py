"""tools/hil: scenarios, trace comparison, the emulate target (the picosim target: make hil)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools.hil import compare, scenario as scenarios, targets

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "tests" / "hil").glob("*.script"))


def test_scenario_settings_and_errors(tmp_path):
    path = tmp_path / "s.script"
    path.write_text("# hil seed=3 seconds=9 CSPEED_ATTRACT_S=0\n100 tap START\n")
    sc = scenarios.load(str(path))
    assert (sc.seed, sc.seconds, sc.events[0][0]) == (3, 9.0, 100)
    assert sc.logical_events()[0] == (100, 16, True)
    path.write_text("# hil colour=red\n100 tap START\n")
    with pytest.raises(scenarios.ScenarioError, match="unknown setting"):
        scenarios.load(str(path))
    path.write_text("# nothing\n")
    with pytest.raises(scenarios.ScenarioError, match="no key events"):
        scenarios.load(str(path))


def test_first_difference_respects_the_tolerance():
    a = [{"ev": "press", "t": 100, "p": "A", "pos": 0, "r": "cover"}]
    assert compare.first_difference(a, [dict(a[0], t=108)], 10) is None
    assert compare.first_difference(a, [dict(a[0], t=111)], 10)[0] == 0
    assert compare.first_difference(a, [dict(a[0], r="illegal")], 10)[0] == 0
    assert compare.first_difference(a, a + a, 10) == (1, None, a[0])


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_on_the_emulator_matches_its_expected_trace(path):
    sc = scenarios.load(str(path))
    data = targets.run_emulate(sc)
    trace = compare.normalize(data)
    assert sum(1 for e in trace if e["ev"] == "press") >= 8
    assert trace[0]["ev"] == "deal" and trace[0]["t"] == 0  # times relative to the deal
    expected = compare.read_expected(sc.expected_path)
    assert compare.first_difference(expected, trace, 10) is None


def test_a_changed_press_is_reported_as_the_first_difference(tmp_path):
    src = ROOT / "tests" / "hil" / "two_players.script"
    text = src.read_text().replace("2900  tap A1", "2900  tap A2")
    path = tmp_path / "two_players.script"
    path.write_text(text)
    (tmp_path / "two_players.expected").write_text(
        (ROOT / "tests" / "hil" / "two_players.expected").read_text())
    done = subprocess.run([sys.executable, "-m", "tools.hil", "--emulate", str(path),
                           "--workdir", str(tmp_path / "out")], cwd=str(ROOT),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "expected != emulate at event" in done.stdout
    line = [l for l in done.stdout.splitlines() if l.strip().startswith("emulate: {")][0]
    differing = json.loads(line.split(": ", 1)[1])
    assert differing["ev"] == "press" and differing["p"] == "A" and differing["pos"] == 2


def test_tool_error_is_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tools.hil", str(tmp_path / "none.script")],
                          cwd=str(ROOT), capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("tools.hil: ")


def test_port_target_drives_the_emulator_over_its_pty_in_real_time(tmp_path):
    """--port end to end: the firmware's test mode, injected keys, the log back (real time)."""
    import os
    import re
    import time

    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               CSPEED_ATTRACT_S="0")
    emu = subprocess.Popen([sys.executable, "-m", "tools.emulate", "--window", "--nvm", "none",
                            "--seed", "7", "--seconds", "40"], cwd=str(ROOT), env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        deadline = time.monotonic() + 30
        while port is None and time.monotonic() < deadline:
            line = emu.stdout.readline()
            found = re.search(r"/dev/pts/\d+", line)
            port = found.group(0) if found else None
        assert port, "the emulator did not print its port"
        done = subprocess.run([sys.executable, "-m", "tools.hil", "--port", port,
                               str(ROOT / "tests" / "hil" / "two_players.script"),
                               "--workdir", str(tmp_path)], cwd=str(ROOT), capture_output=True,
                              text=True, check=False, timeout=120)
        # Real time on a shared machine: a late loop can read two key lines in one pass
        # (one stamp), so results may differ from the expected trace; the keys may not.
        assert done.returncode in (0, 1), done.stdout + done.stderr
        log = (tmp_path / ("two_players.%s.log" % port.replace("/", "_"))).read_bytes()
        got = [(e["p"], e["pos"]) for e in compare.normalize(log) if e["ev"] == "press"]
        want = [(e["p"], e["pos"]) for e in compare.read_expected(
            str(ROOT / "tests" / "hil" / "two_players.expected")) if e["ev"] == "press"]
        assert got == want
    finally:
        emu.terminate()
        emu.wait(timeout=10)


@pytest.mark.parametrize("content, words", [
    (b"{not json\n", "line 1: not JSON"),
    (b'{"ev": "deal", "t": 0}\n\xff\xfe\n', "line 2: not UTF-8"),
    (b'{"ev": "deal", "t": 0}\n[1, 2]\n', "line 2: not a trace event"),
    (b'5\n', "line 1: not a trace event"),
    (b'{"t": 3}\n', "line 1: not a trace event"),
])
def test_an_expected_file_that_is_not_a_trace_is_a_tool_error(content, words, tmp_path):
    """Issue 23 item 10: one line and exit 2 (a tool error), not a traceback and exit 1."""
    path = tmp_path / "two_players.script"
    path.write_text((ROOT / "tests" / "hil" / "two_players.script").read_text())
    (tmp_path / "two_players.expected").write_bytes(content)
    done = subprocess.run([sys.executable, "-m", "tools.hil", "--emulate", str(path),
                           "--workdir", str(tmp_path / "out")], cwd=str(ROOT),
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == "tools.hil: %s: %s\n" % (tmp_path / "two_players.expected", words) \
        or (done.stderr.startswith("tools.hil: %s: %s" % (tmp_path / "two_players.expected", words))
            and done.stderr.count("\n") == 1), done.stderr


def test_the_exit_codes_are_documented():
    done = subprocess.run([sys.executable, "-m", "tools.hil", "--help"], cwd=str(ROOT),
                          capture_output=True, text=True, check=True)
    text = " ".join(done.stdout.split())
    for words in ("Exit status: 0 all traces agree", "1 a difference", "2 a tool error"):
        assert words in text
