"""The CPU opponent (engine/family_bot.py): strength order, legality, replay, determinism,
and that it plays from the public views only."""

import pytest

from engine.family_bot import BEGINNER, EXPERT, LEVELS, NORMAL, PERFECT, level_params
from engine.grid_bot import GridBot
from engine.family import COVER, OVER
from engine.grid import GridGame
from engine.log import play_lines
from engine.logwriter import LogWriter
from engine.grid_rules import GridRules
from engine.ticks import TICKS_PERIOD, ticks_add, ticks_diff
from engine.trace import Tracer
from tools.simulate import play_game

WRAP_START = TICKS_PERIOD - 20000  # a game started here crosses the 2**29 wrap


def new_game(seed, levels=(NORMAL, NORMAL), bot_seeds=(1, 2), rules=None, t=0, sink=None):
    game = GridGame(rules, sink)
    game.shuffle(seed)
    game.start(t)
    bots = (GridBot(game, 0, levels[0], bot_seeds[0]), GridBot(game, 1, levels[1], bot_seeds[1]))
    return game, bots


def play(seed, levels=(NORMAL, NORMAL), bot_seeds=(1, 2), rules=None, t=0):
    """Play one game with the simulator's driver; return (game, press lines)."""
    game, bots = new_game(seed, levels, bot_seeds, rules, t)
    lines = []
    play_game(game, bots, t, lines.append)
    return game, lines


def play_every_ms(game, bots, t, on_press=None):
    """A firmware-like driver: advance and step the bots every millisecond."""
    for bot in bots:
        bot.reset(t)
    presses = []
    while game.phase != OVER:
        game.advance(t)
        for bot in bots:
            pos = bot.step(t)
            if pos >= 0:
                if on_press is not None:
                    on_press(bot, pos, t)
                game.press(bot.player, pos, t)
                presses.append("press %d %s %d" % (t, "AB"[bot.player], pos))
        t = ticks_add(t, 1)
    return presses


# ------------------------------------------------------------------ levels


def wins(level_a, level_b, n, base=0):
    won = [0, 0, 0]
    for i in range(n):
        game, _ = play(base + i, (level_a, level_b), (3 * i + 1, 3 * i + 2))
        won[game.result] += 1
    return won


def test_expert_beats_beginner_from_either_seat():
    a = wins(EXPERT, BEGINNER, 20)
    b = wins(BEGINNER, EXPERT, 20, base=100)
    assert a[0] >= 18 and b[1] >= 18, (a, b)


def test_levels_are_ordered():
    assert wins(NORMAL, BEGINNER, 12)[0] >= 10
    assert wins(EXPERT, NORMAL, 12)[0] >= 10
    assert wins(PERFECT, EXPERT, 12)[0] >= 10


def test_level_table_is_consistent():
    for row in LEVELS:
        assert len(row) == 9 and all(isinstance(v, int) and 0 <= v < 1 << 20 for v in row)
        assert row[0] <= row[1] and row[2] <= row[3] and row[5] <= row[6]
    # anchors: normal 300-800 ms per card; beginners 500-3000 ms
    assert (LEVELS[NORMAL][0] + LEVELS[NORMAL][2], LEVELS[NORMAL][1] + LEVELS[NORMAL][3]) == (300, 800)
    assert (LEVELS[BEGINNER][0] + LEVELS[BEGINNER][2], LEVELS[BEGINNER][1] + LEVELS[BEGINNER][3]) == (500, 3000)
    assert level_params("expert") == LEVELS[EXPERT]
    with pytest.raises(ValueError):
        GridBot(GridGame(), 0, (5, 1, 0, 0, 0, 0, 0, 0, 0))


# ---------------------------------------------------------------- legality


@pytest.mark.parametrize("other", [BEGINNER, NORMAL, EXPERT, PERFECT])
@pytest.mark.parametrize("t0", [0, WRAP_START])
def test_perfect_bot_never_presses_an_illegal_position(other, t0):
    for seed in range(6):
        game, bots = new_game(seed, (PERFECT, other), (seed + 10, seed + 20), t=t0)

        def on_press(bot, pos, t):
            if bot.level_row_is_perfect:
                assert game.phase == 2 and (game.coverable >> pos) & 1, (seed, t, pos)

        for bot in bots:
            bot.level_row_is_perfect = bot.p == LEVELS[PERFECT]
        play_every_ms(game, bots, t0, on_press)
        assert game.illegals[0] == 0
        assert game.result in (0, 1, 2)


def test_other_levels_do_make_mistakes():
    illegal = 0
    for seed in range(5):
        game, _ = play(seed, (BEGINNER, NORMAL))
        illegal += game.illegals[0] + game.illegals[1]
    assert illegal > 0


def test_bot_waits_out_its_lock():
    game, bots = new_game(4, (BEGINNER, BEGINNER), (7, 8))
    locked_presses = []

    def on_press(bot, pos, t):
        if game.locked_at(bot.player, t):
            locked_presses.append((bot.player, t))

    play_every_ms(game, bots, 0, on_press)
    assert game.illegals[0] + game.illegals[1] > 0
    assert locked_presses == []


