"""tools/picosim/link.py: two real CircuitPython 10.2.1 Picos on one UART cable.

Two emulated sessions (they need the CircuitPython stack, make cpstack, and skip, saying so, where
it is absent):

* ping/echo (tools/picosim/device/link_ping_code.py): chip A writes a 100-byte line,
  then pings chip B every 50 ms; B's clock runs 2000 ppm fast; one byte is dropped
  and one corrupted on the wire, the cable is pulled for 400 ms, then B is reset.
* link/sync (device/link_sync_code.py through tools/picosim/linkbench.py): hw.link
  between a host and a guest 100 ppm fast; the rig presses the guest's button, the
  host maps each press to its own clock.
"""

import os
import statistics

import pytest

from hw.link import frame as fr
from tools.picosim import link as rig
from tools.picosim.run import missing

REASON = missing()
if REASON is None and os.environ.get("CSPEED_LINK") != "all":
    # Minutes of two emulated chips per session: make test runs the firmware's linked
    # session (test_picosim_link_play.py); make link runs these, the rig's own proofs.
    REASON = "the link rig's sessions run in make link (CSPEED_LINK=all)"
needs_pico = pytest.mark.skipif(REASON is not None, reason=REASON or "")

BYTE_NS = 10 * 1e9 / 115207  # 115200 baud as the divisors give it: 67 + 52/64
PINGS, EVERY_MS = 140, 50
BURST = 99  # '#' bytes in the first line (100 with its newline)
DROP_AB = 3  # one of the '#'
CUT_MS = (2300.0, 2700.0)
RESET_B_MS = 3600.0
B_PPM = 2000


@pytest.fixture(scope="module")
def ping(tmp_path_factory):
    code = str(rig.DEVICE / "link_ping_code.py")
    chips = [rig.Chip(code, settings={"LINK_ROLE": "ping", "LINK_PINGS": PINGS,
                                      "LINK_EVERY_MS": EVERY_MS, "LINK_BURST": BURST},
                      stop_on="done"),
             rig.Chip(code, settings={"LINK_ROLE": "echo"}, ppm=B_PPM)]
    # the 6th reply's 4th byte: B's replies are 21 bytes, its first bytes are replies
    faults = {"drop": [{"dir": "ab", "index": [DROP_AB]}],
              "corrupt": [{"dir": "ba", "index": [5 * 21 + 3], "mask": 0x01}],
              "cut": [{"fromMs": CUT_MS[0], "toMs": CUT_MS[1]}],
              "reset": [{"chip": 1, "atMs": RESET_B_MS}]}
    result = rig.run_link(tmp_path_factory.mktemp("ping"), chips, seconds=12, faults=faults)
    rtts = {}
    for line in result.chips[0].lines():
        words = line.split()
        if words[:1] == ["rtt"]:
            rtts[int(words[1])] = [int(w) for w in words[2:]]  # t1, t2, t4 in us
    # when each ping left A (ms after T0): the 'P' that starts each line, from the byte log
    sent = [b for b in result.wire(0) if b[1] > BURST]
    starts = [b[5] for prev, b in zip(sent, sent[1:]) if b[2] == ord("P") and prev[2] == 10]
    starts.insert(0, sent[0][5])
    result.ping_ms = [result.ms(t) for t in starts]
    assert len(result.ping_ms) == PINGS
    return result, rtts


def ping_ms(result, seq):
    """When ping ``seq`` left chip A (ms after T0)."""
    return result.ping_ms[seq]


@needs_pico
def test_busio_write_blocks_while_the_tx_fifo_is_full(ping):
    result, _ = ping
    took = [int(line.split()[4]) for line in result.chips[0].lines()
            if line.startswith("write ")]
    assert took
    expect_us = (BURST + 1 - 33) * BYTE_NS / 1000  # 32 in the FIFO, 1 in the shift register
    assert abs(took[0] - expect_us) < 300, (took, expect_us)


@needs_pico
def test_bytes_are_serialised_at_the_programmed_baud_rate(ping):
    result, _ = ping
    sent = result.wire(0)[:BURST + 1]  # the '#' line: written in one go
    for a, b in zip(sent, sent[1:]):
        assert abs(b[5] - a[6]) < 2  # each starts when the last one's stop bit is out
        assert abs(b[6] - b[5] - BYTE_NS) < 2
    late = [b for b in result.bytes if b[7]]
    assert not late and result.done["maxLateNs"] == 0


@needs_pico
def test_an_echo_round_trip_takes_the_wire_time_and_a_little(ping):
    result, rtts = ping
    early = [t4 - t1 for seq, (t1, t2, t4) in rtts.items() if ping_ms(result, seq) < CUT_MS[0]]
    assert len(early) > 30
    wire_ms = (11 + 21) * BYTE_NS / 1e6  # 2.78 ms of bytes
    assert wire_ms < statistics.median(early) / 1000 < wire_ms + 1.5


@needs_pico
def test_a_clock_2000_ppm_fast_drifts_2_ms_per_second(ping):
    result, rtts = ping
    points = [(t1 / 1e6, (t2 - (t1 + t4) / 2) / 1000)  # s on A, offset B - A in ms
              for seq, (t1, t2, t4) in rtts.items() if ping_ms(result, seq) < CUT_MS[0]]
    xs, ys = zip(*points)
    slope = statistics.linear_regression(xs, ys).slope  # ms per s = 1000 ppm
    assert abs(slope * 1000 - B_PPM) < 60, slope


