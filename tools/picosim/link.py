"""Two emulated Picos joined by a UART cable: ``python -m tools.picosim.link``.

:func:`run_link` builds a CIRCUITPY image per chip (each its own ``code.py`` and
``settings.toml``), runs ``node tools/picosim/link.mjs JOB`` and returns a
:class:`LinkResult`: per chip the console, the ``usb_cdc.data`` bytes, the scripted
GPIO edges and its boots; and the wire's byte log (every byte each way with its true
send and arrival times and what became of it).

    from tools.picosim.link import Chip, run_link
    result = run_link("build/link", [Chip("host_code.py", ppm=0),
                                     Chip("guest_code.py", ppm=100)],
                      seconds=10, faults={"cut": [{"fromMs": 3000, "toMs": 4000}]})
    result.chips[1].console, result.wire(0)  # bytes chip 0 -> chip 1

Times: "true" ns count from the moment both chips are powered on; ``T0`` is the
true time when both run ``code.py`` (the later of the two), and every scripted time
(GPIO events, faults, ``seconds``) is in ms after ``T0``. Each chip's clock runs
``1 + ppm / 1e6`` times as fast as true time (link.mjs).

Implementation Notes
--------------------

The cable joins chip 0's ``tx_pin`` to chip 1's ``rx_pin`` and back (default UART1,
GP20 TX / GP21 RX, as docs/LINK.md wires it). Faults are link.mjs's job fields
(``drop``, ``corrupt``, ``cut``, ``reset``), passed through as given.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tools.picosim import drive as drives
from tools.picosim import run as runs
from tools.picosim.fat import FatError, make_image

GLUE = Path(__file__).with_name("link.mjs")
DEVICE = Path(__file__).with_name("device")
UART, TX_PIN, RX_PIN = 1, 20, 21
SLICE_US = 20
FATES = ("ok", "drop", "corrupt", "cut", "off", "overrun", "framing", "reset", "nopin",
         "txfull", "txoff")


@dataclass
class Chip:
    """One chip of the pair: its program and its board."""

    code: str  # the code.py to run
    ppm: float = 0.0  # its clock runs this much fast (negative: slow)
    settings: dict = None  # settings.toml entries
    events: list = ()  # [(ms after T0, pin, high)] or (ms, pin, high, tag)
    hold_high: list = None  # pins held high (released buttons); default: the profile's keys
    mpy: tuple = None  # what goes on the drive as .mpy (None: drive.MPY_DEFAULT)
    stop_on: str = None  # stop once the console shows this (see run_link's stop_when)
    capture_frames: bool = False


@dataclass
class ChipResult:
    """What one chip did (times: true ns)."""

    console: str = ""
    console_chunks: list = field(default_factory=list)  # (T, text)
    data: bytes = b""
    t0: list = field(default_factory=list)  # T of each "code.py" (one per boot)
    boots: list = field(default_factory=list)  # {"T", "n", "ppm"}
    edges: list = field(default_factory=list)  # {"T", "t", "pin", "high", "tag"}
    bursts: list = field(default_factory=list)
    usb: list = field(default_factory=list)
    done: dict = field(default_factory=dict)
    frame: np.ndarray = None

    def lines(self):
        """The console's lines."""
        return self.console.replace("\r\n", "\n").split("\n")


@dataclass
class LinkResult:
    """What the pair did."""

    chips: list
    bytes: list  # (dir, i, v, rv, fate, ts, te, late) per byte, in the order they left
    T0: int = None
    done: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    wall_s: float = 0.0
    workdir: Path = None

    @property
    def emulated_s(self):
        """True (emulated) seconds from power-on to the end."""
        return self.done.get("T", 0) / 1e9

    def ms(self, t):
        """True ns -> ms after T0."""
        return (t - self.T0) / 1e6

    def wire(self, direction, fates=None):
        """The byte records of one direction (0: chip 0 -> 1), optionally of some fates."""
        return [b for b in self.bytes if b[0] == direction and (fates is None or b[4] in fates)]

    def received(self, direction):
        """The bytes the receiver got, in order (``ok`` and ``corrupt``, as delivered)."""
        return bytes(b[3] for b in self.wire(direction, ("ok", "corrupt")))


class LinkError(runs.PicoError):
    """The pair cannot run or broke down (one-line message)."""


