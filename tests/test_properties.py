"""Property tests: invariants of the engine over random decks and press streams."""

import random

from hypothesis import example, given, settings, strategies as st

from engine.cards import CARD_NAMES
from engine.family import COVER, EV_PRESS, EV_TICK, ILLEGAL, OVER, PLAY
from engine.grid import GridGame
from engine.grid_rules import GridRules
from engine.ticks import TICKS_PERIOD, ticks_diff
from engine.log import LogError, LogReader, play_lines
from engine.trace import replay_text

RULE_SETS = ["", "tie=coin", "rutter=1", "stuck=0 deal=0 penalty=0", "deadlock=2 deadlock_result=fewer"]

presses = st.lists(
    st.tuples(st.integers(0, 300), st.sampled_from("AB"), st.integers(0, 7)),
    min_size=0, max_size=120)


def make_log(seed, stream, rules="", start=1000):
    """A log text for a seeded game and ``(gap_ms, player, pos)`` presses."""
    lines = ["CSLOG 1"]
    if rules:
        lines.append("rules " + rules)
    lines += ["seed %d" % seed, "start %d" % (start % TICKS_PERIOD)]
    t = start
    for gap, player, pos in stream:
        t += gap
        lines.append("press %d %s %d" % (t % TICKS_PERIOD, player, pos))
    lines.append("clock %d" % ((t + 5000) % TICKS_PERIOD))
    return "\n".join(lines)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, (1 << 30) - 1), presses, st.sampled_from(RULE_SETS))
def test_a_press_is_illegal_exactly_when_its_position_was_not_coverable(seed, stream, rules):
    game = GridGame()
    coverable_at_tick = {}
    verdicts = []

    def sink(ev, t, i):
        if ev == EV_PRESS:
            r = game.tick_result[i]
            if r in (COVER, ILLEGAL):
                verdicts.append((t, game.tick_pos[i], r))

    game.sink = sink
    lines = make_log(seed, stream, rules).split("\n")
    from engine.log import LogReader
    reader = LogReader(game)
    for line in lines:
        if line.startswith("press"):
            t = int(line.split()[1])
            game.advance(t)  # judge earlier ticks, run steps due by t
            if not game.tick_n:
                coverable_at_tick[t] = game.coverable if game.phase == PLAY else None
        reader.feed(line)
    reader.end()
    for t, pos, r in verdicts:
        mask = coverable_at_tick[t]
        assert mask is not None
        assert (r == ILLEGAL) == (not (mask >> pos) & 1)


def play_legal(seed, rules, rnd, limit=20000):
    """Both players press random coverable positions until the game ends."""
    game = GridGame(rules)
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
            options = [p for p in range(8) if (game.coverable >> p) & 1]
            if options and rnd.random() < 0.7:
                game.press(player, rnd.choice(options), t)
    return game


@settings(max_examples=60, deadline=None)
@given(st.integers(0, (1 << 30) - 1), st.integers(0, 1 << 20), st.sampled_from(
    [GridRules(), GridRules(tie=1), GridRules(rutter=1), GridRules(deadlock=3, deadlock_result=1)]))
def test_every_game_ends_when_players_keep_pressing_legal_positions(seed, rseed, rules):
    game = play_legal(seed, rules, random.Random(rseed))
    assert game.phase == OVER
    if game.why == 0:  # out: the winner's pack is empty, the loser's is not
        assert game.packs[game.result] == 0 and game.packs[1 - game.result] > 0


def test_win_results_and_reasons_all_occur_over_many_games():
    seen = set()
    rnd = random.Random(4)
    for seed in range(300):
        game = play_legal(seed, GridRules(deadlock=4), rnd)
        seen.add((game.result, game.why))
    assert (0, 0) in seen and (1, 0) in seen and (2, 2) in seen


def test_a_tick_event_follows_every_tick_that_judged_a_press():
    game = GridGame()
    events = []
    game.sink = lambda ev, t, i: events.append((ev, game.tick_result[i] if ev == EV_PRESS else -1))
    rnd = random.Random(1)
    game.shuffle(3)
    game.start(0)
    t = 0
    for _ in range(400):
        t += rnd.randint(0, 3) * 100
        game.press(rnd.randint(0, 1), rnd.randint(0, 7), t)
    game.finish()
    i = 0
    while i < len(events):
        if events[i][0] != EV_PRESS:
            i += 1
            continue
        j = i
        while j < len(events) and events[j][0] == EV_PRESS:
            j += 1
        judged = any(r != 5 for _, r in events[i:j])
        assert judged == (j < len(events) and events[j][0] == EV_TICK)
        i = j


