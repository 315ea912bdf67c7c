"""Issue 9: tools.capture faults (items 3, 6, 7, 11 and the disconnect), each over a real pty.

The contract: every match file holds exactly the bytes received for it; a damaged
match is reported with the line ``tools.replay`` stops at; every intact match gets its
own file; every failure is one line on stderr and an exit status, never a traceback.
"""

import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.trace import replay_text
from test_capture import OPEN, WON
from tools import capture as capture_tool
from tools.capture import Splitter
from tools.replay import read_lines, replay

ROOT = Path(__file__).resolve().parent.parent


def replayed(path):
    """(status, trace text, stderr) of ``tools.replay`` on a file, in-process."""
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stderr = sys.stderr, err
    try:
        with open(path, "rb") as f:
            status = replay(read_lines(f), out)
    finally:
        sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


def run_capture(monkeypatch, chunks, args, hang_up=False):
    """Run ``main`` on a pty while a device thread writes ``chunks`` (bytes, or a pause in s)."""
    import serial

    master, slave = os.openpty()
    opened = threading.Event()
    real_open = serial.serial_for_url

    def open_and_tell(*a, **kw):
        port = real_open(*a, **kw)
        opened.set()
        return port

    monkeypatch.setattr(serial, "serial_for_url", open_and_tell)

    def device():
        opened.wait(10)
        for chunk in chunks:
            if isinstance(chunk, float):
                time.sleep(chunk)
            else:
                os.write(master, chunk)
        if hang_up:
            time.sleep(0.5)  # let the capture read everything first
            os.close(master)

    writer = threading.Thread(target=device)
    writer.start()
    try:
        status = capture_tool.main([os.ttyname(slave)] + args)
    finally:
        writer.join()
        if not hang_up:
            os.close(master)
        os.close(slave)
    return status


def test_a_pause_mid_line_is_not_a_line_break(tmp_path, monkeypatch, capsys):
    # Item 3: a 0.5 s pause made the read time out and the piece became a line.
    data = WON.encode()
    cut = data.index(b"press 1500") + 8
    status = run_capture(monkeypatch, [data[:cut], 0.5, data[cut:]],
                         ["--out", str(tmp_path), "--seconds", "1.5"])
    out = capsys.readouterr().out
    assert status == 0
    assert (tmp_path / "match-001.log").read_bytes() == data
    assert "A won 1-0" in out and "DAMAGED" not in out


def test_a_header_glued_to_a_cut_line_starts_its_own_match(tmp_path):
    # Item 6: the later complete match was appended to the damaged file.
    said = []
    s = Splitter(tmp_path, trace=True, say=said.append)
    cut = WON.index("press 1500") + 8
    stream = (WON[:cut] + OPEN + WON).encode()
    s.feed(stream)
    s.close()
    files = sorted(tmp_path.glob("*.log"))
    assert [f.name for f in files] == ["match-001.log", "match-002.log", "match-003.log"]
    assert b"".join(f.read_bytes() for f in files) == stream
    assert files[1].read_text() == OPEN and files[2].read_text() == WON
    assert "match-001.log" in said[1] and "DAMAGED at line 6: press takes 3 fields" in said[1]
    assert "DAMAGED" not in said[3] and "DAMAGED" not in said[5]
    status, trace, err = replayed(files[0])
    assert status == 2 and err.startswith("line 6: press takes 3 fields")
    assert (tmp_path / "match-001.trace").read_text() == trace


def test_a_glued_header_after_a_line_that_still_parses_is_reported_cut(tmp_path):
    said = []
    s = Splitter(tmp_path, say=said.append)
    s.feed(b"CSLOG 1\nseed 5\nstart 100\nclock 2000CSLOG 1\nseed 6\n")
    s.close()
    assert (tmp_path / "match-001.log").read_bytes() == b"CSLOG 1\nseed 5\nstart 100\nclock 2000"
    assert (tmp_path / "match-002.log").read_bytes() == b"CSLOG 1\nseed 6\n"
    assert "DAMAGED at line 4: cut short" in said[1]


