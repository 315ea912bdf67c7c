"""What the design card's two display libraries would cost the firmware's heap on a Pico.

    python -m tools.picosim.libcost        (make libcost; a few minutes)

The kit does not install ``adafruit_display_text`` and ``adafruit_displayio_layout``
(``lib/requirements.txt``): the firmware draws text as glyph tiles. This measures the
choice again, on real CircuitPython 10.2.1 in the emulated Pico, after the firmware's
own build: the heap that importing ``bitmap_label`` and ``GridLayout`` takes, a
21-character label and its change of text, an 8-cell grid
(``tools/picosim/device/libcost_code.py``). It checks itself: every step printed its
figure and the run had no traceback (else one line, exit 1).
"""

import sys
import tempfile
from pathlib import Path

from tools.picosim import analyze
from tools.picosim.run import PicoError, missing, run

CODE = Path(__file__).with_name("device") / "libcost_code.py"
LIBRARIES = ("adafruit_display_text.bitmap_label",
             "adafruit_displayio_layout.layouts.grid_layout")
STEPS = ("build", "import", "label", "relabel", "grid", "done")


def measure(seconds=40):
    """``[record]`` of the run's ``libcost`` lines (``tools.picosim.analyze`` records)."""
    with tempfile.TemporaryDirectory() as tmp:
        result = run(Path(tmp) / "libcost", seconds=seconds, code=str(CODE),
                     libraries=LIBRARIES, stop_on="libcost done")
    problems = analyze.console_problems(result.console)
    if problems:
        raise PicoError("the measurement failed: %s" % problems[0])
    records = []
    for _, line in analyze.console_lines(result):
        fields = line.strip().split()
        if fields[:1] == ["libcost"]:
            records.append(fields[1:])
    seen = {fields[0] for fields in records}
    if not set(STEPS) <= seen:
        raise PicoError("the run ended before %s" % sorted(set(STEPS) - seen))
    return records


def main(argv=None):
    if argv:
        print(__doc__.strip().split("\n\n")[1] if argv[0] in ("-h", "--help") else
              "tools.picosim.libcost takes no arguments")
        return 0 if argv[0] in ("-h", "--help") else 2
    reason = missing()
    if reason:
        print("tools.picosim.libcost: %s" % reason, file=sys.stderr)
        return 2
    try:
        records = measure()
    except (PicoError, OSError) as err:
        print("tools.picosim.libcost: %s" % err, file=sys.stderr)
        return 1
    print("On real CircuitPython 10.2.1 in the emulated Pico, after the firmware's build:")
    for fields in records:
        if fields[0] != "done":
            print("  " + " ".join(fields))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
