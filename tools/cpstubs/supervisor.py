"""Stand-in for CircuitPython's ``supervisor``: a fake millisecond clock.

``ticks_ms()`` returns the fake time, which wraps at 2**29 like the board's.
Tests set it (:func:`set_ticks`, :func:`advance`) or install a hook that runs on
every ``ticks_ms()`` call (to step time, inject key events, or stop a loop).
"""

TICKS_PERIOD = 1 << 29

_now = 0
_hook = None


def ticks_ms():
    """Return the fake clock (ms, modulo 2**29), after running the hook if set."""
    if _hook is not None:
        _hook(_now)
    return _now


def set_ticks(t):
    """Set the fake clock to ``t`` (taken modulo 2**29)."""
    global _now
    _now = t % TICKS_PERIOD


def advance(ms):
    """Move the fake clock on by ``ms`` (wrapping)."""
    global _now
    _now = (_now + ms) % TICKS_PERIOD


def now():
    """Return the fake clock without running the hook."""
    return _now


def set_hook(hook):
    """Call ``hook(now)`` on every ``ticks_ms()`` (None removes it)."""
    global _hook
    _hook = hook


class _Runtime:
    autoreload = True
    serial_connected = False
    usb_connected = False
    serial_bytes_available = 0


runtime = _Runtime()


def reload():
    """Do nothing (a board would restart code.py)."""
