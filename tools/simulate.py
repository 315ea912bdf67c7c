"""Play bot-vs-bot games of California Speed and report the statistics of the rules.

Usage::

    .venv/bin/python -m tools.simulate --games 1000 --levels normal:normal --seed 1 --jobs 4
    .venv/bin/python -m tools.simulate --matches 200 --levels expert:beginner,beginner:expert
    .venv/bin/python -m tools.simulate --games 500 --rules deadlock=8 stuck=500 --json
    .venv/bin/python -m tools.simulate --games 2000 --plots docs/img
    .venv/bin/python -m tools.simulate --game row --games 1000 --rules piles=3 match=suit redeal=two

``--game row`` plays the shared-row game of RULES-ROW.md (``engine/row.py``, CPU
players ``engine/row_bot.py``); its ``--rules`` keys are ``piles``, ``match``,
``redeal`` and the common ones. ``--game speed`` plays Speed (RULES-SPEED.md,
``engine/speed.py``, ``engine/speed_bot.py``) with ``cards``, ``same``, ``remake``,
``points`` and the common keys. A level is ``beginner``, ``normal``, ``expert``, ``perfect`` (engine/family_bot.py), optionally
with its delays scaled: ``normal*1.5`` is a normal player 1.5 times slower. A pairing
``X:Y`` puts X in seat A and Y in seat B; several pairings are comma-separated.

Every game gets its deck seed, bot seeds and start time (anywhere on the 2**29 ms
clock, so some games cross the wrap) from ``--seed`` and its own index, so the
result does not depend on ``--jobs``. The driver jumps from one interesting time to
the next (a bot's next action, the game's next timed step, the ms after a press)
instead of stepping 1 ms at a time.
"""

import argparse
import json
import math
import multiprocessing
import os
import sys
import time

from engine import games
from engine.family import COVER, EV_DEAL, EV_PRESS, EV_STUCK, OVER, WHY_DEADLOCK
from engine.family_bot import LEVELS, LEVEL_NAMES, level_params
from engine.ticks import TICKS_HALF, TICKS_MAX, TICKS_PERIOD, ticks_add, ticks_diff
from tools import cli
from tools.plotcheck import plots_unavailable

MAX_GAME_MS = 4 * 3600 * 1000  # a game this long is a bug in a bot or the driver
MATCH_GAP_MS = 3000  # pause between the games of a match
MAX_MATCH_GAMES = 200
LEVEL_FACTOR = cli.Number(float, 0.1, 10)  # normal*1.5: a level's delays scaled
GAMES_MAX = 10000000  # --games, --matches, --sweep-games



def rule_keys(game):
    """The ``--rules`` keys of a game (``game`` itself is chosen by ``--game``)."""
    return tuple(k for k in games.rules_class(game).KEYS if k != "game")

# ------------------------------------------------------------------- driver


def mix(*values):
    """Deterministic 30-bit hash of small non-negative ints (splitmix64 steps)."""
    x = 0x9E3779B97F4A7C15
    for v in values:
        x = (x ^ v) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        x = (x ^ (x >> 31)) * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 29
    return x & ((1 << 30) - 1)


class StatSink:
    """Game sink counting what the engine's counters do not: dead deals, stuck runs."""

    def __init__(self, game):
        self.game = game
        self.clear()

    def clear(self):
        self.dead_deals = 0  # deals whose layout had no match at all
        self.streak = 0  # stuck layouts in a row (the engine's deadlock count)
        self.max_streak = 0
        self.max_resolved = 0  # longest run of stuck layouts that a cover ended
        self._covered = False  # a cover since the last deal

    def event(self, ev, t, i):
        if ev == EV_DEAL:
            self._covered = False
        elif ev == EV_PRESS:
            if self.game.tick_result[i] == COVER:
                self._covered = True
                self.max_resolved = max(self.max_resolved, self.streak)
                self.streak = 0
        elif ev == EV_STUCK:
            if not self._covered:
                self.dead_deals += 1
            self.streak += 1
            self.max_streak = max(self.max_streak, self.streak)


