"""Issue 9 item 1: the emulator's ``--log FILE`` keeps everything the firmware produced.

Before the fix the tee sat behind the pty's verdict: once ~16 KB sat unread on the
pty, writes came back short, the firmware's match log declared the host gone and
stopped writing, so the file stopped too.
"""

import io
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from engine.grid_rules import GridRules
from engine.trace import replay_text  # noqa: E402
from hw.board.serial_log import MatchLog  # noqa: E402
from tools.emulate.port import PtyPort  # noqa: E402


def drain(fd):
    """Everything waiting on the pty's slave side."""
    os.set_blocking(fd, False)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def write_matches(log, matches, presses):
    for m in range(matches):
        log.match(GridRules())
        log.game(m + 1, 100)
        for i in range(presses):
            log.press(200 + i, i & 1, i % 8)


def test_the_log_file_keeps_every_line_when_nobody_reads_the_pty():
    tee = io.BytesIO()
    port = PtyPort(tee=tee)
    try:
        log = MatchLog(port)
        write_matches(log, 12, 400)  # ~80 KB: far more than a pty buffers
        assert not log.stalled and log.skipped == 0 and log.dropped == 0
        assert tee.getvalue() == bytes(port.written)
        assert tee.getvalue().count(b"CSLOG 1\n") == 12
        assert port.dropped > 0  # the pty itself did fill up
        # What reached the pty is whole lines, or a cut line ended before a header.
        got = drain(port.slave)
        lines = got.split(b"\n")
        sent = set(bytes(port.written).split(b"\n"))
        cut = [l for l in lines[:-1] if l not in sent]
        assert not cut or all(lines[lines.index(c) + 1] == b"CSLOG 1" for c in cut)
    finally:
        port.close()


def test_without_a_log_file_the_port_behaves_like_a_board():
    port = PtyPort()
    try:
        log = MatchLog(port)
        write_matches(log, 12, 400)
        assert log.stalled or log.skipped  # the firmware saw the host stop reading
    finally:
        port.close()


def test_emulated_attract_matches_all_reach_the_log_file_with_a_full_pty(tmp_path, monkeypatch):
    from tools.emulate.main import Emulator

    monkeypatch.setenv("CSPEED_ATTRACT_S", "1")
    log_path = tmp_path / "tee.log"
    trace_path = tmp_path / "live.trace"
    emu = Emulator(virtual=True, seed=5, until_ms=70000, nvm_path=None,
                   log_path=str(log_path), trace_path=str(trace_path))
    try:
        while True:  # ~16 KB already unread on the pty, as after a long run
            try:
                os.write(emu.port.master, b"#" * 1024)
            except BlockingIOError:
                break
        app = emu.run()
    finally:
        emu.close()
    assert not app.log.stalled and app.log.skipped == 0
    text = log_path.read_text()
    matches = ["CSLOG 1" + m for m in text.split("CSLOG 1")[1:]]
    assert len(matches) >= 2
    live = trace_path.read_text().splitlines()
    replayed = []
    for m in matches:
        trace, err = replay_text(m)
        assert err is None, err
        replayed += trace
    assert replayed == live  # every game the firmware played, card for card
