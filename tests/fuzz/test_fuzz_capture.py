"""tools.capture under damaged serial streams (issue 9): byte-exact files, every damage told.

Two drives of the same contract (:func:`capfuzz.check_capture`): ``FUZZ_CAPTURE_CASES``
(default 400) streams fed to the splitter in random chunks in-process, and
``FUZZ_PTY_CASES`` (default 16) through a real pseudo-terminal read by pyserial
with pauses mid-line and a disconnect at the end, as from a board.
"""

import collections
import os
import random
import threading
import time
from pathlib import Path

import serial

import capfuzz
import logfuzz
from engine.log import LINE_MAX
from tools.capture import Splitter, capture

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
SEED = int(os.environ.get("FUZZ_SEED", "1"))
CASES = int(os.environ.get("FUZZ_CAPTURE_CASES", "400"))
PTY_CASES = int(os.environ.get("FUZZ_PTY_CASES", "16"))
KINDS = sorted(capfuzz.DAMAGE)


def logs(seed):
    return logfuzz.corpus(random.Random(seed), GOLDEN, generated=12)


def bounded(splitter):
    """Check after every read that a line without its newline is held in bounded memory."""
    feed = splitter.feed
    splitter.received = 0

    def checked(data):
        feed(data)
        splitter.received += len(data)
        assert len(splitter.pending) <= LINE_MAX + 16
    splitter.feed = checked
    return splitter


def report(title, counts):
    print("\n%s (seed %d)" % (title, SEED))
    for kind, n in sorted(counts.items()):
        print("  %-22s %6d" % (kind, n))


def test_capture_contract_holds_for_damaged_streams(tmp_path):
    base = logs(SEED)
    counts = collections.Counter()
    for k in range(CASES):
        rnd = random.Random(SEED * 7919 + k)
        kind = KINDS[k % len(KINDS)] if k % 4 else None  # every 4th case: mixed damage
        stream, intact, used = capfuzz.make_stream(rnd, base, kind)
        out = tmp_path / ("case-%d" % k)
        said = []
        splitter = bounded(Splitter(out, trace=True, say=said.append))
        for chunk in capfuzz.chunked(rnd, stream):
            if not isinstance(chunk, float):
                splitter.feed(chunk)
        splitter.close("port closed")
        try:
            damaged = capfuzz.check_capture(out, stream, intact, said)
        except AssertionError as err:
            (tmp_path / ("case-%d.stream" % k)).write_bytes(stream)
            raise AssertionError("FUZZ_SEED=%d capture case %d (%s): %s"
                                 % (SEED, k, ", ".join(used), err)) from err
        for u in used or ["none"]:
            counts[u] += 1
        counts["(files)"] += len(list(out.glob("*.log")))
        counts["(damaged files)"] += damaged
        counts["(intact matches)"] += len(intact)
    report("capture fuzz, in-process: %d streams" % CASES, counts)
    assert all(counts[kind] >= CASES // (2 * len(KINDS)) for kind in KINDS)


def test_capture_over_a_pty_with_pauses_and_a_disconnect(tmp_path):
    base = logs(SEED + 1)
    counts = collections.Counter()
    for k in range(PTY_CASES):
        rnd = random.Random(SEED * 104729 + k)
        stream, intact, used = capfuzz.make_stream(rnd, base, KINDS[k % len(KINDS)])
        chunks = capfuzz.chunked(rnd, stream, pauses=0.4)
        out = tmp_path / ("case-%d" % k)
        said = []
        splitter = bounded(Splitter(out, trace=True, say=said.append))
        master, slave = os.openpty()
        port = serial.Serial(os.ttyname(slave), timeout=0.01)

        def device():
            for chunk in chunks:
                if isinstance(chunk, float):
                    time.sleep(chunk)
                else:
                    os.write(master, chunk)
            deadline = time.monotonic() + 20
            while splitter.received < len(stream) and time.monotonic() < deadline:
                time.sleep(0.005)
            os.close(master)  # unplugged

        writer = threading.Thread(target=device)
        writer.start()
        try:
            try:
                capture(port, splitter, seconds=30)
                closed = False
            except serial.SerialException:
                closed = True
            splitter.close("port closed")
        finally:
            writer.join()
            port.close()
            os.close(slave)
        assert closed, "the disconnect was not seen"
        try:
            capfuzz.check_capture(out, stream, intact, said)
        except AssertionError as err:
            (tmp_path / ("case-%d.stream" % k)).write_bytes(stream)
            raise AssertionError("FUZZ_SEED=%d pty case %d (%s): %s"
                                 % (SEED, k, ", ".join(used), err)) from err
        for u in used:
            counts[u] += 1
        counts["(pauses)"] += sum(isinstance(c, float) for c in chunks)
    report("capture fuzz over a pty: %d streams" % PTY_CASES, counts)
