"""Command line of the emulator (``make play``); see docs/EMULATOR.md.

Implementation Notes
--------------------

Every bad argument is one line on stderr and exit status 2, found before the
firmware runs: a panel size the firmware does not lay out, a number outside its
range (``tools.cli``: ``--seconds inf``, ``--until -5``), an output (``--log``, ``--trace``, ``--frames``, ``--gif``,
``--screenshot``) that cannot be written, a script that is not UTF-8 or spans more
than ``script.SPAN_LIMIT_MS``.

No display: with neither ``DISPLAY`` nor ``WAYLAND_DISPLAY`` set, or with one set but
nothing answering on its socket (a stale ``DISPLAY`` left from an ssh or Xvfb session:
SDL would quietly fall back to an invisible "offscreen" window), the run is headless
and, without a script, records the firmware's attract mode into ``PLAY_DIR``; a stale
variable is reported on one line. ``--demo`` headless records into ``DEMO_DIR``, so
the two never overwrite each other.

Saved menu choices (``--nvm``, default ``nvm.default_path()``) are used only by an
interactive window session without a script: a scripted or headless run starts from
the firmware's defaults, so it gives the same log whoever played before, unless
``--nvm PATH`` asks for a file. ``--game KEY`` (``hw.games``' keys) makes KEY the
menu's chosen game in that nvm, as a saved choice would (as ``tools.picosim --game``).

``--log FILE`` is written anew by each run (one run, one serial stream), so running a
documented example twice replays the same.
"""

import argparse
import os
import shutil
import signal
import socket
import sys
import tempfile

from engine.family_bot import LEVEL_NAMES
from hw import games
from tools import cli

PLAY_DIR = os.path.join("build", "emulator-play")  # make play without a display
DEMO_DIR = os.path.join("build", "emulator-demo")  # --demo (headless)
DEMO_LIMIT_MS = 300000  # a demo stops here at the latest (virtual time)
HEADLESS_DEFAULT_MS = 10000  # headless, no script: how long to run
SCRIPT_TAIL_MS = 3000  # headless with a script: run on this long after its last key
SIZES = ("320x240", "240x240", "240x135")  # the panels the firmware lays out
BUTTON_TEST_HOLD_MS = 1500  # --button-test: START held this long from power-on
NVM_SIZE = 4096  # microcontroller.nvm on a Pico (tools.emulate.nvm.FileNVM's default)
LINK_PPM_MAX = 10000  # --ppm: crystals differ by tens of ppm; 1 % is far past any board


class UsageError(Exception):
    """A bad argument: one line on stderr, exit status 2."""


def _answers(family, address, timeout=1.0):
    """True if something accepts a connection on this socket address."""
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(address)
        return True
    except OSError:
        return False


def x_server_answers(display):
    """True if an X server listens where ``display`` (``:N``, ``host:N.S``) points.

    Only the socket is tried (no X handshake): a local display is the abstract or
    the file socket ``/tmp/.X11-unix/XN``, a remote one TCP port 6000 + N.
    """
    host, _, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit():
        return False
    if host in ("", "unix") or host.startswith("/"):
        path = "/tmp/.X11-unix/X%d" % int(number)
        return any(_answers(socket.AF_UNIX, a) for a in ("\0" + path, path))
    return _answers(socket.AF_INET, (host, 6000 + int(number)))


def wayland_answers(name):
    """True if a Wayland compositor listens on ``name`` (absolute, or in XDG_RUNTIME_DIR)."""
    path = name if name.startswith("/") else os.path.join(
        os.environ.get("XDG_RUNTIME_DIR", ""), name)
    return _answers(socket.AF_UNIX, path)


def no_display():
    """Why no window can be opened ("unset" or "stale"), or None if one can.

    Not Linux: a window always opens. ``SDL_VIDEODRIVER=dummy``/``offscreen`` is
    "unset" (headless asked for).
    """
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return "unset"
    if not sys.platform.startswith("linux"):
        return None
    x11, wayland = os.environ.get("DISPLAY"), os.environ.get("WAYLAND_DISPLAY")
    if not x11 and not wayland:
        return "unset"
    if (x11 and x_server_answers(x11)) or (wayland and wayland_answers(wayland)):
        return None
    return "stale"


