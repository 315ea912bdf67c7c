"""The firmware linked on two emulated Picos: figures (``linkbench --firmware``).

Both chips run the unchanged firmware (``code.py``); scripted button presses open the menu on each, walk to *Link*
(the guest sets *as guest (B)*, the host chooses ``--game``), START; the host's START
begins a match (the 2x4 game unless chosen), and START again every few seconds (the
next match, once one is over). Then the guest's player presses at random times
(300-700 ms apart) and the host's player presses 3-6 ms before or after every second
one of them, and alone 150 ms after each other one. Measured against the rig's true
time:

* the guest's press times mapped to the host's clock: ``M - G + (g(P) - h(P))`` as in
  ``linkbench`` (``G`` the guest's keypad stamp in its ``PRESS`` frame on the wire,
  ``M`` the time of the host's ``press`` line for it,
  ``g``/``h`` the two clocks as continuous ms at the press ``P``), where each chip's
  clock is CircuitPython 10.2.1's ``ticks_ms`` of its emulated time
  (``analyze.device_ticks_ms``, not rounded);
* the pairs: is the earlier press of the two judged first (its ``press`` line's time
  smaller) on the host;
* press-to-pixel on each (``analyze.press_latencies``: the press's edge to the end of
  the next display burst that changed pixels), and of the presses judged a cover or
  an illegal play (:func:`judged_latencies`);
* ``CSPEED_DIAG=1``'s heap and per-frame figures on each (``hw.diag``), in a run of
  their own: its heap walks slow every frame that reads a press.

Implementation Notes
--------------------

The menu walk is computed from ``hw.menu`` (how many presses reach *Game* and *Link*),
so it follows the menu. Nothing is added to the firmware to measure it: the stamps
come off the wire (decoded by ``hw.link.frame``), the judged times from the log. ``tests/test_picosim_link_play.py`` uses :func:`menu_script`.
"""

import pickle
import random
from pathlib import Path

from tools.picosim import analyze
from tools.picosim import link as rig
from tools.picosim.run import profile_pins

CODE = "code.py"  # the firmware itself, on both
UP, DOWN, NEXT, START = 0, 1, 3, 16  # pad A near 1 (menu: up), 2 (down), 4 (next), START
MENU_MS = 3000  # the title is up well before this (ms after T0)
MATCH_MS = 6500  # linked by then: the host's START begins the match
PLAY_MS = 8500  # the first game is dealt by then
START_EVERY_MS = 6000  # the host taps START this often (a new match once one is over)
TAP_MS = 60


def menu_walk(game="grid"):
    """``[(key, times)]`` from the menu's first item: up to *Game* and the host's ``game``
    chosen (none for the 2x4 game, the first), then down to *Link* (hw.menu: the items
    shown follow the chosen game)."""
    from tools import cpstubs

    cpstubs.install()
    from hw import games
    from hw.menu import GAME, LINK, Menu, bot_levels

    menu = Menu(bot_levels())
    menu.link = 0  # the board has link pins: "Link" is shown
    walk = []
    value = games.index_of(game)
    if value:
        walk += [(UP, _moves(menu, GAME, -1)), (NEXT, value)]
        menu.choose(value)
    return walk + [(DOWN, _moves(menu, LINK, 1))]


def _moves(menu, item, step):
    n = 0
    while menu.cursor != item:
        menu.move(step)
        n += 1
    return n


def downs_to_link():
    """How many "down" presses from the menu's first item to *Link* (hw.menu)."""
    return menu_walk()[-1][1]


def tap(out, ms, key, tag=None, hold=TAP_MS):
    """A press of logical ``key`` at ``ms`` (its pin low), released ``hold`` ms later."""
    pin = profile_pins()[0][key]
    out.append((round(ms, 3), pin, False) + ((tag,) if tag else ()))
    out.append((round(ms + hold, 3), pin, True))


def menu_script(guest, game="grid"):
    """``[(ms after T0, pin, high[, tag])]``: the title, the menu walk to *Link* (the
    host choosing ``game`` on the way), its role, START; the host's START at
    :data:`MATCH_MS`."""
    out = []
    t = MENU_MS
    tap(out, t, 0)  # the title: any pad key shows the menu
    walk = [(DOWN, downs_to_link())] if guest else menu_walk(game)
    for key, times in walk:
        for _ in range(times):
            t += 200
            tap(out, t, key)
    if guest:
        t += 200
        tap(out, t, NEXT)  # Link: as guest (B)
    t += 200
    tap(out, t + 200 * (not guest), START)  # the guest first: the host finds it at once
    if not guest:
        tap(out, MATCH_MS, START)
    return out


