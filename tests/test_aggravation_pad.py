"""tools/aggravation_pad: every CPU press of a game put through the pads' controls, counted
by the buttons it takes (docs/RULES-AGGRAVATION.md's figure)."""

import subprocess
import sys
from pathlib import Path

from test_aggravation_keys import sixes
from tools import aggravation_pad as pad

ROOT = Path(__file__).resolve().parent.parent


def test_a_press_is_one_button_two_or_unreachable_as_the_controls_say():
    game = sixes()
    assert pad.buttons(game, 0, 2) == pad.ONE  # a column of one stack
    assert pad.buttons(game, 0, 19) == pad.ONE  # B's column 1: 9D its only legal stack
    assert pad.buttons(game, 0, 1) == pad.buttons(game, 0, 5) == pad.TWO  # 3C and 3D
    assert pad.buttons(game, 0, 0) == pad.TWO  # column 0: none legal, an illegal press
    assert pad.buttons(game, 0, 15) == pad.OTHER  # 8C: its column's button presses 9D


def test_the_counts_add_up_and_do_not_depend_on_the_jobs():
    one = pad.play({}, 6, 3, 1)
    two = pad.play({}, 6, 3, 2)
    assert one == two
    assert sum(one[:3]) >= sum(one[3:]) > 0 and one[0] > one[1] > 0


def test_the_command_prints_its_table_and_refuses_bad_counts():
    out = subprocess.run([sys.executable, "-m", "tools.aggravation_pad", "--games", "3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("| normal vs normal (3 games each) | presses | one button")
    assert [l.split("|")[1].strip() for l in lines[2:]] == [v[0] for v in pad.VARIATIONS]
    bad = subprocess.run([sys.executable, "-m", "tools.aggravation_pad", "--games", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