def parse_args(argv):
    p = cli.Parser("tools.emulate", prog="python -m tools.emulate",
                   description="Run the unchanged firmware (code.py) on the desktop.")
    p.add_argument("--scale", type=cli.whole(1, 3), default=2,
                   help="window pixels per panel pixel (1 = pixel exact; default 2)")
    p.add_argument("--size", default="320x240",
                   help="panel WxH: 320x240 (ILI9341), 240x240, 240x135 (default 320x240)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--headless", action="store_true",
                      help="no window (SDL dummy driver); time is virtual (fast-forward)")
    mode.add_argument("--window", action="store_true",
                      help="open a window even if no DISPLAY/WAYLAND_DISPLAY is set")
    p.add_argument("--script", metavar="FILE", help="timed key presses (see tools/emulate/script.py)")
    p.add_argument("--demo", action="store_true",
                   help="wait on the title for the firmware's attract mode (CPU vs CPU);"
                        " stop 3 s after its first match")
    p.add_argument("--frames", metavar="DIR", help="write a PNG whenever the screen changes")
    p.add_argument("--gif", metavar="PATH", help="write an animated GIF of the frames at the end")
    p.add_argument("--screenshot", metavar="PATH", help="write a PNG of the screen at the end")
    p.add_argument("--window-shot", metavar="PATH",
                   help="write a PNG of the window at the end: the screen at --scale with the"
                        " key legend under it (headless too)")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--until", type=cli.whole(0, cli.SECONDS_MAX * 1000, "ms"), metavar="MS",
                        help="stop after MS ms of emulated time")
    length.add_argument("--seconds", type=cli.seconds(), metavar="S",
                        help="stop after S seconds")
    p.add_argument("--log", metavar="FILE",
                   help="also write the serial stream (match logs) to FILE (anew each run)")
    p.add_argument("--trace", metavar="FILE", help="write the engine's live trace (JSON lines)")
    p.add_argument("--nvm", metavar="PATH",
                   help="file for microcontroller.nvm (default ~/.cache/california-speed/nvm.bin;"
                        " 'none' = not kept)")
    p.add_argument("--fram", metavar="PATH",
                   help="fit the optional record FRAM (an MB85RC256V on GP27/GP26), its 32 KB"
                        " kept in PATH: the record lives there instead of nvm")
    p.add_argument("--seed", type=cli.SEED, help="seed the firmware's shuffles (default: os.urandom)")
    p.add_argument("--game", choices=[key for key, _ in games.GAMES],
                   help="start with this game chosen in the menu (a saved choice in the nvm;"
                        " attract mode then demos it)")
    p.add_argument("--button-test", action="store_true",
                   help="hold START at power-on for %d ms: the firmware opens its button test"
                        " mode" % BUTTON_TEST_HOLD_MS)
    p.add_argument("--start-ticks", type=cli.whole(0, (1 << 29) - 1), metavar="T",
                   help="first ticks_ms value (default 2**29 - 20000: the wrap comes at 20 s)")
    p.add_argument("--link", action="store_true",
                   help="two emulators on one link cable: host A and guest B, each on its link"
                        " screen (outputs get -A / -B before their extension; docs/EMULATOR.md)")
    p.add_argument("--ppm", type=cli.Number(float, -LINK_PPM_MAX, LINK_PPM_MAX, "ppm"), metavar="N",
                   help="--link: the guest's clock runs N ppm fast (negative: slow; default 0)")
    p.add_argument("--script-b", metavar="FILE", help="--link: the guest's timed key presses"
                                                      " (--script is the host's)")
    p.add_argument("--autoplay", choices=LEVEL_NAMES,
                   help="--link: a CPU player of this level presses each handheld's keys; the"
                        " host's starts the match; each stops 3 s after it")
    p.add_argument("--link-end", help=argparse.SUPPRESS)  # a --link child: SEAT:FD:PPM
    args = p.parse_args(argv)
    if not args.link:
        for option, value in (("--ppm", args.ppm), ("--script-b", args.script_b),
                              ("--autoplay", args.autoplay)):
            if value is not None and args.link_end is None:
                raise UsageError("%s is for --link (two emulators on one cable)" % option)
    elif args.demo or args.button_test:
        raise UsageError("--link cannot be combined with %s"
                         % ("--demo" if args.demo else "--button-test"))
    if args.ppm is None:
        args.ppm = 0.0
    if args.size.lower() not in SIZES:
        raise UsageError("--size must be one of %s (the panels the firmware lays out), not %r"
                         % (", ".join(SIZES), args.size[:20]))
    args.width, args.height = (int(v) for v in args.size.lower().split("x"))
    if args.seconds is not None:
        args.until = int(args.seconds * 1000)
    return args


