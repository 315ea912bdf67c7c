"""tools/replay on shared-row logs (RULES-ROW.md section 7): the game key, the row keys,
pile numbers, and one reader for both games."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_row_rules import BASIC, NO_MATCH
from test_rules import FIVES

ROOT = Path(__file__).resolve().parent.parent


def replay(stdin):
    return subprocess.run([sys.executable, "-m", "tools.replay", "-"], cwd=ROOT,
                          input=stdin, capture_output=True, text=True)


ROW = "CSLOG 1\nrules game=row\n%s\nstart 1000\n" % BASIC
BAD = [
    # (log text, line number, words of the reason)
    ("CSLOG 1\nrules game=row rutter=1\n", 2, "unknown rules key 'rutter' for game=row"),
    ("CSLOG 1\nrules game=row\nrules rutter=0\n", 3, "unknown rules key 'rutter'"),
    ("CSLOG 1\nrules piles=4\n", 2, "unknown rules key 'piles' for game=grid"),
    ("CSLOG 1\nrules game=row piles=5\n", 2, "3/4/6"),
    ("CSLOG 1\nrules game=row piles=x\n", 2, "piles must be"),
    ("CSLOG 1\nrules game=row match=colour\n", 2, "rank/suit/either"),
    ("CSLOG 1\nrules game=row redeal=three\n", 2, "all/two"),
    ("CSLOG 1\nrules game=row deadlock_result=most\n", 2, "draw/fewer"),
    ("CSLOG 1\nrules game=row tie=flip\n", 2, "replay/coin"),
    ("CSLOG 1\nrules penalty=0 game=row\n", 2, "first rules key"),
    ("CSLOG 1\nrules penalty=0\nrules game=grid\n", 3, "first rules key"),
    ("CSLOG 1\nrules game=row\nrules game=grid\n", 3, "contradicts"),
    ("CSLOG 1\nrules game=grid piles=3\n", 2, "unknown rules key 'piles'"),
    ("CSLOG 1\nrules game=spit\n", 2, "grid/row/speed"),
    ("CSLOG 1\nrules game=\n", 2, "grid/row"),
    ("CSLOG 1\nseed 1\nstart 0\nrules game=row\n", 4, "before the first start"),
    (ROW + "press 1400 A 4\n", 5, "pile 4 out of range"),
    (ROW.replace("game=row", "game=row piles=3") + "press 1400 B 3\n", 5, "pile 3 out of range"),
    (ROW + "press 1400 A x\n", 5, "pile must be a decimal"),
    (ROW + "press 1400 A 0\nstart 2000\n", 6, "without a seed"),
]


@pytest.mark.parametrize("text,lineno,reason", BAD, ids=[str(i) for i in range(len(BAD))])
def test_malformed_row_input_is_rejected_with_its_line(text, lineno, reason):
    p = replay(text)
    assert p.returncode == 2, p.stdout
    assert p.stderr.startswith("line %d: " % lineno), p.stderr
    assert reason in p.stderr


def _events(p):
    return [json.loads(line) for line in p.stdout.splitlines()]


def test_game_may_be_repeated_with_the_same_value():
    p = replay("CSLOG 1\nrules game=row piles=6 game=row\nrules game=row match=suit\n%s\nstart 0\n" % BASIC)
    assert p.returncode == 0, p.stderr
    assert len(_events(p)[0]["tops"]) == 6


def test_game_grid_is_the_default_and_may_be_said():
    plain = replay("CSLOG 1\n%s\nstart 1000\npress 1400 A 0\n" % FIVES)
    said = replay("CSLOG 1\nrules game=grid\n%s\nstart 1000\npress 1400 A 0\n" % FIVES)
    assert plain.returncode == said.returncode == 0
    assert plain.stdout == said.stdout and '"coverable"' in plain.stdout


def test_a_row_log_traces_active_cards_and_legal_piles_in_order():
    p = replay(ROW + "press 1400 A 0\nclock 1401\n")
    ev = _events(p)
    assert [list(e)[:2] for e in ev] == [["ev", "t"]] * len(ev)
    assert list(ev[0]) == ["ev", "t", "tops", "packs", "active"]
    assert list(ev[-1]) == ["ev", "t", "tops", "packs", "active", "legal"]
    for line in p.stdout.splitlines():
        assert json.dumps(json.loads(line)) == line  # CPython's json text


def test_trace_of_everything_before_a_bad_row_line_is_printed():
    p = replay(ROW + "press 1400 A 0\npress 1500 A 9\npress 1600 B 1\n")
    assert p.returncode == 2 and p.stderr.startswith("line 6: ")
    assert [e["ev"] for e in _events(p)] == ["deal", "press", "tick"]


def test_a_row_match_goes_on_with_a_new_deck_per_game():
    # No card matches after the deal: stuck at 1300, and deadlock=1 ends the game
    # there; equal packs under `fewer`: a draw, which does not count.
    text = ("CSLOG 1\nrules game=row wins=1 deadlock=1\n%s\nstart 1000\nclock 1300\n"
            "seed 4\nstart 2000\n") % NO_MATCH
    p = replay(text)
    ev = _events(p)
    assert p.returncode == 0, p.stderr
    assert [e["ev"] for e in ev] == ["deal", "stuck", "over", "deal"]
    assert ev[2]["result"] == "draw" and ev[2]["why"] == "deadlock" and ev[3]["t"] == 2000
    p = replay(text.replace("start 2000", "start 1200"))
    assert p.returncode == 2 and "before 1300" in p.stderr


def test_the_log_writer_heads_a_row_log_that_replays():
    from engine.logwriter import LogWriter
    from engine.row_rules import RowRules

    w = LogWriter()
    rules = bytes(w.rules(RowRules(piles=6, match=2, redeal=1, tie=1))).decode()
    assert rules == ("rules game=row piles=6 match=either redeal=two penalty=500 stuck=1000 "
                     "deal=300 tie=coin deadlock=13 deadlock_result=fewer wins=2\n")
    text = "CSLOG 1\n" + rules + "seed 3\nstart 0\n" + bytes(w.press(400, 1, 5)).decode()
    p = replay(text)
    assert p.returncode == 0, p.stderr
    assert len(_events(p)[0]["tops"]) == 6 and _events(p)[1]["pos"] == 5


def test_one_reader_switches_to_the_game_a_log_names_and_says_so():
    from engine.grid import GridGame
    from engine.log import play_lines
    from engine.row import RowGame

    seen = []
    reader = play_lines(RowGame(), ["CSLOG 1", "seed 1", "start 0"], seen.append)
    assert isinstance(reader.game, GridGame) and seen == [reader.game]
    seen = []
    reader = play_lines(GridGame(), ["CSLOG 1", "seed 1", "rules game=row piles=3", "start 0"],
                        seen.append)
    assert isinstance(reader.game, RowGame) and seen == [reader.game]
    assert reader.game.piles == 3 and reader.game.phase == 1  # dealt the seeded deck
    same = RowGame()
    reader = play_lines(same, ["CSLOG 1", "rules game=row", "seed 1", "start 0"], seen.append)
    assert reader.game is same


def test_capture_keeps_a_row_match_and_its_trace(tmp_path):
    from tools.capture import MatchFile

    log = (ROOT / "tests" / "golden" / "row-match.log").read_bytes()
    m = MatchFile(tmp_path / "m.log", trace=True)
    for raw in log.splitlines(keepends=True):
        m.add(raw)
    summary = m.close()
    assert "A won 2-1" in summary and "DAMAGED" not in summary, summary
    assert (tmp_path / "m.trace").read_text() == (ROOT / "tests" / "golden" / "row-match.trace").read_text()
