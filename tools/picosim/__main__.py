"""Command line of the emulated Pico (``python -m tools.picosim``; docs/EMULATOR.md)."""

import json
import os
import sys
from pathlib import Path

from hw import games
from hw.board.profiles import ATTRACT_S_MAX
from tools import cli

DEFAULT_DIR = os.path.join("build", "picosim")
DEFAULT_SECONDS = 10.0
SCRIPT_TAIL_S = 2.0  # with a script: run on this long after its last key
NVM_SIZE = 4096  # the Pico's microcontroller.nvm (flash.mjs)
FRAM_SIZE = 32768  # the record FRAM, an MB85RC256V (fram.mjs)


def parse_args(argv):
    p = cli.Parser(
        "tools.picosim", prog="python -m tools.picosim",
        description="Run the unchanged firmware on the real CircuitPython 10.2.1 Pico UF2 in an"
                    " emulated RP2040 (rp2040js), headless.")
    p.add_argument("--seconds", type=cli.seconds(), metavar="S",
                   help="emulated seconds to run after code.py starts (default %g, or the"
                        " script's last key + %g s)" % (DEFAULT_SECONDS, SCRIPT_TAIL_S))
    p.add_argument("--script", metavar="FILE",
                   help="timed key presses, the format of tools/emulate (times: ms after code.py"
                        " starts)")
    p.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                   help="a settings.toml entry (repeatable), e.g. CSPEED_ATTRACT_S=2")
    p.add_argument("--attract", type=cli.whole(0, ATTRACT_S_MAX), metavar="S",
                   help="idle seconds on the title before attract mode (CSPEED_ATTRACT_S)")
    p.add_argument("--demo", action="store_true",
                   help="attract mode after 1 s, 30 s, screenshot + GIF + log in " + DEFAULT_DIR)
    p.add_argument("--seed", type=cli.SEED,
                   help="seed the firmware's shuffles (code.py becomes"
                        " run(seed=N) from hw.main: a bad setting still reaches the error screen)")
    p.add_argument("--game", choices=[key for key, _ in games.GAMES],
                   help="boot with this game chosen in the menu (written into the emulated"
                        " nvm, as a saved choice; attract mode demos it)")
    p.add_argument("--code", metavar="FILE", help="use FILE as code.py (e.g. a diagnostic)")
    p.add_argument("--mpy", choices=("lib", "all", "none"), default="all",
                   help="compile to .mpy with CircuitPython's mpy-cross: all (default: the"
                        " libraries, engine/ and hw/, as tools.deploy installs a kit), the"
                        " libraries only, or none")
    p.add_argument("--screenshot", metavar="PNG", help="write the panel at the end")
    p.add_argument("--frames", metavar="DIR", help="write a PNG per refresh that changed pixels")
    p.add_argument("--gif", metavar="PATH", help="write an animated GIF of the frames")
    p.add_argument("--console", metavar="FILE", help="save the console (first CDC port)")
    p.add_argument("--log", metavar="FILE", help="save usb_cdc.data (the match log)")
    p.add_argument("--latency", metavar="JSON", nargs="?", const="",
                   help="press-to-pixel per scripted press: print a summary, write JSON")
    p.add_argument("--diag", action="store_true",
                   help="print the console's 'diag ...' lines (CSPEED_DIAG=1) as a summary")
    p.add_argument("--json", metavar="FILE", help="write a JSON report (times, diag, latency)")
    p.add_argument("--nvm", metavar="FILE",
                   help="model the serial flash (tools/picosim/flash.mjs): microcontroller.nvm"
                        " starts from FILE (erased if absent) and is written back to it")
    p.add_argument("--fram", metavar="FILE",
                   help="fit the record's I2C FRAM (tools/picosim/fram.mjs, an MB85RC256V on"
                        " GP27/GP26): its 32 KB start from FILE (zeros if absent) and are written"
                        " back to it; without --fram no FRAM is fitted (no pull-ups)")
    p.add_argument("--workdir", default=DEFAULT_DIR, help="build folder (default %(default)s)")
    p.add_argument("--quiet", action="store_true", help="do not echo the console")
    return p.parse_args(argv)


def _settings(args):
    settings = {}
    for item in args.setting:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError("--setting needs KEY=VALUE, not %r" % item)
        settings[key.strip()] = value.strip()
    if args.attract is not None:
        settings["CSPEED_ATTRACT_S"] = str(args.attract)
    return settings