# A match played by the stream: (gap, what, k) where what is a press by A or B (k-th
# coverable position if any, else position k % 8), both players on one position (a
# tie when it is coverable), the next game (seed or deck, then start, if the game
# is over by then), or both: a tie, then at once the next game.
match_stream = st.lists(
    st.tuples(st.sampled_from([0, 0, 1, 2, 60, 150, 400, 1500]),
              st.sampled_from(["A", "B", "AB", "new", "AB new", "AB new"]), st.integers(0, 15)),
    min_size=0, max_size=120)
inserts = st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 10 ** 6), st.booleans()),
                   min_size=1, max_size=6)
MATCH_RULES = ["tie=coin deadlock=1", "tie=coin deadlock=2 rutter=1", "", "deal=0 stuck=0 penalty=0",
               "tie=coin wins=9 deadlock=1"]


def _over_by(lines, t):
    game = GridGame()
    try:
        play_lines(game, lines + ["clock %d" % t])
    except LogError:
        return False
    return game.phase == OVER and not game.match_over


def make_match_log(seed, stream, rules):
    """A match log played from ``stream`` (no final clock line); valid unless the
    engine refuses a start that a log with a ``clock`` line before it accepts."""
    lines = ["CSLOG 1", "rules " + rules, "seed %d" % seed, "start 1000"]
    if not rules:
        del lines[1]
    game = GridGame()
    reader = LogReader(game)
    for line in lines:
        reader.feed(line)
    t = 1000
    try:
        for gap, what, k in stream:
            t = (t + gap) % TICKS_PERIOD
            if what != "new":
                game.advance(t)
                options = [p for p in range(8) if (game.coverable >> p) & 1] if game.phase == PLAY else []
                pos = options[k % len(options)] if options and k < 12 else k % 8
                if what == "AB new" and not options:
                    continue  # a tie that is judged, not one ignored after the game
                for player in what[:2].strip():
                    lines.append("press %d %s %d" % (t, player, pos))
                    reader.feed(lines[-1])
            if what.endswith("new"):
                t2 = (t + 1 + k * 100) % TICKS_PERIOD
                if _over_by(lines, t2):  # (by a clock line at t2)
                    if k & 1:
                        head = "deck " + " ".join(CARD_NAMES[(c * 7 + k) % 52] for c in range(52))
                    else:
                        head = "seed %d" % ((seed + len(lines)) % (1 << 30))
                    lines += [head, "start %d" % t2]  # nothing judged the last tick yet
                    reader.feed(lines[-2])
                    reader.feed(lines[-1])
                    t = t2
    except LogError:
        pass  # the start was refused: the log ends with it
    return lines


def _time_of(line):
    kind, _, rest = line.partition(" ")
    return int(rest.split(" ")[0]) if kind in ("start", "press", "clock") else None


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 30) - 1), match_stream, st.sampled_from(MATCH_RULES), inserts)
@example(1, [(400, "AB", 0), (0, "AB new", 1)], "tie=coin deadlock=1", [(0, 1, True)])  # issue 9 item 13
def test_inserting_clock_lines_at_times_already_reached_never_changes_a_trace(seed, stream, rules, ins):
    # "Already reached": no earlier than the last time read, and no later than the
    # next time the log reads (at the end: the last time itself), so the log would
    # have reached that time anyway before its next line.
    lines = make_match_log(seed, stream, rules)
    plain, err = replay_text("\n".join(lines))
    for where, offset, at_games in ins:
        spots = [1 + where % len(lines)]  # after the header, before lines[j]
        if at_games:  # before every next game's seed or deck line, from the last
            spots = [i for i, line in enumerate(lines) if line[:4] in ("seed", "deck")][::-1]
        for j in spots:
            before = [x for x in map(_time_of, lines[:j]) if x is not None]
            after = [x for x in map(_time_of, lines[j:]) if x is not None]
            if not before and not after:
                continue
            last = before[-1] if before else 0
            span = ticks_diff(after[0], last) if after else 0
            lines.insert(j, "clock %d" % ((last + offset % (span + 1)) % TICKS_PERIOD))
    clocked, err_clocked = replay_text("\n".join(lines))
    assert clocked == plain
    assert err is None and err_clocked is None  # the log was valid with or without


def test_a_start_during_a_game_is_tried_on_a_copy_of_all_the_state():
    # Game._try_start copies _STATE_INTS and _STATE_BUFS: every attribute a game
    # has must be one of them, or one a trial start never reads.
    not_state = {"rules", "sink", "rng", "deck_rng", "deck", "_first", "_trial"}
    game = GridGame(GridRules(tie=1))
    game.shuffle(5)
    game.start(0)
    names = set(vars(game))
    assert names == set(GridGame._STATE_INTS) | set(GridGame._STATE_BUFS) | not_state
    assert not set(GridGame._STATE_INTS) & set(GridGame._STATE_BUFS)
