"""Replay a match log (LOG.md) and print the engine's trace as JSON lines.

Any game of the family the engine plays (``rules game=grid``, the default;
``game=row``, RULES-ROW.md; ``game=speed``, RULES-SPEED.md). Usage:
``python3 -m tools.replay LOG`` (``-`` reads standard input). A bad line prints the trace of everything before it, then ``line N: reason`` on standard error,
and exits with status 2.
"""

import argparse
import io
import sys

from engine.game import Game
from engine.log import LogError, play_lines
from engine.trace import Tracer


def replay(lines, out):
    """Play ``lines`` and write the trace to ``out``; return the exit status."""
    game = Game()
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
            stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
            status = replay(stream, sys.stdout)
        else:
            with open(args.log, encoding="utf-8") as stream:
                status = replay(stream, sys.stdout)
    except OSError as err:
        sys.stderr.write("tools.replay: %s\n" % err)
        return 1
    except UnicodeDecodeError as err:
        sys.stderr.write("tools.replay: not UTF-8 text: %s\n" % err)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
