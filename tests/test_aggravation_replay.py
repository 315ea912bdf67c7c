"""tools/replay on Aggravation and Frustration logs (RULES-AGGRAVATION.md section 7): the
game key, its keys and their bounds, positions 0-27, the trace's keys, the tool's command
line end to end, the log writer's lines, and a match kept by tools/capture."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from aggravation_helpers import agg_log, deck_line, race_deck, race_presses

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
AGG = "CSLOG 1\nrules game=aggravation\n%s\nstart 1000\n" % deck_line("5C", "5D")


def replay(stdin):
    return subprocess.run([sys.executable, "-m", "tools.replay", "-"], cwd=ROOT,
                          input=stdin, capture_output=True, text=True)


def _events(p):
    return [json.loads(line) for line in p.stdout.splitlines()]


BAD = [
    # (log text, line number, words of the reason)
    ("CSLOG 1\nrules game=aggravation deadlock=13\n", 2,
     "unknown rules key 'deadlock' for game=aggravation"),
    ("CSLOG 1\nrules game=aggravation deadlock_result=draw\n", 2,
     "unknown rules key 'deadlock_result' for game=aggravation"),
    ("CSLOG 1\nrules game=aggravation piles=4\n", 2, "unknown rules key 'piles'"),
    ("CSLOG 1\nrules game=aggravation same=1\n", 2, "unknown rules key 'same'"),
    ("CSLOG 1\nrules frustration=1\n", 2, "unknown rules key 'frustration' for game=grid"),
    ("CSLOG 1\nrules game=speed call=400\n", 2, "unknown rules key 'call' for game=speed"),
    ("CSLOG 1\nrules game=aggravation call=0\n", 2, "call must be an integer in [1, 268435455]"),
    ("CSLOG 1\nrules game=aggravation call=268435456\n", 2, "call must be an integer in [1, "),
    ("CSLOG 1\nrules game=aggravation call=x\n", 2, "call must be a non-negative integer"),
    ("CSLOG 1\nrules game=aggravation call=-5\n", 2, "call must be a non-negative integer"),
    ("CSLOG 1\nrules game=aggravation call=4.0\n", 2, "call must be a non-negative integer"),
    ("CSLOG 1\nrules game=aggravation target=0\n", 2, "target must be an integer in [1, 25]"),
    ("CSLOG 1\nrules game=aggravation target=26\n", 2, "target must be an integer in [1, 25]"),
    ("CSLOG 1\nrules game=aggravation target=ten\n", 2, "target must be a non-negative integer"),
    ("CSLOG 1\nrules game=aggravation frustration=2\n", 2, "frustration must be an integer in [0, 1]"),
    ("CSLOG 1\nrules game=aggravation rutter=2\n", 2, "rutter must be an integer in [0, 1]"),
    ("CSLOG 1\nrules game=aggravation wins=0\n", 2, "wins must be an integer in [1, 99]"),
    ("CSLOG 1\nrules game=aggravation wins=100\n", 2, "wins must be an integer in [1, 99]"),
    ("CSLOG 1\nrules game=aggravation stuck=268435456\n", 2, "stuck must be an integer in [0, "),
    ("CSLOG 1\nrules game=aggravation tie=flip\n", 2, "replay/coin"),
    ("CSLOG 1\nrules penalty=0 game=aggravation\n", 2, "first rules key"),
    ("CSLOG 1\nrules game=aggravation\nrules game=speed\n", 3, "contradicts"),
    ("CSLOG 1\nrules game=tapper\n", 2, "grid/row/speed/aggravation"),
    (AGG + "press 1400 A 28\n", 5, "position 28 out of range [0, 28)"),
    (AGG + "press 1400 B 99\n", 5, "position 99 out of range"),
    (AGG + "press 1400 A x\n", 5, "position must be a decimal"),
    (AGG + "press 1400 A 0\nstart 2000\n", 6, "without a seed"),
    (AGG + "press 1400 A 0\n%s\nstart 1500\n" % deck_line("5C", "5D"), 7, "not over"),
]


@pytest.mark.parametrize("text,lineno,reason", BAD, ids=[str(i) for i in range(len(BAD))])
def test_malformed_aggravation_input_is_rejected_with_its_line(text, lineno, reason):
    p = replay(text)
    assert p.returncode == 2, p.stdout
    assert p.stderr.startswith("line %d: " % lineno), p.stderr
    assert reason in p.stderr, p.stderr


def test_positions_with_no_stack_yet_are_illegal_presses_not_malformed():
    p = replay(AGG + "press 1400 A 13\npress 1400 B 27\npress 1401 A 26\nclock 2000\n")
    assert p.returncode == 0, p.stderr
    assert [(e["pos"], e["r"]) for e in _events(p) if e["ev"] == "press"] == [
        (13, "illegal"), (27, "illegal"), (26, "locked")]


def test_the_trace_has_rows_packs_coverable_and_in_frustration_shares():
    p = replay(AGG + "press 1400 A 0\nclock 1401\n")
    ev = _events(p)
    assert list(ev[0]) == ["ev", "t", "rows", "packs"]
    assert list(ev[-1]) == ["ev", "t", "rows", "packs", "coverable"]
    assert ev[1]["r"] == "cover" and ev[-1]["coverable"] == [14]
    p = replay(AGG.replace("game=aggravation", "game=aggravation frustration=1") +
               "press 1400 A 0\nclock 1401\n")
    ev = _events(p)
    assert list(ev[0]) == ["ev", "t", "rows", "packs", "shares"]
    assert list(ev[-1]) == ["ev", "t", "rows", "packs", "coverable", "shares"]
    for line in p.stdout.splitlines():
        assert json.dumps(json.loads(line)) == line  # CPython's json text


def test_scoop_carries_the_packs_only():
    text = agg_log(race_deck(), *race_presses(), "clock 2200", rules="frustration=1")
    scoop = [e for e in _events(replay(text)) if e["ev"] == "scoop"]
    assert scoop == [{"ev": "scoop", "t": 2140, "packs": [14, 38]}]


@pytest.mark.parametrize("name", ["aggravation-rules", "frustration-rules", "aggravation-match",
                                  "frustration-match"])
def test_the_replay_command_plays_the_golden_logs_end_to_end(name):
    # tools/replay, the shell script the docs show, from another directory
    p = subprocess.run([str(ROOT / "tools" / "replay"), str(GOLDEN / (name + ".log"))],
                       cwd="/", capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == (GOLDEN / (name + ".trace")).read_text()
    kinds = {e["ev"] for e in _events(p)}
    assert {"deal", "press", "tick", "over"} <= kinds


def test_the_golden_logs_show_every_event_result_and_ending():
    text = "".join((GOLDEN / (n + ".trace")).read_text() for n in (
        "aggravation-rules", "frustration-rules", "aggravation-match", "frustration-match"))
    for word in ('"ev": "dry"', '"ev": "scoop"', '"r": "tap"', '"r": "call"', '"r": "illegal"',
                 '"r": "locked"', '"r": "ignored"', '"why": "call"', '"why": "share"',
                 '"ev": "match"', '"r": "cover"'):
        assert word in text, word


def test_a_bad_line_prints_the_trace_before_it_and_exits_2_through_the_command_line(tmp_path):
    log = tmp_path / "bad.log"
    log.write_text(AGG + "press 1400 A 0\npress 1500 A 28\npress 1600 B 14\n")
    p = subprocess.run([str(ROOT / "tools" / "replay"), str(log)], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr == "line 6: position 28 out of range [0, 28)\n"
    assert [e["ev"] for e in _events(p)] == ["deal", "press", "tick"]


def test_the_log_writer_heads_an_aggravation_log_that_replays():
    from engine.aggravation_rules import AggravationRules
    from engine.logwriter import LogWriter

    w = LogWriter()
    rules = bytes(w.rules(AggravationRules(frustration=1, target=15, call=250, tie=1))).decode()
    assert rules == ("rules game=aggravation frustration=1 target=15 call=250 penalty=500 "
                     "stuck=500 deal=300 tie=coin rutter=0 wins=2\n")
    press = bytes(w.press(1400, 1, 27)).decode()
    assert press == "press 1400 B 27\n"  # two digits (the writer once wrote one)
    text = "CSLOG 1\n" + rules + deck_line("5C", "5D") + "\nstart 1000\n" + press + "clock 1401\n"
    p = replay(text)
    assert p.returncode == 0, p.stderr
    assert _events(p)[1] == {"ev": "press", "t": 1400, "p": "B", "pos": 27, "r": "illegal"}
    assert _events(p)[0]["shares"] == [26, 26]


def test_capture_keeps_an_aggravation_match_and_its_trace(tmp_path):
    from tools.capture import MatchFile

    log = (GOLDEN / "aggravation-match.log").read_bytes()
    m = MatchFile(tmp_path / "m.log", trace=True)
    for raw in log.splitlines(keepends=True):
        m.add(raw)
    summary = m.close()
    assert "B won 0-2" in summary and "DAMAGED" not in summary, summary
    assert (tmp_path / "m.trace").read_text() == (GOLDEN / "aggravation-match.trace").read_text()
