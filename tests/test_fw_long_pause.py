"""The firmware left for days: every timer stays right across 2**28 ms and the wrap.

The tick count wraps at 2**29 ms and ``ticks_diff`` reads any gap of 2**28 ms or
more as negative, so a deadline stored before a pause of ~3.1 days would read as
far in the future. The loop runs on (passes 2**24 ms apart here, so the test is
quick) while the game is paused on "get ready" or in play, then play resumes.
"""

from fw_rig import WRAP, Rig

from hw import menu as menu_mod
from hw import messages
from hw.app.match import GO_MS, READY_MS
from hw.app.modes import GAME, MENU, READY
from hw.board.profiles import KEY_START

PASS_MS = 1 << 24


def sit(rig, total):
    """Run loops ``PASS_MS`` apart for about ``total`` ms."""
    for _ in range(total // PASS_MS):
        rig.step(PASS_MS)


def pause(rig):
    rig.tap(KEY_START)
    rig.run(40)
    assert rig.app.paused


def resume(rig):
    rig.tap(KEY_START)
    rig.run(30, dt=1)
    assert not rig.app.paused


def test_get_ready_paused_past_2_28_ms_starts_on_resume():
    rig = Rig(start=WRAP - 5000)
    rig.tap(KEY_START)
    rig.run(60)
    assert rig.app.mode == MENU
    rig.tap(KEY_START)
    rig.run(30)
    assert rig.app.mode == READY
    pause(rig)
    sit(rig, 3 << 27)  # 0.75 * 2**29: across 2**28 and the wrap
    assert rig.app.mode == READY
    resume(rig)
    rig.run_until(lambda: rig.app.mode == GAME, limit=READY_MS)


def test_result_countdown_paused_for_days_goes_on():
    rig = Rig(start=1000)
    rig.start_match()
    rig.game.new_match()  # an empty table, as a game's end leaves: result shows
    assert rig.app.mode == GAME
    rig.app.mode = 4  # RESULT, its countdown just begun
    rig.app.until = (rig.now + 2500) % WRAP
    pause(rig)
    sit(rig, 3 << 27)
    resume(rig)
    rig.run_until(lambda: rig.app.mode != 4, limit=100)


def test_play_paused_for_days_vs_cpu_resumes_without_a_stale_go():
    rig = Rig(start=WRAP - 3000, seed=7)
    rig.tap(KEY_START)
    rig.run(60)
    menu = rig.app.menu
    menu.cursor = menu_mod.PLAYERS
    menu.change(1)
    assert menu.vs_cpu()
    rig.tap(KEY_START)
    rig.run_until(lambda: rig.app.mode == GAME and rig.game.phase == 2)
    rig.run(GO_MS + 100)
    assert rig.app.message(rig.now) == messages.MSG_NONE
    pause(rig)
    for total in (3 << 27, 5 << 27):  # lands 2**28+ past, then a wrap and more
        sit(rig, total)
        bot = rig.app.seats[1].bot
        assert bot.last == rig.now  # the paused bot heard the time on every pass
    presses = rig.app.presses
    resume(rig)
    assert rig.app.message(rig.now) != messages.MSG_GO  # "GO" was shown before the pause
    rig.run_until(lambda: rig.app.presses > presses or rig.game.phase != 2, limit=20000)
    # The streamed log still replays to the device's trace after the long pause.
    from fw_rig import replay, split_matches
    assert replay(split_matches(rig.log_text())[-1]) == rig.device_trace()


def test_a_key_stale_after_an_overflow_is_not_swallowed_days_later():
    rig = Rig()
    buttons = rig.app.buttons
    events = rig.scanner.events
    t = 5000
    events.inject(3, True, t)  # key 3 is read as down...
    assert buttons.read() and buttons.key == 3
    for i in range(70):  # ...when the queue overflows
        events.inject(0, i % 2 == 0, t)
    while buttons.read():
        pass
    assert buttons.check_overflow(t)
    # Key 3 was let go during the reset: no re-report comes. The loop runs on.
    for k in range(1, 40):
        assert not buttons.check_overflow((t + k * PASS_MS) % WRAP)
    for later in ((t + (1 << 28) + 5) % WRAP, (t + WRAP + 10) % WRAP):
        events.inject(3, True, later)  # a real press, days later
        assert buttons.read() and buttons.key == 3 and buttons.pressed
        events.inject(3, False, later)
        assert buttons.read() and not buttons.pressed
