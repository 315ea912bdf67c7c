"""The bad-input campaign of issue 9, kept: mutated match logs and the replay contract.

:func:`corpus` is the golden logs plus whole matches generated here (seeded, random
but mostly legal presses, several games, clocks, across the tick wrap).
:data:`MUTATORS` damage a log one way each (byte flips, truncation, duplicated,
reordered and dropped lines, huge and negative numbers, non-ASCII, invalid UTF-8,
NUL, CR/CRLF, long lines). :func:`check_replay` holds one case to the contract:

* exit 0, nothing on stderr, and the trace of the whole log (the same as the
  ``str`` reader gives for the decoded text), or
* exit 2, one line ``line N: reason`` (short) on stderr, and exactly the trace of
  the log cut before line N (replayed on its own);
* never an exception, never more than :data:`CASE_SECONDS`, memory bounded by the
  line cap (:data:`engine.log.LINE_MAX`), not by the input.

Everything is reproducible from ``(seed, case number)``: a failure names both.
"""

import io
import random
import sys
import time

from engine.family import ERROR_NAMES, E_BUSY, E_MATCH_OVER, OVER, PLAY
from engine.grid import GridGame
from engine.log import LINE_MAX
from engine.rng import SEED_LIMIT
from engine.grid_rules import GridRules
from engine.ticks import TICKS_PERIOD
from engine.trace import replay_text
from tools.replay import read_lines, replay

CASE_SECONDS = 5.0
REASON_MAX = 120  # an error line never echoes a huge field


# ------------------------------------------------------------------ corpus

RULE_LINES = ("", "rules tie=coin", "rules penalty=0 rutter=1", "rules deadlock=1 wins=1",
              "rules deadlock=2 deadlock_result=fewer stuck=0 deal=0", "rules wins=3 penalty=900")


def generate(rnd):
    """A whole device-like match log (text): mostly coverable presses, several games."""
    game = GridGame()
    lines = ["CSLOG 1"]
    rules_line = rnd.choice(RULE_LINES)
    if rules_line:
        lines.append(rules_line)
        rules = GridRules()
        for arg in rules_line.split()[1:]:
            key, value = arg.split("=")
            rules.set(key, value)
        game.set_rules(rules)
    t = rnd.randrange(TICKS_PERIOD - 30000, TICKS_PERIOD) if rnd.random() < 0.5 else rnd.randrange(10**6)
    for _ in range(rnd.randint(1, 3)):
        if game.match_over:
            break
        seed = rnd.randrange(SEED_LIMIT)
        game.shuffle(seed)
        if game.start(t):
            break
        lines += ["seed %d" % seed, "start %d" % t]
        for _ in range(rnd.randint(5, 160)):
            t = (t + rnd.choice((0, 0, 1, 7, 40, 120, 350, 900))) % TICKS_PERIOD
            if rnd.random() < 0.1:
                game.advance(t)
                lines.append("clock %d" % t)
                continue
            player = rnd.randrange(2)
            cov = game.coverable if game.phase == PLAY else 0
            if cov and rnd.random() < 0.8:
                pos = rnd.choice([p for p in range(8) if cov >> p & 1])
            else:
                pos = rnd.randrange(8)
            if game.press(player, pos, t):
                break
            lines.append("press %d %s %d" % (t, "AB"[player], pos))
            if game.phase == OVER:
                break
        t = (t + 4000) % TICKS_PERIOD
        game.advance(t)
        lines.append("clock %d" % t)
        if game.phase != OVER:
            break
    if rnd.random() < 0.3:
        lines.insert(rnd.randrange(1, len(lines)), "# a comment")
    return ("\n".join(lines) + "\n").encode()


def corpus(rnd, golden_dir, generated=24):
    """The golden logs and ``generated`` logs of :func:`generate` (bytes)."""
    logs = [p.read_bytes() for p in sorted(golden_dir.glob("*.log"))]
    return logs + [generate(rnd) for _ in range(generated)]


# ---------------------------------------------------------------- mutators

def _lines(data):
    return data.split(b"\n")


def _join(lines):
    return b"\n".join(lines)


