"""A match abandoned by a long START press: its log replays to the device's trace.

A pad press read in the same loop pass as the long-press abandon is logged; the
device must judge it too (it advances the game before abandoning), so the match's
streamed log, replayed, gives exactly the trace the device's engine produced.
"""

from fw_rig import Rig, replay, split_matches

from hw.app.modes import MENU
from hw.board.profiles import KEY_START


def test_a_press_in_the_abandoning_pass_is_judged_as_the_log_says():
    rig = Rig()
    rig.start_match()
    cov = rig.coverable()
    assert cov
    t0 = rig.now
    rig.scanner.press(KEY_START, t0)  # held: the long press fires 1000 ms later
    rig.run(990, dt=5)
    # The pad press is scanned just before the long press is due; the next pass,
    # 20 ms on, reads it and crosses the long-press time in the same pass.
    rig.press_pos(0, rig.coverable()[0], rig.now)
    presses = rig.app.presses
    rig.step(20)
    assert rig.app.mode == MENU
    assert rig.app.presses == presses + 1  # read and given to the engine in that pass
    device = list(rig.trace)  # what the device's engine decided (no finish() here)
    text = rig.log_text()
    assert "# match abandoned (START held)" in text
    matches = split_matches(text)
    assert len(matches) == 1
    assert replay(matches[0]) == device
    rig.scanner.release(KEY_START, rig.now)
    rig.run(40)
    # The next match starts from a clean table: nothing of the old tick leaks in.
    rig.start_match()
    assert rig.app.mode != MENU