def check_outputs(args):
    """Raise ``UsageError`` if an output path cannot be written (nothing left behind)."""
    from tools.emulate.fram import SIZE as FRAM_SIZE

    try:
        for option, path in (("--log", args.log), ("--trace", args.trace)):
            if path:
                cli.output_file(option, path)
        if args.gif:
            cli.output_file("--gif", args.gif, suffixes=(".gif",))
        for option, path in (("--screenshot", args.screenshot),
                             ("--window-shot", args.window_shot)):
            if path:
                cli.output_file(option, path, suffixes=(".png",))
        if args.frames:
            cli.output_folder("--frames", args.frames)
        if args.nvm and args.nvm != "none":
            cli.output_file("--nvm", args.nvm, size_max=NVM_SIZE, read_too=True)
        if args.fram:
            cli.output_file("--fram", args.fram, size_max=FRAM_SIZE, read_too=True)
    except cli.OutputError as err:
        raise UsageError(str(err)) from None


def main(argv=None):
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except UsageError as err:
        return cli.fail("tools.emulate", err)
    except OSError as err:  # a file that vanished or filled up after the checks
        name = getattr(err, "filename", None)
        return cli.fail("tools.emulate", "cannot write %s: %s" % (name, cli.why(err)) if name
                        else cli.why(err))


def _main(argv):
    args = parse_args(argv)
    auto_demo = False
    why = None if args.headless or args.window else no_display()
    if why:
        if why == "stale":
            print("tools.emulate: %s is set but nothing answers there (a stale display?):"
                  " no window, running headless" % _display_names(), file=sys.stderr,
                  flush=True)
        print("make play: no display found (%s), so\n"
              "the emulator runs headless: no window, virtual time (fast-forward)."
              % ("neither DISPLAY nor WAYLAND_DISPLAY is set" if why == "unset"
                 else "%s does not answer" % _display_names()))
        args.headless = True
        if not args.script and not args.demo and not args.link and args.link_end is None:
            auto_demo = True
            print("Recording a demo instead: the firmware idles on its title, then its attract\n"
                  "mode plays CPU vs CPU; open the GIF below to watch it. With a display,\n"
                  "`make play` opens a window.")
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    if args.link:
        return _run_link(args)
    demo = args.demo or auto_demo
    if demo and args.headless:
        _demo_outputs(args, PLAY_DIR if auto_demo else DEMO_DIR)
    check_outputs(args)
    frames_tmp = None
    if args.gif and not args.frames:  # the GIF is made of frames: keep them meanwhile
        frames_tmp = args.frames = tempfile.mkdtemp(prefix="emulate-frames-")
    try:
        return _run(args, demo, keep_frames=frames_tmp is None)
    finally:
        if frames_tmp:
            shutil.rmtree(frames_tmp, ignore_errors=True)


def _display_names():
    """``DISPLAY=:1`` and/or ``WAYLAND_DISPLAY=wayland-0``, as set."""
    return " and ".join("%s=%s" % (name, os.environ[name][:40])
                        for name in ("DISPLAY", "WAYLAND_DISPLAY") if os.environ.get(name))


