"""Attract mode: an idle title turns into CPU vs CPU; any button returns to the title."""

import pytest

from fw_rig import Rig, key_for, replay, split_matches
from hw.app import attract as app_mod
from hw import messages
from hw.app.attract import ATTRACT_MS
from hw.app.match import DONE_MS as ATTRACT_DONE_MS
from hw.app.modes import DONE, GAME, MENU, READY, TITLE
from hw.board.profiles import KEY_START

START = (1 << 29) - 25000  # the demo begins just before the tick wrap and crosses it


def idle_into_attract(rig, dt=200):
    """Let the title sit with no button until the demo has started."""
    assert rig.app.mode == TITLE
    rig.run(ATTRACT_MS - 2 * dt, dt=dt)
    assert rig.app.mode == TITLE and not rig.app.attract
    rig.run(3 * dt, dt=dt)
    assert rig.app.mode == READY and rig.app.attract


def log_lines(rig):
    return rig.log_text().splitlines()


def test_idle_title_plays_cpu_vs_cpu_and_the_demo_log_replays():
    rig = Rig(start=START, seed=7)
    app = rig.app
    assert len(messages.DEMO_OF) == len(messages.MESSAGES)
    idle_into_attract(rig)
    # Both seats are CPU players at levels drawn from ATTRACT_LEVELS.
    for seat in range(2):
        controller = app.seats[seat]
        assert not controller.human and controller.bot.player == seat
    levels = {app.menu.levels[i] for i in app.attract_levels}
    assert levels == set(app_mod.ATTRACT_LEVELS)
    assert app.hints
    # The stream marks the demo: "# attract" right before the match header.
    lines = log_lines(rig)
    assert lines[:3] == ["# attract", "CSLOG 1",
                         "rules penalty=500 stuck=1000 deal=300 tie=replay deadlock=13 "
                         "deadlock_result=draw rutter=0 wins=1"]
    # The banner, upright for A and upside down for B.
    labels = app.table.messages
    assert labels[0].text == labels[1].text == messages.DEMO_TEXT
    assert not labels[0].upside_down and labels[1].upside_down
    assert not labels[0].hidden
    assert app.table.won_text[0].text == "A 0 - 0 B  first to 1"  # two CPUs: A and B
    rig.run_until(lambda: app.mode == GAME and rig.game.phase == 2, dt=20)
    first_tops = bytes(rig.game.tops)
    banner_frames = 0
    for _ in range(20000):  # 400 s of demo at most
        if app.mode == DONE:
            break
        rig.step(20)
        if app.mode == GAME and rig.game.phase == 2 and labels[0].text == messages.DEMO_TEXT:
            banner_frames += 1
        for pos in range(8):
            assert app.table.shown_top(pos) == rig.game.tops[pos]
    assert banner_frames > 50  # the banner stays up while the bots play
    assert app.mode == DONE and rig.game.match_over and sum(rig.game.covers) > 20
    assert bytes(rig.game.tops) != first_tops
    winner = "AB"[rig.game.match_winner]
    assert labels[0].text == labels[1].text == "%s wins the match" % winner
    presses = [line.split() for line in log_lines(rig) if line.startswith("press ")]
    assert {p[2] for p in presses} == {"A", "B"}  # both bots pressed, through the log path
    assert rig.now < START  # the tick counter wrapped during the demo
    # The streamed demo replays to exactly the device's game.
    demo_trace = list(rig.trace)
    assert replay(split_matches(rig.log_text())[0]) == demo_trace
    # Idle still: the next demo match follows, again marked.
    rig.run(ATTRACT_DONE_MS + 100, dt=50)
    assert app.attract and app.mode == READY
    assert log_lines(rig).count("# attract") == 2
    assert len(split_matches(rig.log_text())) == 2
    assert app.attract_games == 1  # the second demo game deals after "Get ready"