def build_image(workdir, chip):
    """Write one chip's CIRCUITPY image; return its path."""
    try:
        files = drives.drive_files(chip.settings, mpy=chip.mpy, code=chip.code)
        image = make_image(files, runs.FAT_SECTORS)
    except (drives.DriveError, FatError, OSError) as err:
        raise LinkError(str(err)) from None
    path = Path(workdir) / "circuitpy.img"
    path.write_bytes(image)
    return path


def _chip_job(workdir, chip):
    keys, dc, cs = runs.profile_pins()
    image = build_image(workdir, chip)
    events = []
    for event in chip.events:
        ms, pin, high = event[:3]
        item = {"ms": ms, "pin": pin, "high": bool(high)}
        if len(event) > 3:
            item["tag"] = event[3]
        events.append(item)
    return {"uf2": str(runs.UF2), "bootrom": str(runs.BOOTROM), "fat": str(image),
            "fatOffset": runs.FAT_OFFSET, "holdHigh": list(chip.hold_high or keys),
            "dcPin": dc, "csPin": cs, "gapUs": runs.GAP_US,
            "captureFrames": bool(chip.capture_frames), "stopOn": chip.stop_on,
            "ppm": chip.ppm, "events": events}


def read_bytes(path):
    """The byte log (bytes.csv) as tuples (dir, i, v, rv, fate, ts, te, late), in send order.

    link.mjs writes a byte when its fate is known (a lost one at once, a delivered one
    when it arrives): sorted here by the time each left.
    """
    out = []
    with open(path, newline="", encoding="ascii") as f:
        rows = csv.reader(f)
        next(rows)
        for d, i, v, rv, fate, ts, te, late in rows:
            out.append((int(d), int(i), int(v), int(rv), fate, int(ts), int(te), int(late)))
    out.sort(key=lambda b: (b[5], b[0], b[1]))
    return out


def run_link(workdir, chips, *, seconds, faults=None, slice_us=SLICE_US, uart=UART,
             tx_pin=TX_PIN, rx_pin=RX_PIN, stop_when="all", on_console=None):
    """Run the two chips for ``seconds`` after T0 (or until their ``stop_on``); a LinkResult.

    ``faults``: link.mjs's ``drop``, ``corrupt``, ``cut`` and ``reset`` lists (times in
    ms after T0). ``on_console(chip, text)`` sees each console chunk as it comes.
    """
    reason = runs.missing()
    if reason:
        raise LinkError(reason)
    if len(chips) != 2:
        raise LinkError("a link needs two chips, not %d" % len(chips))
    workdir = Path(workdir)
    jobs = []
    for i, chip in enumerate(chips):
        folder = workdir / ("chip%d" % i)
        folder.mkdir(parents=True, exist_ok=True)
        jobs.append(_chip_job(folder, chip))
    job = {"outDir": str(workdir), "untilMs": seconds * 1000.0,
           "bootTimeoutMs": runs.BOOT_TIMEOUT_MS, "sliceUs": slice_us, "uart": uart,
           "txPin": tx_pin, "rxPin": rx_pin, "stopWhen": stop_when, "chips": jobs,
           "faults": faults or {}}
    job_path = workdir / "job.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    results = [ChipResult(), ChipResult()]
    result = LinkResult(chips=results, bytes=[], workdir=workdir)
    started = time.monotonic()
    stderr_path = workdir / "node-stderr.txt"
    try:
        with open(stderr_path, "w", encoding="utf-8") as stderr_file:
            proc = subprocess.Popen(["node", str(GLUE), str(job_path)], cwd=str(runs.ROOT),
                                    stdout=subprocess.PIPE, stderr=stderr_file, text=True,
                                    encoding="utf-8", errors="replace")
    except OSError as err:
        raise LinkError("cannot start node: %s" % err) from None
    try:
        for line in proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                result.notes.append(line.rstrip())
                continue
            kind = msg["type"]
            if kind == "done":
                result.done = msg
                continue
            if kind == "T0":
                result.T0 = msg["T"]
                continue
            chip = results[msg["chip"]]
            if kind == "console":
                chip.console_chunks.append((msg["T"], msg["text"]))
                if on_console is not None:
                    on_console(msg["chip"], msg["text"])
            elif kind == "edge":
                chip.edges.append(msg)
            elif kind == "burst":
                chip.bursts.append(msg)
            elif kind == "t0":
                chip.t0.append(msg["T"])
            elif kind == "boot":
                chip.boots.append(msg)
            elif kind == "usb":
                chip.usb.append(msg)
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait()
        raise
    finally:
        proc.wait()
        stderr = stderr_path.read_text(encoding="utf-8", errors="replace")
    result.wall_s = time.monotonic() - started
    if proc.returncode != 0 or not result.done:
        last = (stderr.strip().splitlines() or ["exit status %s" % proc.returncode])[-1]
        raise LinkError("the emulator stopped: %s" % last)
    for i, chip in enumerate(results):
        folder = workdir / ("chip%d" % i)
        chip.console = "".join(text for _, text in chip.console_chunks)
        (folder / "console.txt").write_text(chip.console, encoding="utf-8")
        chip.data = (folder / "data.bin").read_bytes()
        chip.done = result.done["chips"][i]
        raw = np.fromfile(folder / "final.raw", dtype="<u2")
        chip.frame = runs.rgb565_to_rgb(raw, chip.done["width"], chip.done["height"])
    result.bytes = read_bytes(workdir / "bytes.csv")
    if result.T0 is None:
        raise LinkError(result.done.get("reason", "no code.py output"))
    return result