def play_game(game, bots, t, log=None):
    """Play one started game to its end with ``bots`` (A's, B's); return the end time.

    The caller has called ``game.start(t)``. Presses go through ``game.press`` as a
    human's would; ``log(line)`` (optional) receives the LOG.md press lines and a
    final ``clock`` line, so the log replays to the same trace.
    """
    a, b = bots
    a.reset(t)
    b.reset(t)
    elapsed = 0
    while True:
        game.advance(t)  # bots must see every tick before ``t`` resolved
        if game.phase == OVER:
            break
        pos_a = a.step(t)
        if pos_a >= 0:
            game.press(a.player, pos_a, t)
        pos_b = b.step(t)
        if pos_b >= 0:
            game.press(b.player, pos_b, t)
        # Jump to the next moment anything can happen: the ms after a press (it is
        # judged then), a bot's next action or the game's next timed step.
        if pos_a >= 0 or pos_b >= 0:
            gap = 1
            if log is not None:
                for bot, pos in ((a, pos_a), (b, pos_b)):
                    if pos >= 0:
                        log("press %d %s %d" % (t, "AB"[bot.player], pos))
        else:
            gap = TICKS_PERIOD
            for wake in (game.due, a.wake, b.wake):
                if wake >= 0:
                    d = (wake - t) & TICKS_MAX  # ticks_diff, written out: the hot loop
                    if d >= TICKS_HALF or d == 0:
                        gap = 1  # due now or overdue: next ms
                    elif d < gap:
                        gap = d
            if gap == TICKS_PERIOD:
                raise RuntimeError("simulation stalled at t=%d" % t)
        t = (t + gap) & TICKS_MAX
        elapsed += gap
        if elapsed > MAX_GAME_MS:
            raise RuntimeError("game longer than %d ms" % MAX_GAME_MS)
    if log is not None:
        log("clock %d" % t)
    return t


def _record(game, sink, bots, t0, t1):
    """Per-game numbers (a tuple of ints; the order is FIELDS)."""
    return (game.result, game.why, bots[0].presses + bots[1].presses,
            game.covers[0] + game.covers[1], ticks_diff(t1, t0), game.deals,
            game.stucks, sink.dead_deals, game.ties, game.illegals[0] + game.illegals[1],
            sink.max_streak, sink.max_resolved, getattr(game, "remakes", 0))


FIELDS = ("result", "why", "presses", "covers", "ms", "deals", "stucks", "dead_deals",
          "ties", "illegals", "max_streak", "max_resolved", "remakes")
_MAX_FIELDS = (10, 11)  # a match keeps the longest streaks of its games, sums the rest


def run_one(rules, params_a, params_b, seed, index, matches=False, kind=games.DEFAULT):
    """Play game (or match) ``index``; return (winner, games, summed FIELDS...)."""
    game_cls, bot_cls = games.game_class(kind), games.bot_class(kind)
    game = game_cls(rules)
    sink = StatSink(game)
    game.sink = sink.event
    t = mix(seed, index, 1) & (TICKS_PERIOD - 1)
    bots = (bot_cls(game, 0, params_a, mix(seed, index, 2)),
            bot_cls(game, 1, params_b, mix(seed, index, 3)))
    total = None
    n = 0
    while True:
        sink.clear()  # the bots' counts restart in play_game's bot.reset
        game.shuffle(mix(seed, index, 4, n))
        game.start(t)
        t1 = play_game(game, bots, t)
        rec = _record(game, sink, bots, t, t1)
        n += 1
        if total is None:
            total = list(rec)
        else:  # a match sums its games' counts, keeps the longest streaks
            for k in range(2, len(rec)):
                total[k] = max(total[k], rec[k]) if k in _MAX_FIELDS else total[k] + rec[k]
        if not matches or game.match_over or n >= MAX_MATCH_GAMES:
            break
        t = ticks_add(t1, MATCH_GAP_MS)
    if matches:
        total[0] = game.match_winner if game.match_over else 2
        total[1] = -1
    return tuple(total) + (n,)


def _chunk(job):
    rules_kw, pa, pb, seed, pair, lo, hi, matches, kind = job
    rules = games.rules_class(kind)(**rules_kw)
    return pair, lo, [run_one(rules, pa, pb, seed, i, matches, kind) for i in range(lo, hi)]


# --------------------------------------------------------------- statistics


