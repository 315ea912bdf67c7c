"""Property tests of Aggravation and Frustration (RULES-AGGRAVATION.md), with hypothesis:
52 cards always there once, rows never over 13 and both never over 14, the masks the
engine keeps up to date equal to what the tops show, shares that add up, every game at
rest or over once presses stop (and then nothing changes), the same log the same trace,
a game across the clock wrap like one without, and the reading order of simultaneous
presses never changing the outcome.

The press streams are read against the live game: an item ``(gap, player, code, aim)``
presses, ``gap`` ms after the previous one, the ``code``-th position the player may
press (coverable with cards, a rank shown twice without) when ``aim`` and there is one,
else position ``code`` (0-27: often a position with no stack).
"""

from hypothesis import given, settings, strategies as st

from aggravation_helpers import CARD_NAMES, NO_CARD, Recorder, agg_all_cards, run_agg
from engine.aggravation import ROW_BASE, AggravationGame
from engine.family import EV_PRESS, OVER
from engine.log import LogReader, play_lines
from engine.ticks import TICKS_PERIOD

RULE_SETS = ("", "frustration=1", "tie=coin rutter=1", "call=60 penalty=0",
             "frustration=1 target=20 stuck=0 deal=0 penalty=0", "frustration=1 target=1 tie=coin",
             "stuck=0 deal=0 call=2000")
REST_MS = 400000  # longer than any run of deal rounds and scoops a table can take

seeds = st.integers(0, (1 << 30) - 1)
presses = st.lists(st.tuples(st.integers(0, 400), st.integers(0, 1), st.integers(0, 27),
                             st.booleans()), min_size=0, max_size=250)
rule_index = st.integers(0, len(RULE_SETS) - 1)


def _nth_bit(mask, k):
    k %= bin(mask).count("1")
    pos = 0
    while True:
        if (mask >> pos) & 1:
            if not k:
                return pos
            k -= 1
        pos += 1


def make_log(seed, stream, rules, start=1000, bursts=False):
    """Log lines of a seeded game and ``stream`` read against the live game (module doc).

    With ``bursts`` every item but each fourth shares the previous item's time."""
    lines = ["CSLOG 1", ("rules game=aggravation " + rules).strip(), "seed %d" % seed,
             "start %d" % (start % TICKS_PERIOD)]
    reader = LogReader(AggravationGame())
    for line in lines:
        reader.feed(line)
    game = reader.game
    t = start
    for k, (gap, player, code, aim) in enumerate(stream):
        if not bursts or k % 4 == 0:
            t += gap
            game.advance(t % TICKS_PERIOD)
        mask = game.coverable if game.packs[player] else game.pairs
        pos = _nth_bit(mask, code) if aim and mask else code
        line = "press %d %s %d" % (t % TICKS_PERIOD, "AB"[player], pos)
        reader.feed(line)
        lines.append(line)
    lines.append("clock %d" % ((t + 1) % TICKS_PERIOD))
    return lines


def _tops_pairs(game):
    """The mask of positions whose top's rank shows on another top, from the tops."""
    count = [0] * 13
    for pos in range(28):
        if game.tops[pos] != NO_CARD:
            count[game.tops[pos] >> 2] += 1
    return sum(1 << pos for pos in range(28)
               if game.tops[pos] != NO_CARD and count[game.tops[pos] >> 2] > 1)


def check_table(game):
    """Every invariant of a table, or the first one broken (a string)."""
    if sorted(agg_all_cards(game)) != sorted(CARD_NAMES):
        return "cards"
    a, b = game.row_len[0], game.row_len[1]
    if a > 13 or b > 13 or a + b > 14:
        return "rows %d + %d" % (a, b)
    for player, n in ((0, a), (1, b)):
        for k in range(ROW_BASE):
            if (game.tops[player * ROW_BASE + k] != NO_CARD) != (k < n):
                return "row %d not contiguous" % player
    if game.pairs != _tops_pairs(game):
        return "pairs"
    shown = (1 << a) - 1 | ((1 << b) - 1) << ROW_BASE
    if game.coverable & ~shown or game.pending & ~shown:
        return "a mask names a position with no stack"
    for player in range(2):
        own = sum(game.heights[player * ROW_BASE + k] for k in range(game.row_len[player]))
        if game.frustration and game.shares[player] != game.packs[player] + own:
            return "share of %d" % player
    return None


