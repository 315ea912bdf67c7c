"""The firmware linked on two emulated Picos (tools/picosim/link.py: two real
CircuitPython 10.2.1 chips, UART1 on GP20/GP21 cross-wired with byte timing).

One short session: both boot the unchanged firmware (code.py, the drive as .mpy); on
each, scripted button presses open the menu, walk to *Link* (the guest changes its
role to *as guest (B)*) and press START; the host's START begins a match of the 2x4
game; both players press their pads; the host holds START to abandon it. Both
``usb_cdc.data`` streams are the same bytes and replay (``tools/replay``'s reading).
The guest's clock runs 100 ppm fast. Skips, saying so, without the CircuitPython stack.
"""

import pytest

from tools.picosim import link as rig
from tools.picosim import linkfw
from tools.picosim.run import missing

REASON = missing()
needs_pico = pytest.mark.skipif(REASON is not None, reason=REASON or "")

PLAY_MS = (8500, 14500)  # both pads pressed in here
HOLD_MS = (15000, 16600)  # the host's START held: the match is abandoned
SECONDS = 18.5


def _script(guest):
    """``[(ms after T0, pin, high[, tag])]``: the menu walk to *Link* (``linkfw``), then
    this handheld's player on its own pad, and the host's held START."""
    out = linkfw.menu_script(guest)
    k = 0
    for ms in range(PLAY_MS[0] + 130 * guest, PLAY_MS[1], 230):
        linkfw.tap(out, ms, 8 * guest + k % 8)
        k += 3
    if not guest:
        linkfw.tap(out, HOLD_MS[0], linkfw.START, hold=HOLD_MS[1] - HOLD_MS[0])
    return sorted(out)


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    if REASON is not None:
        pytest.skip(REASON)
    chips = [rig.Chip("code.py", events=_script(False)),
             rig.Chip("code.py", events=_script(True), ppm=100)]
    return rig.run_link(tmp_path_factory.mktemp("linkplay"), chips, seconds=SECONDS)


@needs_pico
def test_both_picos_log_the_same_linked_match(session):
    from fw_rig import replay, split_matches

    a, b = (chip.data.decode("ascii") for chip in session.chips)
    assert "Traceback" not in session.chips[0].console + session.chips[1].console
    assert a == b
    matches = split_matches(a)
    assert len(matches) == 1
    text = matches[0]
    presses = [line.split()[2] for line in text.splitlines() if line.startswith("press ")]
    assert "A" in presses and "B" in presses  # both pads played, each its own seat
    assert "# match abandoned" in text  # the host's held START, on both
    assert replay(text)  # the same trace from either (the two are the same bytes)
