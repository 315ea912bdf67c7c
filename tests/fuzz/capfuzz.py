"""The serial-stream half of the campaign: damaged streams and the capture contract.

:func:`make_stream` strings whole matches together the way a board sends them, then
damages some: garbage inside a match, a line cut (its tail and newline lost, so the
next line is glued on), a match cut mid-line by the next header, a flood (tens of
KB, with or without newlines), bytes that are not UTF-8, CRLF and lone CRs, lines
before the first header (connected mid-match), and a disconnect mid-line at the end.
:func:`chunked` splits it into reads with pauses mid-line.

:func:`check_capture` holds the result to the contract:

* the files are exactly the stream cut before each header (a header glued to the
  end of a line included), the part before the first header skipped;
* every match sent intact is one of the files, on its own;
* every file's summary agrees with ``tools.replay`` of that file: the same
  ``line N: reason`` when the replay stops, ``cut short`` when the file does not end
  with a newline (a header or the end came first), no damage otherwise; its
  ``.trace`` is the replay's stdout.
"""

import io
import sys

from engine.log import HEADER
from tools.replay import read_lines, replay

_HEADER = HEADER.encode()


def _cut_line(rnd, log):
    """Lose the tail of one line and its newline (the next line is glued on)."""
    ends = [i for i, b in enumerate(log) if b == 10][1:-1]
    if not ends:
        return log
    end = rnd.choice(ends)
    start = log.rfind(b"\n", 0, end) + 1
    k = rnd.randrange(start, end + 1)
    return log[:k] + log[end + 1:]


def _garbage(rnd, log):
    k = rnd.randrange(len(_HEADER) + 1, len(log) + 1)
    junk = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 40)))
    return log[:k] + junk + log[k:]


def _header_mid_line(rnd, log):
    """The match stops mid-line: the next header comes glued to the cut."""
    k = rnd.randrange(len(_HEADER) + 2, len(log))
    while log[k - 1] == 10 and k < len(log) - 1:
        k += 1
    return log[:k]


def _flood(rnd, log):
    k = rnd.randrange(len(_HEADER) + 1, len(log) + 1)
    size = rnd.choice((300, 5000, 40000))
    unit = rnd.choice((b"x", b"press 1 A 1", b"\xff\xfe", b"0123456789\n"))
    return log[:k] + (unit * (size // len(unit) + 1))[:size] + log[k:]


def _bad_bytes(rnd, log):
    k = rnd.randrange(len(_HEADER) + 1, len(log) + 1)
    return log[:k] + rnd.choice((b"\xe9", b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80")) + log[k:]


def _crlf(rnd, log):
    if rnd.random() < 0.5:
        return log.replace(b"\n", b"\r\n")
    k = rnd.randrange(len(_HEADER) + 1, len(log) + 1)
    return log[:k] + b"\r" + log[k:]


DAMAGE = {
    "garbage": _garbage,
    "cut line": _cut_line,
    "header mid-line": _header_mid_line,
    "flood": _flood,
    "invalid bytes": _bad_bytes,
    "CR/CRLF": _crlf,
}


def make_stream(rnd, logs, damage=None):
    """Return ``(stream, intact matches, damage kinds used)``."""
    parts, intact, used = [], [], []
    if rnd.random() < 0.3:  # connected mid-match: a tail without its header
        log = rnd.choice(logs)
        parts.append(log[rnd.randrange(len(log)):])
        used.append("mid-match start")
    for _ in range(rnd.randint(1, 4)):
        log = rnd.choice(logs)
        if damage:
            kind = damage if rnd.random() < 0.6 else "none"
        else:
            kind = rnd.choice(sorted(DAMAGE) + ["none"] * 3)
        if kind == "none":
            intact.append(log)
        else:
            log = DAMAGE[kind](rnd, log)
            used.append(kind)
        parts.append(log)
    if rnd.random() < 0.3:  # unplugged mid-line
        last = parts[-1]
        # past its header line: a header cut short is no header, its bytes would end
        # the match before it, which then is not intact
        parts[-1] = last[:rnd.randrange(len(_HEADER) + 1, len(last))]
        if intact and intact[-1] is last:
            intact.pop()
        used.append("disconnect mid-line")
    return b"".join(parts), intact, used


def chunked(rnd, stream, pauses=0.15):
    """Split ``stream`` into writes: ``bytes`` chunks and pauses (floats, seconds)."""
    out, i = [], 0
    while i < len(stream):
        n = rnd.choice((1, 3, 17, 200, 4096, 70000))
        out.append(stream[i:i + n])
        i += n
        if rnd.random() < pauses:
            out.append(rnd.choice((0.02, 0.05)))
    return out


def reference_files(stream):
    """The stream cut before each header (glued ones too); the part before the first dropped."""
    cuts, pos = [], 0
    while True:
        end = stream.find(b"\n", pos)
        if end < 0:
            break
        body = stream[pos:end].rstrip(b"\r")
        if body.endswith(_HEADER):
            cuts.append(pos + len(body) - len(_HEADER))
        pos = end + 1
    return [stream[a:b] for a, b in zip(cuts, cuts[1:] + [len(stream)])]


def replayed(data):
    """(status, stdout, stderr) of ``tools.replay`` on bytes, in-process."""
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stderr = sys.stderr, err
    try:
        status = replay(read_lines(io.BytesIO(data)), out)
    finally:
        sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


def check_capture(out_dir, stream, intact, said):
    """Hold one capture to the contract; return the number of damaged files reported."""
    files = sorted(out_dir.glob("match-*.log"))
    got = [f.read_bytes() for f in files]
    want = reference_files(stream)
    assert got == want, "files are not the stream cut at each header (%d vs %d files)" % (
        len(got), len(want))
    for match in intact:
        assert match in got, "an intact match has no file of its own"
    summaries = [line for line in said if line.startswith("match-")]
    assert len(summaries) == len(files), summaries
    damaged = 0
    for path, data, summary in zip(files, got, summaries):
        assert summary.startswith(path.name + ": ")
        status, trace, err = replayed(data)
        if status == 2:
            assert "DAMAGED at %s (" % err.strip() in summary, (summary, err)
            damaged += 1
        elif not data.endswith(b"\n"):
            lines = data.count(b"\n") + 1
            assert "DAMAGED at line %d: cut short" % lines in summary, summary
            damaged += 1
        else:
            assert status == 0 and "DAMAGED" not in summary, (summary, err)
        trace_path = path.with_suffix(".trace")
        assert trace_path.read_text() == trace, "%s: .trace is not the replay's" % path.name
    return damaged
