"""The engine's own pseudo-random generator and Fisher-Yates shuffle.

A 30-bit xorshift (shifts 7, 13, 15; full period 2**30 - 1, checked by the order of
its GF(2) matrix). Every intermediate is masked *before* it is shifted left, so the
state never leaves MicroPython's small-int range and a step allocates nothing: the
same seed gives the same numbers on CPython, MicroPython and CircuitPython.
"""

from engine.compat import const

_MASK30 = const((1 << 30) - 1)
SEED_LIMIT = const(1 << 30)
_WARMUP = const(20)  # steps that spread a small seed's bits over the state


def _bit_lengths():
    table = bytearray(256)
    for m in range(1, 256):
        table[m] = table[m >> 1] + 1
    return bytes(table)


_BITS = _bit_lengths()  # _BITS[m]: the number of bits of m (m < 256)


class Rng:
    """30-bit xorshift generator; ``seed`` is an int in ``[0, 2**30)``."""

    def __init__(self, seed=0):
        self.state = 1
        self.seed(seed)

    def seed(self, seed):
        """Restart the sequence from ``seed`` (seeds 0 and 2**30-1 coincide)."""
        if not 0 <= seed < SEED_LIMIT:
            raise ValueError("seed must be in [0, 2**30)")
        self.state = seed % _MASK30 + 1  # never 0: xorshift's fixed point
        for _ in range(_WARMUP):
            self.next()

    def next(self):
        """Return the next state, an int in ``[1, 2**30)``."""
        x = self.state
        x ^= (x & 0x7FFFFF) << 7  # 0x7FFFFF = _MASK30 >> 7
        x ^= x >> 13
        x ^= (x & 0x7FFF) << 15  # 0x7FFF = _MASK30 >> 15
        self.state = x
        return x

    def below(self, n):
        """Return a uniform int in ``[0, n)`` for ``1 <= n <= 2**20``.

        Rejection sampling on the top ``bits`` bits of each state, the fewest that
        cover ``n`` (the state step of ``next`` is written out: it is the hot path).
        """
        m = n - 1
        bits = _BITS[m] if m < 256 else 8 + _BITS[m >> 8] if m < 65536 else 16 + _BITS[m >> 16]
        shift = 30 - bits  # top bits are the best mixed
        x = self.state
        while True:
            x ^= (x & 0x7FFFFF) << 7
            x ^= x >> 13
            x ^= (x & 0x7FFF) << 15
            if x >> shift < n:
                self.state = x
                return x >> shift


def shuffle(rng, buf, n):
    """Shuffle ``buf[0:n]`` in place (Fisher-Yates, from the top index down)."""
    i = n - 1
    while i > 0:
        j = rng.below(i + 1)
        c = buf[i]
        buf[i] = buf[j]
        buf[j] = c
        i -= 1
