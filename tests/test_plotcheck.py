"""Issue 11: run with a Python that lacks matplotlib, --plots fails before the first game.

(It used to simulate for minutes and then die on the import, losing the results.)
"""

import importlib.util

import pytest

from tools import row_claims, simulate, speed_houses


@pytest.mark.parametrize("tool", [simulate, row_claims, speed_houses],
                         ids=["simulate", "row_claims", "speed_houses"])
def test_plots_without_matplotlib_stop_before_any_game(tool, monkeypatch, capsys, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))

    def no_games(*args, **kwargs):
        raise AssertionError("a game was simulated")
    monkeypatch.setattr(tool, "simulate", no_games)
    if hasattr(tool, "run"):
        monkeypatch.setattr(tool, "run", no_games)
    assert tool.main(["--games", "20", "--plots", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    name = tool.__name__
    assert err == ("%s: --plots needs matplotlib, which this Python does not have: run it with"
                   " .venv/bin/python (make venv sets it up; make simulate uses it)\n" % name)
    assert list(tmp_path.iterdir()) == []
