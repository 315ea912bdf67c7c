"""Print the traces of seeded shared-row games; run on CPython and in the VMs and compared.

The logs are made here from the engine's own generator (so every interpreter plays
the same presses) and replayed through engine.log + engine.trace: identical output
proves the generator, the shuffle, the row rules and the trace format agree card for
card. Each rule set is one of RULES-ROW.md's variations.
"""

from engine.rng import Rng
from engine.trace import replay_text

RULES = ("rules game=row", "rules game=row match=suit tie=coin", "rules game=row match=either piles=3",
         "rules game=row piles=6 redeal=two", "rules game=row redeal=two penalty=0 deadlock=2 wins=1")


def piles_of(rules):
    for item in rules.split(" "):
        if item.startswith("piles="):
            return int(item[6:])
    return 4


def make_log(seed, rules):
    """A log with a seeded deal and a pseudo-random press stream across the wrap."""
    rng = Rng(seed)
    n = piles_of(rules)
    t = (1 << 29) - 3000 + rng.below(2000)
    lines = ["CSLOG 1", rules, "seed %d" % seed, "start %d" % t]
    for _ in range(300):
        t = (t + rng.below(3) * rng.below(200)) % (1 << 29)
        lines.append("press %d %s %d" % (t, "AB"[rng.below(2)], rng.below(n)))
    lines.append("clock %d" % ((t + 2000) % (1 << 29)))
    return "\n".join(lines)


def main():
    for seed in range(10):
        for rules in RULES:
            trace, err = replay_text(make_log(seed * 7919 + 1, rules))
            print("# seed %d %s: %d events, error %s" % (seed, rules, len(trace), err))
            for line in trace:
                print(line)


main()
