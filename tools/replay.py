"""Replay a match log (LOG.md) and print the engine's trace as JSON lines.

Any game of the family the engine plays (``rules game=grid``, the default;
``game=row``, RULES-ROW.md; ``game=speed``, RULES-SPEED.md). Usage:
``tools/replay LOG`` (or ``.venv/bin/python -m tools.replay LOG``; ``-`` reads standard
input). A bad line prints the trace of everything before it, then ``line N: reason``
on standard error, and exits with status 2.

Implementation Notes
--------------------

The log is read as bytes, a line at a time and at most ``LINE_MAX + 1`` bytes at a
time: lines end at ``\\n`` only (as ``tools.capture`` splits them), a byte that is not
UTF-8 is reported on its own line with the trace of the lines before it, and a huge
line is refused after reading ``LINE_MAX + 1`` bytes of it (memory stays bounded).
"""

import argparse
import sys

from engine.grid import GridGame
from engine.log import LINE_MAX, LogError, play_lines
from engine.trace import Tracer


def read_lines(stream):
    """Yield the raw lines of a binary stream; a line too long is cut at ``LINE_MAX + 1``.

    The cut piece fails ``LogReader``'s length check, and the replay stops there, so
    the rest of a huge line is never read.
    """
    while True:
        raw = stream.readline(LINE_MAX + 1)
        if not raw:
            return
        yield raw


def replay(lines, out):
    """Play ``lines`` and write the trace to ``out``; return the exit status."""
    game = GridGame()
    tracer = Tracer(game, lambda text: out.write(text + "\n"))
    try:
        play_lines(game, lines, tracer.follow)
    except LogError as err:
        out.flush()
        sys.stderr.write("%s\n" % err)
        return 2
    return 0


def main(argv=None):
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="tools.replay", description=__doc__.split("\n")[0])
    parser.add_argument("log", help="match log file, or - for standard input")
    args = parser.parse_args(argv)
    try:
        if args.log == "-":
            status = replay(read_lines(sys.stdin.buffer), sys.stdout)
        else:
            with open(args.log, "rb") as stream:
                status = replay(read_lines(stream), sys.stdout)
    except OSError as err:
        sys.stderr.write("tools.replay: %s\n" % err)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
