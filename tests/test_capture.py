"""tools/capture: split the device's serial stream into checked per-match logs."""

import os
import threading

import pytest

from engine.trace import replay_text
from test_rules import FIVES
from tools.capture import Splitter, main

# A's smaller pack wins a deadlock=1 `fewer` game, and with wins=1 the match.
WON = ("CSLOG 1\nrules wins=1 deadlock=1 deadlock_result=fewer\n%s\nstart 1000\n"
       "press 1400 A 0\npress 1500 A 4\nclock 9000\n") % FIVES
OPEN = "CSLOG 1\nseed 5\nstart 100\npress 700 B 3\nclock 800\n"


def feed(splitter, text):
    for line in text.splitlines(keepends=True):
        splitter.feed(line.encode())


def test_stream_is_split_at_each_header_and_each_match_checked(tmp_path):
    said = []
    s = Splitter(tmp_path, trace=True, say=said.append)
    feed(s, "press 5 A 1\nclock 9\n" + WON + OPEN)
    s.close()
    assert (tmp_path / "match-001.log").read_text() == WON
    assert (tmp_path / "match-002.log").read_text() == OPEN
    trace = (tmp_path / "match-001.trace").read_text().splitlines()
    assert trace == replay_text(WON)[0]
    assert "match-001.log: A won 1-0, 1 game, 2 presses" in said
    assert any(line.startswith("match-002.log: unfinished at 0-0") for line in said)
    assert any("skipped 2 line(s)" in line for line in said)


def test_a_damaged_line_is_kept_verbatim_and_reported(tmp_path):
    said = []
    s = Splitter(tmp_path, say=said.append)
    damaged = WON.replace("press 1500 A 4", "press 15clock 1600")
    feed(s, damaged)
    s.close()
    assert (tmp_path / "match-001.log").read_text() == damaged
    assert any("DAMAGED at line 6: press takes 3 fields" in line for line in said)


def test_bytes_that_are_not_utf8_are_flagged_and_kept_exactly(tmp_path):
    said = []
    s = Splitter(tmp_path, say=said.append)
    s.feed(b"CSLOG 1\n")
    s.feed(b"seed \xff\n")
    s.close()
    assert (tmp_path / "match-001.log").read_bytes() == b"CSLOG 1\nseed \xff\n"
    assert any("DAMAGED at line 2: not UTF-8" in line for line in said)


def test_numbering_continues_after_existing_files(tmp_path):
    (tmp_path / "match-007.log").write_text("old")
    s = Splitter(tmp_path, say=lambda text: None)
    feed(s, OPEN)
    s.close()
    assert (tmp_path / "match-008.log").read_text() == OPEN
    assert (tmp_path / "match-007.log").read_text() == "old"


def test_capture_from_a_pseudo_terminal_like_a_board(tmp_path, capsys, monkeypatch):
    import serial

    master, slave = os.openpty()
    opened = threading.Event()
    real_open = serial.serial_for_url

    def open_and_tell(*args, **kwargs):
        port = real_open(*args, **kwargs)  # pyserial flushes pending input here
        opened.set()
        return port

    monkeypatch.setattr(serial, "serial_for_url", open_and_tell)

    def device():
        opened.wait(10)
        os.write(master, (WON + OPEN).encode())

    writer = threading.Thread(target=device)
    writer.start()
    status = main([os.ttyname(slave), "--out", str(tmp_path), "--matches", "1", "--seconds", "10"])
    writer.join()
    os.close(master)
    os.close(slave)
    assert status == 0
    assert (tmp_path / "match-001.log").read_text() == WON
    assert "A won 1-0" in capsys.readouterr().out


def test_a_port_that_cannot_be_opened_is_a_clear_error(tmp_path, capsys):
    assert main(["/dev/nonexistent-port", "--out", str(tmp_path / "a" / "b")]) == 1
    assert "cannot open /dev/nonexistent-port" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # no folder left behind


# ------------------------------------------------ issue 11: plain and timely messages

def test_the_summary_comes_when_the_match_is_decided_not_at_the_next_header(tmp_path):
    said = []
    s = Splitter(tmp_path, say=said.append)
    feed(s, WON)  # ends with the clock that settles the deciding tick
    assert said[-1] == "match-001.log: A won 1-0, 1 game, 2 presses"
    feed(s, "clock 9500\n" + OPEN)  # a later line of the same match, then the next match
    s.close()
    assert said.count("match-001.log: A won 1-0, 1 game, 2 presses") == 1
    assert (tmp_path / "match-001.log").read_text() == WON + "clock 9500\n"
    assert said[-1] == "match-002.log: unfinished at 0-0, 1 game, 1 press"


def test_damage_after_the_decision_is_reported_again(tmp_path):
    said = []
    s = Splitter(tmp_path, say=said.append)
    feed(s, WON + "press 1\n")
    s.close()
    assert said[-2] == "match-001.log: A won 1-0, 1 game, 2 presses"
    assert said[-1].startswith("match-001.log: A won 1-0, 1 game, 3 presses -- DAMAGED at line 8")


def test_the_summary_is_printed_while_the_capture_still_runs(tmp_path):
    """Over a pty: the line arrives before anything else is sent or the port closes."""
    import select
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    master, slave = os.openpty()
    run = subprocess.Popen([sys.executable, "-u", "-m", "tools.capture", os.ttyname(slave),
                            "--out", str(tmp_path)], cwd=root, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    try:
        out = run.stdout.fileno()  # read unbuffered: select() sees every byte
        text = b""
        end = time.monotonic() + 20

        def read_until(words):
            nonlocal text
            while time.monotonic() < end and words not in text:
                if select.select([out], [], [], 0.5)[0]:
                    text += os.read(out, 4096)
        read_until(b"capturing from")
        time.sleep(0.5)  # the port is open (pyserial drops input pending at open)
        os.write(master, WON.encode())
        read_until(b" presses\n")  # (print writes the line and its newline separately)
        assert b"\nmatch-001.log: A won 1-0, 1 game, 2 presses\n" in text
        assert run.poll() is None  # still capturing
    finally:
        run.terminate()
        run.communicate(timeout=10)
        os.close(master)
        os.close(slave)


def test_a_port_that_will_not_open_is_named_in_plain_words(tmp_path, capsys):
    assert main(["/dev/nonexistent-port", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == ("tools.capture: cannot open /dev/nonexistent-port: no such port (is the board"
                   " plugged in? its match log is on the second serial port, e.g. /dev/ttyACM1"
                   " or COM4)\n")
    assert main(["/dev/null", "--out", str(tmp_path)]) == 1
    assert capsys.readouterr().err == "tools.capture: cannot open /dev/null: not a serial port\n"


def test_an_unplug_seen_by_in_waiting_is_a_closed_port_not_a_write_error():
    """pyserial's ``in_waiting`` raises a bare OSError (EIO) when the pty or USB port
    goes away between two reads; ``read()`` would have said SerialException."""
    import errno

    import serial

    from tools.capture import capture

    class Unplugged:
        @property
        def in_waiting(self):
            raise OSError(errno.EIO, "Input/output error")

        def read(self, n):
            raise AssertionError("not reached")

    with pytest.raises(serial.SerialException, match="port closed"):
        capture(Unplugged(), None, seconds=5)
