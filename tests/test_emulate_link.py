"""``tools.emulate --link``: two desktop emulators (two processes) on one cable.

A short linked match of each game, headless, CPU players pressing each handheld's own
keys, the guest's clock 100 ppm fast: both serial logs identical, a whole match that
replays to the same trace from either. The cable's byte timing and the lockstep (the
same two logs every run); the bad arguments.
"""

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hw import games
from tools.emulate.link import FIFO_BYTES, Cable

ROOT = Path(__file__).resolve().parent.parent
GAMES = [key for key, _ in games.GAMES]


def emulate(args, cwd, timeout=300):
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "-m", "tools.emulate"] + args, cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def best_of_one(path, game):
    """The host's saved menu: ``game``, a match of one game (as its menu saves them)."""
    from hw.menu import DEFAULTS, MATCH
    from hw.store.record import MENU, Record
    from tools.emulate.nvm import FileNVM, choose_game

    nvm = FileNVM(str(path))
    choose_game(nvm, game)
    record = Record(DEFAULTS)
    record.load(nvm)
    record.buf[MENU + MATCH] = 0  # best of 1
    record.dirty = True
    record.save(nvm)


def replay(path):
    run = subprocess.run([sys.executable, "-m", "tools.replay", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize("game", GAMES)
def test_a_linked_match_of_each_game_gives_one_log_on_both(game, tmp_path):
    best_of_one(tmp_path / "nvm-A.bin", game)
    run = emulate(["--link", "--headless", "--seed", "5", "--autoplay", "expert",
                   "--ppm", "100", "--nvm", str(tmp_path / "nvm.bin"),
                   "--log", str(tmp_path / "match.log")], tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "the guest's clock +100 ppm" in run.stdout
    a = (tmp_path / "match-A.log").read_text()
    b = (tmp_path / "match-B.log").read_text()
    assert a == b
    assert a.count("CSLOG 1") == 1
    assert ("game=%s" % game in a) or game == "grid"
    presses = [line.split()[2] for line in a.splitlines() if line.startswith("press ")]
    assert "A" in presses and "B" in presses  # each handheld's player played
    trace = replay(tmp_path / "match-A.log")
    assert trace == replay(tmp_path / "match-B.log")
    assert '"ev": "match"' in trace  # the match was played to its end


def test_a_linked_run_gives_the_same_logs_every_time(tmp_path):
    logs = []
    for n in range(2):
        run = emulate(["--link", "--headless", "--seed", "9", "--autoplay", "expert",
                       "--ppm", "-40", "--until", "4000", "--nvm", "none",
                       "--log", str(tmp_path / ("run%d.log" % n))], tmp_path)
        assert run.returncode == 0, run.stdout + run.stderr
        logs.append([(tmp_path / ("run%d-%s.log" % (n, s))).read_text() for s in "AB"])
    assert logs[0] == logs[1]
    assert "press " in logs[0][0]


def test_two_windows_link_in_real_time(tmp_path):
    # --window with SDL's dummy driver: real time, each end on the machine's clock
    run = emulate(["--link", "--window", "--seconds", "6", "--autoplay", "expert",
                   "--seed", "3", "--nvm", "none", "--log", str(tmp_path / "w.log")], tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    for seat in "AB":
        text = (tmp_path / ("w-%s.log" % seat)).read_text()
        assert text.startswith("CSLOG 1\nrules ") and "\nstart " in text  # linked, playing


def test_link_arguments_are_checked(tmp_path):
    for args, message in (
            (["--ppm", "5"], "--ppm is for --link"),
            (["--autoplay", "expert"], "--autoplay is for --link"),
            (["--link", "--demo"], "--link cannot be combined with --demo"),
            (["--link", "--ppm", "20000"], "--ppm must be a number from -10000 to 10000"),
            (["--link", "--log", str(tmp_path / "a-file" / "x.log")], "--log")):
        (tmp_path / "a-file").write_text("x")
        run = emulate(["--headless", "--nvm", "none"] + args, tmp_path, timeout=60)
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        assert message in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def _ends(ppm_b=0.0):
    a, b = socket.socketpair()
    return Cable(a, 0), Cable(b, 1, ppm_b)


def test_bytes_arrive_one_byte_time_apart_and_write_waits_for_the_fifo():
    host, guest = _ends()
    got = []  # (guest ms, bytes read so far)
    returned = []

    def host_side():
        uart = host.uart_class()(None, object(), baudrate=115200, timeout=0)
        uart.write(bytes(range(100)))
        returned.append(host.now_ns())
        for ms in range(1, 30):
            host.reach_ms(ms)
        host.close()

    def guest_side():
        uart = guest.uart_class()(object(), None, baudrate=115200, timeout=0,
                                  receiver_buffer_size=512)
        buf = bytearray(64)
        total = bytearray()
        for ms in range(1, 20):
            guest.reach_ms(ms)
            n = uart.readinto(buf)
            total += buf[:n or 0]
            got.append((ms, bytes(total)))
        guest.close()

    threads = [threading.Thread(target=host_side), threading.Thread(target=guest_side)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    byte_ns = 10 * 10**9 // 115200
    # write returned once all but 33 bytes were on the wire (a CircuitPython UART's FIFO)
    assert returned[0] == (100 - FIFO_BYTES) * byte_ns
    for ms, data in got:
        assert data == bytes(range(min(100, ms * 10**6 // byte_ns)))


def test_bytes_beyond_the_receive_buffer_are_lost():
    host, guest = _ends()
    counts = []

    def host_side():
        uart = host.uart_class()(None, object(), baudrate=115200, timeout=0)
        uart.write(bytes(200))
        for ms in range(1, 30):
            host.reach_ms(ms)
        host.close()

    def guest_side():
        uart = guest.uart_class()(object(), None, baudrate=115200, timeout=0,
                                  receiver_buffer_size=64)
        guest.reach_ms(25)  # nothing read meanwhile: 200 bytes came, 64 kept
        counts.append(uart.in_waiting)
        guest.close()

    threads = [threading.Thread(target=host_side), threading.Thread(target=guest_side)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert counts == [64] and guest.overruns == 136