def test_a_bot_paused_for_days_plays_on_at_once():
    # The game pauses with a match on the table: the game hears the time and the
    # bot idles, in steps under 2**28 ms, for days. Once play resumes the bot must
    # press within its own delays, not wait for the clock to come round again.
    seed = 0
    while True:
        game, bots = new_game(seed, (NORMAL, NORMAL))
        game.advance(300)
        if game.coverable:
            break
        seed += 1
    bot = bots[0]
    bot.reset(300)
    assert bot.step(300) == -1 and bot.next_time() > 300  # it has seen the match
    for pause in ((1 << 28) + 1000, 3 << 28, 5 << 29):
        t = game.clock
        left = pause
        while left:
            step = min(left, 1 << 27)
            t = (t + step) % TICKS_PERIOD
            left -= step
            assert game.advance(t) == 0
            bot.idle(t)
        for _ in range(5000):  # react + miss + move of a normal bot: under 5 s
            t = (t + 1) % TICKS_PERIOD
            game.advance(t)
            pos = bot.step(t)
            if pos >= 0:
                break
        assert pos >= 0, pause
        assert game.press(0, pos, t) == 0
        game.advance((t + 1) % TICKS_PERIOD)
        bot.step((t + 1) % TICKS_PERIOD)


# ------------------------------------------------------------------ replay


def live_and_replayed(seed, levels, rules_line, games=1):
    """Play ``games`` games of a match live (traced, logged); replay the log."""
    rules = GridRules()
    for item in rules_line.split():
        rules.set(*item.split("="))
    live = []
    game = GridGame(rules)
    Tracer(game, live.append)
    writer = LogWriter()
    log = [bytes(writer.header()).decode(), bytes(writer.rules(rules)).decode()]
    bots = (GridBot(game, 0, levels[0], seed + 1), GridBot(game, 1, levels[1], seed + 2))
    t = WRAP_START
    for k in range(games):
        if game.match_over:
            break
        game.shuffle(seed + k)
        game.start(t)
        log.append(bytes(writer.seed(seed + k)).decode())
        log.append(bytes(writer.start(t)).decode())
        t = play_game(game, bots, t, log.append)
        t = ticks_add(t, 2500)
    replayed = []
    again = GridGame()
    Tracer(again, replayed.append)
    play_lines(again, log)
    return live, replayed, log


@pytest.mark.parametrize("levels,rules", [
    ((NORMAL, NORMAL), ""),
    ((BEGINNER, EXPERT), "penalty=800"),
    ((PERFECT, PERFECT), "tie=coin"),  # coin ties use the game's generator
    ((EXPERT, EXPERT), "deadlock=2 stuck=0 deal=0"),
])
def test_bot_match_log_replays_to_the_live_trace(levels, rules):
    live, replayed, log = live_and_replayed(5, levels, rules, games=3)
    assert sum(1 for line in log if line.startswith("press")) > 20
    assert any('"ev": "over"' in line for line in live)
    assert replayed == live


def test_log_writer_press_line_matches_the_driver():
    w = LogWriter()
    assert bytes(w.press(536870000, 1, 6)).decode() == "press 536870000 B 6\n"


# ------------------------------------------------------------- determinism


def test_same_seeds_same_game():
    a = play(11, (NORMAL, EXPERT), (5, 6))
    b = play(11, (NORMAL, EXPERT), (5, 6))
    assert a[1] == b[1] and a[0].result == b[0].result
    c = play(11, (NORMAL, EXPERT), (5, 7))
    assert c[1] != a[1]  # the bots' own seeds matter


def shifted(lines, dt):
    out = []
    for line in lines:
        f = line.split()
        f[1] = str(ticks_add(int(f[1]), dt))
        out.append(" ".join(f))
    return out


def test_game_across_the_clock_wrap_plays_the_same():
    a = play(3, (NORMAL, NORMAL), (1, 2), t=0)[1]
    b = play(3, (NORMAL, NORMAL), (1, 2), t=WRAP_START)[1]
    assert shifted(a, WRAP_START) == b
    assert int(b[-1].split()[1]) < WRAP_START  # it did cross the wrap


def test_stepping_every_ms_equals_the_event_driven_simulator():
    for seed in range(3):
        lines = play(seed, (NORMAL, BEGINNER), (seed, seed + 1))[1]
        game, bots = new_game(seed, (NORMAL, BEGINNER), (seed, seed + 1))
        assert play_every_ms(game, bots, 0) == lines[:-1]  # minus the final clock line


def test_bot_does_not_use_the_games_generator():
    game, bots = new_game(8, (NORMAL, NORMAL))
    state = game.rng.state
    play_game(game, bots, 0)
    assert game.rng.state == state  # replay ties: nothing else may draw from it


# ------------------------------------------------------- public views only


class PublicView:
    """Exposes only what a player at the table can see."""

    def __init__(self, game):
        self._g = game

    phase = property(lambda self: self._g.phase)
    tops = property(lambda self: self._g.tops)
    coverable = property(lambda self: self._g.coverable)
    pending = property(lambda self: self._g.pending)
    changes = property(lambda self: self._g.changes)

    def lock_left(self, p, t):
        return self._g.lock_left(p, t)

    def locked_at(self, p, t):
        return self._g.locked_at(p, t)


