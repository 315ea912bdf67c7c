"""Measure Speed's house rules with bot games (docs/SIMULATION.md).

Usage: ``python3 -m tools.speed_houses --games 2000 --seed 1 [--plots docs/img] [--jobs 1]``

Plays ``--games`` games of each house rule of RULES-SPEED.md (and of all three at
once) between two ``--levels`` CPU players with ``tools.simulate``'s driver, seeds
and statistics (``tools.simulate --game speed``), the default rules with each bot
level, and ``--games / 10`` matches of each way to win a match (``wins=2``, and
``points=N``); prints Markdown tables: length, plays, stuck tables, remakes and
deadlocks per house rule, each compared with the game without house rules.
``--plots DIR`` draws the game-length distributions (``speed_length.png``).

Implementation Notes
--------------------

Differences of means carry a 95 % normal-approximation interval (thousands of
games); rates carry Wilson intervals and medians order-statistics intervals
(``tools.simulate``). Record fields are read by name through ``FIELDS``.
"""

import argparse
import math
import sys

from tools import cli
from tools.simulate import FIELDS, GAMES_MAX, parse_pairings, parse_rules, simulate, summarize
from tools.plotcheck import plots_unavailable

VARIATIONS = (  # (label, --rules items)
    ("no house rule", []),
    ("15 cards each (cards=15)", ["cards=15"]),
    ("same rank too (same=1)", ["same=1"]),
    ("whole middle piles (remake=whole)", ["remake=whole"]),
    ("all three", ["cards=15", "same=1", "remake=whole"]),
)
LEVELS = ("beginner:beginner", "normal:normal", "expert:expert", "beginner:expert")
MATCHES = (("best of three (wins=2)", []), ("first to 25 points", ["points=25"]),
           ("first to 50 points", ["points=50"]), ("first to 100 points", ["points=100"]))
Z = 1.959964
K = {name: k for k, name in enumerate(FIELDS)}


def _mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, sd / math.sqrt(n)


def _diff(a, b):
    """Mean of a minus mean of b with its 95 % interval."""
    ma, sa = _mean_se(a)
    mb, sb = _mean_se(b)
    half = Z * math.sqrt(sa * sa + sb * sb)
    d = ma - mb
    return d, d - half, d + half


def _col(recs, name, scale=1):
    return [r[K[name]] / scale for r in recs]


