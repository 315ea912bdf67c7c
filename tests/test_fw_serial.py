"""hw.serial_log: whole lines or nothing, silence with no host, recovery at the next match."""

from engine.rules import Rules
from hw.serial_log import WRITE_TIMEOUT, MatchLog
from tools.capture import Splitter


class Port:
    """A USB CDC data port whose host may be absent or slow."""

    def __init__(self, room=10**9):
        self.connected = True
        self.write_timeout = None
        self.room = room  # bytes the host will still take
        self.bytes = bytearray()

    def write(self, buf):
        n = min(len(buf), self.room)
        self.room -= n
        self.bytes += bytes(buf)[:n]
        return n


def test_lines_go_out_whole_with_a_short_write_timeout():
    port = Port()
    log = MatchLog(port)
    log.match(Rules())
    log.game(7, 100)
    log.press(400, 1, 5)
    assert port.write_timeout == WRITE_TIMEOUT
    assert port.bytes.decode().splitlines()[2:] == ["seed 7", "start 100", "press 400 B 5"]


def test_nothing_is_written_while_no_host_listens():
    port = Port()
    port.connected = False
    log = MatchLog(port)
    log.match(Rules())
    log.press(400, 0, 1)
    assert port.bytes == b"" and log.skipped == 3 and log.lines == 3


def test_a_stalled_host_cuts_one_line_then_the_log_is_silent_until_the_next_match(tmp_path):
    probe = Port()
    MatchLog(probe).match(Rules())
    room = len(probe.bytes) + len("seed 3\n") + 6
    port = Port(room=room)
    log = MatchLog(port)
    log.match(Rules())
    log.game(3, 0)  # "seed 3\n" fits, "start 0\n" is cut after 6 bytes
    assert log.stalled and log.dropped == 2
    log.press(100, 0, 0)
    assert log.skipped == 1 and len(port.bytes) == room
    port.room = 10**9  # the host reads again
    log.match(Rules())
    log.game(4, 200)
    said = []
    splitter = Splitter(tmp_path, say=said.append)
    for line in port.bytes.decode().splitlines(keepends=True):
        splitter.feed(line.encode())
    splitter.close()
    second = (tmp_path / "match-002.log").read_text().splitlines()
    assert second[0] == "CSLOG 1" and second[2:] == ["seed 4", "start 200"]
    assert any("match-001.log" in s and "DAMAGED" in s for s in said)
