"""The Speed CPU opponent (engine/speed_bot.py): faster levels win, slips and locks, and
tools/simulate --game speed's checks (tests/test_family_bots.py has what every bot must do)."""

import pytest

from engine.family_bot import BEGINNER, EXPERT, NORMAL
from engine.cards import NO_CARD
from tests.bot_helpers import SPEED, play_every_ms
from tools import simulate as sim

rules_of = SPEED.rules_of
new_game = SPEED.new_game
play = SPEED.play


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
