"""What the shared-row and Speed CPU opponents (engine/row_bot.py, engine/speed_bot.py)
must both do: never a play a perfect bot knows is wrong, logs that replay, determinism,
play through the public views alone, the 2x4 bot's levels, and tools/simulate --game."""

import json

import pytest

from engine.family_bot import BEGINNER, EXPERT, LEVELS, NORMAL, PERFECT
from engine.family import OVER, PLAY
from engine.log import play_lines
from engine.trace import Tracer
from tests.bot_helpers import KINDS, ROW, SPEED, WRAP_START, play_every_ms
from tools import simulate as sim
from tools.simulate import play_game

CASES = [(kind, v) for kind in KINDS for v in kind.variations]


@pytest.mark.parametrize("kind, variation", CASES)
@pytest.mark.parametrize("t0", [0, WRAP_START])
def test_a_perfect_bot_never_makes_a_play_its_card_does_not_fit(kind, variation, t0):
    rules = kind.rules_of(variation)
    for seed in range(3):
        game, bots = kind.new_game(seed, (PERFECT, NORMAL), (seed + 10, seed + 20), rules, t=t0)

        def on_press(bot, code, t):
            if bot.player == 0:
                assert game.phase == PLAY and (game.legal[0] >> code) & 1, (seed, t, code)

        play_every_ms(game, bots, t0, on_press)
        assert game.illegals[0] == 0 and game.phase == OVER


@pytest.mark.parametrize("kind, variation", CASES)
def test_a_bot_game_log_replays_to_the_live_trace(kind, variation):
    rules = kind.rules_of(variation + " tie=coin")
    live = []
    game = kind.game(rules)
    Tracer(game, live.append)
    game.shuffle(5)
    game.start(WRAP_START)
    bots = (kind.bot(game, 0, NORMAL, 1), kind.bot(game, 1, EXPERT, 2))
    lines = ["CSLOG 1", "rules game=%s " % kind.name + " ".join(
        "%s=%s" % (k, rules.text(k)) for k in rules.KEYS if k != "game"),
        "seed 5", "start %d" % WRAP_START]
    play_game(game, bots, WRAP_START, lines.append)
    replayed = []
    other = kind.game()
    Tracer(other, replayed.append)
    play_lines(other, lines)
    assert replayed == live and any('"over"' in line for line in live)


@pytest.mark.parametrize("kind", KINDS)
def test_same_seeds_same_game_and_stepping_every_ms_equals_the_simulator(kind):
    a = kind.play(3, (NORMAL, EXPERT), (4, 5))[1]
    assert a == kind.play(3, (NORMAL, EXPERT), (4, 5))[1]
    assert a != kind.play(3, (NORMAL, EXPERT), (4, 6))[1]
    game, bots = kind.new_game(3, (NORMAL, EXPERT), (4, 5))
    assert play_every_ms(game, bots, 0) == a[:-1]


@pytest.mark.parametrize("kind", KINDS)
def test_the_bot_plays_through_the_public_views_alone(kind):
    rules = kind.rules_of(kind.one_rule)
    lines = kind.play(9, (EXPERT, BEGINNER), (1, 2), rules)[1]
    game = kind.game(kind.rules_of(kind.one_rule))
    game.shuffle(9)
    game.start(0)
    view = kind.public_view(game)  # any other attribute read raises AttributeError
    bots = (kind.bot(view, 0, EXPERT, 1), kind.bot(view, 1, BEGINNER, 2))
    out = []
    t = 0
    for bot in bots:
        bot.reset(t)
    while game.phase != OVER:
        game.advance(t)
        for bot in bots:
            code = bot.step(t)
            if code >= 0:
                game.press(bot.player, code, t)
                out.append("press %d %s %d" % (t, "AB"[bot.player], code))
        t += 1
    assert out == lines[:-1]


@pytest.mark.parametrize("kind", KINDS)
def test_the_levels_are_the_2x4_bots_levels(kind):
    assert kind.bot(kind.game(), 0, NORMAL).p == LEVELS[NORMAL]


@pytest.mark.parametrize("kind, args, expect, min_covers", [
    (ROW, ["piles=3", "match=either", "redeal=two"], {"piles": 3, "redeal": 1}, 1),
    (SPEED, ["cards=15", "same=1", "remake=whole"], {"cards": 15, "remake": 1}, 15),
])
def test_simulate_runs_each_game_stably_with_its_rules(kind, args, expect, min_covers, capsys):
    def run(*more):
        argv = ["--game", kind.name, "--games", "6", "--json", "--quiet", "--rules"] + args
        assert sim.main(argv + list(more)) == 0
        rep = json.loads(capsys.readouterr().out)
        rep.pop("perf")
        return rep

    one = run("--jobs", "1")
    assert one == run("--jobs", "2")
    assert one["game"] == kind.name
    assert {k: one["rules"][k] for k in expect} == expect
    assert one["pairings"][0]["n"] == 6 and one["pairings"][0]["covers"]["max"] >= min_covers
    assert one["command"].startswith("--game %s " % kind.name)