def test_any_button_returns_to_the_title_and_is_not_played():
    rig = Rig(start=START, seed=2)
    app = rig.app
    idle_into_attract(rig)
    rig.run_until(lambda: app.mode == GAME and rig.game.phase == 2 and rig.coverable(), dt=20)
    # A presses a position it could cover: the demo ends, the press is not played.
    pos = rig.coverable()[0]
    changes = rig.game.changes
    trace = len(rig.trace)
    logged = len(log_lines(rig))
    key = key_for(0, pos)
    rig.scanner.events.inject(key, True, rig.now)  # as the scan queues it: read this pass
    rig.step(2)
    assert app.mode == TITLE and not app.attract
    assert all(seat.human for seat in app.seats)
    assert rig.game.changes == changes and len(rig.trace) == trace
    new = log_lines(rig)[logged:]
    assert new == ["# attract stopped (button)"]
    rig.scanner.events.inject(key, False, rig.now + 80)
    rig.run(200)  # the release does nothing either: still the title, not the menu
    assert app.mode == TITLE
    assert rig.game.changes == changes and len(log_lines(rig)) == logged + 1
    # The title idles again, into a new demo; START ends it the same way.
    idle_into_attract(rig)
    rig.run(2500, dt=20)
    rig.scanner.press(KEY_START, rig.now)
    rig.scanner.press(key_for(1, 3), rig.now)  # read in the same pass: dropped too
    rig.run(10)  # both debounced in the same scan
    assert app.mode == TITLE and not app.attract
    rig.run(1500)  # START still held past the long press: no menu, no "abandoned"
    rig.scanner.release(KEY_START, rig.now)
    rig.run(200)
    assert app.mode == TITLE
    text = rig.log_text()
    assert "abandoned" not in text and text.count("# attract stopped (button)") == 2
    # After the demo, the title works as before: START opens the menu.
    rig.tap(KEY_START)
    rig.run(60)
    assert app.mode == MENU and not app.attract


def test_timeout_setting_held_start_silence_and_off_switches():
    rig = Rig(start=START, seed=7, settings={"CSPEED_ATTRACT_S": "5"})  # settings.toml
    app = rig.app
    assert app.attract_ms == 5000
    rig.run(400)  # past power-on (START held from power-on opens the button test)
    rig.scanner.press(KEY_START, rig.now)
    rig.run(8000, dt=250)
    assert app.mode == TITLE and not app.attract  # a held button is not idle
    rig.scanner.release(KEY_START, rig.now)  # a long press on the title: stays there
    rig.run(4500, dt=250)
    assert app.mode == TITLE and not app.attract
    rig.run(1000, dt=250)
    assert app.attract
    # The demo plays silently (the piezo beeps in a real match: test_fw_hardware).
    pwm = app.buzzer.pwm
    rig.run_until(lambda: sum(rig.game.covers) >= 3, dt=20)
    assert all(duty == 0 for _, duty in pwm.history)
    rig.tap(KEY_START)
    rig.run(10)  # the press, debounced
    assert app.mode == TITLE
    # Off: CSPEED_ATTRACT_S = "0" (attract_ms 0), or no engine.family_bot (no levels).
    app.attract_ms = 0
    rig.run(20000, dt=1000)
    assert app.mode == TITLE and not app.attract
    app.attract_ms = 5000
    app.attract_levels = ()  # what App(levels=()) gets without engine.family_bot
    rig.run(20000, dt=1000)
    assert app.mode == TITLE and not app.attract


@pytest.mark.parametrize("gap", [0, 2])
def test_a_cpu_press_pending_when_a_button_stops_the_demo_is_judged_as_logged(gap):
    # A bot presses at the pass's time, after the game was advanced: its tick is judged
    # on the next pass. When a button stops the demo in that next pass (``gap`` ms on;
    # 0: a fast pass in the same ms), the press is already in the log, whose replay
    # judges it at the log's end: the device must judge it too.
    rig = Rig(start=START, seed=3)
    app = rig.app
    idle_into_attract(rig)
    rig.run_until(lambda: app.mode == GAME and rig.game.phase == 2, dt=20)
    rig.run_until(lambda: rig.game.tick_n > 0, limit=30000, dt=10)  # a bot just pressed
    pressed_at = rig.game.tick_t
    assert log_lines(rig)[-1].startswith("press %d " % pressed_at)
    rig.scanner.events.inject(key_for(0, 0), True, rig.now)  # read in the next pass
    rig.step(gap)
    assert app.mode == TITLE and not app.attract
    device = list(rig.trace)  # no finish() here: what the device's engine decided
    assert replay(split_matches(rig.log_text())[0]) == device
    assert rig.game.tick_n == 0  # judged, not left pending
    assert '"ev": "press", "t": %d,' % pressed_at in device[-2]
    assert all(duty == 0 for _, duty in app.buzzer.pwm.history)  # the demo stays silent
