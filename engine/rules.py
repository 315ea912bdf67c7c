"""The rules configuration: one object, validated when it is set up.

Defaults are those of RULES.md. Every value is a small int, so a game reads them
without allocating. Bad values raise ``ValueError`` here, at set-up, never mid-game.
"""

from engine.compat import const

TIE_REPLAY = const(0)
TIE_COIN = const(1)
TIE_NAMES = ("replay", "coin")

DEADLOCK_DRAW = const(0)
DEADLOCK_FEWER = const(1)
DEADLOCK_NAMES = ("draw", "fewer")

DURATION_LIMIT = const(1 << 28)  # durations and counts stay below 2**28

# Log keys, in the order a writer prints them.
KEYS = ("penalty", "stuck", "deal", "tie", "deadlock", "deadlock_result", "rutter", "wins")


class RulesBase:
    """What every game's rules object does alike: set from log text, write as log text,
    copy. A subclass names its ``GAME``, its log ``KEYS`` (in the order a writer prints
    them) and, in ``NAMED``, the keys written as names rather than numbers."""

    GAME = "grid"
    KEYS = ()
    NAMED = {}

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


class Rules(RulesBase):
    """Rules configuration of the 2x4 game; attribute names are the match-log keys."""

    GAME = "grid"  # the log's ``game`` (RULES.md's 2x4 game: never written, the default)
    KEYS = KEYS
    NAMED = {"tie": TIE_NAMES, "deadlock_result": DEADLOCK_NAMES}

    def __init__(self, penalty=500, stuck=1000, deal=300, tie=TIE_REPLAY,
                 deadlock=13, deadlock_result=DEADLOCK_DRAW, rutter=0, wins=2):
        self.penalty = penalty
        self.stuck = stuck
        self.deal = deal
        self.tie = tie
        self.deadlock = deadlock
        self.deadlock_result = deadlock_result
        self.rutter = rutter
        self.wins = wins
        self.check()

    def check(self):
        """Raise ``ValueError`` naming the first invalid setting."""
        for key in ("penalty", "stuck", "deal"):
            _check_int(key, getattr(self, key), 0)
        _check_int("deadlock", self.deadlock, 1)
        _check_int("wins", self.wins, 1)
        _check_choice("tie", self.tie, TIE_NAMES)
        _check_choice("deadlock_result", self.deadlock_result, DEADLOCK_NAMES)
        _check_choice("rutter", self.rutter, ("0", "1"))
        self.rutter = int(self.rutter)


def _check_int(key, value, low):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < DURATION_LIMIT:
        raise ValueError("%s must be an integer in [%d, 2**28), not %r" % (key, low, value))


def _check_choice(key, value, names):
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, int) or not 0 <= value < len(names):
        raise ValueError("%s must be one of %s" % (key, "/".join(names)))