def _made_for(path):
    """``Path(path)``, its folder made if missing (the checks leave nothing behind)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def check_outputs(args):
    """Raise ``cli.OutputError`` if a file or folder the run ends by writing cannot be."""
    files = (("--console", args.console), ("--log", args.log), ("--json", args.json),
             ("--latency", args.latency))
    for option, path in files:
        if path:
            cli.output_file(option, path)
    if args.screenshot:
        cli.output_file("--screenshot", args.screenshot, suffixes=(".png",))
    if args.gif:
        cli.output_file("--gif", args.gif, suffixes=(".gif",))
    if args.nvm:
        cli.output_file("--nvm", args.nvm, size_max=NVM_SIZE, read_too=True)
    if args.fram:
        cli.output_file("--fram", args.fram, size_max=FRAM_SIZE, read_too=True)
    if args.frames:
        cli.output_folder("--frames", args.frames)
    cli.output_folder("--workdir", args.workdir)
    if args.code:
        cli.input_file("--code", args.code)


def seeded_code(workdir, seed):
    """A code.py that runs the firmware with its shuffles seeded."""
    path = Path(workdir) / "code_seeded.py"
    path.write_text('"""code.py written by tools/picosim --seed."""\n\n'
                    "from hw.main import run\n\nrun(seed=%d)\n" % seed,
                    encoding="utf-8")
    return path


def game_nvm(key):
    """The nvm sector of a device whose menu last chose game ``key`` (hw.games)."""
    from hw.games import index_of
    from hw.menu import DEFAULTS
    from hw.store.record import GAME, Record

    record = Record(DEFAULTS)
    record.buf[GAME] = index_of(key)  # the menu's Game item
    record.dirty = True
    nvm = bytearray(b"\xff" * 4096)
    record.save(nvm)
    return bytes(nvm)


def script_events(path):
    """``[(ms, logical key, down)]`` from a tools/emulate script file."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from tools.emulate import script as scripts
    from tools.emulate.keys import logical_keys

    names = logical_keys()
    return [(ms, names[name], down) for ms, name, down in scripts.load(path)]


def write_frames(result, folder):
    """Write each captured frame as a PNG; return ``[(ms, path)]``."""
    from PIL import Image

    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if name.startswith("frame_") and name.endswith(".png"):
            os.remove(os.path.join(folder, name))
    out = []
    for ms, rgb in result.frames():
        path = os.path.join(folder, "frame_%07d.png" % max(0, round(ms)))
        Image.fromarray(rgb).save(path)
        out.append((ms, path))
    return out


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return _main(args)
    except OSError as err:  # an output that filled the disk after the run (checked before it)
        name = getattr(err, "filename", None)
        return cli.fail("tools.picosim", "cannot write %s: %s" % (name, cli.why(err)) if name
                        else cli.why(err))