def test_bot_works_through_the_public_views_alone():
    lines = play(9, (EXPERT, BEGINNER), (1, 2))[1]
    game = GridGame()
    game.shuffle(9)
    game.start(0)
    view = PublicView(game)  # any other attribute read raises AttributeError
    bots = (GridBot(view, 0, EXPERT, 1), GridBot(view, 1, BEGINNER, 2))
    assert play_game_through(game, bots) == lines


def play_game_through(game, bots):
    lines = []
    t = 0
    for bot in bots:
        bot.reset(t)
    while game.phase != OVER:
        game.advance(t)
        for bot in bots:
            pos = bot.step(t)
            if pos >= 0:
                game.press(bot.player, pos, t)
                lines.append("press %d %s %d" % (t, "AB"[bot.player], pos))
        t += 1
    lines.append("clock %d" % (t - 1))
    return lines


class PeekingBot(GridBot):
    """A cheat: hesitates according to the bottom card of its own pack."""

    def _look(self, now):
        super()._look(now)
        g = self.game
        bottom = (g.pack_head[self.player] + g.packs[self.player] - 1) % 52
        nxt = g.pack[self.player * 52 + bottom]
        for pos in range(8):
            self.notice[pos] = ticks_add(self.notice[pos], nxt % 5)


def visible(game):
    return (game.phase, bytes(game.tops), game.coverable, game.pending, bytes(game.packs),
            game.locked_at(0, game.clock), game.locked_at(1, game.clock))


def run_recorded(game, bots, t, perturb_at):
    """Jump-driver run recording (time, visible state, presses) at every step;
    at the first step past ``perturb_at`` ms the hidden packs are rotated."""
    recs = []
    done = False
    for bot in bots:
        bot.reset(t)
    t0 = t
    while True:
        game.advance(t)
        if game.phase == OVER:
            break
        if (not done and ticks_diff(t, t0) >= perturb_at and game.phase == 2
                and min(game.packs) >= KEEP + 2):
            rotate_hidden_packs(game)
            done = True
            recs.append((t, "rotated", ()))
        seen = visible(game)
        out = tuple(bot.step(t) for bot in bots)
        for bot, pos in zip(bots, out):
            if pos >= 0:
                game.press(bot.player, pos, t)
        recs.append((t, seen, out + (bots[0].next_time(), bots[1].next_time())))
        nxt = [ticks_add(t, 1)] if max(out) >= 0 else []
        nxt += [w for w in (game.due_at(), bots[0].next_time(), bots[1].next_time()) if w >= 0]
        t = min(nxt, key=lambda w: ticks_diff(w, t))
        if ticks_diff(t, t0) > 3600000:
            break
    return recs


def rotate_hidden_packs(game):
    """Permute the face-down packs (the test may touch internals; bots must not)."""
    for p in range(2):
        n = game.packs[p]
        base = 52 * p
        head = game.pack_head[p]
        cards = [game.pack[base + (head + k) % 52] for k in range(n)]
        # Keep the top KEEP (covers and deals reveal those first), rotate the
        # rest: a different bottom card, same counts.
        cards = cards[:KEEP] + cards[KEEP + 1:] + cards[KEEP:KEEP + 1]
        for k in range(n):
            game.pack[base + (head + k) % 52] = cards[k]


PERTURB_MS = 1000  # the hidden packs are changed at the first step in play after this
KEEP = 12


def hidden_state_check(bot_class, seed):
    """Return (presses made before the visible states diverged, identical?)."""
    runs = []
    for perturb in (False, True):
        game = GridGame()
        game.shuffle(seed)
        game.start(0)
        bots = (bot_class(game, 0, NORMAL, 1), bot_class(game, 1, NORMAL, 2))
        runs.append(run_recorded(game, bots, 0, PERTURB_MS if perturb else 10 ** 9))
    a, b = runs
    a = [r for r in a if r[1] != "rotated"]
    after = b.index(next(r for r in b if r[1] == "rotated"))
    b = b[:after] + b[after + 1:]
    presses = 0
    for k, (ra, rb) in enumerate(zip(a, b)):
        if ra[0] != rb[0] or ra[2] != rb[2]:
            # Same visible history so far, yet a different press or plan (the
            # step times come from the bots' next_time()): hidden state leaked.
            return presses, False
        if ra[1] != rb[1]:
            break  # the change became visible: the bots may differ from here
        if k >= after:  # count the presses made after the change
            presses += sum(1 for p in ra[2][:2] if p >= 0)
    else:
        pytest.fail("the hidden change never became visible")
    return presses, True


def test_permuting_hidden_cards_changes_nothing_until_they_show():
    total = 0
    for seed in range(6):
        presses, same = hidden_state_check(GridBot, seed)
        assert same, seed
        total += presses
    assert total >= 30  # a meaningful stretch of play between the change and its reveal


def test_the_hidden_state_check_catches_a_peeking_bot():
    assert not any(hidden_state_check(PeekingBot, seed)[1] for seed in range(6))
