"""tools/simulate: stable seeded output, independent of --jobs, and correct statistics."""

import json

import pytest

from tools import simulate as sim
from tools.simulate import FIELDS, median, percentile, rate, summarize, wilson


def run_json(capsys, *args):
    assert sim.main(list(args) + ["--json", "--quiet"]) == 0
    rep = json.loads(capsys.readouterr().out)
    perf = rep.pop("perf")
    assert perf["per_second"] > 0
    return rep


def test_seeded_run_is_stable_and_independent_of_jobs(capsys):
    args = ["--games", "12", "--levels", "normal:expert,beginner:normal", "--seed", "3"]
    one = run_json(capsys, *args, "--jobs", "1")
    again = run_json(capsys, *args, "--jobs", "1")
    two = run_json(capsys, *args, "--jobs", "2")
    assert one == again == two
    assert [p["n"] for p in one["pairings"]] == [12, 12]
    assert one["all"]["n"] == 24
    other = run_json(capsys, *["--games", "12", "--levels", "normal:expert,beginner:normal",
                               "--seed", "4", "--jobs", "1"])
    assert other != one  # the seed matters


def test_matches_and_rules(capsys):
    rep = run_json(capsys, "--matches", "4", "--levels", "expert:beginner", "--seed", "1",
                   "--jobs", "1", "--rules", "wins=3", "deadlock=5")
    assert rep["unit"] == "match" and rep["rules"]["wins"] == 3 and rep["rules"]["deadlock"] == 5
    p = rep["pairings"][0]
    assert p["a_wins"]["k"] == 4  # expert takes every match
    assert p["games_per_match"]["median"] >= 3


def test_table_and_plots(tmp_path, capsys):
    assert sim.main(["--games", "6", "--seed", "2", "--jobs", "1", "--quiet",
                     "--plots", str(tmp_path), "--sweep-games", "2"]) == 0
    out = capsys.readouterr().out
    assert "A wins (95% CI)" in out and "games per second" in out
    for name in ("game_length.png", "winrate_vs_gap.png"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"


def test_bad_arguments():
    with pytest.raises(SystemExit):
        sim.main(["--levels", "normal-expert", "--quiet"])
    with pytest.raises(SystemExit):
        sim.main(["--rules", "penalty=fast", "--quiet"])


# ---------------------------------------------------------------- statistics


def test_median_and_percentile():
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 3, 2]) == 2.5
    assert median([7]) == 7
    assert percentile(list(range(1, 11)), 90) == 9  # nearest rank: ceil(0.9 * 10) = 9th
    assert percentile(list(range(1, 21)), 90) == 18
    assert percentile([5, 1, 9], 90) == 9  # ceil(2.7) = 3rd of 3
    assert percentile([5], 90) == 5


def test_wilson_interval_against_hand_computed_values():
    # 8/10: p = 0.8, z^2 = 3.8415; centre = 0.99207 / 1.38415 = 0.71674,
    # half = 1.96 * sqrt(0.016 + 0.0096037) / 1.38415 = 0.22658.
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.49016, abs=1e-4) and hi == pytest.approx(0.94332, abs=1e-4)
    lo, hi = wilson(0, 10)  # centre = half = 0.19207 / 1.38415 = 0.13877
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.27753, abs=1e-4)
    lo, hi = wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.40383, 0.59617), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert rate(3, 4)["rate"] == 0.75 and rate(3, 4)["ci95"] == [0.3006, 0.9544]


def record(result, why, presses, ms, deals, stucks, dead, ties, illegals, streak=0, resolved=0,
           remakes=0):
    r = dict(result=result, why=why, presses=presses, covers=presses, ms=ms, deals=deals,
             stucks=stucks, dead_deals=dead, ties=ties, illegals=illegals,
             max_streak=streak, max_resolved=resolved, remakes=remakes)
    return tuple(r[f] for f in FIELDS) + (1,)


def test_summary_of_a_tiny_hand_made_sample():
    recs = [
        record(0, 0, 100, 20000, 4, 3, 1, 0, 2, 1, 1),
        record(1, 0, 60, 10000, 2, 1, 0, 2, 0, 1, 1),
        record(0, 0, 80, 40000, 6, 5, 2, 1, 4, 3, 2),
        record(2, 2, 300, 90000, 13, 13, 13, 0, 0, 13, 0, 3),  # a deadlocked draw (3 remakes)
    ]
    s = summarize(recs)
    assert s["remakes_per_game"] == 0.75
    assert s["n"] == 4
    assert (s["a_wins"]["k"], s["b_wins"]["k"], s["draws"]["k"]) == (2, 1, 1)
    assert s["a_share_of_decided"]["n"] == 3 and s["a_share_of_decided"]["rate"] == 0.6667
    assert s["presses"] == {"median": 90, "p90": 300, "max": 300, "mean": 135}
    assert s["seconds"] == {"median": 30, "p90": 90, "max": 90, "mean": 40}
    assert s["deals_per_game"] == 6.25  # 25 / 4
    assert s["stuck_deal_rate"]["k"] == 16 and s["stuck_deal_rate"]["n"] == 25
    assert s["stucks_per_game"] == 5.5
    assert s["deadlocks"]["k"] == 1 and s["deadlocks"]["rate"] == 0.25
    assert s["ties_per_game"] == 0.75 and s["illegals_per_game"] == 1.5
    assert s["streaks"]["3"] == [2, 0] and s["streaks"]["2"] == [2, 1] and s["streaks"]["13"] == [1, 0]


def test_level_parsing_and_seed_mixing():
    label, row = sim.parse_level("normal*2")
    assert label == "normal*2" and row[:4] == (400, 1000, 200, 600) and row[4] == 10
    assert sim.mean_card_ms(sim.parse_level("normal")[1]) == 550
    assert sim.mix(1, 2) == sim.mix(1, 2) != sim.mix(2, 1)
    assert 0 <= sim.mix(123, 456, 7) < 1 << 30
