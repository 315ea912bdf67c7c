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

DURATION_LIMIT = const(1 << 28)  # times in a log: two in a row are less than this apart
# What the rule books mean (LOG.md, "Rules values"): a lock, a stuck pause or a deal
# window of at most 10 s; at most 100 stuck tables in a row (a cycle of deals repeats
# well before: 13 deals in the 2x4 game); a match of at most 99 won games. They also
# bound the work of one log line: a line runs at most DEADLOCK_MAX stuck deals.
DURATION_MAX = const(10000)
DEADLOCK_MAX = const(100)
WINS_MAX = const(99)


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

    def check_family(self):
        """The checks every game's rules share: the durations, the match length, the tie
        policy, and the deadlock keys where the game has them."""
        for key in ("penalty", "stuck", "deal"):
            check_int(key, getattr(self, key), 0)
        if "deadlock" in self.KEYS:
            check_int("deadlock", self.deadlock, 1, DEADLOCK_MAX)
            check_choice("deadlock_result", self.deadlock_result, DEADLOCK_NAMES)
        check_int("wins", self.wins, 1, WINS_MAX)
        check_choice("tie", self.tie, TIE_NAMES)

    def copy_from(self, other):
        """Copy every setting from another rules object of the same game."""
        for key in self.KEYS:
            setattr(self, key, getattr(other, key))


def check_int(key, value, low, high=DURATION_MAX):
    """Raise ``ValueError`` unless ``value`` is an int (not a bool, not a float such as
    4.0: the games index and count with it) from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError("%s must be an integer from %d to %d, not %r" % (key, low, high, value))


def check_choice(key, value, names):
    """Raise ``ValueError`` unless ``value`` is an int indexing ``names`` (a bool counts as
    0/1; a float such as 1.0 does not)."""
    if isinstance(value, bool):
        value = int(value)
    if type(value) is not int or not 0 <= value < len(names):
        raise ValueError("%s must be one of %s" % (key, "/".join(names)))
