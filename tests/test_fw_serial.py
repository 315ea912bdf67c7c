"""hw.board.serial_log: whole lines in order, short writes resumed, silence with no host, recovery.

The port is the cpstubs ``usb_cdc.Serial``, which behaves as CircuitPython 10.2.1's:
a write returns how many bytes the USB FIFO took (``chunk``: fewer even while the
host reads; ``room``: what the host takes before it stops reading), ``connected``
is the host's DTR, and a write that would wait for ever raises instead of hanging.
"""

import pytest

from engine.grid_rules import GridRules
from hw.board.serial_log import HOST_GONE_MS, PENDING_SIZE, WRITE_TIMEOUT, MatchLog
from tools.capture import Splitter
from tools.cpstubs.usb_cdc import Serial


def lines(port):
    return port.written.decode().splitlines()


def play(log, n, t=1000, frame=2, every=1):
    """n presses, one per ``every`` frames, pumping every frame as the loop does; return the time."""
    for i in range(n * every):
        if i % every == 0:
            log.press(t, i // every & 1, i // every & 7)
        log.pump(t)
        t += frame
    return t


def test_lines_go_out_whole_and_writes_never_wait():
    port = Serial()
    log = MatchLog(port)
    log.match(GridRules())
    log.game(7, 100)
    log.press(400, 1, 5)
    assert port.write_timeout == WRITE_TIMEOUT == 0
    assert lines(port)[2:] == ["seed 7", "start 100", "press 400 B 5"]
    assert port.short_writes == 0 and log.waiting == 0


def test_nothing_is_written_while_no_host_listens():
    port = Serial()
    port.connected = False
    log = MatchLog(port)
    log.match(GridRules())
    log.press(400, 0, 1)
    log.pump(500)
    assert port.written == b"" and log.skipped == 3 and log.lines == 3


def test_no_port_at_all_esp32s3():
    log = MatchLog(None)  # usb_cdc.data is None where boot.py leaves it off
    log.match(GridRules())
    log.press(400, 0, 1)
    log.pump(500)
    assert log.lines == 3


@pytest.mark.parametrize("chunk", [2, 5, 17, 64])
def test_short_writes_while_the_host_reads_lose_nothing(chunk):
    """CircuitPython's write returns early with part of a line: the rest follows.

    One press line (15 bytes) every 10 frames, and the FIFO takes ``chunk`` bytes a
    frame: the host keeps up on average, never within one write.
    """
    whole = Serial()
    reference = MatchLog(whole)
    reference.match(GridRules())
    reference.game(3, 0)
    play(reference, 40, every=10)

    port = Serial()
    port.chunk = chunk  # the FIFO takes at most this much per call
    log = MatchLog(port)
    log.match(GridRules())
    log.game(3, 0)
    t = play(log, 40, every=10)
    for _ in range(400):  # later frames
        log.pump(t)
        t += 2
    assert port.short_writes > 0
    assert not log.stalled and log.dropped == 0 and log.waiting == 0
    assert port.written == whole.written  # every byte, in order, once


def test_a_host_that_pauses_briefly_loses_nothing():
    port = Serial()
    log = MatchLog(port)
    log.match(GridRules())
    port.room = 10  # the host stops reading for a while
    t = play(log, 10)
    assert log.waiting > 0 and not log.stalled
    t += HOST_GONE_MS // 2
    log.pump(t)
    assert not log.stalled
    port.room = None  # reading again
    log.pump(t + 2)
    assert log.waiting == 0 and not log.stalled
    assert [x for x in lines(port) if x.startswith("press")] == \
        ["press %d %s %d" % (1000 + 2 * i, "AB"[i & 1], i & 7) for i in range(10)]


def test_a_host_that_stops_reading_is_given_up_then_the_next_match_is_clean(tmp_path):
    port = Serial()
    log = MatchLog(port)
    log.match(GridRules())
    header_bytes = len(port.written)
    port.room = 13  # "seed 3\n" (7) fits, "start 0\n" is cut after 6 bytes
    log.game(3, 0)
    t = 0
    while not log.stalled:
        assert t <= HOST_GONE_MS + 10, "never gave up"
        log.pump(t)
        t += 2
    assert t >= HOST_GONE_MS  # not on one short write: on sustained no progress
    assert log.dropped == 2 and len(port.written) == header_bytes + 13
    log.press(100, 0, 0)
    assert log.skipped == 1
    port.room = None  # the host reads again
    log.match(GridRules())
    log.game(4, 200)
    said = []
    splitter = Splitter(tmp_path, say=said.append)
    for line in port.written.decode().splitlines(keepends=True):
        splitter.feed(line.encode())
    splitter.close()
    second = (tmp_path / "match-002.log").read_text().splitlines()
    assert second[0] == "CSLOG 1" and second[2:] == ["seed 4", "start 200"]
    assert any("match-001.log" in s and "DAMAGED" in s for s in said)


def test_the_host_closing_the_port_drops_what_waits():
    port = Serial()
    port.chunk = 3
    log = MatchLog(port)
    log.match(GridRules())
    assert log.waiting
    port.connected = False
    log.pump(0)
    assert log.stalled and log.waiting == 0 and log.dropped > 0


def test_more_than_the_buffer_holds_gives_up_at_once():
    port = Serial()
    port.room = 0
    log = MatchLog(port)
    log.match(GridRules())
    n = 0
    while not log.stalled:
        log.press(1000 + n, 0, 1)
        n += 1
    assert n * len("press 1000 A 1\n") >= PENDING_SIZE // 2
    assert log.dropped > 0 and log.waiting == 0


def test_the_stand_in_refuses_a_write_that_would_hang_a_board():
    port = Serial()  # write_timeout None, as CircuitPython's default
    port.room = 4
    with pytest.raises(RuntimeError):
        port.write(b"press 1 A 1\n")
    with pytest.raises(TypeError):
        Serial().write("text")  # a str is not a buffer on a board


def test_the_firmware_plays_a_match_without_a_data_port():
    from fw_rig import Rig
    from tools.cpstubs import usb_cdc

    rig = Rig(data_port=False)  # usb_cdc.data is None: boot.py left it off (ESP32-S3)
    assert usb_cdc.data is None
    rig.start_match()
    for _ in range(20):
        if rig.coverable():
            rig.press_pos(0, rig.coverable()[0])
        rig.run(300)
    assert rig.app.log.lines > 5 and rig.game.covers[0] > 0
