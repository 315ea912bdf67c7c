"""The Aggravation and Frustration CPU opponent (engine/aggravation_bot.py): it covers,
taps and calls within the window, never presses what a perfect player knows is wrong,
plays through the public views alone, its logs replay, faster levels win, and
``tools.simulate --game aggravation`` runs with the game's rules."""

import json

import pytest

from engine.aggravation import CALL, TAP, AggravationGame
from engine.aggravation_bot import AggravationBot
from engine.aggravation_rules import AggravationRules
from engine.family import EV_PRESS, OVER, PLAY
from engine.family_bot import BEGINNER, EXPERT, LEVELS, NORMAL, PERFECT
from engine.log import play_lines
from engine.trace import Tracer
from tests.bot_helpers import WRAP_START, Kind, play_every_ms
from tools import simulate as sim
from tools.simulate import play_game

AGG = Kind("aggravation", AggravationGame, AggravationBot, AggravationRules,
           ["", "frustration=1", "tie=coin rutter=1", "call=150", "frustration=1 target=20"],
           ("phase", "tops", "row_len", "coverable", "pairs", "packs", "frustration", "held",
            "hold_card", "hold_left", "changes"), "call=150")


@pytest.mark.parametrize("variation", AGG.variations)
@pytest.mark.parametrize("t0", [0, WRAP_START])
def test_a_perfect_bot_never_presses_what_it_may_not(variation, t0):
    rules = AGG.rules_of(variation)
    for seed in range(3):
        game, bots = AGG.new_game(seed, (PERFECT, NORMAL), (seed + 10, seed + 20), rules, t=t0)

        def on_press(bot, pos, t):
            if bot.player == 0:
                assert game.phase == PLAY, (seed, t, pos)
                if game.packs[0]:
                    assert (game.coverable >> pos) & 1, (seed, t, pos)
                else:
                    assert (game.pairs >> pos) & 1, (seed, t, pos)

        play_every_ms(game, bots, t0, on_press)
        assert game.illegals[0] == 0 and game.phase == OVER


def test_out_of_cards_the_bots_call_with_two_taps_within_the_window():
    calls = 0
    for seed in range(20):
        rules = AGG.rules_of("call=%d" % (100, 400, 1000)[seed % 3])
        game, bots = AGG.new_game(seed, (NORMAL, EXPERT), (seed + 1, seed + 2), rules)
        taps = {}

        def sink(ev, t, i):
            if ev == EV_PRESS and game.tick_result[i] in (TAP, CALL):
                p = game.tick_player[i]
                if game.tick_result[i] == CALL:
                    assert 0 <= t - taps[p] < game.call_ms, (seed, t, taps[p])
                else:
                    taps[p] = t

        game.sink = sink
        play_every_ms(game, bots, 0)
        assert game.why == 3, (seed, game.WHY_NAMES[game.why])  # every game ends by a call
        calls += game.calls
    assert calls == 20


def test_a_tiny_call_window_is_still_met():
    game, bots = AGG.new_game(4, (NORMAL, NORMAL), (1, 2), AGG.rules_of("call=2"))
    play_every_ms(game, bots, 0)
    assert game.why == 3


def test_frustration_bots_play_to_a_share():
    for seed in range(5):
        game, _ = AGG.play(seed, (NORMAL, NORMAL), (seed, seed + 1), AGG.rules_of("frustration=1"))
        assert game.why == 5 and game.phase == OVER and game.taps == 0


def test_faster_levels_win_from_either_seat():
    won = [0, 0, 0]
    back = [0, 0, 0]
    for i in range(30):
        won[AGG.play(i, (EXPERT, BEGINNER), (3 * i + 1, 3 * i + 2))[0].result] += 1
        back[AGG.play(100 + i, (BEGINNER, EXPERT), (3 * i + 1, 3 * i + 2))[0].result] += 1
    assert won[0] >= 24 and back[1] >= 24, (won, back)


def test_beginners_slip_and_wait_out_their_locks():
    illegal = 0
    for seed in range(8):
        game, bots = AGG.new_game(seed, (BEGINNER, BEGINNER), (7, 8))
        bad = []

        def on_press(bot, pos, t):
            bad.append(game.locked_at(bot.player, t))
            rows = game.row_len
            bad.append(not (pos < rows[0] or 14 <= pos < 14 + rows[1]))  # a stack, always

        play_every_ms(game, bots, 0, on_press)
        illegal += game.illegals[0] + game.illegals[1]
        assert not any(bad)
    assert illegal > 0


@pytest.mark.parametrize("variation", AGG.variations)
def test_a_bot_game_log_replays_to_the_live_trace(variation):
    rules = AGG.rules_of(variation + " tie=coin")
    live = []
    game = AggravationGame(rules)
    Tracer(game, live.append)
    game.shuffle(5)
    game.start(WRAP_START)
    bots = (AggravationBot(game, 0, NORMAL, 1), AggravationBot(game, 1, EXPERT, 2))
    lines = ["CSLOG 1", "rules " + " ".join("%s=%s" % (k, rules.text(k)) for k in rules.KEYS),
             "seed 5", "start %d" % WRAP_START]
    play_game(game, bots, WRAP_START, lines.append)
    replayed = []
    other = AggravationGame()
    Tracer(other, replayed.append)
    play_lines(other, lines)
    assert replayed == live and any('"over"' in line for line in live)


def test_same_seeds_same_game_and_stepping_every_ms_equals_the_simulator():
    a = AGG.play(3, (NORMAL, EXPERT), (4, 5))[1]
    assert a == AGG.play(3, (NORMAL, EXPERT), (4, 5))[1]
    assert a != AGG.play(3, (NORMAL, EXPERT), (4, 6))[1]
    game, bots = AGG.new_game(3, (NORMAL, EXPERT), (4, 5))
    assert play_every_ms(game, bots, 0) == a[:-1]


