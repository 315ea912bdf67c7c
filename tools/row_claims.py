"""Check the shared-row rule sheet's claims with bot games (docs/SIMULATION.md).

Usage: ``.venv/bin/python -m tools.row_claims --games 4000 --seed 1 [--plots docs/img] [--jobs 1]``

Plays ``--games`` normal-vs-normal games of each variation of RULES-ROW.md with
``tools.simulate`` (the same driver, seeds and statistics as ``tools.simulate
--game row``) and prints one Markdown table: claim, measured figure with its 95 %
interval, verdict. ``--plots DIR`` also draws the game-length distributions
(``row_length.png``) and the mean lengths with their intervals (``row_means.png``).

Implementation Notes
--------------------

A verdict is "true" when the 95 % interval of the measured difference (or share)
lies on the claimed side, "false" when it lies on the other side, "not shown"
otherwise. Intervals: means by the normal approximation (the samples are thousands
of games), shares by Wilson, medians by order statistics (``tools.simulate``).
"""

import argparse
import math
import sys

from tools import cli
from tools.simulate import GAMES_MAX, parse_pairings, parse_rules, simulate, summarize
from tools.plotcheck import plots_unavailable

VARIATIONS = (  # (label, --rules items)
    ("rank (default)", []),
    ("suit match", ["match=suit"]),
    ("rank or suit", ["match=either"]),
    ("three piles", ["piles=3"]),
    ("six piles", ["piles=6"]),
    ("draw two if stuck", ["redeal=two"]),
)
Z = 1.959964


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


def _verdict(lo, hi, claimed_positive=True):
    if (lo > 0) if claimed_positive else (hi < 0):
        return "**true**"
    if (hi < 0) if claimed_positive else (lo > 0):
        return "**false**"
    return "not shown"


def run(games, seed, jobs, level="normal:normal"):
    """Records and summaries per variation."""
    pairs = parse_pairings([level])
    out = {}
    for label, items in VARIATIONS:
        rules_kw = parse_rules(items, "row")
        recs = simulate(pairs, games, seed, rules_kw, jobs, kind="row")[0][0]
        out[label] = (recs, summarize(recs))
    return out


def table(res, level="normal:normal"):
    """The claims table (Markdown lines)."""
    def secs(label):
        return [r[4] / 1000 for r in res[label][0]]

    def col(label, k):
        return [r[k] for r in res[label][0]]

    base = res["rank (default)"][1]
    rows = []
    d = _diff(secs("suit match"), secs("rank (default)"))
    s = res["suit match"][1]["seconds_mean"]
    rows.append(("Suit match makes a longer game",
                 "mean %.1f s [%.1f, %.1f] vs %.1f s with rank match: %+.1f s [%+.1f, %+.1f]"
                 % (s["mean"], s["ci95"][0], s["ci95"][1], base["seconds_mean"]["mean"], *d),
                 _verdict(d[1], d[2])))
    e = res["rank or suit"][1]
    u = e["under_60s"]
    rows.append(("Rank-or-suit games end in under a minute",
                 "%.1f %% [%.1f, %.1f] of games under 60 s; median %.1f s, p90 %.1f s, longest %.1f s"
                 % (100 * u["rate"], 100 * u["ci95"][0], 100 * u["ci95"][1],
                    e["seconds"]["median"], e["seconds"]["p90"], e["seconds"]["max"]),
                 "**true**" if u["ci95"][0] > 0.95 else ("**false**" if u["ci95"][1] < 0.5 else "mostly")))
    # Harder: fewer chances to play -- more stuck tables for every card played.
    three = res["three piles"][1]
    st3 = [r[6] / max(1, r[3]) for r in res["three piles"][0]]
    st4 = [r[6] / max(1, r[3]) for r in res["rank (default)"][0]]
    d = _diff(st3, st4)
    dc = _diff(col("three piles", 3), col("rank (default)", 3))
    rows.append(("Three piles is harder",
                 "stuck tables per card played %.2f vs %.2f with four: %+.2f [%+.2f, %+.2f]; "
                 "cards played per game %.1f vs %.1f: %+.1f [%+.1f, %+.1f]"
                 % (sum(st3) / len(st3), sum(st4) / len(st4), d[0], d[1], d[2],
                    three["covers"]["mean"], base["covers"]["mean"], *dc),
                 _verdict(d[1], d[2])))
    d = _diff(secs("six piles"), secs("rank (default)"))
    s = res["six piles"][1]["seconds_mean"]
    rows.append(("Six piles makes a longer game",
                 "mean %.1f s [%.1f, %.1f] vs %.1f s with four: %+.1f s [%+.1f, %+.1f]"
                 % (s["mean"], s["ci95"][0], s["ci95"][1], base["seconds_mean"]["mean"], *d),
                 _verdict(d[1], d[2])))
    m = base["seconds_median"]
    w = base["from_30_to_90s"]
    rows.append(("A typical game lasts 30 to 90 seconds",
                 "median %.1f s [%.1f, %.1f]; %.1f %% [%.1f, %.1f] of games last 30-90 s"
                 % (m["median"], m["ci95"][0], m["ci95"][1], 100 * w["rate"],
                    100 * w["ci95"][0], 100 * w["ci95"][1]),
                 "**true**" if m["ci95"][0] >= 30 and m["ci95"][1] <= 90 else
                 ("**false**" if m["ci95"][1] < 30 or m["ci95"][0] > 90 else "not shown")))
    lines = ["| claim | measured (%s, 95 %% intervals) | verdict |" % level.replace(":", " vs "),
             "|---|---|---|"]
    lines += ["| %s | %s | %s |" % row for row in rows]
    return lines