@settings(max_examples=150, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index)
def test_cards_rows_masks_and_shares_hold_after_every_event(seed, stream, index):
    lines = make_log(seed, stream, RULE_SETS[index])
    game = AggravationGame()
    broken = []

    def check(ev, t, i):
        if ev != EV_PRESS:
            broken.append(check_table(game))

    game.sink = check
    play_lines(game, lines)
    assert broken and broken == [None] * len(broken), [b for b in broken if b]


@settings(max_examples=150, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index)
def test_without_presses_every_game_comes_to_rest_or_ends(seed, stream, index):
    lines = make_log(seed, stream, RULE_SETS[index])
    game, rec, err = run_agg("\n".join(lines))
    assert err is None
    broken = []  # the rounds dealt once presses stop grow the rows: still within bounds
    game.sink = lambda ev, t, i: broken.append(check_table(game))
    t = game.clock
    game.advance(t + REST_MS // 2)
    game.advance(t + REST_MS)
    assert game.phase == OVER or game.due_at() == -1, (game.phase, game.due_at())
    assert broken == [None] * len(broken), [b for b in broken if b]
    changes = game.changes
    events = len(broken)
    game.advance(t + REST_MS + 100000)
    assert game.changes == changes and len(broken) == events
    if game.phase != OVER:  # at rest: something is coverable (or tappable), nothing due
        assert game.coverable


@settings(max_examples=80, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index)
def test_the_same_log_always_gives_the_same_trace(seed, stream, index):
    text = "\n".join(make_log(seed, stream, RULE_SETS[index]))
    assert run_agg(text)[1].events == run_agg(text)[1].events


@settings(max_examples=80, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index, before_wrap=st.integers(0, 20000))
def test_a_game_across_the_clock_wrap_plays_like_one_without(seed, stream, index, before_wrap):
    plain = run_agg("\n".join(make_log(seed, stream, RULE_SETS[index])))[1].events
    start = TICKS_PERIOD - before_wrap
    wrapped = run_agg("\n".join(make_log(seed, stream, RULE_SETS[index], start=start)))[1].events
    for e in wrapped:
        e["t"] = (e["t"] - start + 1000) % TICKS_PERIOD
    assert wrapped == plain


@settings(max_examples=80, deadline=None)
@given(seed=seeds, stream=presses, index=rule_index, rnd=st.randoms())
def test_reading_order_of_simultaneous_presses_never_changes_the_outcome(seed, stream, index,
                                                                         rnd):
    lines = make_log(seed, stream, RULE_SETS[index], bursts=True)
    head = lines[:4]
    body = lines[4:-1]
    groups = []  # runs of presses with one time, shuffled within each run
    for line in body:
        if groups and groups[-1][0].split()[1] == line.split()[1]:
            groups[-1].append(line)
        else:
            groups.append([line])
    shuffled = []
    for group in groups:
        rnd.shuffle(group)
        shuffled += group
    one = run_agg("\n".join(lines))[1]
    two = run_agg("\n".join(head + shuffled + lines[-1:]))[1]

    def outcome(rec):  # everything but the order of the press events within a tick
        return ([e for e in rec.events if e["ev"] != "press"],
                sorted((e["t"], e["p"], e["pos"], e["r"], e.get("card")) for e in rec.of("press")))

    assert outcome(one) == outcome(two)


def test_the_recorder_sees_the_games_own_names():
    game = AggravationGame()
    rec = Recorder(game)
    play_lines(game, make_log(5, [(400, 0, 0, True)] * 40, "")[:-1] + ["clock 90000"])
    names = {e["ev"] for e in rec.events}
    assert {"deal", "dry", "press", "tick"} <= names and "stuck" not in names