def median(xs):
    """Median of a non-empty sample (mean of the two middle values if even)."""
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def percentile(xs, q):
    """Nearest-rank percentile: the smallest value with at least q % of the sample at or below."""
    s = sorted(xs)
    k = max(1, math.ceil(q / 100 * len(s)))
    return s[k - 1]


def wilson(k, n, z=1.959964):
    """95 % Wilson score interval for k successes out of n; (0, 1) if n == 0."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(k, n):
    """k / n as a dict with the Wilson interval (rounded for a stable report)."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": round(k / n, 4) if n else None,
            "ci95": [round(lo, 4), round(hi, 4)]}


def spread(xs, scale=1):
    """median / p90 / max / mean of a sample, divided by ``scale``."""
    return {"median": round(median(xs) / scale, 3), "p90": round(percentile(xs, 90) / scale, 3),
            "max": round(max(xs) / scale, 3), "mean": round(sum(xs) / len(xs) / scale, 3)}


def mean_ci(xs, scale=1):
    """Mean of a sample with its 95 % normal-approximation interval, divided by ``scale``."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.959964 * sd / math.sqrt(n)
    return {"mean": round(m / scale, 3), "ci95": [round((m - half) / scale, 3),
                                                   round((m + half) / scale, 3)]}


def median_ci(xs, scale=1):
    """Median with its 95 % distribution-free interval (order statistics), / ``scale``."""
    s = sorted(xs)
    n = len(s)
    half = 1.959964 * math.sqrt(n) / 2
    lo = max(0, int(math.floor(n / 2 - half)) - 1)
    hi = min(n - 1, int(math.ceil(n / 2 + half)))
    return {"median": round(median(s) / scale, 3), "ci95": [round(s[lo] / scale, 3),
                                                           round(s[hi] / scale, 3)]}


def summarize(records, matches=False):
    """Statistics of one pairing's records (tuples from run_one)."""
    n = len(records)
    col = {name: [r[k] for r in records] for k, name in enumerate(FIELDS)}
    games = [r[len(FIELDS)] for r in records]
    wins_a = col["result"].count(0)
    wins_b = col["result"].count(1)
    decided = wins_a + wins_b
    deals = sum(col["deals"])
    out = {
        "n": n,
        "a_wins": rate(wins_a, n),
        "b_wins": rate(wins_b, n),
        "draws": rate(n - decided, n),
        "a_share_of_decided": rate(wins_a, decided),
        "presses": spread(col["presses"]),
        "seconds": spread(col["ms"], 1000),
        "deals_per_game": round(deals / n, 3),
        "stuck_deal_rate": rate(sum(col["dead_deals"]), deals),
        "stucks_per_game": round(sum(col["stucks"]) / n, 3),
        "deadlocks": rate(sum(1 for r in records if r[1] == WHY_DEADLOCK), n),
        "ties_per_game": round(sum(col["ties"]) / n, 3),
        "illegals_per_game": round(sum(col["illegals"]) / n, 3),
        "remakes_per_game": round(sum(col["remakes"]) / n, 3),  # Speed's side piles
        "covers": spread(col["covers"]),
        "seconds_mean": mean_ci(col["ms"], 1000),
        "seconds_median": median_ci(col["ms"], 1000),
        "under_60s": rate(sum(1 for v in col["ms"] if v < 60000), n),
        "from_30_to_90s": rate(sum(1 for v in col["ms"] if 30000 <= v <= 90000), n),
        "stucks_per_card": round(sum(col["stucks"]) / max(1, sum(col["covers"])), 4),
        "max_stuck_streak": max(col["max_streak"]),
        "max_resolved_streak": max(col["max_resolved"]),
        # For each limit L: games in which a stuck run reached L (would deadlock at
        # limit L) and those in which such a run was later broken by a cover.
        "streaks": {str(lim): [sum(1 for v in col["max_streak"] if v >= lim),
                               sum(1 for v in col["max_resolved"] if v >= lim)]
                    for lim in (2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 26)},
    }
    if matches:
        out["games_per_match"] = spread(games)
    return out


# ---------------------------------------------------------------- front end


