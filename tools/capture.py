"""Capture match logs from the handheld's USB data port (or the emulator's terminal).

Usage::

    .venv/bin/python -m tools.capture PORT [--out DIR] [--matches N] [--seconds S] [--trace]

``PORT`` is the board's *second* serial port (``/dev/ttyACM1`` on Linux, ``COM4``
on Windows, ``/dev/cu.usbmodem…3`` on macOS) or the ``/dev/pts/N`` the emulator
prints. The device streams match after match, each starting with ``CSLOG 1``; this
tool splits the stream there into ``DIR/match-NNN.log`` files that
``tools/replay`` reads, checks every line as it arrives, and prints one
summary line per match. A damaged line (a USB buffer overrun, a cable pulled) is
kept exactly as received and reported with its line number: the replay of that
file stops there, it never silently plays a different game.

Implementation Notes
--------------------

* Each file holds exactly the bytes received for its match (CRLF, a lone CR, bytes
  that are not UTF-8 included): lines end at ``\\n`` only, as ``tools.replay`` reads
  them, so both report the same line. A pause mid-line is no line break: bytes wait
  for their newline, however long it takes.
* A header glued to the end of a cut line (``press 15CSLOG 1``: the newline and the
  tail were lost) ends the old match there (the cut piece is its last line, reported
  as damaged) and starts a new one: every intact match gets its own file.
* A line longer than ``engine.log.LINE_MAX`` bytes is written through as it comes
  and reported; at most ``LINE_MAX`` + a few bytes of it are held in memory.
* A damaged match's ``.trace`` is what ``tools.replay`` prints for the file: the
  last tick before the bad line is judged (``LogReader.stop``).
* A match's summary line is printed as soon as the log decides the match (the
  ``clock`` after its last press), not when the next header arrives: the file stays
  open for any lines that follow, and is reported again only if one of them is
  damaged.
* Errors are one plain line: a port that cannot be opened is named with the likely
  cause (missing, busy, no permission, not a serial port), not pyserial's message.
* Exit status: 0 when stopped (``--matches``, ``--seconds``, Ctrl-C, SIGTERM: files
  closed, ``.trace`` flushed), 1 when the port closes or cannot be opened, 2 when
  the output folder cannot be written (a file in its place, no permission, full).
"""

import errno
import os
import signal
import sys
import time
from pathlib import Path

from engine.family import OUTCOME_NAMES
from engine.grid import GridGame
from engine.log import HEADER, LINE_MAX, LogError, LogReader, is_digits
from engine.trace import Tracer
from tools import cli

_HEADER = HEADER.encode()
MATCHES_MAX = 1000000  # --matches
_KEEP = 16  # bytes of an overlong line held back: enough to see a header glued to its end


def _count(n, one, many=None):
    """``1 game``, ``2 games``."""
    return "%d %s" % (n, one if n == 1 else (many or one + "s"))


class MatchFile:
    """One match being written to disk and checked line by line."""

    def __init__(self, path, trace=False):
        self.path = path
        self.file = self.trace_file = None
        self.file = open(path, "wb")
        game = GridGame()
        follow = None
        if trace:
            self.trace_file = open(path.with_suffix(".trace"), "w", encoding="utf-8")
            follow = Tracer(game, lambda text: self.trace_file.write(text + "\n")).follow
        self.reader = LogReader(game, follow)  # the log may pick another game (rules game=)
        self.lines = 0  # whole lines and pieces begun
        self.presses = 0
        self.error = None  # the first bad line: "line N: reason"
        self.long_line = False  # in the middle of an overlong line, already reported
        self.said = None  # the summary already printed (when the match was decided)

    @property
    def game(self):
        """The game the log plays (the reader switches it on ``rules game=row|speed``)."""
        return self.reader.game

    def add(self, raw, ends=True):
        """Write raw bytes of one line (``ends``: its newline is in ``raw`` or was cut).

        Check them while the match is still clean.
        """
        self.file.write(raw)
        self.file.flush()
        if self.long_line:  # the rest of a line already reported as too long
            self.long_line = not ends
            return
        self.lines += 1
        if raw.startswith(b"press "):
            self.presses += 1
        if self.error is None:
            try:
                self.reader.feed(raw)
            except LogError as err:
                self._damaged(str(err))
        self.long_line = not ends

    def cut(self, why):
        """The line just added never got its newline (``why`` says what came instead)."""
        if self.error is None:
            self._damaged("line %d: cut short (%s)" % (self.reader.lineno, why))

    def _damaged(self, error):
        self.error = error
        self.reader.stop()  # the trace ends as the replay of this file ends

    def summary(self):
        """One line: who won (or the score so far), games, presses, the first damage."""
        g = self.game
        if g.match_over:
            state = "%s won %d-%d" % (OUTCOME_NAMES[g.match_winner], g.score[0], g.score[1])
        else:
            state = "unfinished at %d-%d" % (g.score[0], g.score[1])
        summary = "%s: %s, %s, %s" % (self.path.name, state, _count(g.games, "game"),
                                      _count(self.presses, "press", "presses"))
        if self.error:
            summary += " -- DAMAGED at %s (the replay stops there)" % self.error
        return summary

    def close(self):
        """Finish the file; return its one-line summary."""
        if self.error is None:
            try:
                self.reader.end()
            except LogError as err:
                self.error = str(err)
        self.shut()
        return self.summary()

    def shut(self):
        """Close both files; the first write error is raised after both are closed."""
        failed = None
        for f in (self.file, self.trace_file):
            if f is not None:
                try:
                    f.close()
                except OSError as err:
                    failed = failed or err
        self.file = self.trace_file = None
        if failed is not None:
            raise failed


