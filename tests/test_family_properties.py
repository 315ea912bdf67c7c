"""The invariants every game of the family keeps (the 2x4 game, shared row, Speed), as
hypothesis properties over seeded decks and random press streams: all 52 cards always
there once, the same log the same trace, a game across the tick wrap plays like one
without, and the reading order of simultaneous presses never changes the outcome.
Each game's own properties stay in its file (test_properties.py, test_row_properties.py,
test_speed_properties.py)."""

from hypothesis import given, settings, strategies as st
import pytest

from cs_helpers import Recorder, all_cards, run
from engine.cards import CARD_NAMES
from engine.family import EV_PRESS
from engine.grid import GridGame
from engine.log import play_lines
from engine.row import RowGame
from engine.speed import SpeedGame
from engine.ticks import TICKS_PERIOD
from row_helpers import row_all_cards, run_row
from speed_helpers import run_speed, speed_all_cards


class Kind:
    """One game as these properties need it: how to write, replay and read its logs."""

    def __init__(self, name, game, run, cards, state, rule_sets, after_ms):
        self.name = name
        self.game = game
        self.run = run  # log text -> (game, recorder, error)
        self.cards = cards  # game -> every card it holds
        self.state = state  # game -> what the players see of the table
        self.rule_sets = rule_sets
        self.after_ms = after_ms  # the closing clock line, after the last press

    def __repr__(self):
        return self.name

    def codes(self, rules):
        """How many press codes the game takes under ``rules``."""
        if self.game is SpeedGame:
            return 10
        if self.game is RowGame:
            for item in rules.split():
                if item.startswith("piles="):
                    return int(item[6:])
            return 4
        return 8

    def log(self, seed, stream, rules="", start=1000):
        """A log for a seeded game and ``(gap_ms, player, code)`` presses (code mod codes)."""
        n = self.codes(rules)
        head = ("rules game=%s %s" % (self.name, rules)).strip() if self.name != "grid" else (
            "rules " + rules if rules else "")
        lines = ["CSLOG 1"] + ([head] if head else []) + [
            "seed %d" % seed, "start %d" % (start % TICKS_PERIOD)]
        t = start
        for gap, player, code in stream:
            t += gap
            lines.append("press %d %s %d" % (t % TICKS_PERIOD, player, code % n))
        lines.append("clock %d" % ((t + self.after_ms) % TICKS_PERIOD))
        return "\n".join(lines)


GRID = Kind("grid", GridGame, run, all_cards,
            lambda g: (list(g.tops), list(g.packs), g.pending, g.phase),
            ["", "tie=coin", "rutter=1", "stuck=0 deal=0 penalty=0",
             "deadlock=2 deadlock_result=fewer"], 5000)
ROW = Kind("row", RowGame, run_row, row_all_cards,
           lambda g: (list(g.tops), list(g.packs), list(g.active), g.phase),
           ["", "piles=3", "piles=6 match=either", "match=suit redeal=two tie=coin",
            "stuck=0 deal=0 penalty=0 redeal=two", "deadlock=2 deadlock_result=draw match=either"],
           5000)
SPEED = Kind("speed", SpeedGame, run_speed, speed_all_cards,
             lambda g: (list(g.tops), list(g.hands), list(g.draws), list(g.sides), g.phase),
             ["", "cards=15", "same=1 tie=coin", "remake=whole points=30",
              "stuck=0 deal=0 penalty=0 remake=whole", "deadlock=2 deadlock_result=draw same=1"],
             20000)
KINDS = [GRID, ROW, SPEED]

seeds = st.integers(0, (1 << 30) - 1)
presses = st.lists(st.tuples(st.integers(0, 300), st.sampled_from("AB"), st.integers(0, 9)),
                   min_size=0, max_size=150)
rule_index = st.integers(0, 5)


def rules_of(kind, index):
    return kind.rule_sets[index % len(kind.rule_sets)]


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=150, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index)
def test_all_52_cards_are_always_present_exactly_once(kind, seed, stream, index):
    game = kind.game()
    rec = Recorder(game)
    checks = []

    def check(ev, t, i):
        rec.event(ev, t, i)
        if ev != EV_PRESS:
            checks.append(sorted(kind.cards(game)) == sorted(CARD_NAMES))

    game.sink = check
    play_lines(game, kind.log(seed, stream, rules_of(kind, index)).split("\n"))
    assert checks and all(checks)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=100, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index)
def test_the_same_log_always_gives_the_same_trace(kind, seed, stream, index):
    text = kind.log(seed, stream, rules_of(kind, index))
    assert kind.run(text)[1].events == kind.run(text)[1].events


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=100, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index, before_wrap=st.integers(0, 20000))
def test_a_game_across_the_clock_wrap_plays_like_one_without(kind, seed, stream, index,
                                                              before_wrap):
    rules = rules_of(kind, index)
    plain = kind.run(kind.log(seed, stream, rules, start=1000))[1].events
    start = TICKS_PERIOD - before_wrap
    wrapped = kind.run(kind.log(seed, stream, rules, start=start))[1].events
    for e in wrapped:
        e["t"] = (e["t"] - start + 1000) % TICKS_PERIOD
    assert wrapped == plain


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=100, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index, rnd=st.randoms())
def test_reading_order_of_simultaneous_presses_never_changes_the_outcome(kind, seed, stream,
                                                                         index, rnd):
    rules = rules_of(kind, index)
    # Make ticks with several presses: group the stream into bursts sharing a time.
    bursty = [(gap if i % 4 == 0 else 0, p, code) for i, (gap, p, code) in enumerate(stream)]
    game1, rec1, _ = kind.run(kind.log(seed, bursty, rules))
    groups, order = [], []
    for item in bursty:
        if item[0] or not groups:
            groups.append([])
        groups[-1].append(item)
    for group in groups:
        gap = group[0][0]
        moved = group[:]
        rnd.shuffle(moved)
        order += [(gap if k == 0 else 0, p, code) for k, (_, p, code) in enumerate(moved)]
    game2, rec2, _ = kind.run(kind.log(seed, order, rules))

    def outcome(game, rec):
        # Which of a player's candidates plays depends on the codes, never on the order;
        # an "ignored" duplicate may swap with its twin: compare a per-tick multiset.
        per_tick = sorted("%d%s%d%s" % (e["t"], e["p"], e["pos"], e["r"]) for e in rec.of("press"))
        return kind.state(game) + ([e for e in rec.events if e["ev"] != "press"], per_tick)

    assert outcome(game1, rec1) == outcome(game2, rec2)
