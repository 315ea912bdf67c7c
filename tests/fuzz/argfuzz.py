"""Command lines for the tools, drawn at random, each value labelled good or bad.

A case is a tool of ``tool_args.TOOLS`` and a random set of its numeric options and
outputs, each with a value from a pool: numbers inside the range the tool's
``--help`` gives (boundaries included, with blanks around), and outside it (the
issue's ``inf``, ``nan``, negatives, exponents, hex, underscores, Arabic-Indic and
full-width digits, one past either end, decimals for whole numbers, huge values);
paths that can be written (new nested files and folders, existing ones) and that
cannot (a folder for a file, a file for a folder, a FIFO, ``/dev/full``,
``/dev/null``, a path under a file, ``/proc``, a name longer than the file system
takes, a wrong extension, a model file that is no model). The contract
(:func:`check`): the tool starts its work exactly when every value is good, with
nothing on stderr; otherwise exit 2, one line ``tools.NAME: ...``, no traceback,
nothing started and nothing left behind.
"""

import os
import random
import re

from tool_args import BAD_NUMBERS, TOOLS, run_tool

EXCLUSIVE = {"emulate": ("--until", "--seconds"), "simulate": ("--games", "--matches")}
EXTENSIONS = {"gif": ".gif", "png": ".png", "file": ".out", "model": ".bin"}
_RANGES = {}


def ranges(tool, tmp):
    """``{option: (low, high)}`` as the tool's ``--help`` states them."""
    if tool not in _RANGES:
        _, out, _, _ = run_tool(tool, ["--help"], tmp)
        found = {}
        for entry in re.split(r"\n  (?=-)", out.split("options:", 1)[1]):
            entry = " ".join(entry.split())
            match = re.search(r"\((-?[\d.]+)-([\d.]+)( \w+)?\)", entry)
            if match:
                found[entry.split()[0].rstrip(",")] = (float(match.group(1)),
                                                       float(match.group(2)))
        _RANGES[tool] = found
    return _RANGES[tool]


def _digits(rnd, text):
    """``text`` with its ASCII digits turned into Arabic-Indic or full-width ones."""
    base = rnd.choice((0x0660, 0xFF10, 0x06F0, 0x0966))
    return "".join(chr(base + ord(c) - 48) if c.isdigit() else c for c in text)


def number(rnd, low, high, decimal):
    """``(text, good)``."""
    low_i, high_i = int(low), int(high)
    pick = rnd.random()
    if pick < 0.45:
        value = rnd.choice((low_i, high_i, rnd.randint(low_i, min(high_i, low_i + 1000)),
                            rnd.randint(low_i, high_i)))
        text = str(value)
        if decimal and rnd.random() < 0.3:
            text = "%.3f" % min(high, value + rnd.random())
        if rnd.random() < 0.15:
            text = rnd.choice((" ", "\t")) + text + rnd.choice(("", " "))
        return text, True
    if pick < 0.6:
        return rnd.choice(BAD_NUMBERS), False
    bad = [str(low_i - 1), str(high_i + 1), str(high_i * 10 + 7), "1e%d" % rnd.randint(0, 400),
           _digits(rnd, str(rnd.randint(low_i, high_i))), "%d_%d" % (rnd.randint(1, 9), 0),
           "0x%x" % rnd.randint(0, 255), "+%d" % rnd.randint(low_i, high_i), "-0.0" if low > 0
           else "-%d" % rnd.randint(1, 99), "%d\u00a0" % low_i, "\u3000%d" % low_i,
           "%d.%d.%d" % (1, 2, 3), "Infinity", "NaN", "1" * rnd.randint(30, 4000)]
    if not decimal:
        bad.append("%d.5" % low_i)
    return rnd.choice(bad), False


def path(rnd, tmp, kind, k):
    """``(text, good)`` for an output of ``kind`` (file, gif, png, model, folder)."""
    ext = EXTENSIONS.get(kind, "")
    fixtures = tmp / "fixtures"
    fixtures.mkdir(exist_ok=True)
    plain = fixtures / "plain.txt"
    plain.write_text("mine")
    folder = fixtures / "folder"
    folder.mkdir(exist_ok=True)
    fifo = fixtures / "fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    pick = rnd.random()
    if pick < 0.45:
        depth = rnd.randint(0, 3)
        parts = ["new%d-%d" % (k, i) for i in range(depth)]
        if kind == "folder":
            return str(tmp.joinpath("out", *parts, "dir%d" % k)), True
        name = "f%d%s" % (k, ext.upper() if rnd.random() < 0.2 else ext)
        if rnd.random() < 0.2:
            name = "caf\u00e9 %d%s" % (k, ext)
        return str(tmp.joinpath("out", *parts, name)), True
    if pick < 0.55:
        if kind == "folder":
            return str(folder), True
        existing = fixtures / ("existing%s" % ext)
        if not existing.exists():
            existing.write_bytes(b"" if kind == "model" else b"old")
        return str(existing), True
    bad = [str(fifo), "/dev/full", str(plain / ("x" + ext)), "/proc/fuzz%s" % ext,
           str(tmp / ("n" * 300 + ext))]
    if kind == "folder":
        bad += [str(plain)]
    else:
        bad += [str(folder), "/dev/null"]
    if kind in ("gif", "png"):
        bad += [str(tmp / ("wrong%d.txt" % k)), str(tmp / ("wrong%d.bmp" % k)),
                str(tmp / ("wrong%d" % k))]
    if kind == "model":
        big = fixtures / "big.pdf"
        if not big.exists():
            big.write_bytes(b"%PDF" + bytes(40000))
        bad.append(str(big))
    return rnd.choice(bad), False


def case(rnd, tmp, k):
    """``(tool, argv, good, labels)`` for case ``k``."""
    tool = rnd.choice(sorted(TOOLS))
    base, numbers, outputs = TOOLS[tool]
    limits = ranges(tool, tmp)
    argv = list(base)
    labels = []
    options = sorted(numbers)
    for option in rnd.sample(options, rnd.randint(0, len(options))):
        low, high = limits[option]
        text, good = number(rnd, low, high, "." in numbers[option])
        argv += [option, text]
        labels.append((option, text, good))
    for option, kind in rnd.sample(outputs, rnd.randint(0, min(3, len(outputs)))):
        text, good = path(rnd, tmp, kind, k)
        argv += [option, text]
        labels.append((option, text, good))
    chosen = {option for option, _, _ in labels}
    exclusive = EXCLUSIVE.get(tool)
    together = exclusive is not None and set(exclusive) <= chosen
    good = all(g for _, _, g in labels) and not together
    return tool, argv, good, labels


def listing(tmp):
    return sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*"))


def check(tool, argv, good, tmp):
    """Run one case; return its outcome (``ran`` / ``refused``) or raise AssertionError."""
    before = listing(tmp)
    status, _, err, ran = run_tool(tool, argv, tmp)
    if good:  # its work started (or, with nothing to write, it simply finished)
        assert ran is not None or status == 0, "a good command line was refused: %r" % err
        assert err == "", err
        return "ran"
    assert ran is None, "a bad command line started the work"
    assert status == 2, (status, err)
    assert err.count("\n") == 1 and err.startswith("tools.%s: " % tool), err
    assert "Traceback" not in err
    assert listing(tmp) == before, "a refused command line left files behind"
    return "refused"
