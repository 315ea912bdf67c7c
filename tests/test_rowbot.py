"""The shared-row CPU opponent (engine/rowbot.py): levels, legality, replay, determinism,
the public views alone, and tools/simulate --game row."""

import json

import pytest

from engine.bot import BEGINNER, EXPERT, LEVELS, NORMAL, PERFECT
from engine.game import OVER, PLAY
from engine.log import play_lines
from engine.row import RowGame
from engine.rowbot import RowBot
from engine.rowrules import RowRules
from engine.ticks import TICKS_PERIOD, ticks_add
from engine.trace import Tracer
from tools import simulate as sim
from tools.simulate import play_game

WRAP_START = TICKS_PERIOD - 20000
VARIATIONS = ["", "match=suit", "match=either", "piles=3", "piles=6", "redeal=two"]


def rules_of(text):
    rules = RowRules()
    for item in text.split():
        key, _, value = item.partition("=")
        rules.set(key, value)
    return rules


def new_game(seed, levels=(NORMAL, NORMAL), bot_seeds=(1, 2), rules=None, t=0, sink=None):
    game = RowGame(rules, sink)
    game.shuffle(seed)
    game.start(t)
    return game, (RowBot(game, 0, levels[0], bot_seeds[0]), RowBot(game, 1, levels[1], bot_seeds[1]))


def play(seed, levels=(NORMAL, NORMAL), bot_seeds=(1, 2), rules=None, t=0):
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
            pile = bot.step(t)
            if pile >= 0:
                if on_press is not None:
                    on_press(bot, pile, t)
                game.press(bot.player, pile, t)
                presses.append("press %d %s %d" % (t, "AB"[bot.player], pile))
        t = ticks_add(t, 1)
    return presses


def wins(level_a, level_b, n, rules=None, base=0):
    won = [0, 0, 0]
    for i in range(n):
        game, _ = play(base + i, (level_a, level_b), (3 * i + 1, 3 * i + 2), rules)
        won[game.result] += 1
    return won


@pytest.mark.parametrize("variation", ["match=suit", "match=either"])
def test_faster_levels_win_from_either_seat(variation):
    # (With rank match plays are rare and mostly one's own: the deal decides far
    # more than speed -- docs/SIMULATION.md measures it.)
    rules = rules_of(variation)
    a = wins(EXPERT, BEGINNER, 30, rules)
    b = wins(BEGINNER, EXPERT, 30, rules, base=100)
    fast, slow = a[0] + b[1], a[1] + b[0]
    assert a[0] > a[1] and b[1] > b[0] and fast >= 0.65 * (fast + slow), (a, b)


@pytest.mark.parametrize("variation", VARIATIONS)
@pytest.mark.parametrize("t0", [0, WRAP_START])
def test_a_perfect_bot_never_presses_a_pile_its_card_does_not_match(variation, t0):
    rules = rules_of(variation)
    for seed in range(3):
        game, bots = new_game(seed, (PERFECT, NORMAL), (seed + 10, seed + 20), rules, t=t0)

        def on_press(bot, pile, t):
            if bot.player == 0:
                assert game.phase == PLAY and (game.legal[0] >> pile) & 1, (seed, t, pile)

        play_every_ms(game, bots, t0, on_press)
        assert game.illegals[0] == 0 and game.phase == OVER


def test_other_levels_do_make_mistakes_and_wait_out_their_locks():
    illegal = 0
    for seed in range(6):
        game, bots = new_game(seed, (BEGINNER, NORMAL), (7, 8), rules_of("match=either"))
        bad = []
        play_every_ms(game, bots, 0, lambda bot, pile, t: bad.append(game.locked_at(bot.player, t)))
        illegal += game.illegals[0] + game.illegals[1]
        assert not any(bad)
    assert illegal > 0


