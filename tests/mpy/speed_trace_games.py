"""Print the traces of seeded Speed games; run on CPython and in the VMs and compared.

The logs are made here from the engine's own generator (so every interpreter plays
the same presses) and replayed through engine.log + engine.trace: identical output
proves the generator, the shuffle, the Speed rules (turns, both remakes, coins,
points) and the trace format agree card for card.
"""

from engine.family import OVER
from engine.log import LogReader
from engine.rng import Rng
from engine.speed import SpeedGame
from engine.trace import replay_text

RULES = ("rules game=speed", "rules game=speed cards=15 tie=coin",
         "rules game=speed same=1 remake=whole points=25",
         "rules game=speed remake=whole stuck=0 deal=0 penalty=0 deadlock=40",
         "rules game=speed deadlock=2 deadlock_result=draw wins=1")


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
    """A match log played by two random players who mostly make plays that fit.

    The players read the engine's ``legal`` masks, so the stream differs by rules;
    the same seed makes the same log on every interpreter. Games start near the
    2**29 wrap, and a match goes on (new seed, start) until it is over or 4 games."""
    rng = Rng(seed)
    game = SpeedGame(None)
    lines = ["CSLOG 1", rules]
    reader = LogReader(game, None)
    for line in lines:
        reader.feed(line)
    game = reader.game
    t = (1 << 29) - 30000 + rng.below(20000)
    for g in range(4):
        if game.match_over:
            break
        for line in ("seed %d" % (seed + g), "start %d" % t):
            lines.append(line)
            reader.feed(line)
        for _ in range(3000):
            t = (t + 1 + rng.below(3) * rng.below(300)) % (1 << 29)
            game.advance(t)
            if game.phase == OVER:
                break
            for p in range(2):
                mask = game.legal[p]
                roll = rng.below(16)
                if roll < 2:
                    n = rng.below(10)
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
    return "\n".join(lines)


def main():
    for seed in range(6):
        for rules in RULES:
            trace, err = replay_text(make_log(seed * 7919 + 1, rules))
            print("# seed %d %s: %d events, error %s" % (seed, rules, len(trace), err))
            for line in trace:
                print(line)


main()
