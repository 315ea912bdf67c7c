"""Timed key presses from a text file (``--script FILE``).

One event per line; blank lines and ``#`` comments are ignored; times are ms since
the session started (its first tick)::

    500   tap START          # press, release 40 ms later
    2000  tap A3 60          # A's key over table position 3, held 60 ms
    2000  tap B3             # same millisecond: one tick for the engine
    2500  down q             # a key by its name in the key map ...
    2600  up q               # ... and its release
    2700  q down             # the same, key first

A key is ``START``, ``A0``-``A7`` / ``B0``-``B7`` (that player's key over that table
position, as in the log's ``press T P N``) or a key name of the key map (``q``,
``;``, ``space``, ``return``). Each event becomes a keyboard event at its time, read
by the same path as a person's keys.
"""

from engine.log import is_digits
from tools.emulate.keys import POSITION_KEYS, logical_keys

TAP_MS = 40
SPAN_LIMIT_MS = 3600000  # a script spans at most an hour: a headless run ends 3 s after it


class ScriptError(ValueError):
    """A malformed script line (the message names the line)."""


def key_name(token):
    """Return the key map's name for a script key token."""
    if token.upper() == "START":
        return "space"
    if len(token) == 2 and token[0] in "AB" and token[1] in "01234567":
        return POSITION_KEYS["AB".index(token[0])][int(token[1])]
    if token.lower() in logical_keys():
        return token.lower()
    raise ValueError("unknown key %r" % token)


def parse(text):
    """Return ``[(ms, key name, down)]`` sorted by time (stable for equal times)."""
    events = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        fields = raw.split("#", 1)[0].split()
        if not fields:
            continue
        try:
            t = _ms(fields[0], "time")
            rest = fields[1:]
            if len(rest) >= 2 and rest[0] == "tap" and len(rest) <= 3:
                hold = _ms(rest[2], "hold") if len(rest) == 3 else TAP_MS
                if hold <= 0:
                    raise ValueError("hold must be > 0 ms")
                if t + hold > SPAN_LIMIT_MS:
                    raise ValueError("the release at %d ms is beyond %d ms (1 h)"
                                     % (t + hold, SPAN_LIMIT_MS))
                name = key_name(rest[1])
                events += [(t, name, True), (t + hold, name, False)]
            elif len(rest) == 2 and rest[0] in ("down", "up"):
                events.append((t, key_name(rest[1]), rest[0] == "down"))
            elif len(rest) == 2 and rest[1] in ("down", "up"):
                events.append((t, key_name(rest[0]), rest[1] == "down"))
            else:
                raise ValueError("expected 'T tap KEY [HOLD]', 'T down|up KEY' or 'T KEY down|up'")
        except ValueError as err:
            raise ScriptError("script line %d: %s" % (lineno, err)) from None
    events.sort(key=lambda e: e[0])
    return events


def _ms(text, what):
    """A time in ms: ASCII digits only, at most ``SPAN_LIMIT_MS``."""
    if not is_digits(text):
        raise ValueError("%s must be a whole number of ms, not %r" % (what, text[:20]))
    if len(text) > 10 or int(text) > SPAN_LIMIT_MS:
        raise ValueError("%s %s ms is beyond %d ms (1 h)" % (what, text[:20], SPAN_LIMIT_MS))
    return int(text)


def load(path):
    """Parse the script file at ``path`` (``ScriptError`` if it is not UTF-8 text)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        lineno = data.count(b"\n", 0, err.start) + 1
        raise ScriptError("script line %d: not UTF-8 text (byte 0x%02x)"
                          % (lineno, data[err.start])) from None
    return parse(text)
