"""The shared-row CPU opponent (engine/row_bot.py): faster levels win, slips and locks, and
tools/simulate --game row's checks (tests/test_family_bots.py has what every bot must do)."""

import pytest

from engine.family_bot import BEGINNER, EXPERT, NORMAL
from tests.bot_helpers import ROW, play_every_ms
from tools import simulate as sim

rules_of = ROW.rules_of
new_game = ROW.new_game
play = ROW.play


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


def test_other_levels_do_make_mistakes_and_wait_out_their_locks():
    illegal = 0
    for seed in range(6):
        game, bots = new_game(seed, (BEGINNER, NORMAL), (7, 8), rules_of("match=either"))
        bad = []
        play_every_ms(game, bots, 0, lambda bot, pile, t: bad.append(game.locked_at(bot.player, t)))
        illegal += game.illegals[0] + game.illegals[1]
        assert not any(bad)
    assert illegal > 0


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
