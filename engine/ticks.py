"""Wrap-aware millisecond arithmetic, as CircuitPython's ``supervisor.ticks_ms()``.

The board's tick counter wraps at 2**29 ms (about 6.2 days; the first wrap comes
about 65 s after boot because the counter starts near the top). Every comparison of
two times in the engine goes through :func:`ticks_diff`, so a game that straddles
the wrap plays exactly like one that does not. All intermediates stay below 2**30,
so nothing here allocates a long int on MicroPython.
"""

from engine.compat import const

TICKS_PERIOD = const(1 << 29)
TICKS_MAX = const((1 << 29) - 1)
TICKS_HALF = const(1 << 28)


def ticks_add(t, delta):
    """Return ``t + delta`` on the wrapping clock (``0 <= delta < 2**28``)."""
    return (t + delta) & TICKS_MAX


def ticks_diff(a, b):
    """Return ``a - b`` in ms, wrap-aware, in ``[-2**28, 2**28)``."""
    return ((a - b + TICKS_HALF) & TICKS_MAX) - TICKS_HALF