@pytest.mark.parametrize("variation", ["call=150", "frustration=1"])
def test_the_bot_plays_through_the_public_views_alone(variation):
    lines = AGG.play(9, (EXPERT, BEGINNER), (1, 2), AGG.rules_of(variation))[1]
    game = AggravationGame(AGG.rules_of(variation))
    game.shuffle(9)
    game.start(0)
    view = AGG.public_view(game)  # any other attribute read raises AttributeError
    bots = (AggravationBot(view, 0, EXPERT, 1), AggravationBot(view, 1, BEGINNER, 2))
    out = []
    t = 0
    for bot in bots:
        bot.reset(t)
    while game.phase != OVER:
        game.advance(t)
        for bot in bots:
            pos = bot.step(t)
            if pos >= 0:
                game.press(bot.player, pos, t)
                out.append("press %d %s %d" % (t, "AB"[bot.player], pos))
        t += 1
    assert out == lines[:-1]


def test_the_levels_are_the_familys_and_the_bot_watches_28_positions():
    bot = AggravationBot(AggravationGame(), 1, NORMAL)
    assert bot.p == LEVELS[NORMAL] and len(bot.notice) == 28
    # B prefers its own row from its left (14, 15, ...), then A's row from its far end.
    assert [p for p in sorted(range(28), key=lambda p: bot.order[p])][:3] == [14, 15, 16]
    assert sorted(range(28), key=lambda p: bot.order[p])[14] == 13


def test_simulate_runs_aggravation_stably_with_its_rules(capsys):
    def run(*more):
        argv = ["--game", "aggravation", "--games", "6", "--json", "--quiet", "--rules",
                "frustration=1", "target=15", "call=300"]
        assert sim.main(argv + list(more)) == 0
        rep = json.loads(capsys.readouterr().out)
        rep.pop("perf")
        return rep

    one = run("--jobs", "1")
    assert one == run("--jobs", "2")
    assert one["game"] == "aggravation"
    assert {k: one["rules"][k] for k in ("frustration", "target", "call")} == {
        "frustration": 1, "target": 15, "call": 300}
    assert one["pairings"][0]["n"] == 6 and one["pairings"][0]["covers"]["max"] >= 11
    with pytest.raises(SystemExit):
        sim.main(["--game", "aggravation", "--rules", "deadlock=4"])
    assert "deadlock" not in capsys.readouterr().err.split("KEY in")[1]


def test_aggravation_claims_prints_every_table_and_the_plots(capsys, tmp_path):
    from tools import aggravation_claims as claims

    assert claims.main(["--games", "8", "--seed", "3", "--plots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    labels = [r.split("|")[1].strip() for r in rows]
    for label, _ in claims.VARIATIONS:
        assert labels.count(label) == 2  # the length table and the rows table
    for level in ("beginner vs beginner", "normal vs normal", "expert vs expert",
                  "beginner vs expert", "normal*0.5", "normal*2"):
        assert level in labels
    assert "Aggravation and Frustration, simulated in CPython: --games 8 --seed 3" in out
    for name in ("aggravation_length", "aggravation_rows", "frustration_target",
                 "aggravation_winrate"):
        assert (tmp_path / (name + ".png")).stat().st_size > 1000
    with pytest.raises(SystemExit):
        claims.main(["--games", "1"])


def test_the_claims_tool_counts_presses_as_the_game_does():
    from tools.aggravation_claims import FIELDS, K, run_one
    from tools.simulate import level_params, run_one as sim_one

    normal = level_params("normal")
    mine = run_one({}, normal, normal, 5, 2)
    theirs = sim_one(AggravationRules(), normal, normal, 5, 2, kind="aggravation")
    assert mine[K["result"]] == theirs[0] and mine[K["why"]] == theirs[1]
    assert mine[K["ms"]] == theirs[4] and mine[K["covers"]] == theirs[3]
    hist = mine[len(FIELDS):]
    assert sum(hist) == mine[K["pressed"]] == mine[K["covers"]] + mine[K["taps"]] + mine[K["calls"]]
    assert mine[K["far"]] <= mine[K["long"]] <= mine[K["pressed"]]


class _Table:
    """A table for the bot alone: A out of cards, A's tap held on 0 (5H) since 1000."""

    def __init__(self):
        from engine.cards import NO_CARD, parse_card

        self.phase = PLAY
        self.frustration = 0
        self.tops = bytearray([NO_CARD] * 28)
        for pos, name in ((0, "5H"), (1, "9C"), (14, "7S"), (15, "9D")):
            self.tops[pos] = parse_card(name)
        self.row_len = bytearray([2, 2])
        self.packs = bytearray([0, 20])
        self.pairs = 1 << 1 | 1 << 15  # the nines; 0's partner was covered (now 7S)
        self.coverable = self.pairs | 1  # 0 is pending
        self.hold_card = bytearray([parse_card("5H"), NO_CARD])
        self.changes = 1

    def held(self, player, t):
        return 0 if player == 0 and t < 1400 else -1

    def hold_left(self, player, t):
        return 1400 - t if player == 0 and t < 1400 else 0

    def lock_left(self, player, t):
        return 0


def test_a_bot_whose_held_stack_lost_its_partner_waits_for_the_window_to_close():
    table = _Table()
    bot = AggravationBot(table, 0, PERFECT, 1)
    bot.reset(1000)
    pressed = []
    for t in range(1000, 1600):
        if t == 1400:
            table.changes += 1  # the engine ends the hold: a change
        pos = bot.step(t)
        if pos >= 0:
            pressed.append((t, pos))
    assert pressed and pressed[0][0] >= 1400 and pressed[0][1] in (1, 15), pressed