def run(games, seed, jobs, level="normal:normal"):
    """Records and summaries: per house rule, per level, per match kind."""
    out = {"rules": {}, "levels": {}, "matches": {}}
    pairs = parse_pairings([level])
    for label, items in VARIATIONS:
        recs = simulate(pairs, games, seed, parse_rules(items, "speed"), jobs, kind="speed")[0][0]
        out["rules"][label] = (recs, summarize(recs))
    base = parse_rules([], "speed")
    for lv in LEVELS:
        recs = simulate(parse_pairings([lv]), games, seed, base, jobs, kind="speed")[0][0]
        out["levels"][lv] = (recs, summarize(recs))
    for label, items in MATCHES:
        n = max(2, games // 10)
        recs = simulate(pairs, n, seed, parse_rules(items, "speed"), jobs, matches=True,
                        kind="speed")[0][0]
        out["matches"][label] = (recs, summarize(recs, matches=True))
    return out


def _ci(r):
    return "%.1f %% [%.1f, %.1f]" % (100 * r["rate"], 100 * r["ci95"][0], 100 * r["ci95"][1])


def rules_table(res):
    """Per house rule: length, plays, stuck tables, remakes, deadlocks (Markdown lines)."""
    base = res["rules"]["no house rule"][0]
    lines = ["| house rule | mean length (s) | vs no house rule (s) | median (s) | p90 (s) | cards played "
             "| stuck tables | remakes | runs of 5+ stuck | deadlocked (limit 13) | draws |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for label, _ in VARIATIONS:
        recs, s = res["rules"][label]
        m = s["seconds_mean"]
        d = _diff(_col(recs, "ms", 1000), _col(base, "ms", 1000))
        vs = "—" if recs is base else "%+.1f [%+.1f, %+.1f]" % d
        run5 = s["streaks"]["5"][0]
        lines.append("| %s | %.1f [%.1f, %.1f] | %s | %.1f | %.1f | %.1f | %.2f | %.2f | %s | %s | %s |" % (
            label, m["mean"], m["ci95"][0], m["ci95"][1], vs, s["seconds"]["median"],
            s["seconds"]["p90"], s["covers"]["mean"], s["stucks_per_game"], s["remakes_per_game"],
            _ci({"rate": run5 / s["n"], "ci95": _wilson(run5, s["n"])}), _ci(s["deadlocks"]),
            _ci(s["draws"])))
    return lines


def _wilson(k, n):
    from tools.simulate import wilson
    return wilson(k, n)


def levels_table(res):
    """Default rules, each pairing of levels (Markdown lines)."""
    lines = ["| levels (A vs B) | median length (s) | mean (s) | p90 (s) | longest (s) | A wins | illegal plays |",
             "|---|---|---|---|---|---|---|"]
    for lv in LEVELS:
        s = res["levels"][lv][1]
        m = s["seconds_median"]
        lines.append("| %s | %.1f [%.1f, %.1f] | %.1f | %.1f | %.1f | %s | %.2f |" % (
            lv.replace(":", " vs "), m["median"], m["ci95"][0], m["ci95"][1], s["seconds_mean"]["mean"],
            s["seconds"]["p90"], s["seconds"]["max"], _ci(s["a_wins"]), s["illegals_per_game"]))
    return lines


def matches_table(res):
    """Each way to win a match (Markdown lines)."""
    lines = ["| match | games per match (median / mean / max) | match length (min: median / p90) |",
             "|---|---|---|"]
    for label, _ in MATCHES:
        recs, s = res["matches"][label]
        g = s["games_per_match"]
        lines.append("| %s | %g / %.2f / %g | %.1f / %.1f |" % (
            label, g["median"], g["mean"], g["max"], s["seconds"]["median"] / 60, s["seconds"]["p90"] / 60))
    return lines


def plots(res, directory, level="normal:normal"):
    import os

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4))
    top = max(r[K["ms"]] for label, _ in VARIATIONS for r in res["rules"][label][0]) / 1000
    bins = [x * top / 50 for x in range(51)]
    for label, _ in VARIATIONS:
        ax.hist(_col(res["rules"][label][0], "ms", 1000), bins=bins, histtype="step", linewidth=1.4,
                label=label)
    ax.set_xlabel("game length (simulated seconds), %s" % level.replace(":", " vs "))
    ax.set_ylabel("games")
    ax.set_title("Speed: length of a game by house rule")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(directory, "speed_length.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return [path]


def main(argv=None):
    parser = cli.Parser("tools.speed_houses", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=cli.whole(8, GAMES_MAX), default=2000, help="games per house rule and level")
    parser.add_argument("--seed", type=cli.SEED, default=1, help="the seed of every game")
    parser.add_argument("--jobs", type=cli.JOBS, default=1, help="worker processes")
    parser.add_argument("--levels", default="normal:normal", help="one pairing A:B for the house rules")
    parser.add_argument("--plots", metavar="DIR", help="write speed_length.png")
    args = parser.parse_args(argv)
    if args.plots and plots_unavailable("tools.speed_houses"):
        sys.stderr.write(plots_unavailable("tools.speed_houses") + "\n")
        return 2
    if args.plots:
        try:
            cli.output_folder("--plots", args.plots)
        except cli.OutputError as err:
            return cli.fail("tools.speed_houses", err)
    try:
        parse_pairings([args.levels])  # checked before the first game
        res = run(args.games, args.seed, args.jobs, args.levels)
    except (argparse.ArgumentTypeError, ValueError) as err:
        parser.error(str(err))
    out = sys.stdout
    out.write("\n".join(rules_table(res)) + "\n\n" + "\n".join(levels_table(res)) + "\n\n"
              + "\n".join(matches_table(res)) + "\n")
    if args.plots:
        try:
            out.write("\nplots: %s\n" % ", ".join(plots(res, args.plots, args.levels)))
        except OSError as err:  # a disk that filled up: the tables are out already
            return cli.fail("tools.speed_houses", "cannot write into --plots %s: %s"
                            % (args.plots, cli.why(err)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
