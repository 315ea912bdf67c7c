"""Replay a match log (LOG.md) and print the engine's trace as JSON lines.

Any game of the family the engine plays (``rules game=grid``, the default;
``game=row``, RULES-ROW.md; ``game=speed``, RULES-SPEED.md). Usage:
``tools/replay LOG`` (or ``.venv/bin/python -m tools.replay LOG``; ``-`` reads standard
input). A bad line prints the trace of everything before it, then ``line N: reason``
on standard error, and exits with status 2. A log that cannot be read (standard input
closed, a folder) or a trace that cannot be written (a full disk): one line, status 1.

Implementation Notes
--------------------

The log is read as bytes, a line at a time and at most ``LINE_MAX + 1`` bytes at a
time: lines end at ``\\n`` only (as ``tools.capture`` splits them), a byte that is not
UTF-8 is reported on its own line with the trace of the lines before it, and a huge
line is refused after reading ``LINE_MAX + 1`` bytes of it (memory stays bounded).
"""

import os
import sys

from engine.grid import GridGame
from engine.log import LINE_MAX, LogError, play_lines
from engine.trace import Tracer
from tools import cli


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
    parser = cli.Parser("tools.replay", description=__doc__.split("\n")[0])
    parser.add_argument("log", help="match log file, or - for standard input")
    args = parser.parse_args(argv)
    try:
        if args.log == "-":
            if sys.stdin is None:  # started with standard input closed (<&-)
                return cli.fail("tools.replay", "standard input is closed", 1)
            status = replay(read_lines(sys.stdin.buffer), _Out(sys.stdout))
        else:
            with open(args.log, "rb") as stream:
                status = replay(read_lines(stream), _Out(sys.stdout))
        sys.stdout.flush()
    except _WriteError as err:
        _drop_stdout()
        return cli.fail("tools.replay", "cannot write the trace: %s" % cli.why(err.error), 1)
    except OSError as err:
        return cli.fail("tools.replay", "cannot read %s: %s" % (args.log, cli.why(err)), 1)
    return status


class _WriteError(Exception):
    """Writing the trace failed (a full disk, a closed pipe): ``error`` is the OSError."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


class _Out:
    """``out`` whose write errors are told apart from the log's read errors."""

    def __init__(self, out):
        self.out = out

    def write(self, text):
        try:
            self.out.write(text)
        except OSError as err:
            raise _WriteError(err) from None

    def flush(self):
        try:
            self.out.flush()
        except OSError as err:
            raise _WriteError(err) from None


def _drop_stdout():
    """Point standard output at /dev/null: the exit must not try the failed write again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