def play_scripts(seconds, seed, game="grid"):
    """The host's and the guest's presses in play, and the pairs ``[(guest ms, host ms)]``."""
    rng = random.Random(seed)
    host, guest, pairs = menu_script(False, game), menu_script(True), []
    t, k, end = float(PLAY_MS), 0, PLAY_MS + seconds * 1000
    while t + 200 < end:
        tap(guest, t, 8 + (k * 3) % 8, "press")  # the guest's player on its pad B
        if k % 2 == 0:
            delta = rng.choice((-6, -5, -4, -3, 3, 4, 5, 6)) + rng.uniform(-0.4, 0.4)
            tap(host, t + delta, (k * 5) % 8, "pair")
            pairs.append((t, t + delta))
        else:  # the host's player alone, 150 ms from the guest's presses: its own latency
            tap(host, t + 150, (k * 5) % 8, "solo")
        k += 1
        t += rng.uniform(300, 700)
    for ms in range(MATCH_MS + START_EVERY_MS, int(end), START_EVERY_MS):
        if all(abs(ms - e[0]) > 100 for e in host):
            tap(host, ms, START)
    return sorted(host), sorted(guest), pairs


def clock_ms(chip, true_ns):
    """``chip``'s ticks_ms at ``true_ns`` as a continuous count (CircuitPython 10.2.1's
    1024 Hz tick made into ms, not rounded; see ``analyze.device_ticks_ms``)."""
    boot = chip.boots[0]
    ns = (true_ns - boot["T"]) * (1 + chip.done["ppm"] / 1e6)
    us = ns / 1000.0
    second = int(us // 1000000)
    raw = 1024 * second + (us - second * 1000000) / 977.0
    return raw * 1000 / 1024 + analyze.TICKS_MS_START


def wrap(x):
    return ((x + (1 << 28)) % (1 << 29)) - (1 << 28)


class _View:
    """One chip's result as ``analyze.press_latencies`` reads a run (its presses only)."""

    def __init__(self, chip, tags):
        self.edges = [e for e in chip.edges if e.get("tag") in tags or e["high"]]
        self.bursts = chip.bursts
        self.data = chip.data

    @staticmethod
    def ms(t):
        return t / 1e6


def measure(workdir, seconds, ppm, seed=1, on_console=None, game="grid", diag=True):
    """Run the pair with the firmware; return the figures (a dict, see the module doc).
    ``diag``: with ``CSPEED_DIAG=1`` (the heap and per-frame figures; it walks the heap
    twice around every frame that reads a press, about 9 ms each on a Pico, so its
    press-to-pixel is not a player's); without it, the press-to-pixel a player sees."""
    host_ev, guest_ev, pairs = play_scripts(seconds, seed, game)
    settings = {"CSPEED_DIAG": "1" if diag else "0", "CSPEED_ATTRACT_S": "0"}
    chips = [rig.Chip(CODE, settings=settings, events=host_ev),
             rig.Chip(CODE, settings=settings, events=guest_ev,
                      ppm=ppm)]
    result = rig.run_link(workdir, chips, seconds=PLAY_MS / 1000 + seconds + 2,
                          on_console=on_console)
    with open(Path(workdir) / "result.pickle", "wb") as f:  # to analyse again: reanalyze()
        pickle.dump((result, seconds, ppm, seed, pairs, game), f)
    return analyze_run(result, seconds, ppm, seed, pairs, game)


def reanalyze(workdir):
    """The figures of a run kept in ``workdir`` (what :func:`measure` returned)."""
    with open(Path(workdir) / "result.pickle", "rb") as f:
        return analyze_run(*pickle.load(f))


def analyze_run(result, seconds, ppm, seed, pairs, game="grid"):
    hchip, gchip = result.chips
    problems = []
    for name, chip in (("host", hchip), ("guest", gchip)):
        if "Traceback" in chip.console:
            problems.append("%s: a traceback on the console" % name)
    if hchip.data != gchip.data:
        problems.append("the two logs differ")
    from tools.picosim.linkbench import parse

    mapped = mapped_presses(result, analyze.log_presses(hchip.data))
    presses = [e["T"] for e in gchip.edges if e.get("tag") == "press" and not e["high"]]
    errors, lags = [], []
    for g, m in mapped:  # the guest press whose keypad stamp this is (2-6 ms after it)
        near = [P for P in presses if 0 <= wrap(g - clock_ms(gchip, P)) < 8]
        if not near:
            continue
        P = near[-1]
        lags.append(wrap(g - clock_ms(gchip, P)))
        errors.append(wrap(m - g) + wrap(clock_ms(gchip, P) - clock_ms(hchip, P)))
    log = analyze.log_presses(hchip.data)
    host_lag = []
    # issue 22's rule: presses 3 ms or more apart are judged in their true order; the
    # script's pairs are 2.6-6.4 ms apart, and those under 3 ms are counted apart
    order = {"right": 0, "tie": 0, "swapped": 0, "unmatched": 0}
    close = {"right": 0, "tie": 0, "swapped": 0, "unmatched": 0}
    t0 = result.T0
    for guest_ms, host_ms in pairs:
        counts = order if abs(host_ms - guest_ms) >= 3 else close
        pa = t0 + host_ms * 1e6
        pb = t0 + guest_ms * 1e6
        ha, hb = clock_ms(hchip, pa), clock_ms(hchip, pb)
        a = [T for T, who, _ in log if who == "A" and 0 <= wrap(T - ha) < 10]
        b = [T for T, who, _ in log if who == "B" and 0 <= wrap(T - hb) < 12]
        if not a or not b:
            counts["unmatched"] += 1
            continue
        host_lag.append(wrap(a[0] - ha))
        d = wrap(a[0] - b[0])
        if d == 0:
            counts["tie"] += 1
        elif (d < 0) == (host_ms < guest_ms):
            counts["right"] += 1
        else:
            counts["swapped"] += 1
    size = sorted(abs(e) for e in errors)

    def pct(q):
        return round(size[min(len(size) - 1, int(len(size) * q))], 3) if size else None
    latency = {}
    for name, chip, tags in (("host", hchip, ("pair", "solo")), ("guest", gchip, ("press",))):
        found = analyze.press_latencies(_View(chip, tags), profile_pins()[0])
        latency[name] = _spread(p["latency_ms"] for p in found if "latency_ms" in p)
        latency[name]["presses"] = len(found)
    latency.update(judged_latencies(result, log))
    diag = {}
    for name, chip in (("host", hchip), ("guest", gchip)):
        lines = parse(chip.console)
        stats = [dict(w.split("=") for w in words if "=" in w) for words in
                 lines.get("diag", []) if words and words[0] == "stats"]
        builds = [w for w in lines.get("diag", []) if w and w[0] == "build"]
        diag[name] = {"build_free": int(builds[0][1].split("=")[1]) if builds else None,
                      "last": {k: int(v) for k, v in stats[-1].items()} if stats else {}}
    if not errors:
        problems.append("no guest press mapped")
    if order["tie"] or order["swapped"]:
        problems.append("presses 3 ms or more apart not judged in their true order: %s" % order)
    return {
        "stack": "the firmware on real CircuitPython 10.2.1 (Pico UF2), two rp2040js chips,"
                 " UART1 at 460800",
        "game": game, "seconds": seconds, "ppm": ppm, "seed": seed,
        "emulated_s": round(result.emulated_s, 2), "wall_s": round(result.wall_s, 1),
        "guest_presses": len(presses), "mapped": len(errors),
        "error_ms": {"p50": pct(0.5), "p99": pct(0.99),
                     "max": round(size[-1], 3) if size else None,
                     "mean": round(sum(errors) / len(errors), 3) if errors else None},
        "keypad_lag_ms": [round(min(lags), 2), round(max(lags), 2)] if lags else None,
        "host_keypad_lag_ms": [min(host_lag), max(host_lag)] if host_lag else None,
        "pairs": order, "pairs_under_3ms": close, "latency_ms": latency,
        "diag": diag if diag["host"]["build_free"] is not None else None,
        "logs_identical": hchip.data == gchip.data, "problems": problems,
    }


def wire_frames(result, direction):
    """``[(true ns its last byte arrived, type, payload)]``: the frames that crossed the
    cable one way, decoded by the firmware's own ``hw.link.frame``."""
    from tools import cpstubs

    cpstubs.install()
    from hw.link import frame

    recs = result.wire(direction, ("ok", "corrupt"))
    data = bytearray(r[3] for r in recs)
    dec, out, i = frame.Decoder(), [], 0
    while i < len(data):
        i = dec.scan(data, i, len(data))
        if i < 0:
            break
        out.append((recs[i - 1][6], dec.kind, bytes(dec.buf[frame._HEADER:frame._HEADER
                                                             + dec.length])))
    return out


def mapped_presses(result, log):
    """``[(G, M)]``: each guest play on the wire (a ``PRESS`` frame: its keypad stamp
    ``G`` and engine argument) and the time ``M`` of the host's ``press`` line for it
    (seat B, the same argument, within 8 ms of where the two clocks say it falls)."""
    from hw.link import frame

    hchip, gchip = result.chips
    out, seen = [], set()
    for te, kind, pay in wire_frames(result, 1):
        if kind != frame.PRESS or pay[4] != 0:  # 0: a play (hw.app.linked.KEY_PLAY)
            continue
        g = frame.get_u32(bytearray(pay), 0)
        if (g, pay[5]) in seen:  # sent again
            continue
        seen.add((g, pay[5]))
        guess = g + wrap(clock_ms(hchip, te) - clock_ms(gchip, te))
        m = next((T for T, who, pos in log if who == "B" and pos == pay[5]
                  and abs(wrap(T - guess)) < 8), None)
        if m is not None:
            out.append((g, m))
    return out


def _spread(values):
    ms = sorted(values)
    return {"drawn": len(ms), "p50": round(ms[len(ms) // 2], 1) if ms else None,
            "p95": round(ms[min(len(ms) - 1, int(len(ms) * 0.95))], 1) if ms else None}


def arrivals(result, direction, needles):
    """True ns at which the last byte of each needle (in order) reached the other chip,
    or None where it never did."""
    recs = result.wire(direction, ("ok", "corrupt"))
    data = bytes(r[3] for r in recs)
    out, pos = [], 0
    for needle in needles:
        k = data.find(needle, pos)
        out.append(None if k < 0 else recs[k + len(needle) - 1][6])
        pos = pos if k < 0 else k + 1
    return out


def judged_latencies(result, log):
    """Press-to-pixel of the presses the host judged a cover or an illegal play (each
    draws its result on both screens; a locked press draws nothing): ``guest_judged``
    from the guest's press to the end of the guest's first burst that changed pixels
    after the host's ``press`` line for it reached the guest; ``host_judged`` from the
    host's press 3-6 ms from a guest's to the host's first such burst (often the
    guest's press drawn first), ``host_solo_judged`` the same for the host's presses
    150 ms from any guest press (as today's unlinked figure); ``guest_wait`` the
    guest's press to that line's arrival (the round trip through the host)."""
    hchip, gchip = result.chips
    status, results = analyze.replay_results(hchip.data)
    if status or len(results) != len(log):
        return {"judged": "the log does not replay press for press"}
    needles = [b"press %d %s %d" % (T, who.encode(), pos) for T, who, pos in log]
    arrived = arrivals(result, 0, needles)
    out = {}
    for name, chip, tag, who, window in (("host", hchip, "pair", "A", 10),
                                         ("host_solo", hchip, "solo", "A", 10),
                                         ("guest", gchip, "press", "B", 14)):
        bursts = [b for b in chip.bursts if b["changed"] > 0]
        lat, wait = [], []
        for e in chip.edges:
            if e.get("tag") != tag or e["high"]:
                continue
            h = clock_ms(hchip, e["T"])
            index = next((i for i, (T, w, _) in enumerate(log)
                          if w == who and -2 <= wrap(T - h) < window), None)
            if index is None or results[index] not in ("cover", "illegal"):
                continue
            since = e["T"] if who == "A" else arrived[index]
            if since is None:
                continue
            burst = next((b for b in bursts if b["Tstart"] >= since), None)
            if burst is not None:
                lat.append((burst["Tstart"] - e["T"]) / 1e6 + (burst["end"] - burst["start"]) / 1e6)
                wait.append((since - e["T"]) / 1e6)
        out[name + "_judged"] = _spread(lat)
        if who == "B":
            out["guest_wait"] = _spread(wait)
    return out


def report(out):
    """Print the figures."""
    e = out["error_ms"]
    print("linked firmware on %s" % out["stack"])
    print("  %s, %g s of play, guest clock %g ppm fast; %.1f s emulated in %.0f s wall; logs"
          " identical: %s" % (out["game"], out["seconds"], out["ppm"], out["emulated_s"],
                              out["wall_s"], out["logs_identical"]))
    print("  guest presses %d, mapped %d: error p50 %s ms, p99 %s ms, max %s ms, mean %s ms;"
          " guest keypad stamp - press %s ms, host's %s ms"
          % (out["guest_presses"], out["mapped"], e["p50"], e["p99"], e["max"], e["mean"],
             out["keypad_lag_ms"], out["host_keypad_lag_ms"]))
    print("  pairs 3-6.4 ms apart (host press - guest press): %s; 2.6-3 ms apart: %s"
          % (out["pairs"], out["pairs_under_3ms"]))
    print("  press-to-pixel: %s" % out["latency_ms"])
    if out["diag"] is None:
        print("  CSPEED_DIAG off (press-to-pixel as a player sees it; no heap figures)")
    else:
        print("  CSPEED_DIAG (its heap walks slow every press frame): %s" % out["diag"])
    for problem in out["problems"]:
        print("CHECK FAILED: %s" % problem)
