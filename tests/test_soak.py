"""Soak: the firmware left on for emulated days, crossing the 2**29 wrap many times.

Each cycle: attract mode plays demo matches for a while; a button stops it; a
two-player match starts, is paused for about 3.1 days (past 2**28 ms, so every
stored deadline is tested), resumes, is played by random presses, and is
abandoned with a long START; the title then sits idle until the demo starts
again. At the end every match in the streamed log replays, and the replays laid
end to end are exactly the device engine's trace: nothing lost, nothing
mis-told. ``make test`` runs a short soak (``SOAK_CYCLES``, default 2);
``make soak`` runs a long one.
"""

import os
import random

from fw_rig import WRAP, Rig, replay, split_matches

from engine.family import PLAY
from hw.app.match import READY_MS
from hw.app.modes import MENU, READY, TITLE
from hw.board.profiles import KEY_START

CYCLES = int(os.environ.get("SOAK_CYCLES", "2"))
PASS_MS = 1 << 24  # loop passes this far apart while paused (the test stays quick)
DAYS_MS = 3 << 27  # 0.75 * 2**29 ms: about 4.7 days, past 2**28 and across the wrap


def _sit_paused(rig):
    """Pause with START, let about 4.7 days pass, resume."""
    rig.tap(KEY_START)
    rig.run(40)
    assert rig.app.paused
    for _ in range(DAYS_MS // PASS_MS):
        rig.step(PASS_MS)
    rig.tap(KEY_START)
    rig.run(40, dt=1)
    assert not rig.app.paused


def _cycle(rig, rnd):
    app = rig.app
    rig.run_until(lambda: app.attract, limit=60000, dt=10)  # the title's idle timer
    rig.run(rnd.randrange(20000, 60000), dt=10)  # demo matches play
    rig.press_pos(0, 0)
    rig.run(60)
    assert not app.attract
    rig.tap(KEY_START)  # title -> menu
    rig.run(60)
    assert app.mode == MENU
    rig.tap(KEY_START)  # menu -> "get ready", then paused there for days
    rig.run(30)
    assert app.mode == READY
    _sit_paused(rig)
    # The countdown that ran out during the pause stays run out: the game starts now.
    rig.run_until(lambda: rig.game.phase == PLAY, limit=READY_MS + 1000)
    wrong = [p for p in range(4) if not (rig.game.coverable >> p) & 1]
    if wrong:  # A slaps a position that does not match: locked, then days pass
        rig.press_pos(0, wrong[0])
        rig.run(30)
        assert rig.game.locked_at(0, rig.now)
        _sit_paused(rig)
        assert not rig.game.locked_at(0, rig.now)  # a lock never comes back
        assert rig.game.lock_left(0, rig.now) == 0
    for _ in range(rnd.randrange(20, 60)):  # both players slap, legal or not
        rig.press_pos(rnd.randrange(2), rnd.randrange(8))
        rig.run(rnd.choice((30, 60, 250, 700)))
    if app.mode >= READY:  # abandon with a long START (or the match already ended)
        rig.scanner.press(KEY_START, rig.now)
        rig.run(1200)
        rig.scanner.release(KEY_START, rig.now)
        rig.run(60)
    while app.mode != MENU:  # a won match waits on DONE: a pad button opens the menu
        rig.tap(0)
        rig.run(60)
    # The menu has no timeout: go back to the title, as after a power-up, for the demo.
    app._show(TITLE)


def test_soak_days_across_the_wrap_log_kept_whole():
    rnd = random.Random(CYCLES)
    rig = Rig(start=WRAP - 30000, settings={"CSPEED_ATTRACT_S": "5"})
    rig.follow_games = True  # attract mode goes through every game: trace each engine
    start = rig.now
    logged = traced = 0
    for cycle in range(CYCLES):
        _cycle(rig, rnd)
        # Each cycle's matches are over (abandoned or won, the demo stopped): their
        # logs replay to the device's trace so far, with nothing left to judge.
        text = rig.log_text()
        replayed = []
        for match in split_matches(text[logged:]):
            replayed.extend(replay(match))
        assert replayed == rig.trace[traced:], "cycle %d of %d" % (cycle, CYCLES)
        logged, traced = len(text), len(rig.trace)
    crossed = (start + CYCLES * DAYS_MS) // WRAP  # tick-counter wraps, at least
    assert crossed >= max(1, CYCLES // 2)
    matches = split_matches(rig.log_text())
    assert len(matches) >= 2 * CYCLES  # demo matches and the played ones
    replayed = []
    for text in matches:
        replayed.extend(replay(text))
    assert replayed == rig.device_trace()
    assert rig.app.overflows == 0
