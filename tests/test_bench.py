"""tools/bench_engine: every measured press is accepted and judged, and the engine
stays within its budget of lines per judged press (issue 10)."""

from pathlib import Path

import pytest

from engine import grid as game_module
from engine.family import E_TIME, RESULT_NAMES
from tools import bench_engine as bench

ROOT = Path(__file__).resolve().parent.parent

BUDGET = 120  # median engine lines per judged press, for every result


@pytest.mark.parametrize("name,rules", bench.SETTINGS, ids=[s[0] for s in bench.SETTINGS])
def test_every_result_is_measured_within_budget(name, rules):
    by = bench.judged_press_lines(rules, presses=3000)
    expected = {"cover", "illegal", "locked", "ignored"} | (
        {"lost-tie"} if rules.get("tie") else {"tie"})
    assert {r for r, v in by.items() if v} == expected
    assert sum(len(v) for v in by.values()) >= 3000
    for result, lines in by.items():
        if lines:
            assert bench.median(lines) <= BUDGET, (name, result, bench.median(lines))
            assert min(lines) > 10  # a real judgement, not a refused call


def test_a_refused_benchmark_press_fails_the_benchmark(monkeypatch):
    real = game_module.GridGame.press
    calls = [0]

    def press(self, player, pos, t):
        calls[0] += 1
        if calls[0] == 500:
            return E_TIME  # as the old benchmark's second player got every time
        return real(self, player, pos, t)

    monkeypatch.setattr(game_module.GridGame, "press", press)
    with pytest.raises(bench.BenchError, match="refused"):
        bench.judged_press_lines({}, presses=3000)


def test_a_press_not_judged_by_the_next_advance_fails_the_benchmark(monkeypatch):
    real = game_module.GridGame.advance
    calls = [0]

    def advance(self, t):
        calls[0] += 1
        if calls[0] > 500 and self.tick_n:
            calls[0] = -10 ** 9  # once
            self.tick_n = 0  # the tick is dropped unjudged
            self.clock = t
            return 0
        return real(self, t)

    monkeypatch.setattr(game_module.GridGame, "advance", advance)
    with pytest.raises(bench.BenchError):
        bench.judged_press_lines({}, presses=3000)


def test_result_names_cover_every_press_result():
    assert set(RESULT_NAMES) == {"cover", "illegal", "locked", "tie", "lost-tie", "ignored"}


def test_mpy_sizes_do_not_depend_on_where_the_repository_is(tmp_path):
    """mpy-cross records the source name: the bench names it engine/NAME.py, not the path."""
    import shutil

    from tools.bench_engine import mpy_sizes

    roots = [tmp_path / "a", tmp_path / "a-much-longer-folder-name" / "of-another-clone"]
    for root in roots:
        shutil.copytree(ROOT / "engine", root / "engine",
                        ignore=shutil.ignore_patterns("__pycache__"))
    short, long_ = (mpy_sizes(root) for root in roots)
    assert short == long_ == mpy_sizes()
    assert set(short) == {p.name for p in (ROOT / "engine").glob("*.py")}


def test_a_vm_that_does_not_run_stops_the_bench_with_one_line(monkeypatch, capsys):
    import tools.bench_engine as bench

    real = bench.vm_figures
    monkeypatch.setattr(bench, "vm_figures", lambda: real(node="/nonexistent/node"))
    assert bench.main([]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # no half set of figures
    assert captured.err.startswith("tools.bench_engine: the MicroPython VM did not run: "
                                   "cannot run /nonexistent/node")
    assert captured.err.count("\n") == 1


def test_help_shows_the_options_without_running_the_benchmark():
    """Issue 20 (3.7): `tools.bench_engine --help` ran the whole benchmark."""
    import subprocess
    import sys
    import time

    began = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "tools.bench_engine", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "--quick" in run.stdout, run.stderr
    assert "MicroPython VM" not in run.stdout and time.monotonic() - began < 20
    bad = subprocess.run([sys.executable, "-m", "tools.bench_engine", "--games"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unrecognized arguments" in bad.stderr
