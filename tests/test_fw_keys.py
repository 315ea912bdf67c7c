"""Key state after a keypad queue overflow: nothing stays held, nothing presses twice.

On a board the keypad scan runs in the background: when the loop falls behind by
more than ``max_events`` transitions the queue overflows and new transitions are
lost, *releases* included. The firmware then resets the scanner (keys still down
report a fresh press) and forgets what it held.
"""

from fw_rig import Rig, key_for
from tools.cpstubs import supervisor
from hw.app.modes import GAME, MENU
from hw.board.profiles import KEY_START

FILLER = 4  # a pad key whose releases fill the queue (the firmware ignores releases)


def overflow(rig):
    """Fill the scanner's queue to the brim with ignored events (releases)."""
    events = rig.scanner.events
    while events.inject(FILLER, False, rig.now):
        pass
    assert len(events) == 64


def presses(rig, seat):
    return [line for line in rig.log_text().splitlines()
            if line.startswith("press ") and line.split()[2] == "AB"[seat]]


def test_a_start_release_lost_to_an_overflow_does_not_abandon_the_match():
    rig = Rig()
    rig.start_match()
    rig.scanner.press(KEY_START, rig.now)
    rig.run(10)
    assert rig.app.start_down  # the firmware saw START go down
    overflow(rig)
    rig.scanner.release(KEY_START, rig.now)
    dropped = rig.scanner.events.dropped
    supervisor.advance(10)  # the scan debounces the release: the queue is full
    assert rig.scanner.events.overflowed and rig.scanner.events.dropped == dropped + 1
    rig.run(3000)
    assert rig.app.mode >= GAME and rig.app.mode != MENU
    assert "match abandoned" not in rig.log_text()
    assert rig.app.overflows == 1
    assert "# keypad queue overflowed: presses were lost" in rig.log_text()


def test_start_still_held_after_an_overflow_still_abandons_after_a_second():
    rig = Rig()
    rig.start_match()
    rig.scanner.press(KEY_START, rig.now)
    rig.run(10)
    overflow(rig)
    rig.scanner.events.inject(FILLER, False, rig.now)  # one more: overflowed
    rig.step()  # drained, reset: START (still down) reports a new press
    rig.run(600)
    assert rig.app.mode != MENU  # the hold timer restarted at the re-report
    rig.run(600)
    assert rig.app.mode == MENU
    assert "# match abandoned (START held)" in rig.log_text()


def test_a_pad_key_held_across_an_overflow_presses_once():
    rig = Rig()
    rig.start_match()
    pos = rig.coverable()[0] if rig.coverable() else 0
    key = key_for(0, pos)
    rig.scanner.press(key, rig.now)
    rig.run(40)
    before = len(presses(rig, 0))
    assert before >= 1
    overflow(rig)
    rig.scanner.events.inject(FILLER, False, rig.now)
    rig.run(200)  # reset: the held key re-reports its press, which is not played again
    assert rig.app.overflows == 1
    assert len(presses(rig, 0)) == before
    rig.scanner.release(key, rig.now)
    rig.run(40)
    rig.scanner.press(key, rig.now)  # a real new press of the same key is played
    rig.run(40)
    assert len(presses(rig, 0)) == before + 1


def test_a_pad_press_lost_to_an_overflow_plays_once_the_scanner_is_reset():
    rig = Rig()
    rig.start_match()
    overflow(rig)
    key = key_for(1, 4)
    rig.scanner.press(key, rig.now)
    supervisor.advance(10)
    assert rig.scanner.events.dropped == 1  # lost: the queue was full
    rig.run(200)
    assert len(presses(rig, 1)) == 1  # still held at the reset: reported and played
