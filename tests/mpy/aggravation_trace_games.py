"""Print the traces of seeded Aggravation and Frustration games; run on CPython and in the
VMs and compared (tests/test_aggravation_vm_parity.py).

The logs are made here from the engine's own generator (so every interpreter plays the
same presses) and replayed through engine.log + engine.trace: identical output proves
the generator, the shuffle, the rules (rounds, dry pauses, taps, calls, scoops, shares,
coins) and the trace format agree card for card.
"""

from engine.aggravation import AggravationGame
from engine.family import OVER
from engine.log import LogError, LogReader, play_lines
from engine.rng import Rng
from engine.trace import Tracer

RULES = ("rules game=aggravation", "rules game=aggravation frustration=1",
         "rules game=aggravation tie=coin rutter=1 call=150",
         "rules game=aggravation frustration=1 target=20 tie=coin stuck=0 deal=0 penalty=0",
         "rules game=aggravation call=1000 wins=1")


def _pick(rng, mask):
    """A random set bit of ``mask`` (not 0)."""
    k = rng.below(bin(mask).count("1"))
    n = 0
    while True:
        if (mask >> n) & 1:
            if not k:
                return n
            k -= 1
        n += 1


def make_log(seed, rules):
    """A match log played by two random players who mostly press what they may: a
    coverable position with cards, a rank shown twice without. Games start near the
    2**29 wrap; a match goes on (new seed, start) until it is over or 3 games."""
    rng = Rng(seed)
    lines = ["CSLOG 1", rules]
    reader = LogReader(AggravationGame(None), None)
    for line in lines:
        reader.feed(line)
    game = reader.game
    t = (1 << 29) - 30000 + rng.below(20000)
    for g in range(3):
        if game.match_over:
            break
        for line in ("seed %d" % (seed + g), "start %d" % t):
            lines.append(line)
            reader.feed(line)
        for _ in range(4000):
            t = (t + 1 + rng.below(3) * rng.below(300)) % (1 << 29)
            game.advance(t)
            if game.phase == OVER:
                break
            for p in range(2):
                mask = game.coverable if game.packs[p] else game.pairs
                roll = rng.below(16)
                if roll < 2:
                    n = rng.below(28)
                elif roll < 10 and mask:
                    n = _pick(rng, mask)
                else:
                    continue
                line = "press %d %s %d" % (t, "AB"[p], n)
                lines.append(line)
                reader.feed(line)
        t = (t + 500) % (1 << 29)
        lines.append("clock %d" % t)
        reader.feed("clock %d" % t)
    return lines


def main():
    for seed in range(4):
        for rules in RULES:
            lines = make_log(seed * 7919 + 1, rules)
            print("# seed %d %s: %d log lines" % (seed, rules, len(lines)))
            game = AggravationGame()
            tracer = Tracer(game, print)  # printed as it comes: CircuitPython's heap is 1 MiB
            try:
                play_lines(game, lines, tracer.follow)
            except LogError as err:
                print("# error %s" % err)


main()