class Splitter:
    """Turns the raw byte stream into one checked file per match."""

    def __init__(self, out_dir, trace=False, say=print):
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.trace = trace
        self.say = say
        self.current = None
        self.finished = 0
        self.orphans = 0  # lines before the first header: connected mid-match
        self.pending = bytearray()  # the line being received
        self.piece = False  # part of the pending line was already passed on (overlong)
        self.number = 1 + max((int(p.stem[6:]) for p in self.out.glob("match-*.log")
                               if is_digits(p.stem[6:])), default=0)

    def feed(self, data):
        """Take any chunk of the stream (bytes): whole lines, pieces, several lines."""
        pending = self.pending
        pending += data
        start = 0
        while True:
            end = pending.find(b"\n", start)
            if end < 0:
                break
            self._line(bytes(pending[start:end + 1]))
            start = end + 1
        del pending[:start]
        if len(pending) > LINE_MAX + _KEEP:  # no newline in sight: pass it on, keep a tail
            self._piece(bytes(pending[:-_KEEP]))
            del pending[:-_KEEP]

    def _piece(self, raw):
        if self.current is not None:
            self.current.add(raw, ends=False)
        elif not self.piece:
            self.orphans += 1
        self.piece = True

    def _line(self, raw):
        body = raw[:-1].rstrip(b"\r")
        glued = len(body) - len(_HEADER)
        if body.endswith(_HEADER) and (glued > 0 or self.piece):
            if glued > 0:
                self._piece(raw[:glued])
            if self.current is not None:
                self.current.cut("the next %r header came before its newline" % HEADER)
            raw = raw[glued:]
            body = _HEADER
            self.piece = False
        if body == _HEADER and not self.piece:
            self.close_match()
            path = self.out / ("match-%03d.log" % self.number)
            self.number += 1
            self.current = MatchFile(path, self.trace)
            self.say("%s: recording" % path)
        current = self.current
        if current is None:
            if not self.piece:
                self.orphans += 1
        else:
            current.add(raw)
            if current.said is None and current.game.match_over:  # decided: say so now
                current.said = current.summary()
                self.say(current.said)
        self.piece = False

    def close_match(self):
        """Close the match being written, if any, and report it."""
        if self.current is not None:
            current, self.current = self.current, None
            self.finished += 1
            summary = current.close()
            if summary != current.said:  # not said yet, or damaged since
                self.say(summary)

    def close(self, why="the capture ended"):
        """End of capture: a line still waiting for its newline is written as it is."""
        if self.pending:
            self._piece(bytes(self.pending))
            self.pending.clear()
            if self.current is not None:
                self.current.cut(why)
        self.piece = False
        self.close_match()
        if self.orphans:
            self.say("skipped %d line(s) before the first %r header (connected mid-match)"
                     % (self.orphans, HEADER))

    def abort(self):
        """After a write error: close the files, report nothing more."""
        if self.current is not None:
            try:
                self.current.shut()
            except OSError:
                pass
            self.current = None


