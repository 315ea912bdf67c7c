"""Measure Aggravation and Frustration with bot games (docs/SIMULATION.md).

Usage: ``.venv/bin/python -m tools.aggravation_claims --games 2000 --seed 1 [--plots docs/img] [--jobs 2]``

Plays ``--games`` games between two CPU players (``engine/aggravation_bot.py``) of
Aggravation and of Frustration with the targets 10, 15 and 20, normal against normal,
plus Aggravation at other pairings of levels, and a sweep of the win rate against the
level gap (A normal, B normal with every delay scaled, ``--sweep-games`` per point and
game); prints Markdown tables: game length, how games end (call, both-call, a dry draw,
share), how long the rows get, and for the controls the share of presses (covers and
taps, calls included) on a stack at index 4 or more of its row, and made while the
pressed row had more than 4 stacks. ``--plots DIR`` draws ``aggravation_length.png``,
``aggravation_rows.png``, ``frustration_target.png`` and ``aggravation_winrate.png``.

Implementation Notes
--------------------

Each game is seeded exactly as ``tools.simulate --game aggravation`` seeds game
``index`` (deck, bots, start time on the 2**29 clock), and played by its driver
(``tools.simulate.play_game``), so the game-level figures equal that tool's for the
same ``--seed``; a game sink adds what it does not count (per press: the rows' lengths
and the pressed stack's index). Intervals: Wilson for rates, order statistics for
medians, normal approximation for means (``tools.simulate``). The result does not
depend on ``--jobs``.
"""

import argparse
import multiprocessing
import sys

from engine.aggravation import (
    CALL, ROW_BASE, TAP, WHY_BOTH_CALL, WHY_CALL, WHY_DRY, WHY_SHARE, AggravationGame,
)
from engine.aggravation_bot import AggravationBot
from engine.aggravation_rules import AggravationRules
from engine.family import COVER, EV_DEAL, EV_PRESS
from engine.ticks import TICKS_PERIOD, ticks_diff
from tools.plotcheck import plots_unavailable
from tools.simulate import (
    SWEEP, mean_card_ms, mean_ci, median_ci, mix, parse_pairings, parse_rules, play_game, rate,
    spread,
)

VARIATIONS = (  # (label, --rules items), all normal vs normal
    ("Aggravation", []),
    ("Frustration, target 10", ["frustration=1"]),
    ("Frustration, target 15", ["frustration=1", "target=15"]),
    ("Frustration, target 20", ["frustration=1", "target=20"]),
)
LEVELS = ("beginner:beginner", "expert:expert", "beginner:expert")  # Aggravation, besides normal
ENDINGS = ((WHY_CALL, "call"), (WHY_BOTH_CALL, "both-call"), (WHY_DRY, "dry draw"),
           (WHY_SHARE, "share"))
FAR = 4  # a stack at this index of its row or beyond, a row longer than this: two buttons

# Fields of a game's record (a tuple of ints, then the histogram of the longer row).
FIELDS = ("result", "why", "ms", "presses", "covers", "taps", "calls", "deals", "dry", "scoops",
          "max_row", "pressed", "far", "long")
K = {name: k for k, name in enumerate(FIELDS)}


class PressStats:
    """Game sink: per press that covers, taps or calls, the rows' lengths and its index."""

    def __init__(self, game):
        self.game = game
        self.longer = [0] * 14  # presses by the length of the longer row at that moment
        self.pressed = self.far = self.long = self.max_row = 0

    def event(self, ev, t, i):
        g = self.game
        if ev == EV_DEAL:
            self.max_row = max(self.max_row, g.row_len[0], g.row_len[1])
        elif ev == EV_PRESS and g.tick_result[i] in (COVER, TAP, CALL):
            pos = g.tick_pos[i]  # covers never change a row's length: these are the tick's
            row = 1 if pos >= ROW_BASE else 0
            self.pressed += 1
            self.longer[max(g.row_len[0], g.row_len[1])] += 1
            if pos - row * ROW_BASE >= FAR:
                self.far += 1
            if g.row_len[row] > FAR:
                self.long += 1


