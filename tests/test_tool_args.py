"""Issue 23 item 6: one rule for every number a tool takes (tools/cli.py).

Finite, in the range the option's --help gives; inf, nan, negative, exponents, hex,
underscores and non-ASCII digits are refused with one line and exit 2 before any
work starts, in every tool alike.
"""

import re

import pytest

from tool_args import BAD_NUMBERS, TOOLS, run_tool

from tools.cli import Number

NUMERIC = [(tool, option) for tool, (_, numbers, _) in sorted(TOOLS.items())
           for option in sorted(numbers)]


@pytest.mark.parametrize("tool, option", NUMERIC, ids=lambda v: str(v))
def test_every_bad_number_is_one_line_and_exit_2(tool, option, tmp_path):
    base = TOOLS[tool][0]
    for value in BAD_NUMBERS:
        status, _, err, ran = run_tool(tool, base + [option, value], tmp_path)
        assert ran is None, (option, value, "the tool ran")
        assert status == 2, (option, value, err)
        assert err.count("\n") == 1 and err.startswith("tools.%s: " % tool), (value, err)
        assert option in err and "Traceback" not in err, (value, err)


@pytest.mark.parametrize("tool, option", NUMERIC, ids=lambda v: str(v))
def test_a_number_in_range_is_taken_and_the_range_is_in_the_help(tool, option, tmp_path):
    base, numbers, _ = TOOLS[tool]
    status, _, err, ran = run_tool(tool, base + [option, numbers[option]], tmp_path)
    assert ran is not None, (status, err)
    status, out, _, _ = run_tool(tool, ["--help"], tmp_path)
    assert status == 0
    entries = re.split(r"\n  (?=-)", out.split("options:", 1)[1])
    entry = " ".join([e for e in entries if e.startswith(option)][0].split())
    assert re.search(r"\(-?\d[\d.]*-\d[\d.]*( \w+)?\)", entry), entry


def test_the_rule():
    count = Number(int, 1, 10)
    assert count.parse(" 7 ") == 7
    for bad in ("0", "11", "7.0", "\u0667", "1_0", "+7", "0x7", "7e0", "", "-0x1"):
        with pytest.raises(ValueError, match="must be a whole number from 1 to 10"):
            count.parse(bad)
    secs = Number(float, 0, 60, "s")
    assert secs.parse("2.5") == 2.5 and secs.parse(".5") == 0.5 and secs.parse("60") == 60
    for bad in ("inf", "nan", "-0.5", "60.01", "1e1", "Infinity", "\uff11"):
        with pytest.raises(ValueError, match="must be a number from 0 to 60 s"):
            secs.parse(bad)


def test_a_scenario_number_follows_the_same_rule(tmp_path):
    from tools.hil import scenario as scenarios

    path = tmp_path / "s.script"
    for setting in ("seconds=inf", "seconds=nan", "seconds=-3", "seed=-1", "seed=1e3",
                    "seconds=\u0663", "seed=99999999999999"):
        path.write_text("# hil %s\n100 tap START\n" % setting)
        with pytest.raises(scenarios.ScenarioError, match="must be"):
            scenarios.load(str(path))


@pytest.mark.parametrize("level", ["normal*inf", "normal*nan", "normal*-1", "normal*1e3",
                                   "normal*0", "expert*100"])
def test_a_level_factor_follows_the_same_rule(level, tmp_path):
    status, _, err, ran = run_tool("simulate", ["--levels", "%s:normal" % level], tmp_path)
    assert ran is None and status == 2 and err.count("\n") == 1, err
    assert "must be a number from" in err