def capture(port, splitter, matches=0, seconds=0.0, stopped=lambda: False):
    """Read from an open serial port into ``splitter`` until a limit is met or ``stopped()``."""
    deadline = time.monotonic() + seconds if seconds else None
    while not stopped():
        if deadline is not None and time.monotonic() >= deadline:
            return
        if matches and splitter.finished >= matches:
            return
        try:
            waiting = port.in_waiting
        except OSError as err:  # an unplug: pyserial's read() says SerialException, this does not
            import serial

            raise serial.SerialException("port closed: %s" % err) from err
        data = port.read(max(1, min(waiting, 65536)))  # waits up to the timeout
        if data:
            splitter.feed(data)
            g = splitter.current and splitter.current.game
            if matches and g is not None and g.match_over and splitter.finished + 1 >= matches:
                splitter.close_match()


def _writable(out):
    """Return why ``out`` cannot hold match files, or None (folders made here are removed)."""
    missing = [p for p in [out, *out.parents] if not os.path.exists(p)]
    try:
        cli.output_folder("--out", out)
    except cli.OutputError as err:
        return str(err)
    finally:
        for folder in missing:  # leaf first; the splitter makes them again once the port is open
            try:
                folder.rmdir()
            except OSError:
                pass
    return None


_OPEN_ERRORS = {
    errno.ENOENT: "no such port (is the board plugged in? its match log is on the"
                  " second serial port, e.g. /dev/ttyACM1 or COM4)",
    errno.EACCES: "permission denied (on Linux, join the dialout group, then log in again)",
    errno.EBUSY: "the port is busy (another program has it open)",
}


def _why_not(err):
    """A plain reason for a port that did not open (pyserial's text is for developers)."""
    code = getattr(err, "errno", None)
    if code in _OPEN_ERRORS:
        return _OPEN_ERRORS[code]
    text = str(err)
    if "No such file" in text or "FileNotFoundError" in text:
        return _OPEN_ERRORS[errno.ENOENT]
    if "Access is denied" in text or "PermissionError" in text:
        return _OPEN_ERRORS[errno.EACCES]
    if "configure port" in text or isinstance(err, ValueError):
        return "not a serial port"
    return (os.strerror(code) if isinstance(code, int) else text.split(":")[0])[:80]


def main(argv=None):
    """Command-line entry point."""
    parser = cli.Parser("tools.capture", description=__doc__.split("\n")[0])
    parser.add_argument("port", help="serial port of the device's data channel, or the emulator's /dev/pts/N")
    parser.add_argument("--out", default="matches", help="folder for match-NNN.log files (default: matches)")
    parser.add_argument("--matches", type=cli.whole(0, MATCHES_MAX), default=0,
                        help="stop after this many finished matches (0: no limit)")
    parser.add_argument("--seconds", type=cli.seconds(), default=0.0,
                        help="stop after this many seconds (0: no limit)")
    parser.add_argument("--trace", action="store_true", help="also write each match's trace (.trace)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    why = _writable(out)
    if why:
        return cli.fail("tools.capture", why)
    import serial  # pyserial: only the command needs it

    try:
        port = serial.serial_for_url(args.port, baudrate=115200, timeout=0.2)
    except (serial.SerialException, ValueError) as err:
        sys.stderr.write("tools.capture: cannot open %s: %s\n" % (args.port, _why_not(err)))
        return 1
    splitter = Splitter(out, args.trace)
    print("capturing from %s into %s/ (Ctrl-C to stop)" % (args.port, out), flush=True)
    status, why = 0, "the capture ended"
    # SIGTERM stops like Ctrl-C (files closed, the .trace tail written), but only
    # between two reads: a flag, so no line is ever half handled.
    term = []
    try:
        old = signal.signal(signal.SIGTERM, lambda signum, frame: term.append(signum))
    except ValueError:  # not the main thread (a test): no handler
        old = None
    try:
        try:
            capture(port, splitter, args.matches, args.seconds, stopped=lambda: bool(term))
        except KeyboardInterrupt:
            pass
        except serial.SerialException:
            status, why = 1, "port closed"
            sys.stderr.write("tools.capture: port closed: the board was unplugged or reset\n")
        splitter.close(why)
    except OSError as err:  # a full disk, a folder removed under us
        splitter.abort()
        name = getattr(err, "filename", None) or out
        sys.stderr.write("tools.capture: cannot write %s: %s\n" % (name, err.strerror or err))
        status = 2
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
        port.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