def _demo_outputs(args, folder):
    """A headless demo writes its frames, GIF, last screen and log into ``folder``."""
    args.frames = args.frames or os.path.join(folder, "frames")
    args.gif = args.gif or os.path.join(folder, "demo.gif")
    args.screenshot = args.screenshot or os.path.join(folder, "last.png")
    args.log = args.log or os.path.join(folder, "match.log")
    if os.path.isdir(args.frames):
        for name in os.listdir(args.frames):  # frames of an earlier demo
            if name.startswith("frame_") and name.endswith(".png"):
                os.remove(os.path.join(args.frames, name))


def _interpreter():
    """This Python as a user types it (``.venv/bin/python`` from the repository)."""
    path = os.path.relpath(sys.executable)
    return sys.executable if path.startswith("..") else path


def _run(args, demo, keep_frames=True):
    """Load the script, run the firmware, write and list the outputs; exit status."""
    from tools.emulate import script as scripts
    from tools.emulate.demo import attract_seconds, make_gif
    from tools.emulate.keys import HELP_LINES, legend_lines
    from tools.emulate.main import Emulator
    from tools.emulate.nvm import default_path

    events = []
    if args.script:
        try:
            events = scripts.load(args.script)
        except (OSError, scripts.ScriptError) as err:
            print("tools.emulate: %s" % err, file=sys.stderr)
            return 2
    until = args.until
    if until is None and args.headless:
        if demo:
            until = DEMO_LIMIT_MS
        elif events:
            until = events[-1][0] + SCRIPT_TAIL_MS
        else:
            until = HEADLESS_DEFAULT_MS
    # Saved menu choices: only an interactive session uses them unless --nvm says.
    interactive = not (demo or events or args.headless)
    nvm = args.nvm if args.nvm is not None else (default_path() if interactive else None)
    if nvm == "none":
        nvm = None
    if events and args.nvm is None:
        print("menu: the firmware's defaults%s (a scripted run ignores saved choices;"
              " --nvm PATH uses a file)"
              % (", game %s" % games.NAMES[games.index_of(args.game)] if args.game else ""))

    cable = seat = None
    if args.link_end is not None:
        cable, seat = _cable(args)
    emu = Emulator(width=args.width, height=args.height, scale=args.scale,
                   virtual=args.headless, seed=args.seed, start=args.start_ticks,
                   nvm_path=nvm, fram_path=args.fram, log_path=args.log, game=args.game,
                   frames_dir=args.frames, until_ms=until, trace_path=args.trace,
                   hold_start_ms=BUTTON_TEST_HOLD_MS if args.button_test else None,
                   cable=cable, caption=None if cable is None else "California Speed - %s"
                   % ("A (host)", "B (guest)")[seat])
    emu.add_script(events)
    if cable is not None:
        from tools.emulate import link

        link.attach(emu, cable, seat, None if args.autoplay is None
                    else LEVEL_NAMES.index(args.autoplay), (args.seed or 0) + seat)
    if demo:
        seconds = attract_seconds()
        if seconds:
            print("demo: attract mode (CPU vs CPU) starts after %d s on the title" % seconds)
        elif seconds is None:
            print("demo: CSPEED_ATTRACT_S is not a number the firmware takes: it will say so")
        else:
            print("demo: CSPEED_ATTRACT_S=0 turns attract mode off: nothing will play")
        emu.every_loop.append(_stop_after_match)
    print(_port_lines(emu.port.path, args.headless, args.log), flush=True)
    if not args.headless:
        print("\n".join(HELP_LINES[2:]), flush=True)

    def terminate(signum, frame):  # SIGTERM ends the run as Esc does, at the next turn
        emu.terminated = True

    old_handler = signal.signal(signal.SIGTERM, terminate)
    try:
        emu.run()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, old_handler)
        if args.screenshot:
            try:
                emu.display.save(args.screenshot)
            except OSError as err:
                emu.output_failed("--screenshot", args.screenshot, err)
        if args.window_shot:
            try:
                emu.display.save_window(args.window_shot, legend_lines())
            except OSError as err:
                emu.output_failed("--window-shot", args.window_shot, err)
        emu.close()
    if emu.failure:
        return cli.fail("tools.emulate", emu.failure)
    status = 0
    if emu.stopped is not None:
        status = cli.fail("tools.emulate", "the firmware stopped on its error screen: %s"
                          % emu.stopped, 1)
    print("ran %.1f s of emulated time (ticks %d .. %d), %d loops"
          % (emu.elapsed() / 1000, emu.clock.start, emu.now, emu.loops))
    if args.frames and keep_frames:
        print("frames: %d PNGs in %s" % (len(emu.frames), args.frames))
    if args.gif and emu.frames:
        try:
            print("animated GIF: %s (%d frames)" % (make_gif(emu.frames, args.gif),
                                                    len(emu.frames)))
        except OSError as err:
            return cli.fail("tools.emulate", "cannot write --gif %s: %s" % (args.gif, cli.why(err)))
    elif args.gif:
        print("animated GIF: not written (nothing was drawn)")
    if args.screenshot:
        print("screenshot: %s" % args.screenshot)
    if args.window_shot:
        print("window: %s" % args.window_shot)
    if args.log:
        print("serial log: %s  (tools/replay %s)" % (args.log, args.log))
    return status