def parse_level(text):
    """``name`` or ``name*factor`` -> (label, 9-int parameter tuple)."""
    name, _, factor = text.partition("*")
    if name not in LEVEL_NAMES:
        raise argparse.ArgumentTypeError("unknown level %r (one of %s)" % (name, ", ".join(LEVEL_NAMES)))
    row = list(LEVELS[LEVEL_NAMES.index(name)])
    if factor:
        try:
            f = LEVEL_FACTOR.parse(factor, "the factor of level %r" % text[:24])
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
        for k in (0, 1, 2, 3, 5, 6):  # the delays; the percentages stay
            row[k] = int(round(row[k] * f))
    return text, level_params(tuple(row))


def parse_pairings(values):
    pairs = []
    for value in values:
        for item in value.split(","):
            a, sep, b = item.partition(":")
            if not sep:
                raise argparse.ArgumentTypeError("a pairing is LEVEL_A:LEVEL_B, not %r" % item)
            pairs.append((parse_level(a), parse_level(b)))
    return pairs


def parse_rules(items, kind=games.DEFAULT):
    """``KEY=VALUE`` items -> the keyword arguments of the game's rules class."""
    rules = games.rules_class(kind)()
    keys = rule_keys(kind)
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or key not in keys:
            raise argparse.ArgumentTypeError("rules of --game %s are KEY=VALUE with KEY in %s"
                                             % (kind, ", ".join(keys)))
        rules.set(key, value)
    return {key: getattr(rules, key) for key in keys}