@pytest.mark.parametrize("damage,line", [
    (b"press 1500 A\r4\n", 6),  # a lone CR stays inside its line (replay used to split it)
    (b"press 1500 A 4\r\n", None),  # CRLF is read as a newline, and kept in the file
    (b"press 1500 A \xe9\n", 6),  # not UTF-8: kept as the byte, not the text "\\xe9"
    (b"press 1500 A 4\x00\n", 6),
])
def test_capture_and_replay_agree_about_the_same_file(tmp_path, damage, line):
    # Item 7: both read lines the same way; the file is byte-exact; the trace is the replay's.
    said = []
    s = Splitter(tmp_path, trace=True, say=said.append)
    stream = WON.encode().replace(b"press 1500 A 4\n", damage)
    s.feed(stream)
    s.close()
    log = tmp_path / "match-001.log"
    assert log.read_bytes() == stream
    status, trace, err = replayed(log)
    assert (tmp_path / "match-001.trace").read_text() == trace
    if line is None:
        assert status == 0 and "DAMAGED" not in said[1]
    else:
        assert status == 2 and err.startswith("line %d: " % line)
        assert "DAMAGED at %s" % err.strip() in said[1]
        # the damaged match's trace ends with its last tick judged (finish())
        assert trace.splitlines() == replay_text(WON.split("press 1500")[0])[0]
        assert trace.splitlines()[-1].startswith('{"ev": "tick", "t": 1400')


def test_a_flood_without_newlines_is_written_through_in_bounded_memory(tmp_path):
    said = []
    s = Splitter(tmp_path, say=said.append)
    s.feed(b"CSLOG 1\nseed 5\n")
    for _ in range(200):
        s.feed(b"x" * 5000)
        assert len(s.pending) < 400
    s.feed(b"CSLOG 1\nseed 6\n")
    s.close()
    assert (tmp_path / "match-001.log").read_bytes() == b"CSLOG 1\nseed 5\n" + b"x" * 10**6
    assert (tmp_path / "match-002.log").read_bytes() == b"CSLOG 1\nseed 6\n"
    assert "DAMAGED at line 3: line longer than 256 bytes" in said[1]


def test_a_disconnect_is_reported_and_exits_1(tmp_path, monkeypatch, capsys):
    data = OPEN.encode()
    status = run_capture(monkeypatch, [data, b"press 90"], ["--out", str(tmp_path)],
                         hang_up=True)
    captured = capsys.readouterr()
    assert status == 1
    assert captured.err == "tools.capture: port closed: the board was unplugged or reset\n"
    assert (tmp_path / "match-001.log").read_bytes() == data + b"press 90"
    assert "DAMAGED at line 6: press takes 3 fields" in captured.out


def test_out_naming_a_file_or_an_unwritable_folder_is_one_line_and_exit_2(tmp_path, capsys):
    a_file = tmp_path / "plain"
    a_file.write_text("x")
    for out in (a_file, a_file / "sub", Path("/proc/capture-here")):
        assert capture_tool.main(["/dev/nonexistent-port", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("tools.capture: cannot write into --out %s: " % out)
        assert err.count("\n") == 1


def test_a_full_disk_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    def full(path, mode="r", **kw):  # every match file lands on /dev/full (ENOSPC)
        return open("/dev/full", mode.replace("w", "r+") if "b" in mode else "w", **kw)

    monkeypatch.setattr(capture_tool, "open", full, raising=False)
    status = run_capture(monkeypatch, [OPEN.encode()], ["--out", str(tmp_path), "--seconds", "1"])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("tools.capture: cannot write ")
    assert "No space left on device" in err and err.count("\n") == 1


def test_sigterm_closes_the_files_with_the_whole_trace(tmp_path):
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "tools.capture", os.ttyname(slave),
                             "--out", str(tmp_path), "--trace"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "capturing" in proc.stdout.readline()
        os.write(master, OPEN.encode())
        deadline = time.monotonic() + 10
        log = tmp_path / "match-001.log"
        while (not log.exists() or log.read_bytes() != OPEN.encode()) and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    finally:
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0 and err == ""
    assert "match-001.log: unfinished" in out
    status, trace, _ = replayed(log)
    assert status == 0 and (tmp_path / "match-001.trace").read_text() == trace and trace
