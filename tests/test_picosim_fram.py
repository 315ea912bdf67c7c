"""The emulated Pico's I2C FRAM (``tools/picosim/fram.mjs``), and power cuts during an FRAM save.

The real CircuitPython 10.2.1 UF2 runs in rp2040js; ``busio.I2C`` on GP27/GP26 is the
RP2040's hardware I2C1 driven by pico-sdk. Needs the CircuitPython stack (``make
cpstack``); skips, saying so, where it is absent.

* The model answers ``busio.I2C`` as an MB85RC256V: device ID, reads that wrap at
  32 KB, a 98-byte write read back, a NACK (``OSError`` ENODEV) from any other
  address; ``--fram FILE`` keeps the memory; with no FRAM fitted the constructor
  finds no pull-ups (``RuntimeError``), as on a bare Pico.
* A record save to the FRAM (``tools.picosim.framcut``, the firmware's own store):
  the bytes the CPython model writes, one I2C write and its read-back, interrupts
  on; cuts give the old or the new record as the model says, a firmware boot
  included. ``make test`` tries a short set; ``CSPEED_POWERCUT=all`` (``make
  powercut``) every data byte of every scenario.
"""

import os
import re

import pytest

from tools.picosim.run import missing

REASON = missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

PROBE = os.path.join(os.path.dirname(__file__), "..", "tools", "picosim", "device",
                     "fram_probe_code.py")
BIT_NS = 313 * 8  # pico-sdk's 400 kHz: 313 clk_sys cycles a bit at 125 MHz


def probe_lines(console):
    return dict(part.split("=", 1) for line in console.splitlines() if "framprobe " in line
                for part in line[line.find("framprobe "):].split()[1:] if "=" in part)


def test_fitted_fram_answers_busio_and_keeps_its_memory(tmp_path):
    from tools.picosim.__main__ import main

    image = bytearray(32768)
    image[0:8] = bytes(range(11, 19))
    image[0x7FFE:0x8000] = b"\xaa\xbb"
    path = tmp_path / "fram.bin"
    path.write_bytes(image)
    console = tmp_path / "console.txt"
    assert main(["--code", PROBE, "--fram", str(path), "--seconds", "1.5", "--quiet",
                 "--workdir", str(tmp_path / "run"), "--console", str(console)]) == 0
    got = probe_lines(console.read_text(encoding="utf-8"))
    assert got["id"] == "00a510"  # Fujitsu, MB85RC256V
    assert got["head"] == bytes(range(11, 19)).hex()
    assert got["wrap"] == "aabb0b0c"  # 7FFE, 7FFF, then 0000, 0001
    assert got["same"] == "1"
    assert got["nack"] == "19"  # ENODEV: nothing answers 0x51
    kept = path.read_bytes()
    assert len(kept) == 32768
    assert kept[0x80:0x80 + 98] == bytes((i * 7 + 3) & 0xFF for i in range(98))
    assert kept[:0x80] == image[:0x80] and kept[0x80 + 98:] == image[0x80 + 98:]


def test_no_fram_fitted_means_no_pull_ups(tmp_path):
    from tools.picosim.run import run

    result = run(tmp_path, seconds=5, code=PROBE, stop_on="framprobe none")
    assert re.search(r"framprobe none error=No_pull_up_found_on_SDA_or_SCL", result.console)


@pytest.fixture(scope="module")
def short(tmp_path_factory):
    from tools.picosim import framcut

    said = []
    tmp = tmp_path_factory.mktemp("framcut")
    everything = os.environ.get("CSPEED_POWERCUT") == "all"
    if everything:
        outcomes = framcut.sweep(tmp, every=True, say=said.append)
    else:
        outcomes = framcut.sweep(tmp, list(framcut.SHORT), cuts=list(framcut.SHORT_CUTS),
                                 boots=list(framcut.SHORT_BOOTS), say=said.append)
    return outcomes, said, tmp


def test_an_fram_save_is_one_write_and_its_read_back_with_interrupts_on(short):
    _, said, _ = short
    saves = [line for line in said if " save: slot " in line]
    assert saves
    for line in saves:
        m = re.search(r"\((\d+) bytes at (\d+)\): I2C write ([\d.]+) ms, write \+ read-back "
                      r"([\d.]+) ms.*interrupts off at most ([\d.]+) us at a time.* 0 nvm", line)
        assert m, line
        n = int(m.group(1))
        wire_ms = (3 + n) * 9 * BIT_NS / 1e6  # chip address, 2 address bytes, the slot
        assert wire_ms <= float(m.group(3)) < wire_ms * 1.1
        assert 2 * wire_ms < float(m.group(4)) < 3 * wire_ms
        assert float(m.group(5)) < 100  # a flash save has them off for milliseconds


def test_power_cuts_give_the_old_or_the_new_record(short):
    outcomes, said, _ = short
    for scenario, by_point in outcomes.items():
        last = max(by_point)
        assert by_point[0] == "old" and by_point[last] == "new", scenario
        assert set(by_point.values()) <= {"old", "new"}
    assert any("firmware boot after a cut" in line and "title, ran" in line for line in said)
    assert any("real cut" in line for line in said)
