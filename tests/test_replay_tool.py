"""tools/replay: golden traces, standard input, and every malformed-input error."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_rules import FIVES

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def replay(args, stdin=None):
    return subprocess.run([sys.executable, "-m", "tools.replay"] + args, cwd=ROOT,
                          input=stdin, capture_output=True, text=True)


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.log")))
def test_golden_trace(name):
    p = replay([str(GOLDEN / (name + ".log"))])
    assert p.returncode == 0, p.stderr
    assert p.stdout == (GOLDEN / (name + ".trace")).read_text()


def test_trace_lines_are_json_with_ev_and_t_first():
    p = replay([str(GOLDEN / "rules.log")])
    for line in p.stdout.splitlines():
        obj = json.loads(line)
        assert list(obj)[:2] == ["ev", "t"]
        assert json.dumps(obj) == line  # same text as CPython's json would write


def test_standard_input_is_read_with_dash():
    text = (GOLDEN / "rules.log").read_text()
    p = replay(["-"], stdin=text)
    assert p.returncode == 0 and p.stdout == (GOLDEN / "rules.trace").read_text()


def test_missing_file_is_a_clear_error():
    p = replay(["/nonexistent/x.log"])
    assert p.returncode == 1 and "No such file" in p.stderr and not p.stdout


GOOD = "CSLOG 1\n%s\nstart 1000\npress 1400 A 0\n" % FIVES
BAD = [
    # (log text, line number, words of the reason)
    ("", 0, "empty log"),
    ("CSLOG 2\n", 1, "first line"),
    ("seed 1\n", 1, "first line"),
    ("CSLOG 1\nCSLOG 1\n", 2, "only once"),
    ("CSLOG 1\nshuffle 1\n", 2, "unknown record"),
    ("CSLOG 1\nseed  1\n", 2, "single spaces"),
    ("CSLOG 1\nseed 1 \n", 2, "single spaces"),
    ("CSLOG 1\nseed x\n", 2, "decimal"),
    ("CSLOG 1\nseed -1\n", 2, "decimal"),
    ("CSLOG 1\nseed 1073741824\n", 2, "out of range"),
    ("CSLOG 1\nseed 1 2\n", 2, "1 field"),
    ("CSLOG 1\nseed 1\nseed 2\n", 3, "already waiting"),
    ("CSLOG 1\ndeck 5C\n", 2, "52 fields"),
    ("CSLOG 1\n" + FIVES.replace("5D", "5C") + "\n", 2, "distinct"),
    ("CSLOG 1\n" + FIVES.replace("5D", "5X") + "\n", 2, "bad card"),
    ("CSLOG 1\n" + FIVES.replace("5D", "5d") + "\n", 2, "bad card"),
    ("CSLOG 1\nstart 0\n", 2, "without a seed"),
    ("CSLOG 1\nseed 1\nstart 536870912\n", 3, "out of range"),
    ("CSLOG 1\nseed 1\npress 0 A 0\n", 3, "before the first start"),
    ("CSLOG 1\nrules penalty=-5\n", 2, "non-negative"),
    ("CSLOG 1\nrules colour=red\n", 2, "unknown rules key"),
    ("CSLOG 1\nrules penalty\n", 2, "KEY=VALUE"),
    ("CSLOG 1\nrules tie=flip\n", 2, "replay/coin"),
    ("CSLOG 1\nrules deadlock=0\n", 2, "deadlock"),
    ("CSLOG 1\nrules wins=0\n", 2, "wins"),
    ("CSLOG 1\nrules stuck=268435456\n", 2, "stuck"),
    ("CSLOG 1\nrules rutter=2\n", 2, "rutter"),
    (GOOD + "rules penalty=0\n", 5, "before the first start"),
    (GOOD + "press 1399 A 0\n", 5, "before 1400"),
    (GOOD + "press 269000000 A 0\n", 5, "jumps"),
    (GOOD + "press 1500 C 0\n", 5, "A or B"),
    (GOOD + "press 1500 A 8\n", 5, "out of range"),
    (GOOD + "press 1500 A\n", 5, "3 fields"),
    (GOOD + "clock 1300\n", 5, "before 1400"),
    (GOOD + "seed 5\nstart 2000\n", 6, "not over"),
    (GOOD + "start 2000\n", 5, "without a seed"),
    (GOOD + "".join("press 1500 A %d\n" % (i % 8) for i in range(65)), 69, "64 presses"),
]


@pytest.mark.parametrize("text,lineno,reason", BAD, ids=[b[2] + str(i) for i, b in enumerate(BAD)])
def test_malformed_input_is_rejected_with_its_line(text, lineno, reason):
    p = replay(["-"], stdin=text)
    assert p.returncode == 2
    assert p.stderr.startswith("line %d: " % lineno if lineno else "empty log"), p.stderr
    assert reason in p.stderr


def test_trace_of_everything_before_a_bad_line_is_printed_and_nothing_after():
    text = GOOD + "press 1500 B 4\nbogus\npress 1600 A 4\nclock 2000\n"
    p = replay(["-"], stdin=text)
    assert p.returncode == 2 and p.stderr == "line 6: unknown record 'bogus'\n"
    events = [json.loads(line) for line in p.stdout.splitlines()]
    assert [e["ev"] for e in events] == ["deal", "press", "tick", "press", "tick"]
    assert events[-2]["t"] == 1500  # the last tick before the bad line was judged


def test_start_after_the_match_is_over_is_rejected():
    # A covers both 5s with 8C and 4H: stuck, and with deadlock=1 and `fewer` A's
    # smaller pack wins the game, and with wins=1 the match.
    text = ("CSLOG 1\nrules wins=1 deadlock=1 deadlock_result=fewer\n"
            "%s\nstart 1000\npress 1400 A 0\npress 1500 A 4\nclock 9000\n"
            "seed 1\nstart 10000\n") % FIVES
    p = replay(["-"], stdin=text)
    events = [json.loads(line) for line in p.stdout.splitlines()]
    assert events[-1]["ev"] == "match", p.stdout
    assert p.returncode == 2 and "match is over" in p.stderr


def test_non_utf8_input_is_rejected_on_its_line():
    p = subprocess.run([sys.executable, "-m", "tools.replay", "-"], cwd=ROOT,
                       input=b"CSLOG 1\n\xff\xfe\n", capture_output=True)
    assert p.returncode == 2
    assert p.stderr == b"line 2: not UTF-8 text (byte 0xff at column 1)\n"


def test_comments_and_blank_lines_are_ignored():
    text = "# a comment\n\nCSLOG 1\n   \n# another\n" + FIVES + "\nstart 0\n"
    p = replay(["-"], stdin=text)
    assert p.returncode == 0 and json.loads(p.stdout)["ev"] == "deal"


def test_the_tools_replay_command_of_log_md_works_from_another_folder(tmp_path):
    log = tmp_path / "rules.log"
    log.write_text((GOLDEN / "rules.log").read_text())
    p = subprocess.run([str(ROOT / "tools" / "replay"), "rules.log"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == (GOLDEN / "rules.trace").read_text()