def run_one(rules_kw, params_a, params_b, seed, index):
    """Play game ``index`` as tools.simulate does; return its record (FIELDS + histogram)."""
    game = AggravationGame(AggravationRules(**rules_kw))
    stats = PressStats(game)
    game.sink = stats.event
    t = mix(seed, index, 1) & (TICKS_PERIOD - 1)
    bots = (AggravationBot(game, 0, params_a, mix(seed, index, 2)),
            AggravationBot(game, 1, params_b, mix(seed, index, 3)))
    game.shuffle(mix(seed, index, 4, 0))
    game.start(t)
    t1 = play_game(game, bots, t)
    return (game.result, game.why, ticks_diff(t1, t), bots[0].presses + bots[1].presses,
            game.covers[0] + game.covers[1], game.taps, game.calls, game.deals, game.stucks,
            game.scoops, stats.max_row, stats.pressed, stats.far, stats.long) + tuple(stats.longer)


def _chunk(job):
    rules_kw, pa, pb, seed, lo, hi = job
    return lo, [run_one(rules_kw, pa, pb, seed, i) for i in range(lo, hi)]


def play(items, level, games, seed, jobs):
    """Records of ``games`` games of the rules ``items`` at pairing ``level`` (A:B)."""
    (_, pa), (_, pb) = parse_pairings([level])[0]
    rules_kw = parse_rules(items, "aggravation")
    chunk = max(1, min(50, games // (4 * jobs) or 1))
    work = [(rules_kw, pa, pb, seed, lo, min(games, lo + chunk)) for lo in range(0, games, chunk)]
    out = [None] * games
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            for lo, recs in pool.imap_unordered(_chunk, work):
                out[lo:lo + len(recs)] = recs
    else:
        for job in work:
            lo, recs = _chunk(job)
            out[lo:lo + len(recs)] = recs
    return out


def run(games, seed, jobs, sweep_games):
    """Every record the tables need."""
    res = {"rules": {}, "levels": {}, "sweep": {}}
    for label, items in VARIATIONS:
        res["rules"][label] = play(items, "normal:normal", games, seed, jobs)
    for level in LEVELS:
        res["levels"][level] = play([], level, games, seed, jobs)
    res["levels"]["normal:normal"] = res["rules"]["Aggravation"]
    if sweep_games:
        for mode, items in (("Aggravation", []), ("Frustration", ["frustration=1"])):
            res["sweep"][mode] = [(pb[0], mean_card_ms(pb[1]) - mean_card_ms(pa[1]),
                                   play(items, "%s:%s" % (pa[0], pb[0]), sweep_games, seed, jobs))
                                  for pa, pb in parse_pairings([SWEEP])]
    return res


# --------------------------------------------------------------------- tables


def col(recs, name, scale=1):
    return [r[K[name]] / scale for r in recs]


def _ci(r):
    return "%.1f %% [%.1f, %.1f]" % (100 * r["rate"], 100 * r["ci95"][0], 100 * r["ci95"][1])


def _hist(recs):
    """Presses by the length of the longer row (index = length)."""
    n = len(FIELDS)
    return [sum(r[n + k] for r in recs) for k in range(14)]


def _share(k, n):
    return _ci(rate(k, n)) if n else "—"


def length_table(res):
    """Length and endings, per variation (Markdown lines)."""
    lines = ["| normal vs normal | games | median length (s) | mean (s) | p90 (s) | longest (s) "
             "| presses | deal rounds | dry tables | scoops | ends by a call | both call "
             "| dry draw | share | A wins |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for label, _ in VARIATIONS:
        recs = res["rules"][label]
        n = len(recs)
        ms = col(recs, "ms", 1000)
        m = median_ci(ms)
        s = spread(ms)
        ends = [_share(sum(1 for r in recs if r[K["why"]] == why), n) for why, _ in ENDINGS]
        lines.append("| %s | %d | %.1f [%.1f, %.1f] | %.1f [%.1f, %.1f] | %.1f | %.1f | %.0f | %.1f "
                     "| %.1f | %.2f | %s | %s | %s | %s | %s |" % (
                         label, n, m["median"], m["ci95"][0], m["ci95"][1], mean_ci(ms)["mean"],
                         mean_ci(ms)["ci95"][0], mean_ci(ms)["ci95"][1], s["p90"], s["max"],
                         sum(col(recs, "presses")) / n, sum(col(recs, "deals")) / n,
                         sum(col(recs, "dry")) / n, sum(col(recs, "scoops")) / n, *ends,
                         _share(sum(1 for r in recs if r[0] == 0), n)))
    return lines


def rows_table(res):
    """How long the rows get, and the two-button figures (Markdown lines)."""
    lines = ["| normal vs normal | covers and taps | longer row at a press: 1 / 2 / 3 / 4 / 5 / 6 / 7+ stacks "
             "| longest row in a game: median / p99 / max | games with a row over 4 "
             "| presses on a stack at index >= 4 | presses while the pressed row had > 4 stacks |",
             "|---|---|---|---|---|---|---|"]
    for label, _ in VARIATIONS:
        lines.append(_rows_line(label, res["rules"][label]))
    return lines


def _rows_line(label, recs):
    h = _hist(recs)
    total = sum(h)
    parts = [100 * h[k] / total for k in range(1, 7)] + [100 * sum(h[7:]) / total]
    top = col(recs, "max_row")
    s = spread(top)
    from tools.simulate import percentile
    pressed = sum(col(recs, "pressed"))
    return "| %s | %d | %s %% | %g / %g / %g | %s | %s | %s |" % (
        label, pressed, " / ".join("%.1f" % p for p in parts), s["median"], percentile(top, 99),
        s["max"], _share(sum(1 for v in top if v > FAR), len(recs)),
        _share(int(sum(col(recs, "far"))), int(pressed)),
        _share(int(sum(col(recs, "long"))), int(pressed)))


def levels_table(res):
    """Aggravation at each pairing of levels (Markdown lines)."""
    lines = ["| Aggravation, levels (A vs B) | games | median length (s) | A wins "
             "| presses on a stack at index >= 4 | presses while the pressed row had > 4 stacks "
             "| longest row (max) |",
             "|---|---|---|---|---|---|---|"]
    for level in ("beginner:beginner", "normal:normal", "expert:expert", "beginner:expert"):
        recs = res["levels"][level]
        m = median_ci(col(recs, "ms", 1000))
        pressed = int(sum(col(recs, "pressed")))
        lines.append("| %s | %d | %.1f [%.1f, %.1f] | %s | %s | %s | %d |" % (
            level.replace(":", " vs "), len(recs), m["median"], m["ci95"][0], m["ci95"][1],
            _share(sum(1 for r in recs if r[0] == 0), len(recs)),
            _share(int(sum(col(recs, "far"))), pressed), _share(int(sum(col(recs, "long"))), pressed),
            max(col(recs, "max_row"))))
    return lines


def sweep_table(res):
    """A's win rate against the delay gap (Markdown lines)."""
    if not res["sweep"]:
        return []
    head = res["sweep"]["Aggravation"]
    lines = ["| B (A = normal) | mean per-card gap (ms) | A wins, Aggravation | A wins, Frustration |",
             "|---|---|---|---|"]
    for k, (label, gap, recs) in enumerate(head):
        frus = res["sweep"]["Frustration"][k][2]
        lines.append("| %s | %+.0f | %s | %s |" % (
            label, gap, _share(sum(1 for r in recs if r[0] == 0), len(recs)),
            _share(sum(1 for r in frus if r[0] == 0), len(frus))))
    return lines


# ---------------------------------------------------------------------- plots


def plots(res, directory):
    import os

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    files = []

    def save(fig, name):
        fig.tight_layout()
        files.append(os.path.join(directory, name))
        fig.savefig(files[-1], dpi=100)
        plt.close(fig)

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.8))
    left.hist(col(res["rules"]["Aggravation"], "ms", 1000), bins=40, histtype="step", linewidth=1.5)
    left.set_title("Aggravation")
    left.set_xlabel("game length (simulated seconds)")
    left.set_ylabel("games")
    low = min(min(col(res["rules"][label], "ms", 1000)) for label, _ in VARIATIONS[1:])
    high = max(max(col(res["rules"][label], "ms", 1000)) for label, _ in VARIATIONS[1:])
    bins = [low * (high / low) ** (k / 40) for k in range(41)]  # one set of log-spaced bins
    for label, _ in VARIATIONS[1:]:
        right.hist(col(res["rules"][label], "ms", 1000), bins=bins, histtype="step", linewidth=1.4,
                   label=label.split(", ")[1])
    right.set_xscale("log")
    right.set_title("Frustration")
    right.set_xlabel("game length (simulated seconds, log scale)")
    right.legend(fontsize=8)
    fig.suptitle("Length of a game, normal vs normal")
    save(fig, "aggravation_length.png")

    fig, ax = plt.subplots(figsize=(7, 3.8))
    width = 0.38
    for k, label in enumerate(("Aggravation", "Frustration, target 10")):
        h = _hist(res["rules"][label])
        total = sum(h)
        xs = [n + (k - 0.5) * width for n in range(1, 14)]
        ax.bar(xs, [100 * h[n] / total for n in range(1, 14)], width=width, label=label)
    ax.axvline(FAR + 0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.text(FAR + 0.6, ax.get_ylim()[1] * 0.95, "rows over 4", fontsize=8, color="grey",
            va="top")
    ax.set_xticks(range(1, 14))
    ax.set_xlabel("stacks in the longer row when a press covers or taps")
    ax.set_ylabel("presses (%)")
    ax.set_title("How long the rows are at a press (normal vs normal)")
    ax.legend(fontsize=8)
    save(fig, "aggravation_rows.png")

    fig, ax = plt.subplots(figsize=(6, 3.6))
    data = [col(res["rules"][label], "ms", 1000) for label, _ in VARIATIONS[1:]]
    ax.boxplot(data, whis=(5, 95), showfliers=False)
    ax.set_xticks([1, 2, 3])
    ax.set_xticklabels(["10", "15", "20"])
    ax.set_xlabel("target (a share this small wins)")
    ax.set_ylabel("game length (s): p5, quartiles, p95")
    ax.set_title("Frustration: length against the target")
    save(fig, "frustration_target.png")

    if res["sweep"]:
        fig, ax = plt.subplots(figsize=(7, 3.8))
        for mode in ("Aggravation", "Frustration"):
            gaps, rates, los, his = [], [], [], []
            for label, gap, recs in res["sweep"][mode]:
                r = rate(sum(1 for x in recs if x[0] == 0), len(recs))
                gaps.append(gap)
                rates.append(100 * r["rate"])
                los.append(100 * (r["rate"] - r["ci95"][0]))
                his.append(100 * (r["ci95"][1] - r["rate"]))
            ax.errorbar(gaps, rates, yerr=[los, his], fmt="o-", capsize=3, label=mode)
        ax.axhline(50, color="grey", linewidth=0.8)
        ax.set_xlabel("B's mean per-card delay minus A's (ms); A = normal")
        ax.set_ylabel("A wins (%), 95% CI")
        ax.set_title("Win rate against the reaction-time gap")
        ax.legend(fontsize=8)
        save(fig, "aggravation_winrate.png")
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tools.aggravation_claims",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per variation and level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--sweep-games", type=int, default=None,
                        help="games per point of the win-rate sweep, per game (default: games / 5;"
                        " 0: no sweep)")
    parser.add_argument("--plots", metavar="DIR", help="write the four PNG plots into DIR")
    args = parser.parse_args(argv)
    if args.games < 4 or args.jobs < 1:
        parser.error("--games must be at least 4 and --jobs at least 1")
    sweep = args.games // 5 if args.sweep_games is None else args.sweep_games
    if sweep < 0:
        parser.error("--sweep-games must be at least 0")
    if args.plots and plots_unavailable("tools.aggravation_claims"):
        sys.stderr.write(plots_unavailable("tools.aggravation_claims") + "\n")
        return 2
    res = run(args.games, args.seed, args.jobs, max(2, sweep) if sweep else 0)
    out = sys.stdout
    out.write("Aggravation and Frustration, simulated in CPython: --games %d --seed %d\n\n"
              % (args.games, args.seed))
    for table in (length_table(res), rows_table(res), levels_table(res), sweep_table(res)):
        if table:
            out.write("\n".join(table) + "\n\n")
    if args.plots:
        out.write("plots: %s\n" % ", ".join(plots(res, args.plots)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
