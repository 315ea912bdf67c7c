"""Issue 23 items 4 and 15: every rules value is bounded by what the rule books mean
(LOG.md states the bounds), so every valid log replays in time proportional to its
length; and ``check()`` refuses what is not an int, for every key of every game, so a
value it accepts never makes ``start``/``press``/``advance`` raise.
"""

import io
import re
import signal
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from engine import games
from test_rules import STUCK_DECK
from tools.replay import replay

ROOT = Path(__file__).resolve().parents[1]
# The bounds LOG.md states: (lowest, highest) of each numeric key.
BOUNDS = {"penalty": (0, 10000), "stuck": (0, 10000), "deal": (0, 10000),
          "deadlock": (1, 100), "wins": (1, 99), "points": (0, 999)}


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang("the replay ran past its watchdog")


def run_log(text, limit_s=10):
    """Replay ``text``; a replay longer than ``limit_s`` fails (it once ran for 45 min)."""
    out = io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit_s)
    try:
        status = replay(io.BytesIO(text.encode()), out)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return status, out.getvalue()


def test_the_issues_log_is_refused_at_its_rules_line(capsys):
    text = ("CSLOG 1\nrules deadlock=268435455 stuck=0 deal=0\n%s\nstart 0\n" % STUCK_DECK)
    started = time.monotonic()
    status, out = run_log(text)
    assert time.monotonic() - started < 5
    assert status == 2 and out == ""
    assert capsys.readouterr().err.startswith("line 2: deadlock must be")


def test_the_longest_valid_deadlock_replays_in_a_bounded_trace():
    """The same table at the bounds: 100 stuck deals in one millisecond, then over."""
    text = ("CSLOG 1\nrules deadlock=100 stuck=0 deal=0\n%s\nstart 0\nclock 1\n" % STUCK_DECK)
    started = time.monotonic()
    status, out = run_log(text)
    assert status == 0 and time.monotonic() - started < 5
    lines = out.splitlines()
    assert sum('"ev": "stuck"' in line for line in lines) == 100
    assert '"why": "deadlock"' in lines[-1] or '"why": "deadlock"' in lines[-2]
    assert len(lines) <= 2 * 100 + 4  # each stuck deal: one stuck, one deal


@pytest.mark.parametrize("key", games.KEYS)
def test_every_numeric_key_is_bounded_as_log_md_says(key):
    rules_class = games.rules_class(key)
    text = (ROOT / "docs" / "LOG.md").read_text(encoding="utf-8")
    for name, (low, high) in BOUNDS.items():
        if name not in rules_class.KEYS:
            continue
        for value in (low, high):
            rules_class(**{name: value})
        for value in (low - 1, high + 1, 1 << 28):
            with pytest.raises(ValueError, match=name):
                rules_class(**{name: value})
        assert re.search(r"`%s`[^\n]*\b%d to %d\b" % (name, low, high), text), (
            "LOG.md does not state %s from %d to %d" % (name, low, high))


VALUES = st.one_of(st.integers(-3, 12), st.integers(-(1 << 40), 1 << 40),
                   st.sampled_from([0.0, 1.0, 4.0, 15.0, 20.0, 3.5, float("inf"), float("nan"),
                                    True, False, None, "4", "", b"4", [4], (3,), 4 + 0j]))


KEYS = [(key, name) for key in games.KEYS for name in games.rules_class(key).KEYS
        if name != "game"]


@pytest.mark.parametrize("key, name", KEYS, ids=lambda v: str(v))
@settings(max_examples=60, deadline=None)
@given(value=VALUES, seed=st.integers(0, 1000),
       presses=st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 1), st.integers(0, 9)),
                        max_size=30))
def test_a_value_check_accepts_never_makes_a_game_raise(key, name, value, seed, presses):
    rules_class = games.rules_class(key)
    rules = rules_class()
    setattr(rules, name, value)
    try:
        rules.check()
    except ValueError:
        return  # refused at set-up, as the contract says
    stored = getattr(rules, name)
    choice = name in rules_class.NAMED or name in ("rutter", "same")  # a bool counts as 0/1
    assert type(stored) is int or (choice and type(stored) is bool), (
        "check() accepted %s=%r (kept as %r)" % (name, value, stored))
    game = games.game_class(key)(rules)
    game.shuffle(seed)
    game.start(0)
    t = 0
    for gap, player, code in sorted(presses):
        t += gap
        game.press(player, code % rules.codes(), t)
        game.advance(t)
    game.advance(t + 100000)


@pytest.mark.parametrize("key", games.KEYS)
def test_floats_and_text_are_refused_for_every_key(key):
    """RowRules(piles=4.0) and SpeedRules(cards=20.0) passed check(), then start raised."""
    rules_class = games.rules_class(key)
    for name in rules_class.KEYS:
        if name == "game":
            continue
        default = getattr(rules_class(), name)
        for bad in (float(default), str(default), None, default + 0.5):
            with pytest.raises(ValueError, match=name):
                rules_class(**{name: bad})
