"""Property tests of the shared-row game (RULES-ROW.md): its own invariants (the family's are in
test_family_properties.py)."""

import random

from hypothesis import given, settings, strategies as st

from engine.family import COVER, EV_PRESS, ILLEGAL, OVER, PLAY, WHY_OUT
from engine.log import LogReader
from engine.row import RowGame
from engine.row_rules import RowRules
from engine.ticks import TICKS_PERIOD

RULE_SETS = ["", "piles=3", "piles=6 match=either", "match=suit redeal=two tie=coin",
             "stuck=0 deal=0 penalty=0 redeal=two", "deadlock=2 deadlock_result=draw match=either"]

presses = st.lists(
    st.tuples(st.integers(0, 300), st.sampled_from("AB"), st.integers(0, 5)),
    min_size=0, max_size=120)


def piles_of(rules):
    for item in rules.split():
        if item.startswith("piles="):
            return int(item[6:])
    return 4


def make_log(seed, stream, rules="", start=1000):
    """A row log for a seeded game and ``(gap_ms, player, pile)`` presses (pile mod piles)."""
    n = piles_of(rules)
    lines = ["CSLOG 1", "rules game=row" + (" " + rules if rules else ""),
             "seed %d" % seed, "start %d" % (start % TICKS_PERIOD)]
    t = start
    for gap, player, pile in stream:
        t += gap
        lines.append("press %d %s %d" % (t % TICKS_PERIOD, player, pile % n))
    lines.append("clock %d" % ((t + 5000) % TICKS_PERIOD))
    return "\n".join(lines)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, (1 << 30) - 1), presses, st.sampled_from(RULE_SETS))
def test_a_press_is_illegal_exactly_when_the_active_card_did_not_match(seed, stream, rules):
    game = RowGame()
    legal_at_tick = {}
    verdicts = []

    def sink(ev, t, i):
        if ev == EV_PRESS:
            r = game.tick_result[i]
            if r in (COVER, ILLEGAL):
                verdicts.append((t, game.tick_player[i], game.tick_pos[i], r))

    game.sink = sink
    reader = LogReader(game)
    for line in make_log(seed, stream, rules).split("\n"):
        if line.startswith("press"):
            t = int(line.split()[1])
            game.advance(t)
            if not game.tick_n:
                legal_at_tick[t] = (game.legal[0], game.legal[1]) if game.phase == PLAY else None
        reader.feed(line)
    reader.end()
    for t, player, pile, r in verdicts:
        masks = legal_at_tick[t]
        assert masks is not None
        assert (r == ILLEGAL) == (not (masks[player] >> pile) & 1)


def play_legal(seed, rules, rnd, limit=20000):
    """Both players press random legal piles (several per tick at times) until the end."""
    game = RowGame(rules)
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
            options = [p for p in range(game.piles) if (game.legal[player] >> p) & 1]
            if options and rnd.random() < 0.7:
                for _ in range(rnd.randint(1, 2)):
                    game.press(player, rnd.choice(options), t)
    return game


@settings(max_examples=60, deadline=None)
@given(st.integers(0, (1 << 30) - 1), st.integers(0, 1 << 20), st.sampled_from(
    [RowRules(), RowRules(tie=1, piles=3), RowRules(match=1, redeal=1), RowRules(piles=6, match=2),
     RowRules(deadlock=3, deadlock_result=0)]))
def test_every_game_ends_when_players_keep_pressing_legal_piles(seed, rseed, rules):
    game = play_legal(seed, rules, random.Random(rseed))
    assert game.phase == OVER
    if game.why == WHY_OUT:
        assert game.packs[game.result] == 0 and game.packs[1 - game.result] > 0
    else:  # a deadlock: a stuck table, or both packs down to one card
        assert game.why != WHY_OUT and game.legal[0] == 0 and game.legal[1] == 0


def test_results_and_reasons_all_occur_over_many_games():
    seen = set()
    rnd = random.Random(4)
    for seed in range(200):
        game = play_legal(seed, RowRules(deadlock=3), rnd)
        seen.add((game.result, game.why))
    assert (0, 0) in seen and (1, 0) in seen and (2, 2) in seen
