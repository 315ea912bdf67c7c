"""Reading a run: console checks, ``diag`` lines, press-to-pixel latency.

Everything here works on a :class:`tools.picosim.run.Result` after the run.

Implementation Notes
--------------------

**Press-to-pixel**: for each scripted press (a button pin driven low), the time on
the emulator's clock from that GPIO edge to the last SPI byte of the first burst
(one display refresh, see ``pico.mjs``) after it that changes pixels. A press whose
next changing burst starts after the next edge (or more than ``window_ms`` later)
changed nothing on the screen and gets no latency. The breakdown gives the time to
the burst's first SPI byte (key scan, debounce, Python, ``refresh()`` before its
first byte) and the burst's own length (displayio building pixels, and the SPI).

**Log matching**: a press line ``press T P N`` of the ``usb_cdc.data`` log is paired
with the scripted edge on that player's pin for position N just before it. ``T`` is
compared with the device's own ``ticks_ms`` at the edge, computed from the emulated
clock the way CircuitPython 10.2.1 counts on the RP2040 (:func:`device_ticks_ms`): no
offset is estimated from the presses themselves, so a press stamped late or early
shows. ``scan_ms`` (``T`` minus that) is 3-7: ``keypad`` scans in the 1024 Hz tick
interrupt every 2 ticks and reports the third scan that sees the key (debounce 3), the
first 0-2 ticks after the edge's tick; the interrupt re-arms itself 977 us after it
ran, so now and then a tick is skipped and a scan comes a tick late; the stamp is the
scan's tick in whole ms. So 4-7 ticks of 977 us, 3-7 ms apart once both ends are
floored to ms. (Only ``T - edge`` spread is seen if the clock is estimated from the
presses, and a tick is about 1 ms: the stamp trails the scan by 0-2.4 ms, so the
spread alone is not the 3.9-5.8 ms of the scan times.)

:func:`ticks_offset` (the mirror's game-time alignment) still estimates a constant
from the smallest ``T - edge``; it only needs to be right within a scan.

**diag lines**: console lines ``diag TAG key=value ...`` (the firmware's
``CSPEED_DIAG`` option) become ``{"tag": TAG, "t_ms": ..., key: int or text}``.
"""

import json
import re
import statistics

# Terminal escapes CircuitPython writes on the console (the title, the status bar).
_ESCAPES = re.compile(r"\x1b\][^\x1b\x07]*(?:\x1b\\|\x07)|\x1b\[[0-9;?]*[A-Za-z]")

TICKS_PERIOD = 1 << 29

SAFE_MODE = ("you are in safe mode", "running in safe mode")  # CircuitPython's words
TRACEBACK = "Traceback (most recent call last)"


STOPPED = "California Speed cannot start: "  # hw.main.fail's console line


def console_problems(text):
    """Return a list of what went wrong on the console (tracebacks, safe mode, errors)."""
    problems = []
    if TRACEBACK in text:
        problems.append("a traceback on the console")
    lower = text.lower()
    if any(phrase in lower for phrase in SAFE_MODE):
        problems.append("CircuitPython is in safe mode")
    if "MemoryError" in text:
        problems.append("MemoryError")
    stopped = text.find(STOPPED)
    if stopped >= 0:  # hw.main.fail: a bad setting, on the error screen
        problems.append("the firmware stopped on its error screen: %s"
                        % text[stopped + len(STOPPED):].split("\n", 1)[0].strip())
    return problems


def console_lines(result):
    """``[(ms after t0, line)]`` of the console (the time its last chunk arrived).

    Terminal escapes are taken out: the title CircuitPython sets when ``code.py``
    starts has no newline, so the first line printed would otherwise follow it.
    """
    lines, buf, t_last = [], "", 0
    for t, text in result.console_chunks:
        buf += text
        t_last = t
        while "\n" in buf:
            line, buf = buf.split("\n", 1)
            lines.append((result.ms(t_last) if result.t0 is not None else None,
                          _ESCAPES.sub("", line).rstrip("\r")))
    if buf:
        lines.append((result.ms(t_last) if result.t0 is not None else None,
                      _ESCAPES.sub("", buf)))
    return lines


def _value(text):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def diag_records(result):
    """Parse every ``diag ...`` console line into a dict (see the module docstring)."""
    records = []
    for t_ms, line in console_lines(result):
        line = line.strip()
        if not line.startswith("diag "):
            continue
        record = {"tag": "", "t_ms": t_ms}
        tags = []
        for token in line.split()[1:]:
            key, eq, value = token.partition("=")
            if eq:
                record[key] = _value(value)
            else:
                tags.append(token)
        record["tag"] = " ".join(tags)
        records.append(record)
    return records