def _pick(rnd, lines):
    return rnd.randrange(len(lines))


def flip_bytes(rnd, data):
    buf = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        if buf:
            buf[rnd.randrange(len(buf))] = rnd.randrange(256)
    return bytes(buf)


def truncate(rnd, data):
    return data[:rnd.randrange(len(data) + 1)]


def duplicate_line(rnd, data):
    lines = _lines(data)
    i = _pick(rnd, lines)
    return _join(lines[:i + 1] + [lines[i]] * rnd.randint(1, 3) + lines[i + 1:])


def reorder_lines(rnd, data):
    lines = _lines(data)
    i, j = _pick(rnd, lines), _pick(rnd, lines)
    lines[i], lines[j] = lines[j], lines[i]
    return _join(lines)


def drop_line(rnd, data):
    lines = _lines(data)
    del lines[_pick(rnd, lines)]
    return _join(lines)


def _replace_number(rnd, data, make):
    lines = _lines(data)
    for _ in range(8):
        i = _pick(rnd, lines)
        fields = lines[i].split(b" ")
        spots = [k for k, f in enumerate(fields) if f.isdigit() or b"=" in f]
        if spots:
            k = rnd.choice(spots)
            value = make(rnd)
            if b"=" in fields[k]:
                fields[k] = fields[k].split(b"=")[0] + b"=" + value
            else:
                fields[k] = value
            lines[i] = b" ".join(fields)
            break
    return _join(lines)


def huge_number(rnd, data):
    return _replace_number(rnd, data, lambda r: r.choice((
        b"536870912", b"1073741824", b"268435456", b"9" * r.randint(10, 40),
        b"0" * r.randint(2, 30) + b"7", str(2**64).encode(), b"9" * r.randint(200, 300))))


def negative_number(rnd, data):
    return _replace_number(rnd, data, lambda r: r.choice((b"-1", b"-0", b"-536870912", b"+5",
                                                          b"1e3", b"0x10", b"1_000", b" 5")))


NON_ASCII = ("\u0664\u0660\u0660", "\u0663", "\uff15", "\u00b2", "\u3000", "\u00a0", "\u00e9",
             "\U0001f0a1", "\u2028", "\u0085", "\ufeff")


def non_ascii(rnd, data):
    lines = _lines(data)
    i = _pick(rnd, lines)
    text = rnd.choice(NON_ASCII).encode()
    if rnd.random() < 0.3:
        lines.insert(i, text)  # a line of it alone (U+3000 is not blank)
    else:
        line = lines[i]
        k = rnd.randrange(len(line) + 1)
        lines[i] = line[:k] + text + line[k + rnd.randrange(2):]
    return _join(lines)


BAD_UTF8 = (b"\xff", b"\xfe", b"\xc3", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
            b"\xe2\x82", b"\x80", b"\xf5\x80\x80\x80")


def invalid_utf8(rnd, data):
    lines = _lines(data)
    i = _pick(rnd, lines)
    line = lines[i]
    k = rnd.randrange(len(line) + 1)
    bad = rnd.choice(BAD_UTF8)
    if rnd.random() < 0.3:
        line = b"# " + line  # inside a comment: still not UTF-8 text
        k += 2
    lines[i] = line[:k] + bad + line[k:]
    return _join(lines)


def nul(rnd, data):
    lines = _lines(data)
    i = _pick(rnd, lines)
    k = rnd.randrange(len(lines[i]) + 1)
    lines[i] = lines[i][:k] + b"\x00" * rnd.randint(1, 3) + lines[i][k:]
    return _join(lines)


def cr_crlf(rnd, data):
    choice = rnd.randrange(4)
    if choice == 0:
        return data.replace(b"\n", b"\r\n")  # CRLF all through: replays as LF
    if choice == 1:
        return data.replace(b"\n", b"\r")  # old Mac line ends: one long line
    lines = _lines(data)
    i = _pick(rnd, lines)
    k = rnd.randrange(len(lines[i]) + 1)
    lines[i] = lines[i][:k] + (b"\r" if choice == 2 else b"\r\r\n") + lines[i][k:]
    return _join(lines)


