"""engine.log.LogReader reads a log the same way in MicroPython as on CPython (issue 9).

ASCII digits only, ASCII blanks only, bytes lines with a bad UTF-8 byte rejected on
their own line, CRLF accepted, the line cap and the short errors: one reading on
every interpreter. Run: node tests/mpy/vm.mjs tests/mpy/vm_log_reader.py
"""

from engine.grid import GridGame
from engine.log import LINE_MAX, LogError, LogReader
from mpyharness import Report

r = Report("vm_log_reader")


def outcome(lines):
    """(line number of the error or 0, reason or '') after feeding ``lines``."""
    reader = LogReader(GridGame())
    try:
        for line in lines:
            reader.feed(line)
        reader.end()
    except LogError as err:
        return err.lineno, err.reason
    return 0, ""


n, why = outcome(["CSLOG 1", "seed 5", "start 100", "press \u0664\u0660\u0660 A 3"])
r.check(n == 4 and "integer" in why, "Arabic-Indic digits are not a time", why)
n, why = outcome(["CSLOG 1", "rules penalty=\u0664\u0660\u0660"])
r.check(n == 2, "nor a rules value", why)
n, why = outcome(["CSLOG 1", "\u3000"])
r.check(n == 2, "U+3000 is not a blank line", why)
n, why = outcome(["CSLOG 1", " \t ", "seed 5", "start 100"])
r.check(n == 0, "ASCII blanks are", why)
n, why = outcome([b"CSLOG 1\r\n", b"seed 5\r\n", b"start 1\xff00\n"])
r.check(n == 3 and why.startswith("not UTF-8"), "a bad UTF-8 byte is an error on its line", why)
n, why = outcome([b"CSLOG 1\r\n", b"seed 5\r\n", b"start 100\r\n", b"clock 900\n"])
r.check(n == 0, "CRLF lines read as LF lines", why)
n, why = outcome([b"CSLOG 1\n", b"#" + b"x" * LINE_MAX + b"\n"])
r.check(n == 2 and "longer than" in why, "the line cap", why)
n, why = outcome(["CSLOG 1", "seed " + "x" * 100])
r.check(n == 2 and len(why) < 80, "a bad field is quoted short", why)
n, why = outcome([])
r.check(n == 0 and why.startswith("empty log"), "an empty log says so", why)
r.done()
