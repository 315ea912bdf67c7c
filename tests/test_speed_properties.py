"""Property tests of Speed (RULES-SPEED.md): its own invariants (the family's are in
test_family_properties.py)."""

import random

from hypothesis import given, settings, strategies as st

from engine.family import COVER, EV_PRESS, ILLEGAL, OVER, PLAY, WHY_BOTH_OUT, WHY_OUT
from engine.log import LogReader
from engine.speed_rules import SpeedRules
from engine.speed import SpeedGame
from engine.ticks import TICKS_PERIOD

RULE_SETS = ["", "cards=15", "same=1 tie=coin", "remake=whole points=30",
             "stuck=0 deal=0 penalty=0 remake=whole", "deadlock=2 deadlock_result=draw same=1"]

presses = st.lists(
    st.tuples(st.integers(0, 300), st.sampled_from("AB"), st.integers(0, 9)),
    min_size=0, max_size=150)


def make_log(seed, stream, rules="", start=1000):
    """A Speed log for a seeded game and ``(gap_ms, player, n)`` presses."""
    lines = ["CSLOG 1", "rules game=speed" + (" " + rules if rules else ""),
             "seed %d" % seed, "start %d" % (start % TICKS_PERIOD)]
    t = start
    for gap, player, n in stream:
        t += gap
        lines.append("press %d %s %d" % (t % TICKS_PERIOD, player, n))
    lines.append("clock %d" % ((t + 20000) % TICKS_PERIOD))
    return "\n".join(lines)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, (1 << 30) - 1), presses, st.sampled_from(RULE_SETS))
def test_a_play_is_illegal_exactly_when_its_card_did_not_fit(seed, stream, rules):
    game = SpeedGame()
    legal_at_tick = {}
    verdicts = []

    def sink(ev, t, i):
        if ev == EV_PRESS:
            r = game.tick_result[i]
            if r in (COVER, ILLEGAL):
                verdicts.append((t, game.tick_player[i], game.tick_pos[i], r))

    game.sink = sink
    reader = LogReader(game, lambda g: setattr(g, "sink", sink))
    for line in make_log(seed, stream, rules).split("\n"):
        if line.startswith("press"):
            t = int(line.split()[1])
            g = reader.game
            g.advance(t)
            if not g.tick_n:
                legal_at_tick[t] = (g.legal[0], g.legal[1]) if g.phase == PLAY else None
        reader.feed(line)
    reader.end()
    game = reader.game
    for t, player, n, r in verdicts:
        masks = legal_at_tick[t]
        assert masks is not None
        assert (r == ILLEGAL) == (not (masks[player] >> n) & 1)


def play_legal(seed, rules, rnd, limit=20000):
    """Both players make random fitting plays (several per tick at times) until the end."""
    game = SpeedGame(rules)
    game.shuffle(seed)
    game.start(0)
    t = 0
    for _ in range(limit):
        t += rnd.randint(1, 400)
        game.advance(t)
        if game.phase == OVER:
            return game
        if game.phase != PLAY:
            continue
        for player in (0, 1):
            options = [n for n in range(10) if (game.legal[player] >> n) & 1]
            if options and rnd.random() < 0.7:
                for _ in range(rnd.randint(1, 2)):
                    game.press(player, rnd.choice(options), t)
    return game


@settings(max_examples=60, deadline=None)
@given(st.integers(0, (1 << 30) - 1), st.integers(0, 1 << 20), st.sampled_from(
    [SpeedRules(), SpeedRules(tie=1, cards=15), SpeedRules(same=1, remake=1),
     SpeedRules(remake=1, points=40), SpeedRules(deadlock=3, deadlock_result=0)]))
def test_every_game_ends_when_players_keep_making_plays_that_fit(seed, rseed, rules):
    game = play_legal(seed, rules, random.Random(rseed))
    assert game.phase == OVER
    if game.why == WHY_OUT:
        assert game.held(game.result) == 0 and game.held(1 - game.result) > 0
    elif game.why == WHY_BOTH_OUT:
        assert game.held(0) == game.held(1) == 0
    else:  # a deadlock: the table was stuck
        assert game.legal[0] == 0 and game.legal[1] == 0


def test_results_and_reasons_all_occur_over_many_games():
    seen = set()
    rnd = random.Random(4)
    for seed in range(150):
        game = play_legal(seed, SpeedRules(deadlock=2), rnd)
        seen.add((game.result, game.why))
    assert (0, 0) in seen and (1, 0) in seen and (0, 2) in seen and (1, 2) in seen