# ---------------------------------------------------------------- command line
def _pair(text, what):
    """``"A:rest"`` / ``"B:rest"`` / ``"rest"`` -> (chip index or None, rest)."""
    head, colon, rest = text.partition(":")
    if colon and head.upper() in ("A", "B"):
        return "AB".index(head.upper()), rest
    return None, text


def _ms_range(text, what):
    lo, dash, hi = text.partition(":")
    try:
        return float(lo), float(hi)
    except ValueError:
        raise ValueError("%s needs FROM_MS:TO_MS, not %r" % (what, text)) from None


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="python -m tools.picosim.link",
        description="Run two emulated Picos (real CircuitPython 10.2.1 on rp2040js) joined"
                    " by a UART cable (GP20 TX / GP21 RX, crossed), with faults on the wire.")
    p.add_argument("--code", action="append", default=[], metavar="[A:|B:]FILE",
                   help="code.py of chip A and B (one FILE: both run it)")
    p.add_argument("--seconds", type=float, default=5.0, help="emulated s after both start")
    p.add_argument("--setting", action="append", default=[], metavar="[A:|B:]KEY=VALUE",
                   help="a settings.toml entry of one chip or (no prefix) both")
    p.add_argument("--ppm", action="append", default=[], metavar="A:N|B:N",
                   help="run that chip's clock N ppm fast")
    p.add_argument("--drop", action="append", default=[], metavar="DIR:I,J,...",
                   help="drop these bytes (indices from power-on) of a direction ab, ba or both")
    p.add_argument("--drop-rate", action="append", default=[], metavar="DIR:P[:SEED]",
                   help="drop each byte of a direction with probability P")
    p.add_argument("--corrupt", action="append", default=[], metavar="DIR:I,J,...",
                   help="flip one bit of these bytes")
    p.add_argument("--corrupt-rate", action="append", default=[], metavar="DIR:P[:SEED]",
                   help="flip one bit of each byte with probability P")
    p.add_argument("--cut", action="append", default=[], metavar="FROM_MS:TO_MS",
                   help="pull the cable for this window (ms after both start)")
    p.add_argument("--reset", action="append", default=[], metavar="A@MS|B@MS",
                   help="reset that chip at that time")
    p.add_argument("--stop-on", action="append", default=[], metavar="[A:|B:]TEXT",
                   help="stop once that chip's console (no prefix: each one's) shows TEXT")
    p.add_argument("--workdir", default=os.path.join("build", "picosim-link"))
    p.add_argument("--json", metavar="FILE", help="write a JSON report")
    p.add_argument("--quiet", action="store_true", help="do not echo the consoles")
    return p.parse_args(argv)


def _dir(text):
    if text not in ("ab", "ba", "both"):
        raise ValueError("a direction is ab, ba or both, not %r" % text)
    return text


