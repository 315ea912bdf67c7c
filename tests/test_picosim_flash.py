"""The serial-flash model of the emulated Pico, and power cuts at its erase/program steps.

The real CircuitPython 10.2.1 UF2 runs in rp2040js with ``tools/picosim/flash.mjs``
(``tools.picosim.powercut`` drives it). Needs the CircuitPython stack (``make
cpstack``); skips, saying so, where it is absent.

* A record save on the Pico leaves exactly the bytes the emulator's RP2040 nvm model
  (``tools.emulate.nvm.FileNVM``, after CircuitPython's ``ByteArray.c``) leaves, for a
  save into the ring (one page program) and one that starts the ring over (a 4 KB
  erase and 16 page programs); how long interrupts were off is measured.
* Power cuts: ``make test`` tries a short set of cut points
  (``tools.picosim.powercut.SHORT``); ``CSPEED_POWERCUT=all`` (or ``make powercut``)
  tries every step of both saves, whole and half done.
"""

import os

import pytest

from tools.picosim.run import missing

REASON = missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

BUSY_NS = {"erase": 45e6, "program": 0.4e6}  # flash.mjs's W25Q16JV typical times
BYTE_NS = 384  # one SSI byte at clk_sys / 6 (the bootrom's BAUDR)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    from tools.picosim import powercut

    tmp = tmp_path_factory.mktemp("flash")
    return {name: powercut.full_save(tmp, name) for name in powercut.SCENARIOS}


def test_a_save_into_the_ring_is_one_page_program(whole):
    result, steps, stall_ns, device_ms = whole["ring"]
    ops = [op for op in result.flash_ops if op.get("nvm")]
    assert [op["op"] for op in ops] == ["program"] and steps == 1
    assert ops[0]["addr"] % 4096 == 256  # slot 3 (offset 384) is in the sector's second page
    # interrupts off: the program's busy time and its 260 bytes on the wire, plus the ROM's work
    assert BUSY_NS["program"] + 260 * BYTE_NS < stall_ns < 2e6
    assert 0 <= device_ms < 50


def test_starting_the_ring_over_erases_and_programs_the_sector(whole):
    result, steps, stall_ns, device_ms = whole["full"]
    ops = [op for op in result.flash_ops if op.get("nvm")]
    assert [op["op"] for op in ops] == ["erase"] + ["program"] * 16 and steps == 17
    assert [op["addr"] % 4096 for op in ops] == [0] + [256 * i for i in range(16)]
    least = BUSY_NS["erase"] + 16 * (BUSY_NS["program"] + 260 * BYTE_NS)
    assert least < stall_ns < least + 5e6
    assert stall_ns / 1e6 - 2 < device_ms < 200  # ticks_ms around save() sees the stall


def points():
    from tools.picosim import powercut

    if os.environ.get("CSPEED_POWERCUT") == "all":
        return [(s, n, p) for s, total in (("ring", 1), ("full", 17))
                for n in range(total) for p in (False, True)]
    return list(powercut.SHORT)


def expected(scenario, steps, partial):
    """Old before the save's first step; the erase window loses both; new after page 0."""
    if scenario == "ring" or (steps == 0 and not partial):
        return {"old"}
    if steps < 2:  # during the erase, after it, or during page 0's program
        return {"defaults"}
    return {"new"}


CHECKED = {}  # nvm image -> what the firmware loaded (the same image boots the same way)


@pytest.mark.parametrize("scenario,steps,partial", points())
def test_power_cut(scenario, steps, partial, tmp_path):
    from tools.picosim import powercut

    outcome, detail = powercut.cut_point(tmp_path, scenario, steps, partial, cache=CHECKED)
    assert outcome in expected(scenario, steps, partial), detail
