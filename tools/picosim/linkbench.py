"""Link figures on two emulated Picos: ``python -m tools.picosim.linkbench`` (``make link``).

Runs ``device/link_sync_code.py`` on both chips of the rig (tools/picosim/link.py):
a host and a guest joined by hw.link over busio.UART at 115200 baud, the guest's
clock ``--ppm`` fast. The rig presses the guest's button at random times; the
guest stamps each press with ``keypad`` and sends it; the host maps it to its own
clock. Printed: the mapping error against true time (p50, p99, max), the drift the
host estimated, the bytes and frames on the wire, the time per frame and per sync
update on the emulated chip, the heap the link took, and the bytes allocated by
each loop (must be 0). The run checks itself: every press mapped, nothing
allocated, both clocks placed on true time consistently (exit 1 otherwise).

Implementation Notes
--------------------

The error of one press is ``M - G + (g(P) - h(P))``: the mapped host time ``M`` minus
the guest's stamp ``G``, plus the true offset of the two clocks at the press time
``P``, where ``h`` and ``g`` are the host's and the guest's ``ticks_ms`` taken as
continuous ms counts. Each chip's count comes from its ``cal T`` line (the
``ticks_ms`` value that had just begun when it wrote one byte, whose start the rig
logged in true time) and its clock rate (1 + ppm / 1e6); CircuitPython's own
``ticks_ms`` is that count in whole ms, up to 1.95 ms behind it (its 1024 Hz tick
made into ms). So the error includes both clocks' rounding to ms, as the game sees.
"""

import argparse
import json
import os
import random
import re
import sys
from pathlib import Path

from tools.picosim import link as rig
from tools.picosim.run import profile_pins

CODE = rig.DEVICE / "link_sync_code.py"
MASK = (1 << 29) - 1
HALF = 1 << 28
PRESS_MS = 80  # how long each scripted press holds the button
REPORT_S = 5


def wrap(x):
    """``x`` ms reduced to [-2**28, 2**28): a wrap-aware difference."""
    return ((x + HALF) % (1 << 29)) - HALF


def press_events(seconds, seed, pin, start_ms=1500.0):
    """Scripted presses at random times (250-700 ms apart) until ``seconds`` after T0."""
    rng = random.Random(seed)
    events, t = [], start_ms
    while t + PRESS_MS + 200 < seconds * 1000:
        events.append((round(t, 3), pin, False, "press"))
        events.append((round(t + PRESS_MS, 3), pin, True))
        t += rng.uniform(250, 700)
    return events


TITLE = re.compile("\x1b\\].*?\x1b\\\\")  # CircuitPython's terminal-title escapes


def parse(console):
    """The lines of one chip's report, by their first word: {word: [field lists]}."""
    out = {}
    for line in TITLE.sub("", console).replace("\r", "").split("\n"):
        words = line.split()
        if words:
            out.setdefault(words[0], []).append(words[1:])
    return out


def fields(words):
    """``["a=1", "b=2"]`` -> ``{"a": 1, "b": 2}`` (ints where they are)."""
    out = {}
    for w in words:
        key, eq, value = w.partition("=")
        if eq:
            out[key] = int(value) if value.lstrip("-").isdigit() else value
    return out


def percentile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))]


def clock_of(result, chip, lines):
    """``(cal ticks, true ns its tick began, rate)`` of one chip, from its cal line."""
    cal = int(lines["cal"][0][0])
    first = next(b for b in result.bytes if b[0] == chip and b[1] == 0)
    return cal, first[5], 1 + result.chips[chip].done["ppm"] / 1e6


def continuous_ms(clock, true_ns):
    """A chip's ticks_ms as a continuous count (not wrapped) at ``true_ns``."""
    cal, at, rate = clock
    return cal + (true_ns - at) * rate / 1e6


