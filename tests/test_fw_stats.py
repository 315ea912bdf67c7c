"""Stats from real play: counted from the engine's events, saved between games, not in demos."""

from fw_rig import Rig, replay, split_matches
from hw.store import record as rec
from hw.app.modes import DONE, GAME, RESULT
from hw.menu import DEFAULTS
from hw.board.profiles import KEY_START
from tools.cpstubs import microcontroller


def saved_record():
    r = rec.Record(DEFAULTS)
    assert r.load(microcontroller.nvm) >= 0
    return r


def test_a_two_player_match_is_counted_and_saved_between_games():
    rig = Rig(settings={"CSPEED_ATTRACT_S": "0"})
    rig.start_match()
    saves = []
    seen = set()
    while rig.app.mode != DONE:
        rig.run(50)
        if rig.app.mode == GAME and rig.game.phase == 2:
            play_match_step(rig)
        if rig.app.mode == RESULT and rig.game.games not in seen:
            seen.add(rig.game.games)
            saves.append(rig.app.menu.record.saves)
    record = rig.app.menu.record
    trace = replay(split_matches(rig.log_text())[-1])
    overs = [l for l in trace if '"ev": "over"' in l]
    won = [sum('"result": "%s"' % p in l for l in overs) for p in "AB"]
    assert record.games(0) == won[0] and record.games(1) == won[1] and sum(won) >= 2
    assert record.matches(rig.game.match_winner) == 1 and record.matches(1 - rig.game.match_winner) == 0
    winner = rig.game.match_winner
    assert record.fastest_ms(winner) > 0 and record.best_streak(winner) >= 1
    assert record.reactions(0) > 0 and 0 < record.reaction_ms(0) < 5000
    # written once per finished game (the RESULT screen), never while a game is on
    assert saves == sorted(saves) and saves[-1] >= len(seen)
    on_flash = saved_record()
    assert on_flash.games(0) == record.games(0) and on_flash.games(1) == record.games(1)


def play_match_step(rig):
    mask = rig.game.coverable
    for pos in range(8):
        if (mask >> pos) & 1:
            rig.press_pos(0 if pos < 5 else 1, pos)
            return


def test_demo_games_are_not_counted():
    rig = Rig(settings={"CSPEED_ATTRACT_S": "1"})
    rig.run_until(lambda: rig.app.attract and rig.game.games >= 1, limit=30000)
    rig.run_until(lambda: rig.app.mode == RESULT, limit=120000)
    record = rig.app.menu.record
    assert record.games(0) == record.games(1) == 0 and record.reactions(0) == 0
    rig.tap(KEY_START)
    rig.run(100)


def open_stats(rig):
    from hw.app.modes import MENU, STATS

    if rig.app.mode != MENU:
        rig.tap(KEY_START)
        rig.run(60)
    assert rig.app.mode == MENU
    rig.scanner.press(KEY_START, rig.now)
    rig.run(1100)  # held 1 s
    rig.scanner.release(KEY_START, rig.now)
    rig.run(40)
    assert rig.app.mode == STATS


def test_stats_screen_shows_the_numbers_after_a_match_and_resets_only_on_purpose():
    from hw.app.modes import MENU, STATS
    from hw.views import stats_reset as ss

    rig = Rig(settings={"CSPEED_ATTRACT_S": "0"})
    rig.start_match()
    while rig.app.mode != DONE:
        rig.run(50)
        if rig.app.mode == GAME and rig.game.phase == 2:
            play_match_step(rig)
    record = rig.app.menu.record
    rig.tap(0)  # DONE -> menu (a pad button; START begins a new match)
    rig.run(60)
    open_stats(rig)
    lines = rig.app.stats_view.shown_lines()
    assert lines[1].split() == ["Games", "won", str(record.games(0)), str(record.games(1))]
    assert lines[2].split()[1:] == [str(record.matches(0)), str(record.matches(1))]
    assert "Reaction %5d ms" % record.reaction_ms(0) in lines[7]
    assert rig.app.stats_view.prompt.text == ss.HINT_TEXT
    assert rig.app.stats_view.footer.text == "START: back    kept in flash"  # no FRAM fitted
    # one button held 3 s, or both held 2 s: nothing
    rig.scanner.press(ss.KEY_A, rig.now)
    rig.run(3500)
    rig.scanner.release(ss.KEY_A, rig.now)
    rig.scanner.press(ss.KEY_A, rig.now)
    rig.scanner.press(ss.KEY_B, rig.now)
    rig.run(2000)
    assert rig.app.stats_view.prompt.text == "Keep holding A1 + B1..."
    rig.scanner.release(ss.KEY_B, rig.now)
    rig.scanner.release(ss.KEY_A, rig.now)
    rig.run(200)
    assert rig.app.reset_gesture.state == ss.IDLE and record.games(0) + record.games(1) > 0
    # both held 3 s, then a pad key: cancelled
    rig.scanner.press(ss.KEY_A, rig.now)
    rig.scanner.press(ss.KEY_B, rig.now)
    rig.run(3200)
    assert rig.app.stats_view.prompt.text == ss.CONFIRM_TEXT[:len(rig.app.stats_view.prompt.text)]
    rig.scanner.release(ss.KEY_B, rig.now)
    rig.scanner.release(ss.KEY_A, rig.now)
    rig.tap(3)
    rig.run(100)
    assert rig.app.reset_gesture.state == ss.IDLE and record.games(0) + record.games(1) > 0
    # both held 3 s, then START: reset, saved, shown
    rig.scanner.press(ss.KEY_A, rig.now)
    rig.scanner.press(ss.KEY_B, rig.now)
    rig.run(3200)
    rig.scanner.release(ss.KEY_B, rig.now)
    rig.scanner.release(ss.KEY_A, rig.now)
    rig.tap(KEY_START)
    rig.run(100)
    assert rig.app.mode == STATS and record.games(0) == record.games(1) == 0
    assert saved_record().games(0) == 0
    assert rig.app.stats_view.shown_lines()[1].split()[2:] == ["0", "0"]
    assert rig.app.stats_view.prompt.text == ss.DONE_TEXT
    rig.tap(KEY_START)
    rig.run(100)
    assert rig.app.mode == MENU