def variations_table(res):
    """Per-variation figures (Markdown lines)."""
    lines = ["| variation | mean length (s) | median (s) | p90 (s) | cards played | stuck tables | deals | draws | ties |",
             "|---|---|---|---|---|---|---|---|---|"]
    for label, _ in VARIATIONS:
        s = res[label][1]
        lines.append("| %s | %.1f [%.1f, %.1f] | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f %% [%.1f, %.1f] | %.3f |" % (
            label, s["seconds_mean"]["mean"], s["seconds_mean"]["ci95"][0], s["seconds_mean"]["ci95"][1],
            s["seconds"]["median"], s["seconds"]["p90"], s["covers"]["mean"], s["stucks_per_game"],
            s["deals_per_game"], 100 * s["draws"]["rate"], 100 * s["draws"]["ci95"][0],
            100 * s["draws"]["ci95"][1], s["ties_per_game"]))
    return lines


def plots(res, directory, level="normal:normal"):
    import os

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    files = []
    fig, ax = plt.subplots(figsize=(7, 4))
    top = max(r[4] for label, _ in VARIATIONS for r in res[label][0]) / 1000
    bins = [x * top / 50 for x in range(51)]
    for label, _ in VARIATIONS:
        ax.hist([r[4] / 1000 for r in res[label][0]], bins=bins, histtype="step", linewidth=1.4,
                label=label)
    ax.axvspan(30, 90, color="grey", alpha=0.15, label="claimed 30-90 s")
    ax.set_xlabel("game length (simulated seconds), %s" % level.replace(":", " vs "))
    ax.set_ylabel("games")
    ax.set_title("Shared-row California Speed: length of a game")
    ax.legend(fontsize=8)
    fig.tight_layout()
    files.append(os.path.join(directory, "row_length.png"))
    fig.savefig(files[-1], dpi=100)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    labels = [label for label, _ in VARIATIONS]
    means = [res[label][1]["seconds_mean"]["mean"] for label in labels]
    errs = [[m - res[label][1]["seconds_mean"]["ci95"][0] for m, label in zip(means, labels)],
            [res[label][1]["seconds_mean"]["ci95"][1] - m for m, label in zip(means, labels)]]
    ax.barh(labels, means, xerr=errs, capsize=3, color="#7aa6c2")
    ax.invert_yaxis()
    ax.set_xlabel("mean game length (s), 95 % interval")
    ax.set_title("Mean length by variation (%s)" % level.replace(":", " vs "))
    fig.tight_layout()
    files.append(os.path.join(directory, "row_means.png"))
    fig.savefig(files[-1], dpi=100)
    plt.close(fig)
    return files


def main(argv=None):
    parser = cli.Parser("tools.row_claims", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=cli.whole(2, GAMES_MAX), default=4000, help="games per variation")
    parser.add_argument("--seed", type=cli.SEED, default=1, help="the seed of every game")
    parser.add_argument("--jobs", type=cli.JOBS, default=1, help="worker processes")
    parser.add_argument("--levels", default="normal:normal", help="one pairing A:B")
    parser.add_argument("--plots", metavar="DIR", help="write row_length.png and row_means.png")
    args = parser.parse_args(argv)
    if args.plots and plots_unavailable("tools.row_claims"):
        sys.stderr.write(plots_unavailable("tools.row_claims") + "\n")
        return 2
    if args.plots:
        try:
            cli.output_folder("--plots", args.plots)
        except cli.OutputError as err:
            return cli.fail("tools.row_claims", err)
    try:
        parse_pairings([args.levels])  # checked before the first game
        res = run(args.games, args.seed, args.jobs, args.levels)
    except (argparse.ArgumentTypeError, ValueError) as err:
        parser.error(str(err))
    out = sys.stdout
    out.write("\n".join(table(res, args.levels)) + "\n\n" + "\n".join(variations_table(res)) + "\n")
    if args.plots:
        try:
            out.write("\nplots: %s\n" % ", ".join(plots(res, args.plots, args.levels)))
        except OSError as err:  # a disk that filled up: the tables are out already
            return cli.fail("tools.row_claims", "cannot write into --plots %s: %s"
                            % (args.plots, cli.why(err)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