def _main(args):
    from tools.picosim import analyze
    from tools.picosim.run import PicoError, missing, profile_pins, run

    reason = missing()
    if reason:
        print("tools.picosim: %s" % reason, file=sys.stderr)
        return 2
    workdir = Path(args.workdir)
    if args.demo:
        args.attract = 1 if args.attract is None else args.attract
        args.seconds = 30.0 if args.seconds is None else args.seconds
        args.screenshot = args.screenshot or str(workdir / "last.png")
        args.gif = args.gif or str(workdir / "demo.gif")
        args.log = args.log or str(workdir / "match.log")
        args.console = args.console or str(workdir / "console.txt")
    try:
        settings = _settings(args)
        check_outputs(args)
        events = script_events(args.script) if args.script else []
    except (OSError, ValueError, cli.OutputError) as err:
        return cli.fail("tools.picosim", err)
    seconds = args.seconds
    if seconds is None:
        seconds = events[-1][0] / 1000 + SCRIPT_TAIL_S if events else DEFAULT_SECONDS
    mpy = {"lib": ("lib",), "all": ("lib", "project"), "none": ()}[args.mpy]
    workdir.mkdir(parents=True, exist_ok=True)
    code = args.code
    if args.seed is not None:
        if code:
            print("tools.picosim: --seed and --code do not go together", file=sys.stderr)
            return 2
        code = seeded_code(workdir, args.seed)
    echo = None if args.quiet else (lambda text: (sys.stdout.write(text), sys.stdout.flush()))
    print("picosim: CircuitPython 10.2.1 (Pico UF2) on rp2040js, %g s after code.py starts"
          % seconds, flush=True)
    flash = fram = None
    try:
        if args.fram:
            fram = {"image": Path(args.fram).read_bytes() if os.path.exists(args.fram) else None}
        if args.nvm:
            flash = {"nvm": Path(args.nvm).read_bytes() if os.path.exists(args.nvm) else None}
        if args.game and (flash is None or flash["nvm"] is None):
            flash = {"nvm": game_nvm(args.game)}  # the game chosen in the saved menu
        result = run(workdir / "run", seconds=seconds, events=events, settings=settings,
                     mpy=mpy, code=code, capture_frames=bool(args.frames or args.gif),
                     on_console=echo, flash=flash, fram=fram)
        if args.nvm and result.nvm is not None:
            _made_for(args.nvm).write_bytes(result.nvm)
        if args.fram and result.fram is not None:
            _made_for(args.fram).write_bytes(result.fram)
    except OSError as err:
        print("tools.picosim: %s" % err, file=sys.stderr)
        return 2
    except PicoError as err:
        print("tools.picosim: %s" % err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    if echo is not None and result.console and not result.console.endswith("\n"):
        print()

    report = {"emulated_s": round(result.emulated_s, 3),
              "after_t0_s": round(result.ms(result.done["t"]) / 1000, 3),
              "t0_emulated_s": round(result.t0 / 1e9, 3),
              "wall_s": round(result.wall_s, 2),
              "boot_wall_s": round(result.boot_wall_s or 0, 2),
              "speed": round(result.emulated_s / result.wall_s, 3) if result.wall_s else None,
              "refreshes": sum(1 for b in result.bursts if b["changed"]),
              "problems": analyze.console_problems(result.console),
              "diag": analyze.diag_records(result)}
    print("ran %.1f s emulated (code.py started at %.2f s) in %.1f s wall: %.2fx real time;"
          " boot to code.py %.1f s wall; %d refreshes drew pixels"
          % (result.emulated_s, result.t0 / 1e9, result.wall_s, report["speed"] or 0,
             report["boot_wall_s"], report["refreshes"]))
    for problem in report["problems"]:
        print("firmware problem: %s (see the console)" % problem)
    if args.nvm:
        ops = [op for op in result.flash_ops if op.get("nvm")]
        erases = sum(1 for op in ops if op["op"] == "erase")
        print("nvm: %d erases, %d page programs; longest stretch with interrupts off for them"
              " %.2f ms emulated; written back to %s"
              % (erases, len(ops) - erases,
                 max([(s["end"] - s["start"]) / 1e6 for s in result.irqoff] or [0]), args.nvm))

    if args.fram:
        stats = result.done.get("fram") or {}
        print("fram: %d data bytes written in %d writes, %d bytes read in %d reads; %d bytes"
              " moved with interrupts off; written back to %s"
              % (stats.get("stored", 0), stats.get("writes", 0), stats.get("read", 0),
                 stats.get("reads", 0), stats.get("irqOffBytes", 0), args.fram))

    if args.screenshot:
        from PIL import Image

        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        Image.fromarray(result.frame).save(args.screenshot)
        print("screenshot: %s" % args.screenshot)
    if args.frames or args.gif:
        frames = write_frames(result, args.frames or str(workdir / "frames"))
        print("frames: %d PNGs in %s" % (len(frames), args.frames or workdir / "frames"))
        if args.gif and frames:
            from tools.emulate.demo import make_gif

            print("animated GIF: %s" % make_gif(frames, args.gif))
    for path, data, what in ((args.console, result.console.encode("utf-8"), "console"),
                             (args.log, result.data, "usb_cdc.data log")):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            Path(path).write_bytes(data)
            extra = "  (tools/replay %s)" % path if what != "console" else ""
            print("%s: %s%s" % (what, path, extra))
    if args.diag:
        records = report["diag"]
        print("diag: %d lines" % len(records))
        for record in records:
            print("  " + " ".join("%s=%s" % (k, v) for k, v in record.items()))
    if args.latency is not None:
        keys = profile_pins()[0]
        _, results = analyze.replay_results(result.data) if result.data else (0, None)
        presses = analyze.press_latencies(result, keys, results=results)
        summary = analyze.latency_summary(presses)
        report["latency"] = {"summary": summary, "presses": presses}
        lat = summary["latency_ms"]
        if lat["n"]:
            print("press-to-pixel (emulated 125 MHz clock): %d of %d presses drew; median %.1f ms,"
                  " p95 %.1f ms; to first SPI byte median %.1f ms; refresh median %.1f ms"
                  % (summary["drawn"], summary["presses"], lat["median"], lat["p95"],
                     summary["to_first_byte_ms"]["median"], summary["refresh_ms"]["median"]))
            judged = summary.get("judged_latency_ms")
            if judged:
                print("  cover+illegal (presses that draw): median %.1f ms, p95 %.1f ms (n=%d)"
                      % (judged["median"], judged["p95"], judged["n"]))
            for r, s in summary.get("by_result", {}).items():
                print("  %-8s n=%d median %.1f ms p95 %.1f ms" % (r, s["n"], s["median"], s["p95"]))
        else:
            print("press-to-pixel: no scripted press drew anything")
        if args.latency:
            _made_for(args.latency).write_text(json.dumps(report["latency"], indent=1))
            print("latency JSON: %s" % args.latency)
    if args.json:
        _made_for(args.json).write_text(json.dumps(report, indent=1))
        print("report: %s" % args.json)
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