def mean_card_ms(params):
    """A level's mean per-card delay (reaction + movement), ms."""
    return (params[0] + params[1] + params[2] + params[3]) / 2


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total, quiet):
        self.total = total
        self.done = 0
        self.quiet = quiet
        self.t0 = time.perf_counter()

    def add(self, n):
        self.done += n
        if self.quiet:
            return
        width = 30
        fill = width * self.done // self.total
        speed = self.done / max(1e-9, time.perf_counter() - self.t0)
        sys.stderr.write("\r[%s%s] %d/%d  %.0f/s " % ("#" * fill, "." * (width - fill),
                                                     self.done, self.total, speed))
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def simulate(pairs, n, seed, rules_kw, jobs=1, matches=False, quiet=True, chunk=None,
             kind=games.DEFAULT):
    """Run ``n`` games (or matches) per pairing; return ([records per pairing], seconds)."""
    if chunk is None:
        chunk = max(1, min(50, n // (4 * max(1, jobs)) or 1))
    work = [(rules_kw, pa[1], pb[1], seed, p, lo, min(n, lo + chunk), matches, kind)
            for p, (pa, pb) in enumerate(pairs) for lo in range(0, n, chunk)]
    results = [[None] * n for _ in pairs]
    bar = Progress(n * len(pairs), quiet)
    t0 = time.perf_counter()

    def collect(out):
        pair, lo, recs = out
        results[pair][lo:lo + len(recs)] = recs
        bar.add(len(recs))

    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            for out in pool.imap_unordered(_chunk, work):
                collect(out)
    else:
        for job in work:
            collect(_chunk(job))
    return results, time.perf_counter() - t0


def report(pairs, results, matches, rules_kw, args_text, kind=games.DEFAULT):
    """The JSON-able report (no timings: it is stable for a given command)."""
    out = {"command": args_text, "unit": "match" if matches else "game",
           "rules": rules_kw, "pairings": []}
    if kind != games.DEFAULT:
        out["game"] = kind
    by_level = {}
    all_recs = []
    for (pa, pb), recs in zip(pairs, results):
        s = summarize(recs, matches)
        s["a"], s["b"] = pa[0], pb[0]
        s["card_ms_gap"] = mean_card_ms(pb[1]) - mean_card_ms(pa[1])
        out["pairings"].append(s)
        all_recs += recs
        for seat, (label, _) in enumerate((pa, pb)):
            won, played = by_level.get(label, (0, 0))
            by_level[label] = (won + sum(1 for r in recs if r[0] == seat), played + len(recs))
    if len(pairs) > 1:
        out["all"] = summarize(all_recs, matches)
        out["levels"] = {k: rate(*v) for k, v in sorted(by_level.items())}
    return out


def _ci(r):
    return "%5.1f%% [%4.1f, %4.1f]" % (100 * (r["rate"] or 0), 100 * r["ci95"][0], 100 * r["ci95"][1])


def print_table(rep, out):
    unit = rep["unit"]
    units = unit + ("es" if unit == "match" else "s")
    out.write("California Speed simulation: %s\n" % rep["command"])
    shown = games.rules_class(rep.get("game", games.DEFAULT))(**rep["rules"])  # names, as in a log's rules line
    out.write("rules: %s\n\n" % " ".join("%s=%s" % (k, shown.text(k)) for k in rep["rules"]))
    rows = [
        (units, lambda s: str(s["n"])),
        ("A wins (95% CI)", lambda s: _ci(s["a_wins"])),
        ("B wins", lambda s: _ci(s["b_wins"])),
        ("draws", lambda s: _ci(s["draws"])),
        ("A share of decided", lambda s: _ci(s["a_share_of_decided"])),
        ("presses med/p90/max", lambda s: "%g / %g / %g" % (s["presses"]["median"], s["presses"]["p90"], s["presses"]["max"])),
        ("seconds med/p90/max", lambda s: "%g / %g / %g" % (s["seconds"]["median"], s["seconds"]["p90"], s["seconds"]["max"])),
        ("deals per %s" % unit, lambda s: "%g" % s["deals_per_game"]),
        ("stuck deals", lambda s: _ci(s["stuck_deal_rate"])),
        ("deadlocked %s" % units, lambda s: _ci(s["deadlocks"])),
        ("ties per %s" % unit, lambda s: "%g" % s["ties_per_game"]),
        ("illegal presses per %s" % unit, lambda s: "%g" % s["illegals_per_game"]),
    ]
    cols = [("%s:%s" % (s["a"], s["b"]), s) for s in rep["pairings"]]
    if "all" in rep:
        cols.append(("all", rep["all"]))
    width = max(24, max(len(c[0]) for c in cols) + 2)
    out.write("%-26s" % "" + "".join("%*s" % (width, c[0]) for c in cols) + "\n")
    for label, fn in rows:
        out.write("%-26s" % label + "".join("%*s" % (width, fn(s)) for _, s in cols) + "\n")
    if "levels" in rep:
        out.write("\nwins by level (any seat): %s\n" % ", ".join(
            "%s %s" % (k, _ci(v).strip()) for k, v in rep["levels"].items()))


def make_plots(directory, pairs, results, sweep, matches):
    """Game-length histogram per pairing, and win rate against the delay gap."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    files = []
    fig, ax = plt.subplots(figsize=(7, 4))
    for (pa, pb), recs in zip(pairs, results):
        secs = [r[4] / 1000 for r in recs]
        ax.hist(secs, bins=40, histtype="step", linewidth=1.5, label="%s:%s" % (pa[0], pb[0]))
    ax.set_xlabel("%s length (simulated seconds)" % ("match" if matches else "game"))
    ax.set_ylabel("count")
    ax.set_title("California Speed: length of a %s" % ("match" if matches else "game"))
    ax.legend()
    fig.tight_layout()
    files.append(os.path.join(directory, "game_length.png"))
    fig.savefig(files[-1], dpi=100)
    plt.close(fig)
    if sweep:
        gaps, rates, los, his = [], [], [], []
        for s in sweep["pairings"]:
            gaps.append(s["card_ms_gap"])
            rates.append(100 * s["a_wins"]["rate"])
            los.append(100 * (s["a_wins"]["rate"] - s["a_wins"]["ci95"][0]))
            his.append(100 * (s["a_wins"]["ci95"][1] - s["a_wins"]["rate"]))
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.errorbar(gaps, rates, yerr=[los, his], fmt="o-", capsize=3)
        ax.axhline(50, color="grey", linewidth=0.8)
        ax.set_xlabel("B's mean per-card delay minus A's (ms); A = normal")
        ax.set_ylabel("A wins (%), 95% CI")
        ax.set_title("Win rate against the reaction-time gap")
        fig.tight_layout()
        files.append(os.path.join(directory, "winrate_vs_gap.png"))
        fig.savefig(files[-1], dpi=100)
        plt.close(fig)
    return files


SWEEP = ("normal:normal*0.5,normal:normal*0.6,normal:normal*0.75,normal:normal*0.9,"
         "normal:normal,normal:normal*1.1,normal:normal*1.25,normal:normal*1.5,normal:normal*2")


def main(argv=None):
    parser = cli.Parser("tools.simulate", description=__doc__.split("\n")[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--games", type=cli.whole(1, GAMES_MAX), help="games per pairing (default 100)")
    what.add_argument("--matches", type=cli.whole(1, GAMES_MAX),
                      help="matches per pairing instead of games")
    parser.add_argument("--levels", action="append", default=None,
                        help="pairings LEVEL_A:LEVEL_B[,...] (default normal:normal)")
    parser.add_argument("--game", choices=games.KEYS, default=games.DEFAULT,
                        help="grid: the 2x4 game (RULES.md); row: shared row (RULES-ROW.md); "
                        "speed: Speed (RULES-SPEED.md)")
    parser.add_argument("--seed", type=cli.SEED, default=1, help="the seed of every game's deck"
                        " and bots")
    parser.add_argument("--jobs", type=cli.JOBS, default=min(cli.JOBS_MAX, os.cpu_count() or 1),
                        help="worker processes (default: one per CPU)")
    parser.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--plots", metavar="DIR", help="write PNG plots into DIR")
    parser.add_argument("--sweep-games", type=cli.whole(0, GAMES_MAX), default=400,
                        help="games per point of the win-rate-vs-gap plot (with --plots; 0: none)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.plots and plots_unavailable("tools.simulate"):
        sys.stderr.write(plots_unavailable("tools.simulate") + "\n")
        return 2
    if args.plots:
        try:
            cli.output_folder("--plots", args.plots)
        except cli.OutputError as err:
            return cli.fail("tools.simulate", err)
    try:
        pairs = parse_pairings(args.levels or ["normal:normal"])
        rules_kw = parse_rules(args.rules, args.game)
    except (argparse.ArgumentTypeError, ValueError) as err:
        parser.error(str(err))
    matches = args.matches is not None
    n = args.matches if matches else (args.games if args.games is not None else 100)
    command = "%s--%s %d --levels %s --seed %d%s" % (
        "" if args.game == games.DEFAULT else "--game %s " % args.game, "matches" if matches else "games", n, ",".join("%s:%s" % (a[0], b[0]) for a, b in pairs),
        args.seed, (" --rules " + " ".join(args.rules)) if args.rules else "")

    results, secs = simulate(pairs, n, args.seed, rules_kw, args.jobs, matches, args.quiet,
                             kind=args.game)
    rep = report(pairs, results, matches, rules_kw, command, args.game)
    total = n * len(pairs)
    perf = {"jobs": args.jobs, "seconds": round(secs, 2), "per_second": round(total / secs, 1)}
    plots_failed = None
    if args.plots:
        sweep = None
        if args.sweep_games:
            spairs = parse_pairings([SWEEP])
            sres, _ = simulate(spairs, args.sweep_games, args.seed, rules_kw, args.jobs,
                               False, args.quiet, kind=args.game)
            sweep = report(spairs, sres, False, rules_kw, "sweep", args.game)
            rep["sweep"] = [{"b": s["b"], "card_ms_gap": s["card_ms_gap"], "a_wins": s["a_wins"]}
                            for s in sweep["pairings"]]
        try:
            rep["plots"] = make_plots(args.plots, pairs, results, sweep, matches)
        except OSError as err:  # a disk that filled up: the figures are still printed below
            plots_failed = "cannot write into --plots %s: %s" % (args.plots, cli.why(err))
    if args.json:
        rep["perf"] = perf  # the only part that changes from run to run
        sys.stdout.write(json.dumps(rep, indent=1) + "\n")
    else:
        print_table(rep, sys.stdout)
        if "sweep" in rep:
            sys.stdout.write("\nA = normal vs B = normal*f, A wins by delay gap: %s\n" % ", ".join(
                "%+.0f ms %s" % (s["card_ms_gap"], _ci(s["a_wins"]).strip()) for s in rep["sweep"]))
        units = "matches" if matches else "games"
        sys.stdout.write("\n%d %s in %.2f s with %d jobs: %.1f %s per second\n" % (
            total, units, secs, args.jobs, perf["per_second"], units))
    return cli.fail("tools.simulate", plots_failed) if plots_failed else 0


if __name__ == "__main__":
    sys.exit(main())