def log_presses(data):
    """``[(T, player, position)]`` of the ``press`` lines in a match log."""
    out = []
    for raw in data.decode("utf-8", "replace").splitlines():
        fields = raw.split()
        if len(fields) == 4 and fields[0] == "press":
            try:
                out.append((int(fields[1]), fields[2], int(fields[3])))
            except ValueError:
                continue
    return out


def _percentile(values, q):
    ordered = sorted(values)
    if not ordered:
        return None
    k = (len(ordered) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _summary(values):
    if not values:
        return {"n": 0}
    return {"n": len(values), "median": round(statistics.median(values), 2),
            "p95": round(_percentile(values, 0.95), 2), "max": round(max(values), 2)}


def press_latencies(result, key_pins, window_ms=1000, results=None):
    """Return one dict per scripted press (see the module docstring).

    ``key_pins``: pin number by logical key. ``results``: engine results of the
    log's presses in log order (e.g. from ``tools.replay``), to label each press.
    """
    pin_key = {pin: key for key, pin in enumerate(key_pins)}
    downs = [e for e in result.edges if not e["high"] and e["pin"] in pin_key]
    changing = [b for b in result.bursts if b["changed"] > 0]
    any_burst = [b for b in result.bursts if b["bytes"] > 0]
    presses = []
    for i, edge in enumerate(downs):
        t = edge["t"]
        limit = t + window_ms * 1e6
        if i + 1 < len(downs):
            limit = min(limit, downs[i + 1]["t"])
        press = {"t_ms": round(result.ms(t), 3), "key": pin_key[edge["pin"]], "pin": edge["pin"],
                 "dev_t": device_ticks_ms(t)}
        burst = next((b for b in changing if b["start"] > t), None)
        first = next((b for b in any_burst if b["start"] > t), None)
        if burst is not None and burst["start"] < limit:
            press.update(latency_ms=(burst["end"] - t) / 1e6,
                         to_first_byte_ms=(burst["start"] - t) / 1e6,
                         refresh_ms=(burst["end"] - burst["start"]) / 1e6,
                         pixels=burst["pixels"], changed=burst["changed"])
            if first is not None and first["start"] < burst["start"]:
                press["earlier_bursts"] = True
        presses.append(press)
    _label(result, presses, key_pins, results)
    return presses


SCAN_MIN_MS = 3.9  # the earliest a key scan can report a press after its edge
MATCH_WINDOW_MS = 16  # a log press is its edge's when stamped within this after it

# CircuitPython 10.2.1's clock on the RP2040 (ports/raspberrypi/supervisor/port.c):
# 1024 raw ticks a second, each 977 us of the timer (the second's last one shorter);
# ticks_ms is raw * 1000 // 1024, started 65536 ms below its 2**29 wrap.
TICKS_MS_START = TICKS_PERIOD - (1 << 16)


def device_ticks_ms(ns):
    """The device's ``supervisor.ticks_ms()`` at ``ns`` emulated ns from reset.

    rp2040js's timer counts the emulated clock's microseconds from reset.
    """
    us = int(ns) // 1000
    raw = 1024 * (us // 1000000) + us % 1000000 // 977
    return (raw * 1000 // 1024 + TICKS_MS_START) % TICKS_PERIOD


def press_buttons(data):
    """The pad button (0-7) of each ``press`` line, in log order: the firmware's own
    mapping (``hw.games``) for the game each match's ``rules`` line names; None for a
    press no one button makes (Speed: a card's or a pile's, by what the card fitted)."""
    import importlib

    from hw import games

    kinds = {key: importlib.import_module("hw.games." + key) for key, _ in games.GAMES}

    class Table:  # what a kind's target() reads of the engine
        piles = 4

    table = Table()
    kind = kinds["grid"]
    out = []
    for raw in data.decode("utf-8", "replace").splitlines():
        fields = raw.split()
        if fields[:1] == ["CSLOG"]:
            kind = kinds["grid"]
        elif fields[:1] == ["rules"]:
            for field in fields[1:]:
                key, _, value = field.partition("=")
                if key == "game" and value in kinds:
                    kind = kinds[value]
                elif key == "piles" and value.isdigit():
                    table.piles = int(value)
        elif len(fields) == 4 and fields[0] == "press":
            try:
                seat, n = "AB".index(fields[2]), int(fields[3])
            except ValueError:
                continue
            hook = getattr(kind, "press_button", None)  # a kind whose target keeps state
            try:
                out.append(hook(seat, n) if hook is not None else
                           next((b for b in range(8) if kind.target(table, seat, b) == n), 0))
            except AttributeError:  # a target that reads more of the engine (Speed's
                out.append(None)  # one- or two-button plays): no one button to time
    return out


def _pairs(result, key_pins):
    """``[(log index, T, pin)]`` of the log's presses."""
    pairs = []
    buttons = press_buttons(result.data)
    for index, (ticks, player, _) in enumerate(log_presses(result.data)):
        if buttons[index] is not None:
            seat = "AB".index(player)
            pairs.append((index, ticks, key_pins[seat * 8 + buttons[index]]))
    return pairs


def _best_offset(result, key_pins):
    """``T - edge ms`` of the earliest-scanned press (see the module docstring), or None."""
    downs = {}
    for e in result.edges:
        if not e["high"]:
            downs.setdefault(e["pin"], []).append(result.ms(e["t"]))
    offsets = [(ticks - ms) % TICKS_PERIOD
               for _, ticks, pin in _pairs(result, key_pins) for ms in downs.get(pin, ())]
    if not offsets:
        return None
    # The true offset is within a few ms below each pair's own difference: pick the
    # smallest difference that most pairs agree with (scan 3.9-5.8 ms after the edge).
    return max(sorted(offsets), key=lambda off: sum(
        1 for o in offsets if 0 <= (o - off) % TICKS_PERIOD < 8))


def ticks_offset(result, key_pins):
    """The device's ``ticks_ms`` at ``m`` ms after t0 is about ``m + offset``; or None."""
    best = _best_offset(result, key_pins)
    return None if best is None else best - SCAN_MIN_MS


def _label(result, presses, key_pins, results):
    """Attach the log's tick, ``scan_ms`` and the engine's result to each press it holds."""
    by_pin = {}
    for press in presses:
        by_pin.setdefault(press["pin"], []).append(press)
    for index, ticks, pin in _pairs(result, key_pins):
        for press in by_pin.get(pin, ()):
            delay = (ticks - press["dev_t"]) % TICKS_PERIOD
            if delay < MATCH_WINDOW_MS and "log_t" not in press:
                press["log_t"] = ticks
                press["scan_ms"] = delay
                if results is not None and index < len(results):
                    press["r"] = results[index]
                break


def latency_summary(presses):
    """Median/p95 of press-to-pixel, overall and by engine result."""
    timed = [p for p in presses if "latency_ms" in p]
    summary = {"presses": len(presses), "drawn": len(timed),
               "latency_ms": _summary([p["latency_ms"] for p in timed]),
               "to_first_byte_ms": _summary([p["to_first_byte_ms"] for p in timed]),
               "refresh_ms": _summary([p["refresh_ms"] for p in timed])}
    # Presses the engine judged cover/illegal draw something themselves; a locked or
    # ignored press draws nothing, so its "next refresh" is someone else's.
    shown = [p["latency_ms"] for p in timed if p.get("r") in ("cover", "illegal")]
    if shown:
        summary["judged_latency_ms"] = _summary(shown)
    by_result = {}
    for p in timed:
        if "r" in p:
            by_result.setdefault(p["r"], []).append(p["latency_ms"])
    if by_result:
        summary["by_result"] = {r: _summary(v) for r, v in sorted(by_result.items())}
    return summary


def split_matches(data):
    """One log text per match (each starts with ``CSLOG 1``; a device streams several)."""
    chunks = []
    for line in data.decode("utf-8", "replace").splitlines():
        if line.strip() == "CSLOG 1":
            chunks.append([])
        if chunks:
            chunks[-1].append(line)
    return ["\n".join(c) + "\n" for c in chunks]


def replay_results(data):
    """``(worst exit status, engine results of the log's presses in log order)``.

    Each match of the log is replayed on its own with ``tools.replay``.
    """
    import io

    from tools.replay import replay

    status, results = 0, []
    for text in split_matches(data):
        out = io.StringIO()
        status = max(status, replay(io.StringIO(text), out))
        for line in out.getvalue().splitlines():
            record = json.loads(line)
            if record.get("ev") == "press":
                results.append(record.get("r"))
    return status, results