def measure(workdir, seconds, ppm, seed=1, on_console=None, faults=None):
    """Run the pair; return the figures as a dict (see the module docstring).

    ``faults``: the rig's (tools/picosim/link.py), e.g. bytes dropped on the wire.
    """
    pin = profile_pins()[0][0]
    events = press_events(seconds, seed, pin)
    settings = {"LINK_REPORT_S": str(REPORT_S)}
    chips = [rig.Chip(str(CODE), settings=dict(settings, LINK_ROLE="host")),
             rig.Chip(str(CODE), settings=dict(settings, LINK_ROLE="guest", LINK_KEY=str(pin)),
                      events=events, ppm=ppm)]
    # one report more than the presses need, so the last ones are printed
    result = rig.run_link(workdir, chips, seconds=seconds + REPORT_S + 1, on_console=on_console,
                          faults=faults)
    return analyze(result, seconds, ppm, seed)


def analyze(result, seconds, ppm, seed):
    """The figures of a run of link_sync_code.py (see measure)."""
    host, guest = (parse(c.console) for c in result.chips)
    problems = []
    for who, lines in (("host", host), ("guest", guest)):
        if "Traceback" in result.chips[0 if who == "host" else 1].console:
            problems.append("%s: a traceback on the console" % who)
        if "cal" not in lines:
            problems.append("%s: no cal line" % who)
    if problems:
        return {"problems": problems, "console": [c.console for c in result.chips]}
    hclock, gclock = clock_of(result, 0, host), clock_of(result, 1, guest)
    presses = [e["T"] for e in result.chips[1].edges if e.get("tag") == "press"]
    mapped = [(int(g), int(m)) for g, m in host.get("p", [])]
    errors, lags = [], []
    for true_ns, (g, m) in zip(presses, mapped):
        theta = continuous_ms(gclock, true_ns) - continuous_ms(hclock, true_ns)
        errors.append(wrap(m - g) + wrap(theta))
        lags.append(wrap(g - continuous_ms(gclock, true_ns)))
    size = sorted(abs(e) for e in errors)
    # the first report of each covers linking up (the window's first use, the sync's first fit)
    allocs = [int(w[0]) for lines in (host, guest) for w in lines.get("alloc", [])[1:]]
    syncs = [fields(w) for w in host.get("sync", [])]
    links = [fields(w) for w in host.get("link", [])], [fields(w) for w in guest.get("link", [])]
    gate = [0] * 8
    for words in host.get("gate", []):
        for i, v in enumerate(words[:8]):
            gate[i] += int(v)
    wire = rig.byte_summary(result)
    out = {
        "stack": "real CircuitPython 10.2.1 (Pico UF2) on two rp2040js chips, UART1 at 115200",
        "seconds": seconds, "ppm": ppm, "seed": seed,
        "emulated_s": round(result.emulated_s, 2), "wall_s": round(result.wall_s, 1),
        "presses": len(presses), "mapped": len(mapped),
        "error_ms": {"p50": round(percentile(size, 0.5), 3) if size else None,
                     "p99": round(percentile(size, 0.99), 3) if size else None,
                     "max": round(size[-1], 3) if size else None,
                     "mean": round(sum(errors) / len(errors), 3) if errors else None},
        "keypad_lag_ms": [round(min(lags), 2), round(max(lags), 2)] if lags else None,
        "drift_ppm": syncs[-1]["drift_ppm100"] / 100 if syncs else None,
        "syncs": syncs[-1]["n"] if syncs else 0,
        "gate_lag_histogram": gate,  # judged time behind the clock: 0, 1, 2-3, 4-7 .. ms
        "alloc_per_report": sorted(set(allocs)),
        "events": {"host": [[int(w) for w in e] for e in host.get("event", [])],
                   "guest": [[int(w) for w in e] for e in guest.get("event", [])]},
        "wire": wire,
        "host_link": links[0][-1] if links[0] else {},
        "guest_link": links[1][-1] if links[1] else {},
        "bench": dict(fields(sum(guest.get("bench", []), [])),
                      **fields(sum(host.get("bench", []), []))),
        "heap_host": fields(host.get("heap", [[]])[0]),
        "heap_guest": fields(guest.get("heap", [[]])[0]),
        "cal": {"host": hclock[:2], "guest": gclock[:2]},
        "problems": problems,
        "result": result,  # the rig's LinkResult (not in the JSON)
    }
    if len(mapped) != len(presses):
        problems.append("%d presses, %d mapped" % (len(presses), len(mapped)))
    if any(allocs) or not allocs:
        problems.append("the loops allocated: %s" % sorted(set(allocs)))
    if lags and not (0 < min(lags) and max(lags) < 8):
        problems.append("keypad lags %s: the clocks are not placed right" % out["keypad_lag_ms"])
    return out


