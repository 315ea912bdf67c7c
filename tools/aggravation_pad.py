"""How many buttons a press of Aggravation takes on the handheld's pads (docs/RULES-AGGRAVATION.md).

Usage: ``.venv/bin/python -m tools.aggravation_pad --games 2000 --seed 1 [--jobs 2]``

Plays games between two CPU players (``engine/aggravation_bot.py``, normal against
normal, seeded exactly as ``tools.simulate --game aggravation`` and
``tools.aggravation_claims`` seed game ``index``) of Aggravation and of Frustration
(target 10, and 20 as in the demo), and puts every press a CPU player makes through the
firmware's own controls (``hw.games.aggravation.keys.Controls``, fresh for each press,
on the table as it stands when the player presses): one button (the column's only
stack, or its only legal one), two (the column selected, then the line), or none that
presses it (a slip on a column whose one legal stack the column's button presses
instead). Prints a Markdown table: presses by the buttons they take, over every press
and over the presses the rules then judged a cover, a tap or a call.

Implementation Notes
--------------------

Pure CPython; the controls read the engine's views only, so they run unchanged on the
desktop. Intervals: Wilson (``tools.simulate.rate``). The result does not depend on
``--jobs``.
"""

import argparse
import multiprocessing
import sys

from engine.aggravation import CALL, TAP, AggravationGame
from engine.aggravation_bot import AggravationBot
from engine.aggravation_rules import AggravationRules
from engine.family import COVER, EV_PRESS
from engine.ticks import TICKS_PERIOD
from hw.games.aggravation.keys import Controls, column_button, line_of
from tools.simulate import mix, parse_pairings, play_game, rate

VARIATIONS = (  # (label, rules)
    ("Aggravation", {}),
    ("Frustration, target 10", {"frustration": 1}),
    ("Frustration, target 20 (the demo's)", {"frustration": 1, "target": 20}),
)
ONE, TWO, OTHER = 0, 1, 2  # what a press takes: one button, two, or it cannot be pressed


def buttons(game, seat, pos):
    """What pressing ``pos`` takes on ``seat``'s pad from no selection (ONE, TWO, OTHER)."""
    keys = Controls()
    button = column_button(seat, pos)
    got = keys.target(game, seat, button)
    if got == pos:
        return ONE
    if got >= 0:
        return OTHER
    assert keys.target(game, seat, (button & 4) + line_of(pos)) == pos
    return TWO


class PadBot(AggravationBot):
    """The CPU player, each of whose presses is also put through the pad's controls."""

    def __init__(self, game, player, level, seed, tally):
        AggravationBot.__init__(self, game, player, level, seed)
        self.tally = tally

    def step(self, now):
        pos = AggravationBot.step(self, now)
        if pos >= 0:
            self.tally.pending[(now, self.player, pos)] = buttons(self.game, self.player, pos)
        return pos


class Tally:
    """Counts [ONE, TWO, OTHER] over every press and over the legal ones (the sink)."""

    def __init__(self, game):
        self.game = game
        self.pending = {}
        self.all = [0, 0, 0]
        self.legal = [0, 0, 0]

    def event(self, ev, t, i):
        if ev != EV_PRESS:
            return
        g = self.game
        how = self.pending.pop((t, g.tick_player[i], g.tick_pos[i]), None)
        if how is None:
            return
        self.all[how] += 1
        if g.tick_result[i] in (COVER, TAP, CALL):
            self.legal[how] += 1


def run_one(rules_kw, seed, index):
    game = AggravationGame(AggravationRules(**rules_kw))
    tally = Tally(game)
    game.sink = tally.event
    t = mix(seed, index, 1) & (TICKS_PERIOD - 1)
    (_, pa), (_, pb) = parse_pairings(["normal:normal"])[0]  # as tools.aggravation_claims
    bots = (PadBot(game, 0, pa, mix(seed, index, 2), tally),
            PadBot(game, 1, pb, mix(seed, index, 3), tally))
    game.shuffle(mix(seed, index, 4, 0))
    game.start(t)
    play_game(game, bots, t)
    return tally.all + tally.legal


def _chunk(job):
    rules_kw, seed, lo, hi = job
    out = [0] * 6
    for i in range(lo, hi):
        for k, n in enumerate(run_one(rules_kw, seed, i)):
            out[k] += n
    return out


def play(rules_kw, games, seed, jobs):
    """Summed [all ONE, TWO, OTHER, legal ONE, TWO, OTHER] of ``games`` games."""
    chunk = max(1, min(50, games // (4 * jobs) or 1))
    work = [(rules_kw, seed, lo, min(games, lo + chunk)) for lo in range(0, games, chunk)]
    total = [0] * 6
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            parts = pool.map(_chunk, work)
    else:
        parts = [_chunk(job) for job in work]
    for part in parts:
        for k in range(6):
            total[k] += part[k]
    return total


def _pct(k, n):
    r = rate(k, n)
    return "%.1f %% [%.1f, %.1f]" % (100 * r["rate"], 100 * r["ci95"][0], 100 * r["ci95"][1])


def table(results, games):
    lines = ["| normal vs normal (%d games each) | presses | one button | two buttons "
             "| not reachable (a slip) | legal presses | legal: two buttons |" % games,
             "|---|---|---|---|---|---|---|"]
    for label, counts in results:
        n = sum(counts[:3])
        legal = sum(counts[3:])
        lines.append("| %s | %d | %s | %s | %s | %d | %s |" % (
            label, n, _pct(counts[0], n), _pct(counts[1], n), _pct(counts[2], n), legal,
            _pct(counts[4], legal)))
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(prog="tools.aggravation_pad", description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=2000, help="games per variation (default 2000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        print("tools.aggravation_pad: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    results = []
    for label, rules_kw in VARIATIONS:
        counts = play(rules_kw, args.games, args.seed, args.jobs)
        assert sum(counts[:3]) >= sum(counts[3:]) > 0, counts  # every game had presses
        results.append((label, counts))
    print("\n".join(table(results, args.games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
