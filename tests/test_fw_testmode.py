"""hw.board.hil_keys: the key test mode on usb_cdc.data (what tools/hil --port drives)."""

from fw_rig import Rig, replay, split_matches
from hw.app.modes import GAME, MENU, TITLE
from hw.board.pads import position
from tools.cpstubs import usb_cdc


def send(rig, text):
    usb_cdc.data.feed(text.encode())
    rig.run(10)


def key_line(seat, pos, down):
    for button in range(8):
        if position(seat, button) == pos:
            return "K %d %d\n" % (seat * 8 + button, 1 if down else 0)
    raise ValueError(pos)


def test_keys_are_ignored_until_the_command_then_play_a_match():
    rig = Rig(settings={"CSPEED_ATTRACT_S": "0"})
    assert rig.app.buttons.injector is None  # made when a host first writes
    send(rig, "K 16 1\nK 16 0\n")  # before the command: ignored
    injector = rig.app.buttons.injector
    assert rig.app.mode == TITLE and not injector.on
    usb_cdc.data.take()
    send(rig, "CSPEED TEST 1\r\n")
    assert injector.on and b"# test mode on\n" in usb_cdc.data.take()
    send(rig, "K 16 1\nK 16 0\n")
    assert rig.app.mode == MENU
    send(rig, "K 16 1\n")
    send(rig, "K 16 0\n")
    rig.run_until(lambda: rig.app.mode == GAME and rig.game.phase == 2)
    stamps = []
    for _ in range(12):
        pos = next((p for p in range(8) if (rig.game.coverable >> p) & 1), 0)
        before = rig.now
        send(rig, key_line(0, pos, True) + key_line(0, pos, False))
        stamps.append(before)
        rig.run(300)
    log = usb_cdc.data.written.decode()
    match = split_matches(log)[-1]
    trace = replay(match)
    presses = [l for l in trace if '"press"' in l]
    assert len(presses) == 12
    assert '"cover"' in "".join(presses)
    # stamped with the board's clock when read: the pass after the line arrived
    times = [int(l.split()[1]) for l in match.splitlines() if l.startswith("press ")]
    assert all(0 < t - s <= 20 for t, s in zip(times, stamps)), (times, stamps)


def test_bad_lines_are_counted_and_ignored():
    rig = Rig(settings={"CSPEED_ATTRACT_S": "0"})
    send(rig, "CSPEED TEST 1\n")
    injector = rig.app.buttons.injector
    send(rig, "K 99 1\nK 1 2\nX 1 1\nK 1\nK 16 1 extra\n" + "K" * 80 + "\n")
    assert injector.bad == 6 and rig.app.mode == TITLE
    send(rig, "K 16 1\nK 16 0\n")
    assert rig.app.mode == MENU