def report(out):
    """Print the figures."""
    e = out["error_ms"]
    print("link on %s" % out["stack"])
    print("  %g s of presses, guest clock %g ppm fast: %d presses, %d mapped; %.1f s emulated"
          " in %.0f s wall" % (out["seconds"], out["ppm"], out["presses"], out["mapped"],
                               out["emulated_s"], out["wall_s"]))
    if e["p50"] is not None:
        print("  guest press -> host clock, error: p50 %.2f ms, p99 %.2f ms, max %.2f ms, mean"
              " %+.2f ms" % (e["p50"], e["p99"], e["max"], e["mean"]))
    print("  drift estimated %s ppm after %d sync exchanges; keypad stamp - press: %s ms"
          % (out["drift_ppm"], out["syncs"], out["keypad_lag_ms"]))
    h, g = out["host_link"], out["guest_link"]
    for name, link in (("host", h), ("guest", g)):
        if link:
            print("  %s sent %d frames, %d bytes (%.1f per frame), resent %d; received %d frames,"
                  " %d bad" % (name, link["frames_out"], link["bytes_out"],
                               link["bytes_out"] / max(1, link["frames_out"]), link["resent"],
                               link["frames_in"], link["bad_crc"]))
    print("  wire: %s" % out["wire"])
    b = out["bench"]
    if b:
        print("  per %d-byte PRESS frame on the emulated Pico: encode %d us, decode %d us; sync"
              " update %d us" % (b["press_frame_bytes"], b["encode_us"], b["decode_us"],
                                 b["sync_update_us"]))
    print("  heap: host %s; guest %s" % (out["heap_host"], out["heap_guest"]))
    print("  judged time behind the host's clock (0, 1, 2-3, 4-7, 8-15 .. ms): %s"
          % out["gate_lag_histogram"])
    print("  bytes allocated per %d s of loop: %s" % (REPORT_S, out["alloc_per_report"]))
    for problem in out["problems"]:
        print("CHECK FAILED: %s" % problem)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tools.picosim.linkbench",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=60.0, help="emulated s of presses")
    p.add_argument("--ppm", type=float, action="append",
                   help="guest clock fast by this much (repeatable; default 0 and 100)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workdir", default=os.path.join("build", "linkbench"))
    p.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    p.add_argument("--firmware", action="store_true",
                   help="the firmware linked on both chips (tools/picosim/linkfw.py): its"
                        " mapping error, the order of presses 3-6 ms apart, press-to-pixel,"
                        " heap")
    p.add_argument("--no-diag", action="store_true",
                   help="with --firmware: CSPEED_DIAG off (its heap walks slow every frame"
                        " that reads a press): press-to-pixel as a player sees it, no heap")
    p.add_argument("--game", default="grid",
                   help="with --firmware: the game the host chooses (a key of engine.games)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    reason = rig.runs.missing()
    if reason:
        print("tools.picosim.linkbench: %s" % reason, file=sys.stderr)
        return 2
    results, failed = [], False
    for ppm in args.ppm or [0.0, 100.0]:
        try:
            if args.firmware:
                from tools.picosim import linkfw

                name = "fw-%s-ppm%g%s" % (args.game, ppm, "-nodiag" * args.no_diag)
                out = linkfw.measure(Path(args.workdir) / name,
                                     args.seconds, ppm, args.seed, game=args.game,
                                     diag=not args.no_diag)
                linkfw.report(out)
                failed = failed or bool(out["problems"])
                results.append(out)
                continue
            out = measure(Path(args.workdir) / ("ppm%g" % ppm), args.seconds, ppm, args.seed)
        except rig.LinkError as err:
            print("tools.picosim.linkbench: %s" % err, file=sys.stderr)
            return 2
        if "error_ms" in out:
            report(out)
        failed = failed or bool(out["problems"])
        for problem in out["problems"] if "error_ms" not in out else ():
            print("CHECK FAILED: %s" % problem)
        out.pop("result", None)
        results.append(out)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