def _cable(args):
    """A --link child's end of the cable, from ``--link-end SEAT:FD:PPM``."""
    from tools.emulate.link import Cable

    try:
        seat, fd, ppm = args.link_end.split(":")
        seat, fd, ppm = int(seat), int(fd), float(ppm)
        if seat not in (0, 1):
            raise ValueError
        sock = socket.socket(fileno=fd)
    except (ValueError, OSError):
        raise UsageError("--link-end is set by --link (SEAT:FD:PPM), not %r"
                         % args.link_end[:40]) from None
    return Cable(sock, seat, ppm, virtual=args.headless), seat


def _run_link(args):
    """--link: check everything both emulators would, then run them on one cable."""
    from tools.emulate import link
    from tools.emulate import script as scripts

    last = 0
    for option, path in (("--script", args.script), ("--script-b", args.script_b)):
        if path:
            try:
                events = scripts.load(path)
            except (OSError, scripts.ScriptError) as err:
                raise UsageError(str(err)) from None
            if events:
                last = max(last, events[-1][0] + SCRIPT_TAIL_MS)
    if args.until is None and args.headless:
        args.until = DEMO_LIMIT_MS if args.autoplay else (last or HEADLESS_DEFAULT_MS)
    for seat in (0, 1):
        each = argparse.Namespace(**vars(args))
        for name in ("log", "trace", "gif", "screenshot", "window_shot", "nvm", "fram"):
            setattr(each, name, link.seat_path(getattr(args, name), seat))
        if args.frames:
            each.frames = os.path.join(args.frames, link.SEATS[seat])
        check_outputs(each)
    from hw.app.linked import _BAUD  # the firmware's own rate, not a copy of it

    print("link: host A and guest B on one cable (%d baud%s), each on its link screen"
          % (_BAUD, ", the guest's clock %+g ppm" % args.ppm if args.ppm else ""), flush=True)
    return link.run_pair(args)


def _port_lines(pty, headless, log):
    """Where the match log goes. Headless, time is virtual: the run is over before a
    person could open the pty, so only the file (if any) is named."""
    if headless:
        if log:
            return "usb_cdc.data (the match log) goes to %s" % log
        return "usb_cdc.data (the match log): not kept (headless: add --log FILE to keep it)"
    lines = ["usb_cdc.data (the match log) is %s" % pty,
             "  watch it:  %s -m serial.tools.miniterm %s" % (_interpreter(), pty)]
    if log:
        lines.append("  and it is written to %s (tools/replay %s)" % (log, log))
    else:
        lines.append("  replay it: save it to a file (or run with --log FILE), then tools/replay FILE")
    return "\n".join(lines)


def _stop_after_match(emu, now):
    """Demo: end 3 s after the (first demo) match is won."""
    from hw.app.modes import DONE

    if emu.app is not None and emu.app.mode == DONE and not getattr(emu, "_ending", False):
        emu._ending = True  # pylint: disable=protected-access
        emu.until_ms = emu.elapsed() + 3000


if __name__ == "__main__":
    sys.exit(main())
