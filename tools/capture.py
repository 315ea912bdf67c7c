"""Capture match logs from the handheld's USB data port (or the emulator's terminal).

Usage::

    python3 -m tools.capture PORT [--out DIR] [--matches N] [--seconds S] [--trace]

``PORT`` is the board's *second* serial port (``/dev/ttyACM1`` on Linux, ``COM4``
on Windows, ``/dev/cu.usbmodem…3`` on macOS) or the ``/dev/pts/N`` the emulator
prints. The device streams match after match, each starting with ``CSLOG 1``; this
tool splits the stream there into ``DIR/match-NNN.log`` files that
``python3 -m tools.replay`` reads, checks every line as it arrives, and prints one
summary line per match. A damaged line (a USB buffer overrun, a cable pulled) is
kept exactly as received and reported with its line number: the replay of that
file stops there, it never silently plays a different game.
"""

import argparse
import sys
import time
from pathlib import Path

from engine.game import Game, OUTCOME_NAMES
from engine.log import HEADER, LogError, LogReader
from engine.trace import Tracer


class MatchFile:
    """One match being written to disk and checked line by line."""

    def __init__(self, path, trace=False):
        self.path = path
        self.file = open(path, "w", encoding="utf-8")
        self.game = Game()
        self.trace_file = None
        if trace:
            self.trace_file = open(path.with_suffix(".trace"), "w", encoding="utf-8")
            Tracer(self.game, lambda text: self.trace_file.write(text + "\n"))
        self.reader = LogReader(self.game)
        self.lines = 0
        self.presses = 0
        self.error = None  # the first bad line: "line N: reason"

    def add(self, text):
        """Write one line; check it while the match is still clean."""
        self.file.write(text + "\n")
        self.file.flush()
        self.lines += 1
        if text.startswith("press "):
            self.presses += 1
        if self.error is None:
            try:
                self.reader.feed(text)
            except LogError as err:
                self.error = str(err)

    def close(self):
        """Finish the file; return its one-line summary."""
        if self.error is None:
            try:
                self.reader.end()
            except LogError as err:
                self.error = str(err)
        self.file.close()
        if self.trace_file:
            self.trace_file.close()
        g = self.game
        if g.match_over:
            state = "%s won %d-%d" % (OUTCOME_NAMES[g.match_winner], g.score[0], g.score[1])
        else:
            state = "unfinished at %d-%d" % (g.score[0], g.score[1])
        summary = "%s: %s, %d games, %d presses" % (self.path.name, state, g.games, self.presses)
        if self.error:
            summary += " -- DAMAGED at %s (the replay stops there)" % self.error
        return summary


class Splitter:
    """Turns a stream of log lines into one checked file per match."""

    def __init__(self, out_dir, trace=False, say=print):
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.trace = trace
        self.say = say
        self.current = None
        self.finished = 0
        self.orphans = 0  # lines before the first header: connected mid-match
        self.number = 1 + max((int(p.stem[6:]) for p in self.out.glob("match-*.log")
                               if p.stem[6:].isdigit()), default=0)

    def feed(self, raw):
        """Take one raw line (bytes, with or without its newline)."""
        try:
            text = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            text = raw.decode("utf-8", "backslashreplace").rstrip("\r\n")
        if text == HEADER:
            self.close_match()
            path = self.out / ("match-%03d.log" % self.number)
            self.number += 1
            self.current = MatchFile(path, self.trace)
            self.say("%s: recording" % path)
        if self.current is None:
            self.orphans += 1
            return
        self.current.add(text)

    def close_match(self):
        """Close the match being written, if any, and report it."""
        if self.current is not None:
            self.say(self.current.close())
            self.current = None
            self.finished += 1

    def close(self):
        """End of capture."""
        self.close_match()
        if self.orphans:
            self.say("skipped %d line(s) before the first %r header (connected mid-match)"
                     % (self.orphans, HEADER))


def capture(port, splitter, matches=0, seconds=0.0):
    """Read lines from an open serial port into ``splitter`` until a limit is met."""
    deadline = time.monotonic() + seconds if seconds else None
    while True:
        if deadline is not None and time.monotonic() >= deadline:
            return
        if matches and splitter.finished >= matches:
            return
        line = port.readline()
        if line:
            splitter.feed(line)
            g = splitter.current and splitter.current.game
            if matches and g is not None and g.match_over and splitter.finished + 1 >= matches:
                splitter.close_match()


def main(argv=None):
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="tools.capture", description=__doc__.split("\n")[0])
    parser.add_argument("port", help="serial port of the device's data channel, or the emulator's /dev/pts/N")
    parser.add_argument("--out", default="matches", help="folder for match-NNN.log files (default: matches)")
    parser.add_argument("--matches", type=int, default=0, help="stop after this many finished matches")
    parser.add_argument("--seconds", type=float, default=0.0, help="stop after this many seconds")
    parser.add_argument("--trace", action="store_true", help="also write each match's trace (.trace)")
    args = parser.parse_args(argv)
    import serial  # pyserial: only the command needs it

    try:
        port = serial.serial_for_url(args.port, baudrate=115200, timeout=0.2)
    except (serial.SerialException, ValueError) as err:
        sys.stderr.write("tools.capture: cannot open %s: %s\n" % (args.port, err))
        return 1
    splitter = Splitter(args.out, args.trace)
    print("capturing from %s into %s/ (Ctrl-C to stop)" % (args.port, args.out), flush=True)
    try:
        capture(port, splitter, args.matches, args.seconds)
    except KeyboardInterrupt:
        pass
    except serial.SerialException as err:
        sys.stderr.write("tools.capture: %s\n" % err)
    finally:
        splitter.close()
        port.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
