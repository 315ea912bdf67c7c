"""Replay match logs, make their times relative to each game, and find the first difference."""

import io
import json

from tools.replay import replay


class LogError(Exception):
    """A target's log does not replay (one-line message)."""


def split_matches(text):
    """One log text per match (each starts with ``CSLOG 1``); comments before it dropped."""
    chunks = []
    for line in text.splitlines():
        if line.strip() == "CSLOG 1":
            chunks.append([])
        if chunks:
            chunks[-1].append(line)
    return ["\n".join(c) + "\n" for c in chunks]


def normalize(data):
    """The engine's trace of every match in ``data`` (bytes), times relative to each game.

    Each event keeps the replay trace's fields plus ``m`` (match number); ``t``
    becomes ms since the game's first ``deal``.
    """
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    events = []
    for number, match in enumerate(split_matches(text)):
        out = io.StringIO()
        if replay(io.StringIO(match), out) != 0:
            raise LogError("match %d of the log does not replay" % (number + 1))
        origin = None
        new_game = True
        for line in out.getvalue().splitlines():
            ev = json.loads(line)
            if ev.get("ev") == "deal" and new_game:
                origin = ev["t"]
                new_game = False
            if ev.get("ev") == "over":
                new_game = True
            if "t" in ev and origin is not None:
                ev["t"] = ev["t"] - origin
            ev["m"] = number + 1
            events.append(ev)
    return events


def first_difference(a, b, tolerance_ms=10):
    """``None`` if traces ``a`` and ``b`` agree, else ``(index, event of a, event of b)``.

    Times may differ by ``tolerance_ms``; every other field must be equal.
    """
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x is None or y is None or not _same(x, y, tolerance_ms):
            return i, x, y
    return None


def _same(x, y, tolerance_ms):
    if set(x) != set(y):
        return False
    for key, value in x.items():
        if key == "t":
            if abs(value - y[key]) > tolerance_ms:
                return False
        elif value != y[key]:
            return False
    return True


def describe(event):
    """One short line for an event (or the end of a trace)."""
    return "(end of trace)" if event is None else json.dumps(event, sort_keys=True)


class ExpectedError(Exception):
    """A scenario's ``.expected`` file is not a trace (one-line message)."""


def read_expected(path):
    """The events of an ``.expected`` file: one JSON object with ``ev`` per line."""
    with open(path, "rb") as f:
        data = f.read()
    events = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ExpectedError("%s: line %d: not UTF-8 (byte 0x%02x)"
                                % (path, number, raw[err.start])) from None
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError as err:
            raise ExpectedError("%s: line %d: not JSON (%s)"
                                % (path, number, str(err).split(":")[0])) from None
        if not isinstance(event, dict) or not isinstance(event.get("ev"), str):
            raise ExpectedError("%s: line %d: not a trace event (a JSON object with \"ev\")"
                                % (path, number))
        events.append(event)
    return events


def write_expected(path, events):
    with open(path, "w", encoding="utf-8") as f:
        for ev in events:
            f.write(json.dumps(ev, sort_keys=True) + "\n")
