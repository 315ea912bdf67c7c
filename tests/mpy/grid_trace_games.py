"""Print the traces of a set of seeded games; run on CPython and in the VM and compared.

The logs are made here from the engine's own generator (so both interpreters play
the same presses) and replayed through engine.log + engine.trace: identical output
proves the generator, the shuffle, the rules and the trace format agree card for card.
"""

from engine.rng import Rng
from engine.trace import replay_text

RULES = ("", "rules tie=coin", "rules rutter=1 penalty=0", "rules deadlock=2 deadlock_result=fewer wins=1")


def make_log(seed, rules):
    """A log with a seeded deal and a pseudo-random press stream across the wrap."""
    rng = Rng(seed)
    t = (1 << 29) - 3000 + rng.below(2000)
    lines = ["CSLOG 1"]
    if rules:
        lines.append(rules)
    lines += ["seed %d" % seed, "start %d" % t]
    for _ in range(300):
        t = (t + rng.below(3) * rng.below(200)) % (1 << 29)
        lines.append("press %d %s %d" % (t, "AB"[rng.below(2)], rng.below(8)))
    lines.append("clock %d" % ((t + 2000) % (1 << 29)))
    return "\n".join(lines)


def main():
    for seed in range(12):
        for rules in RULES:
            trace, err = replay_text(make_log(seed * 7919 + 1, rules))
            print("# seed %d %s: %d events, error %s" % (seed, rules, len(trace), err))
            for line in trace:
                print(line)


main()