@needs_pico
def test_a_dropped_and_a_corrupted_byte_show_in_the_log_and_on_the_consoles(ping):
    result, _ = ping
    dropped = result.wire(0, ("drop",))
    assert [b[1] for b in dropped] == [DROP_AB] and dropped[0][2] == ord("#")
    bad = [line for line in result.chips[1].lines() if line.startswith("bad ")]
    assert bad and bad[0].count("#") == BURST - 1  # the echo side got 98 of the 99
    corrupt = result.wire(1, ("corrupt",))
    assert len(corrupt) == 1 and corrupt[0][3] == corrupt[0][2] ^ 0x01
    assert any(line.startswith(("bad ", "lost ")) for line in result.chips[0].lines())


@needs_pico
def test_a_pulled_cable_carries_nothing_either_way(ping):
    result, rtts = ping
    lo, hi = (result.T0 + ms * 1e6 for ms in CUT_MS)
    cut = [b for b in result.bytes if b[4] == "cut"]
    assert cut and all(b[5] < hi and b[6] > lo for b in cut)
    assert not [b for b in result.bytes if b[4] in ("ok", "corrupt") and b[5] < hi and b[6] > lo]
    lost = [int(line.split()[1]) for line in result.chips[0].lines() if line.startswith("lost ")]
    in_cut = [seq for seq in range(PINGS) if CUT_MS[0] + 10 < ping_ms(result, seq) < CUT_MS[1] - 10]
    assert set(in_cut) <= set(lost)
    after = [seq for seq in rtts if CUT_MS[1] + 50 < ping_ms(result, seq) < RESET_B_MS]
    assert after  # answered again once the cable is back


@needs_pico
def test_a_reset_chip_boots_again_and_answers_once_its_program_runs(ping):
    result, rtts = ping
    b = result.chips[1]
    assert [boot["n"] for boot in b.boots] == [1, 2]
    assert abs(b.boots[1]["T"] - (result.T0 + RESET_B_MS * 1e6)) <= 20_000  # a slice
    assert len(b.t0) == 2 and b.console.count("link ping: role echo") == 2
    back = b.t0[1]
    assert [seq for seq in rtts if result.T0 + ping_ms(result, seq) * 1e6 > back + 100e6]
    silent = [seq for seq in rtts
              if RESET_B_MS + 50 < ping_ms(result, seq) < (back - result.T0) / 1e6]
    assert not silent  # nobody answered while it booted
    assert result.wire(0, ("off",))  # pings that reached it before busio.UART existed


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    from tools.picosim.linkbench import measure

    return measure(tmp_path_factory.mktemp("sync"), 12.0, 100.0, seed=3)


@needs_pico
def test_linked_picos_map_guest_presses_within_2_ms(synced):
    out = synced
    assert not out["problems"], out["problems"]
    assert out["presses"] >= 15 and out["mapped"] == out["presses"]
    assert out["error_ms"]["max"] <= 2.0, out["error_ms"]
    assert abs(out["drift_ppm"] - 100) < 30
    assert out["alloc_per_report"] == [0]
    assert 3.0 < out["keypad_lag_ms"][0] and out["keypad_lag_ms"][1] < 6.5


@needs_pico
def test_the_guest_clock_runs_100_ppm_fast_on_the_wire(synced):
    # Independent of hw.link.sync: the guest's own stamps in its SYNC_REP frames, against
    # the true times the rig logged those frames at.
    result = synced["result"]
    dec, data, ends = fr.Decoder(), [], []
    for b in result.wire(1, ("ok",)):
        data.append(b[3])
        ends.append(b[5])
    data = bytes(data)
    points, i = [], 0
    while i < len(data):
        i = dec.scan(data, i, len(data))
        if i < 0:
            break
        if dec.kind == fr._SYNC_REP:
            t3 = fr.get_u32(dec.buf, fr._HEADER + 8)
            points.append((ends[i - 1] / 1e9, t3))
    assert len(points) > 40
    t3_0 = points[0][1]
    xs = [x for x, _ in points]
    ys = [((t3 - t3_0 + (1 << 28)) % (1 << 29) - (1 << 28)) / 1000 for _, t3 in points]
    slope = statistics.linear_regression(xs, ys).slope  # guest s per true s
    assert abs((slope - 1) * 1e6 - 100) < 30, slope


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    from tools.picosim.linkbench import measure

    faults = {"drop": [{"dir": "both", "rate": 0.01, "seed": 5, "fromMs": 1000}],
              "corrupt": [{"dir": "both", "rate": 0.005, "seed": 6, "fromMs": 1000}],
              "cut": [{"fromMs": 4000.0, "toMs": 4700.0}]}
    return measure(tmp_path_factory.mktemp("faulty"), 8.0, 100.0, seed=4, faults=faults)


@needs_pico
def test_hw_link_on_the_picos_resends_what_the_wire_lost_and_sees_the_cable_go(faulty):
    out = faulty
    wire = out["wire"]
    assert wire["A->B"].get("drop") and wire["B->A"].get("corrupt") and wire["A->B"].get("cut")
    # every press reached the host once, in order (a skip or a double would misalign the stamps)
    assert not out["problems"], out["problems"]
    assert out["mapped"] == out["presses"] >= 10
    assert out["guest_link"]["resent"] > 0 or out["host_link"]["resent"] > 0
    assert out["host_link"]["bad_crc"] + out["guest_link"]["bad_crc"] > 0
    from hw.link import link as lk

    for side in ("host", "guest"):
        events = [e for e, _ in out["events"][side]]
        assert lk._EV_LOST in events and events[-1] == lk._EV_BACK, (side, events)
    assert out["error_ms"]["max"] <= 2.0
