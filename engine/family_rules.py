"""What every game's rules object shares: the tie and deadlock codes, the checks, the base.

A rules object is the configuration of one game, validated when it is set up (never
mid-game). Each game's own rules module (``engine.<game>_rules``) subclasses
:class:`RulesBase`, names its ``GAME``, its log ``KEYS`` and its ``NAMED`` keys, and
checks its values in ``check()``.

Implementation Notes
--------------------

Every value is a small int, so a game reads its rules without allocating. Bad values
raise ``ValueError`` at set-up; a game's ``start``/``press``/``advance`` never raise.
"""

from engine.compat import const

TIE_REPLAY = const(0)
TIE_COIN = const(1)
TIE_NAMES = ("replay", "coin")

DEADLOCK_DRAW = const(0)
DEADLOCK_FEWER = const(1)
DEADLOCK_NAMES = ("draw", "fewer")

DURATION_LIMIT = const(1 << 28)  # durations and counts stay below 2**28


class RulesBase:
    """What every game's rules object does alike: set from log text, write as log text,
    copy. A subclass names its ``GAME``, its log ``KEYS`` (in the order a writer prints
    them), in ``NAMED`` the keys written as names rather than numbers, and in
    ``PRESS`` what a ``press`` line's last field names (``codes()`` of them exist)."""

    GAME = "grid"
    KEYS = ()
    NAMED = {}
    PRESS = "position"

    def codes(self):
        """How many press codes (positions, piles, plays) a game of these rules takes."""
        return 8

    def set(self, key, text):
        """Set one setting from its log text, e.g. ``set("tie", "coin")``."""
        if key == "game" and "game" in self.KEYS:
            if text != self.GAME:
                raise ValueError("game of these rules is %s, not %r" % (self.GAME, text))
            return
        names = self.NAMED.get(key)
        if names is not None:
            if text not in names:
                raise ValueError("%s must be one of %s, not %r" % (key, "/".join(names), text))
            value = names.index(text)
        elif key in self.KEYS:
            if not text or not all("0" <= c <= "9" for c in text):  # ASCII: not str.isdigit
                raise ValueError("%s must be a non-negative integer, not %r" % (key, text))
            value = int(text)
        elif "game" in self.KEYS:
            raise ValueError("unknown rules key %r for game=%s" % (key, self.GAME))
        else:
            raise ValueError("unknown rules key %r" % key)
        old = getattr(self, key)
        setattr(self, key, value)
        try:
            self.check()
        except ValueError:
            setattr(self, key, old)
            raise

    def text(self, key):
        """Return one setting as it is written in a log."""
        value = getattr(self, key)
        names = self.NAMED.get(key)
        return str(value) if names is None else names[value]

    def copy_from(self, other):
        """Copy every setting from another rules object of the same game."""
        for key in self.KEYS:
            setattr(self, key, getattr(other, key))


def check_int(key, value, low):
    """Raise ``ValueError`` unless ``value`` is an int (not a bool) in [low, 2**28)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < DURATION_LIMIT:
        raise ValueError("%s must be an integer in [%d, 2**28), not %r" % (key, low, value))


def check_choice(key, value, names):
    """Raise ``ValueError`` unless ``value`` indexes ``names`` (a bool counts as 0/1)."""
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, int) or not 0 <= value < len(names):
        raise ValueError("%s must be one of %s" % (key, "/".join(names)))