def _faults(args):
    faults = {"drop": [], "corrupt": [], "cut": [], "reset": []}
    for kind in ("drop", "corrupt"):
        for item in getattr(args, kind):
            d, _, rest = item.partition(":")
            try:
                index = [int(x) for x in rest.split(",") if x]
            except ValueError:
                raise ValueError("--%s needs DIR:I,J,..., not %r" % (kind, item)) from None
            faults[kind].append({"dir": _dir(d), "index": index})
        for item in getattr(args, kind + "_rate"):
            parts = item.split(":")
            try:
                rule = {"dir": _dir(parts[0]), "rate": float(parts[1])}
                if len(parts) > 2:
                    rule["seed"] = int(parts[2])
            except (IndexError, ValueError):
                raise ValueError("--%s-rate needs DIR:P[:SEED], not %r" % (kind, item)) from None
            faults[kind].append(rule)
    for item in args.cut:
        lo, hi = _ms_range(item, "--cut")
        faults["cut"].append({"fromMs": lo, "toMs": hi})
    for item in args.reset:
        who, at, ms = item.partition("@")
        if not at or who.upper() not in ("A", "B"):
            raise ValueError("--reset needs A@MS or B@MS, not %r" % item)
        try:
            faults["reset"].append({"chip": "AB".index(who.upper()), "atMs": float(ms)})
        except ValueError:
            raise ValueError("--reset needs A@MS or B@MS, not %r" % item) from None
    return faults


def _chips(args):
    codes = [None, None]
    for item in args.code:
        who, path = _pair(item, "--code")
        for i in ((0, 1) if who is None else (who,)):
            codes[i] = path
    if None in codes:
        raise ValueError("name a code.py for both chips (--code FILE, or --code A:F --code B:G)")
    settings, ppm, stop_on = [{}, {}], [0.0, 0.0], [None, None]
    for item in args.stop_on:
        who, text = _pair(item, "--stop-on")
        for i in ((0, 1) if who is None else (who,)):
            stop_on[i] = text
    for item in args.setting:
        who, rest = _pair(item, "--setting")
        key, eq, value = rest.partition("=")
        if not eq or not key.strip():
            raise ValueError("--setting needs [A:|B:]KEY=VALUE, not %r" % item)
        for i in ((0, 1) if who is None else (who,)):
            settings[i][key.strip()] = value.strip()
    for item in args.ppm:
        who, rest = _pair(item, "--ppm")
        try:
            value = float(rest)
        except ValueError:
            raise ValueError("--ppm needs A:N or B:N, not %r" % item) from None
        for i in ((0, 1) if who is None else (who,)):
            ppm[i] = value
    for path in codes:
        if not Path(path).is_file():
            raise ValueError("no such file: %s" % path)
    return [Chip(codes[i], ppm=ppm[i], settings=settings[i], stop_on=stop_on[i])
            for i in (0, 1)]


def byte_summary(result):
    """``{direction name: {fate: count}}`` of the byte log."""
    out = {}
    for d, name in ((0, "A->B"), (1, "B->A")):
        counts = {}
        for b in result.wire(d):
            counts[b[4]] = counts.get(b[4], 0) + 1
        out[name] = counts
    return out


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        chips = _chips(args)
        faults = _faults(args)
    except ValueError as err:
        print("tools.picosim.link: %s" % err, file=sys.stderr)
        return 2

    partial = ["", ""]

    def echo(chip, text):
        """Print each whole console line as it comes, after its chip's name."""
        partial[chip] += text
        *whole, partial[chip] = partial[chip].split("\n")
        for line in whole:
            print("%s| %s" % ("AB"[chip], line.rstrip("\r")), flush=True)

    print("picosim link: two CircuitPython 10.2.1 Picos on rp2040js, %g s after both start"
          % args.seconds, flush=True)
    try:
        result = run_link(args.workdir, chips, seconds=args.seconds, faults=faults,
                          on_console=None if args.quiet else echo)
    except (OSError, LinkError) as err:
        print("tools.picosim.link: %s" % err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    for chip, rest in enumerate(partial):
        if rest.strip():
            print("%s| %s" % ("AB"[chip], rest.rstrip("\r")))
    summary = byte_summary(result)
    speed = result.emulated_s / result.wall_s if result.wall_s else 0
    print("\nran %.2f s emulated (both in code.py from %.2f s) in %.1f s wall: %.2fx real time;"
          " stopped: %s" % (result.emulated_s, result.T0 / 1e9, result.wall_s, speed,
                            result.done["reason"]))
    for name, counts in summary.items():
        print("  %s: %s" % (name, ", ".join("%d %s" % (n, f) for f, n in sorted(counts.items()))
                            or "no bytes"))
    print("byte log: %s" % (Path(args.workdir) / "bytes.csv"))
    if args.json:
        report = {"emulated_s": result.emulated_s, "T0_s": result.T0 / 1e9,
                  "wall_s": result.wall_s, "reason": result.done["reason"], "bytes": summary,
                  "consoles": [c.console for c in result.chips]}
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