def long_line(rnd, data):
    lines = _lines(data)
    i = _pick(rnd, lines)
    size = rnd.choice((LINE_MAX - 1, LINE_MAX, LINE_MAX + 1, 300, 5000, 100000, 2000000))
    kind = rnd.randrange(4)
    if kind == 0:
        line = b"#" + b"c" * (size - 1)
    elif kind == 1:
        line = b"press " + b"1" * (size - 10) + b" A 0"
    elif kind == 2:
        line = b"rules " + b" ".join([b"tie=coin"] * (size // 9))
    else:
        line = lines[i] + b" " * (size - len(lines[i]))
    lines.insert(i, line[:max(size, 1)])
    return _join(lines)


MUTATORS = {
    "byte flips": flip_bytes,
    "truncation": truncate,
    "duplicated lines": duplicate_line,
    "reordered lines": reorder_lines,
    "dropped lines": drop_line,
    "huge numbers": huge_number,
    "negative/odd numbers": negative_number,
    "non-ASCII": non_ascii,
    "invalid UTF-8": invalid_utf8,
    "NUL": nul,
    "CR/CRLF": cr_crlf,
    "long lines": long_line,
}


def mutate(rnd, data, category):
    """One case: a category's mutation, sometimes stacked with a second one."""
    data = MUTATORS[category](rnd, data)
    if rnd.random() < 0.15:
        data = MUTATORS[rnd.choice(sorted(MUTATORS))](rnd, data)
    return data


# ------------------------------------------------------------------ oracle

def run_replay(data):
    """``tools.replay`` in-process on raw bytes: (status, stdout text, stderr text)."""
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stderr = sys.stderr, err
    try:
        status = replay(read_lines(io.BytesIO(data)), out)
    finally:
        sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


def start_refusal_is_clean():
    """True once a refused ``start`` changes nothing (issue 9 item 5, the engine's part).

    Until then a refused start runs the timed steps up to its time first, so its
    trace may go past the bad line: those cases are counted, not failed.
    """
    from test_rules import FIVES  # A's two covers at 1400/1500 leave it stuck: redeal at 2500

    good = "CSLOG 1\n%s\nstart 1000\npress 1400 A 0\npress 1500 A 4\n" % FIVES
    trace, err = replay_text(good + "seed 2\nstart 9000\n")
    assert err is not None and err.reason == ERROR_NAMES[E_BUSY]
    return trace == replay_text(good)[0]


_ENGINE_PENDING = (ERROR_NAMES[E_BUSY], ERROR_NAMES[E_MATCH_OVER])


def check_replay(data, clean_refusals=True):
    """Hold one input to the replay contract; return ``"ok"``, ``"line N"`` or ``"engine-5"``.

    Raises ``AssertionError`` naming what broke.
    """
    began = time.monotonic()
    status, out, err = run_replay(data)
    spent = time.monotonic() - began
    assert spent < CASE_SECONDS, "took %.1f s" % spent
    if status == 0:
        assert err == "", err
        text = data.decode("utf-8")  # it replayed: it is UTF-8
        trace, error = replay_text(text)
        assert error is None and out == "".join(t + "\n" for t in trace), \
            "bytes and str readers disagree"
        return "ok"
    assert status == 2, status
    assert err.endswith("\n") and err.count("\n") == 1, repr(err[:200])
    assert len(err) < REASON_MAX + 20, "error too long: %r" % err[:200]
    if not data:
        assert err.startswith("empty log"), err
        assert out == ""
        return "empty"
    assert err.startswith("line "), err
    n = int(err[5:err.index(":")])
    lines = data.split(b"\n")
    assert 1 <= n <= len(lines), (n, len(lines))
    prefix = b"".join(line + b"\n" for line in lines[:n - 1])
    _, before, _ = run_replay(prefix)
    reason = err[err.index(":") + 2:].strip()
    if before != out:
        if not clean_refusals and reason in _ENGINE_PENDING and out.startswith(before):
            return "engine-5"
        raise AssertionError("trace is not the trace of the log cut before line %d (%s)"
                             % (n, reason))
    return "line"
