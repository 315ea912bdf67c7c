"""tools/replay on Speed logs (RULES-SPEED.md section 7): the game key, Speed's keys,
plays 0-9, the trace's keys and one reader for every game."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_speed_rules import BASIC

ROOT = Path(__file__).resolve().parent.parent


def replay(stdin):
    return subprocess.run([sys.executable, "-m", "tools.replay", "-"], cwd=ROOT,
                          input=stdin, capture_output=True, text=True)


SPEED = "CSLOG 1\nrules game=speed\n%s\nstart 1000\n" % BASIC
BAD = [
    # (log text, line number, words of the reason)
    ("CSLOG 1\nrules game=speed rutter=1\n", 2, "unknown rules key 'rutter' for game=speed"),
    ("CSLOG 1\nrules game=speed piles=4\n", 2, "unknown rules key 'piles' for game=speed"),
    ("CSLOG 1\nrules game=speed match=rank\n", 2, "unknown rules key 'match'"),
    ("CSLOG 1\nrules game=speed redeal=two\n", 2, "unknown rules key 'redeal'"),
    ("CSLOG 1\nrules cards=15\n", 2, "unknown rules key 'cards' for game=grid"),
    ("CSLOG 1\nrules game=row same=1\n", 2, "unknown rules key 'same' for game=row"),
    ("CSLOG 1\nrules game=speed cards=16\n", 2, "20/15"),
    ("CSLOG 1\nrules game=speed cards=x\n", 2, "cards must be"),
    ("CSLOG 1\nrules game=speed same=2\n", 2, "same must be one of 0/1"),
    ("CSLOG 1\nrules game=speed remake=all\n", 2, "rest/whole"),
    ("CSLOG 1\nrules game=speed points=-1\n", 2, "points must be a non-negative integer"),
    ("CSLOG 1\nrules game=speed points=268435456\n", 2, "points must be an integer from 0 to 999"),
    ("CSLOG 1\nrules game=speed deadlock=0\n", 2, "deadlock must be"),
    ("CSLOG 1\nrules game=speed tie=flip\n", 2, "replay/coin"),
    ("CSLOG 1\nrules same=1 game=speed\n", 2, "unknown rules key 'same' for game=grid"),
    ("CSLOG 1\nrules penalty=0 game=speed\n", 2, "first rules key"),
    ("CSLOG 1\nrules game=speed\nrules game=row\n", 3, "contradicts"),
    ("CSLOG 1\nrules game=row\nrules game=speed\n", 3, "contradicts"),
    (SPEED + "press 1400 A 10\n", 5, "play 10 out of range"),
    (SPEED + "press 1400 B 99\n", 5, "play 99 out of range"),
    (SPEED + "press 1400 A x\n", 5, "play must be a decimal"),
    (SPEED + "press 1400 A -1\n", 5, "play must be a decimal"),
    (SPEED + "press 1400 C 1\n", 5, "player must be A or B"),
    (SPEED + "press 1400 A 0\nstart 2000\n", 6, "without a seed"),
    (SPEED + "press 1400 A 0\n%s\nstart 1500\n" % BASIC, 7, "not over"),
]


@pytest.mark.parametrize("text,lineno,reason", BAD, ids=[str(i) for i in range(len(BAD))])
def test_malformed_speed_input_is_rejected_with_its_line(text, lineno, reason):
    p = replay(text)
    assert p.returncode == 2, p.stdout
    assert p.stderr.startswith("line %d: " % lineno), p.stderr
    assert reason in p.stderr


def _events(p):
    return [json.loads(line) for line in p.stdout.splitlines()]


def test_game_may_be_repeated_with_the_same_value():
    p = replay("CSLOG 1\nrules game=speed cards=15 game=speed\nrules game=speed same=1\n%s\nstart 0\n"
               % BASIC)
    assert p.returncode == 0, p.stderr
    assert _events(p)[0]["draws"] == [10, 10] and _events(p)[0]["sides"] == [10, 10]


def test_a_speed_log_traces_hands_draws_sides_and_legal_plays_in_order():
    p = replay(SPEED + "press 1400 A 0\nclock 1401\n")
    ev = _events(p)
    assert list(ev[0]) == ["ev", "t", "tops", "hands", "draws", "sides"]
    assert list(ev[-1]) == ["ev", "t", "tops", "hands", "draws", "sides", "legal"]
    assert ev[1] == {"ev": "press", "t": 1400, "p": "A", "pos": 0, "r": "cover", "card": "4C"}
    for line in p.stdout.splitlines():
        assert json.dumps(json.loads(line)) == line  # CPython's json text


def test_over_carries_points_only_when_points_is_on():
    text = "CSLOG 1\nrules game=speed deadlock=1%s\n%s\nstart 0\nclock 9000\n"
    plain = _events(replay(text % ("", BASIC)))
    assert all("points" not in e for e in plain)
    from test_speed_rules import NONE
    scored = _events(replay(text % (" points=10", NONE)))
    over = [e for e in scored if e["ev"] == "over"]
    assert over == [{"ev": "over", "t": 300, "result": "draw", "why": "deadlock", "points": [0, 0]}]


def test_trace_of_everything_before_a_bad_speed_line_is_printed():
    p = replay(SPEED + "press 1400 A 0\npress 1500 A 12\npress 1600 B 1\n")
    assert p.returncode == 2 and p.stderr.startswith("line 6: ")
    assert [e["ev"] for e in _events(p)] == ["deal", "press", "tick"]


def test_a_seed_before_the_rules_waits_for_its_start():
    a = replay("CSLOG 1\nseed 9\nrules game=speed\nstart 0\nclock 400\n")
    b = replay("CSLOG 1\nrules game=speed\nseed 9\nstart 0\nclock 400\n")
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout
    assert '"hands"' in a.stdout


def test_the_log_writer_heads_a_speed_log_that_replays():
    from engine.logwriter import LogWriter
    from engine.speed_rules import SpeedRules

    w = LogWriter()
    rules = bytes(w.rules(SpeedRules(cards=15, same=1, remake=1, points=50, tie=1))).decode()
    assert rules == ("rules game=speed cards=15 same=1 remake=whole points=50 penalty=500 "
                     "stuck=1000 deal=300 tie=coin deadlock=13 deadlock_result=fewer wins=2\n")
    text = "CSLOG 1\n" + rules + "seed 3\nstart 0\n" + bytes(w.press(400, 1, 9)).decode()
    p = replay(text)
    assert p.returncode == 0, p.stderr
    assert _events(p)[0]["draws"] == [10, 10] and _events(p)[1]["pos"] == 9
