"""The firmware's heap, per game, with and without the record FRAM, on the emulated Pico.

    python -m tools.picosim.heap [--games grid,row] [--seconds S] [--fresh] [--json FILE]

For each game of ``hw.games`` and each fitting (no FRAM, the FRAM), the real
CircuitPython 10.2.1 firmware boots in rp2040js with that game chosen in its saved
menu and ``CSPEED_DIAG=2`` (``hw.diag``: every game's code loaded and forgotten first,
the worst case a handheld left on reaches; ``--fresh``: ``CSPEED_DIAG=1``, right after
power-on), idles into attract mode and plays that game's demo. It prints one line per
run and a table: free heap after build, the lowest *live* free heap in play (after a
collection), and the most bytes allocated by an idle and by a press frame.

The firmware goes on the drive as ``.mpy`` (as ``tools.deploy`` installs it when
CircuitPython's ``mpy-cross`` is there). Each run checks itself: the demo of the right
game was played (its ``rules`` line in the match log) and measured frames exist; a run
that cannot show that is an error (one line, exit 1). Each run takes a few minutes.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

from hw import games
from tools.picosim import analyze
from tools.picosim.__main__ import game_nvm
from tools.picosim.run import PicoError, missing, run

SECONDS = 12.0


class HeapError(Exception):
    """A run that does not show what it measures (one line)."""


def measure(key, fram, seconds=SECONDS, level=2, workdir=None):
    """One run: ``{"build": B, "low": B, "live": B, "idle_alloc": B, "press_alloc": B,
    "frames": N}`` for game ``key`` (``fram``: fitted)."""
    with tempfile.TemporaryDirectory() as tmp:
        result = run(Path(workdir or tmp) / ("heap-%s-%s" % (key, "fram" if fram else "flash")),
                     seconds=seconds, settings={"CSPEED_DIAG": str(level),
                                                "CSPEED_ATTRACT_S": "2"},
                     mpy=("lib", "project"), flash={"nvm": game_nvm(key)},
                     fram={"image": None} if fram else None)
    problems = analyze.console_problems(result.console)
    if problems:
        raise HeapError("%s%s: %s" % (key, " (FRAM)" if fram else "", problems[0]))
    records = analyze.diag_records(result)
    build = [r for r in records if r["tag"] == "build"]
    stats = [r for r in records if r["tag"] == "stats"]
    log = result.data.decode("utf-8", "replace")
    rules = [line for line in log.splitlines() if line.startswith("rules")]
    if not build or not stats:
        raise HeapError("%s: no diag lines (is CSPEED_DIAG read?)" % key)
    if not rules or (key != games.GAMES[0][0] and "game=%s " % key not in rules[0] + " "):
        raise HeapError("%s: the demo played another game (%s)" % (key, rules[:1]))
    last = stats[-1]
    if not last.get("idle_n") and not last.get("press_n"):
        raise HeapError("%s: no frame was measured" % key)
    if fram and "on the FRAM" not in result.console:
        raise HeapError("%s: the FRAM was not found" % key)
    return {"build": build[-1]["free"], "low": last["low"], "live": last["live"],
            "idle_alloc": last["idle_alloc"], "press_alloc": last["press_alloc"],
            "frames": last["frames"]}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.picosim.heap",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--games", default=",".join(key for key, _ in games.GAMES),
                        help="comma-separated game keys (default: every game)")
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help="emulated seconds after code.py starts (default %(default)s)")
    parser.add_argument("--fresh", action="store_true",
                        help="measure right after power-on (CSPEED_DIAG=1), not after every game")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    keys = [k for k in args.games.split(",") if k]
    unknown = [k for k in keys if games.index_of(k) < 0]
    if unknown or not keys:
        parser.exit(2, "tools.picosim.heap: no game %r (games: %s)\n"
                    % (",".join(unknown), ", ".join(k for k, _ in games.GAMES)))
    reason = missing()
    if reason:
        parser.exit(2, "tools.picosim.heap: %s\n" % reason)
    rows = {}
    try:
        for key in keys:
            for fram in (False, True):
                figures = measure(key, fram, args.seconds, 1 if args.fresh else 2)
                rows[(key, fram)] = figures
                print("%-12s %-8s build %6d  lowest live in play %6d  (raw %6d)  B/frame idle %d"
                      " press %d" % (key, "FRAM" if fram else "flash", figures["build"],
                                     figures["live"], figures["low"], figures["idle_alloc"],
                                     figures["press_alloc"]), flush=True)
    except (HeapError, PicoError, OSError) as err:
        print("tools.picosim.heap: %s" % err, file=sys.stderr)
        return 1
    print()
    print("| game | free after build (flash / FRAM) | lowest live free in play (flash / FRAM) |")
    print("|---|---|---|")
    for key in keys:
        a, b = rows[(key, False)], rows[(key, True)]
        print("| %s | %d / %d B | %d / %d B |" % (key, a["build"], b["build"], a["live"],
                                                 b["live"]))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"%s %s" % (k, "fram" if f else "flash"): v for (k, f), v in rows.items()},
            indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
