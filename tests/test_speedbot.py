"""The Speed CPU opponent (engine/speedbot.py): levels, legality, replay, determinism,
the public views alone, and tools/simulate --game speed."""

import json

import pytest

from engine.bot import BEGINNER, EXPERT, LEVELS, NORMAL, PERFECT
from engine.cards import NO_CARD
from engine.game import OVER, PLAY
from engine.log import play_lines
from engine.speedrules import SpeedRules
from engine.speed import SpeedGame
from engine.speedbot import SpeedBot
from engine.ticks import TICKS_PERIOD, ticks_add
from engine.trace import Tracer
from tools import simulate as sim
from tools.simulate import play_game

WRAP_START = TICKS_PERIOD - 20000
VARIATIONS = ["", "cards=15", "same=1", "remake=whole", "tie=coin points=30"]


def rules_of(text):
    rules = SpeedRules()
    for item in text.split():
        key, _, value = item.partition("=")
        rules.set(key, value)
    return rules


def new_game(seed, levels=(NORMAL, NORMAL), bot_seeds=(1, 2), rules=None, t=0):
    game = SpeedGame(rules)
    game.shuffle(seed)
    game.start(t)
    return game, (SpeedBot(game, 0, levels[0], bot_seeds[0]), SpeedBot(game, 1, levels[1], bot_seeds[1]))


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
            n = bot.step(t)
            if n >= 0:
                if on_press is not None:
                    on_press(bot, n, t)
                game.press(bot.player, n, t)
                presses.append("press %d %s %d" % (t, "AB"[bot.player], n))
        t = ticks_add(t, 1)
    return presses


def test_faster_levels_win_from_either_seat():
    won = [0, 0, 0]
    for i in range(30):
        game, _ = play(i, (EXPERT, BEGINNER), (3 * i + 1, 3 * i + 2))
        won[game.result] += 1
    back = [0, 0, 0]
    for i in range(30):
        game, _ = play(100 + i, (BEGINNER, EXPERT), (3 * i + 1, 3 * i + 2))
        back[game.result] += 1
    assert won[0] >= 24 and back[1] >= 24, (won, back)


@pytest.mark.parametrize("variation", VARIATIONS)
@pytest.mark.parametrize("t0", [0, WRAP_START])
def test_a_perfect_bot_never_makes_a_play_that_does_not_fit(variation, t0):
    rules = rules_of(variation)
    for seed in range(3):
        game, bots = new_game(seed, (PERFECT, NORMAL), (seed + 10, seed + 20), rules, t=t0)

        def on_press(bot, n, t):
            if bot.player == 0:
                assert game.phase == PLAY and (game.legal[0] >> n) & 1, (seed, t, n)

        play_every_ms(game, bots, t0, on_press)
        assert game.illegals[0] == 0 and game.phase == OVER


def test_other_levels_slip_on_held_cards_only_and_wait_out_their_locks():
    illegal = 0
    for seed in range(8):
        game, bots = new_game(seed, (BEGINNER, NORMAL), (7, 8))
        bad = []

        def on_press(bot, n, t):
            bad.append(game.locked_at(bot.player, t))
            slot = bot.player * 5 + n % 5
            bad.append(game.hands[slot] == NO_CARD)  # never an empty slot

        play_every_ms(game, bots, 0, on_press)
        illegal += game.illegals[0] + game.illegals[1]
        assert not any(bad)
    assert illegal > 0


@pytest.mark.parametrize("variation", VARIATIONS)
def test_a_bot_game_log_replays_to_the_live_trace(variation):
    rules = rules_of(variation + " tie=coin")
    live = []
    game = SpeedGame(rules)
    Tracer(game, live.append)
    game.shuffle(5)
    game.start(WRAP_START)
    bots = (SpeedBot(game, 0, NORMAL, 1), SpeedBot(game, 1, EXPERT, 2))
    lines = ["CSLOG 1", "rules game=speed " + " ".join(
        "%s=%s" % (k, rules.text(k)) for k in rules.KEYS if k != "game"),
        "seed 5", "start %d" % WRAP_START]
    play_game(game, bots, WRAP_START, lines.append)
    replayed = []
    other = SpeedGame()
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
    """Exposes only what a player at the table sees: the tops, the hands, the rule, locks."""

    def __init__(self, game):
        self._g = game

    phase = property(lambda self: self._g.phase)
    tops = property(lambda self: self._g.tops)
    hands = property(lambda self: self._g.hands)
    same = property(lambda self: self._g.same)
    changes = property(lambda self: self._g.changes)

    def lock_left(self, p, t):
        return self._g.lock_left(p, t)


def test_the_bot_plays_through_the_public_views_alone():
    lines = play(9, (EXPERT, BEGINNER), (1, 2), rules_of("same=1"))[1]
    game = SpeedGame(rules_of("same=1"))
    game.shuffle(9)
    game.start(0)
    view = PublicView(game)  # any other attribute read raises AttributeError
    bots = (SpeedBot(view, 0, EXPERT, 1), SpeedBot(view, 1, BEGINNER, 2))
    out = []
    t = 0
    for bot in bots:
        bot.reset(t)
    while game.phase != OVER:
        game.advance(t)
        for bot in bots:
            n = bot.step(t)
            if n >= 0:
                game.press(bot.player, n, t)
                out.append("press %d %s %d" % (t, "AB"[bot.player], n))
        t += 1
    assert out == lines[:-1]


def test_the_levels_are_the_2x4_bots_levels():
    assert SpeedBot(SpeedGame(), 0, NORMAL).p == LEVELS[NORMAL]


def test_simulate_game_speed_runs_each_house_rule_stably(capsys):
    def run(*args):
        assert sim.main(["--game", "speed", "--games", "6", "--json", "--quiet"] + list(args)) == 0
        rep = json.loads(capsys.readouterr().out)
        rep.pop("perf")
        return rep

    one = run("--jobs", "1", "--rules", "cards=15", "same=1", "remake=whole")
    assert one == run("--jobs", "2", "--rules", "cards=15", "same=1", "remake=whole")
    assert one["game"] == "speed" and one["rules"]["cards"] == 15 and one["rules"]["remake"] == 1
    assert one["pairings"][0]["n"] == 6 and one["pairings"][0]["covers"]["max"] >= 15
    assert one["command"].startswith("--game speed ")


def test_simulate_rejects_keys_of_other_games(capsys):
    with pytest.raises(SystemExit):
        sim.main(["--game", "speed", "--rules", "piles=3"])
    with pytest.raises(SystemExit):
        sim.main(["--rules", "remake=whole"])
    assert "remake" in capsys.readouterr().err


def test_speed_houses_prints_every_table_and_the_plot(capsys, tmp_path):
    from tools import speed_houses

    assert speed_houses.main(["--games", "8", "--seed", "3", "--plots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    labels = [r.split("|")[1].strip() for r in rows]
    for label, _ in speed_houses.VARIATIONS:
        assert label in labels
    for label, _ in speed_houses.MATCHES:
        assert label in labels
    assert "normal vs normal" in labels and "beginner vs expert" in labels
    assert (tmp_path / "speed_length.png").stat().st_size > 1000
    with pytest.raises(SystemExit):
        speed_houses.main(["--games", "1"])
