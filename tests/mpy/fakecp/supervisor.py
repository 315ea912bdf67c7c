"""Fake ``supervisor``: ``ticks_ms()`` reads ``now``, which a test sets."""

now = 0


def ticks_ms():
    return now