@pytest.mark.parametrize("variation", VARIATIONS)
def test_a_bot_match_log_replays_to_the_live_trace(variation):
    rules = rules_of(variation + " tie=coin")
    live = []
    game = RowGame(rules)
    Tracer(game, live.append)
    game.shuffle(5)
    game.start(WRAP_START)
    bots = (RowBot(game, 0, NORMAL, 1), RowBot(game, 1, EXPERT, 2))
    lines = ["CSLOG 1", "rules game=row " + " ".join(
        "%s=%s" % (k, rules.text(k)) for k in rules.KEYS if k != "game"),
        "seed 5", "start %d" % WRAP_START]
    play_game(game, bots, WRAP_START, lines.append)
    replayed = []
    other = RowGame()
    Tracer(other, replayed.append)
    play_lines(other, lines)
    assert replayed == live and any('"over"' in line for line in live)


def test_same_seeds_same_game_and_stepping_every_ms_equals_the_simulator():
    a = play(3, (NORMAL, EXPERT), (4, 5))[1]
    assert a == play(3, (NORMAL, EXPERT), (4, 5))[1]
    assert a != play(3, (NORMAL, EXPERT), (4, 6))[1]
    game, bots = new_game(3, (NORMAL, EXPERT), (4, 5))
    assert play_every_ms(game, bots, 0) == a[:-1]


class PublicView:
    """Exposes only what a player at the table sees: tops, active cards, the mode, locks."""

    def __init__(self, game):
        self._g = game

    phase = property(lambda self: self._g.phase)
    tops = property(lambda self: self._g.tops)
    piles = property(lambda self: self._g.piles)
    active = property(lambda self: self._g.active)
    match_mode = property(lambda self: self._g.match_mode)
    changes = property(lambda self: self._g.changes)

    def lock_left(self, p, t):
        return self._g.lock_left(p, t)


def test_the_bot_plays_through_the_public_views_alone():
    lines = play(9, (EXPERT, BEGINNER), (1, 2), rules_of("redeal=two"))[1]
    game = RowGame(rules_of("redeal=two"))
    game.shuffle(9)
    game.start(0)
    view = PublicView(game)  # any other attribute read raises AttributeError
    bots = (RowBot(view, 0, EXPERT, 1), RowBot(view, 1, BEGINNER, 2))
    out = []
    t = 0
    for bot in bots:
        bot.reset(t)
    while game.phase != OVER:
        game.advance(t)
        for bot in bots:
            pile = bot.step(t)
            if pile >= 0:
                game.press(bot.player, pile, t)
                out.append("press %d %s %d" % (t, "AB"[bot.player], pile))
        t += 1
    assert out == lines[:-1]


def test_the_levels_are_the_2x4_bots_levels():
    assert RowBot(RowGame(), 0, NORMAL).p == LEVELS[NORMAL]


def test_simulate_game_row_runs_each_variation_stably(capsys):
    def run(*args):
        assert sim.main(["--game", "row", "--games", "6", "--json", "--quiet"] + list(args)) == 0
        rep = json.loads(capsys.readouterr().out)
        rep.pop("perf")
        return rep

    one = run("--jobs", "1", "--rules", "piles=3", "match=either", "redeal=two")
    assert one == run("--jobs", "2", "--rules", "piles=3", "match=either", "redeal=two")
    assert one["game"] == "row" and one["rules"]["piles"] == 3 and one["rules"]["redeal"] == 1
    assert one["pairings"][0]["n"] == 6 and one["pairings"][0]["covers"]["max"] > 0


def test_simulate_rejects_keys_of_the_other_game(capsys):
    with pytest.raises(SystemExit):
        sim.main(["--game", "row", "--rules", "rutter=1"])
    with pytest.raises(SystemExit):
        sim.main(["--rules", "piles=3"])
    assert "piles" in capsys.readouterr().err


def test_row_claims_prints_a_verdict_for_every_claim(capsys, tmp_path):
    from tools import row_claims

    assert row_claims._verdict(0.5, 2.0) == "**true**" and row_claims._verdict(-2, -1) == "**false**"
    assert row_claims._verdict(-1, 1) == "not shown"
    assert row_claims.main(["--games", "30", "--seed", "3", "--plots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "claim" not in line]
    claims = [r for r in rows if r.split("|")[3].strip() in ("**true**", "**false**", "not shown", "mostly")]
    assert len(claims) == 5
    assert (tmp_path / "row_length.png").stat().st_size > 1000
    assert (tmp_path / "row_means.png").stat().st_size > 1000
