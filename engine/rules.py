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


class Rules:
    """Rules configuration; attribute names are the match-log keys."""

    GAME = "grid"  # the log's ``game`` (RULES.md's 2x4 game: never written, the default)
    KEYS = KEYS

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

    def set(self, key, text):
        """Set one setting from its log text, e.g. ``set("tie", "coin")``."""
        if key in ("tie", "deadlock_result"):
            names = TIE_NAMES if key == "tie" else DEADLOCK_NAMES
            if text not in names:
                raise ValueError("%s must be one of %s, not %r" % (key, "/".join(names), text))
            value = names.index(text)
        elif key in KEYS:
            if not text or not all("0" <= c <= "9" for c in text):  # ASCII: not str.isdigit
                raise ValueError("%s must be a non-negative integer, not %r" % (key, text))
            value = int(text)
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
        if key == "tie":
            return TIE_NAMES[value]
        if key == "deadlock_result":
            return DEADLOCK_NAMES[value]
        return str(value)

    def copy_from(self, other):
        """Copy every setting from another ``Rules``."""
        for key in KEYS:
            setattr(self, key, getattr(other, key))


# ------------------------------------------------------ shared-row game

MATCH_RANK = const(0)
MATCH_SUIT = const(1)
MATCH_EITHER = const(2)
MATCH_NAMES = ("rank", "suit", "either")

REDEAL_ALL = const(0)
REDEAL_TWO = const(1)
REDEAL_NAMES = ("all", "two")

PILE_CHOICES = (3, 4, 6)

# Keys of ``rules game=row`` (RULES-ROW.md section 7), in the order a writer prints them.
ROW_KEYS = ("game", "piles", "match", "redeal", "penalty", "stuck", "deal", "tie",
            "deadlock", "deadlock_result", "wins")
_ROW_NAMED = {"tie": TIE_NAMES, "deadlock_result": DEADLOCK_NAMES, "match": MATCH_NAMES,
              "redeal": REDEAL_NAMES}


class RowRules:
    """Rules of the shared-row game (RULES-ROW.md); same interface as :class:`Rules`.

    ``game`` is always ``"row"``; ``rutter`` is not a setting of this game.
    """

    GAME = "row"
    KEYS = ROW_KEYS

    def __init__(self, piles=4, match=MATCH_RANK, redeal=REDEAL_ALL, penalty=500, stuck=1000,
                 deal=300, tie=TIE_REPLAY, deadlock=13, deadlock_result=DEADLOCK_FEWER, wins=2):
        self.game = "row"
        self.piles = piles
        self.match = match
        self.redeal = redeal
        self.penalty = penalty
        self.stuck = stuck
        self.deal = deal
        self.tie = tie
        self.deadlock = deadlock
        self.deadlock_result = deadlock_result
        self.wins = wins
        self.check()

    def check(self):
        """Raise ``ValueError`` naming the first invalid setting."""
        if self.game != "row":
            raise ValueError("game must be row")
        if isinstance(self.piles, bool) or self.piles not in PILE_CHOICES:
            raise ValueError("piles must be one of 3/4/6")
        for key in ("penalty", "stuck", "deal"):
            _check_int(key, getattr(self, key), 0)
        _check_int("deadlock", self.deadlock, 1)
        _check_int("wins", self.wins, 1)
        for key in ("match", "redeal", "tie", "deadlock_result"):
            _check_choice(key, getattr(self, key), _ROW_NAMED[key])

    def set(self, key, text):
        """Set one setting from its log text, e.g. ``set("match", "suit")``."""
        if key == "game":
            if text != "row":
                raise ValueError("game of these rules is row, not %r" % text)
            return
        if key in _ROW_NAMED:
            names = _ROW_NAMED[key]
            if text not in names:
                raise ValueError("%s must be one of %s, not %r" % (key, "/".join(names), text))
            value = names.index(text)
        elif key in ROW_KEYS:
            if not text or not all("0" <= c <= "9" for c in text):  # ASCII: not str.isdigit
                raise ValueError("%s must be a non-negative integer, not %r" % (key, text))
            value = int(text)
        else:
            raise ValueError("unknown rules key %r for game=row" % key)
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
        if key in _ROW_NAMED:
            return _ROW_NAMED[key][value]
        return str(value)

    def copy_from(self, other):
        """Copy every setting from another ``RowRules``."""
        for key in ROW_KEYS:
            setattr(self, key, getattr(other, key))


# ------------------------------------------------------------ Speed

REMAKE_REST = const(0)
REMAKE_WHOLE = const(1)
REMAKE_NAMES = ("rest", "whole")
CARDS_CHOICES = (20, 15)

# Keys of ``rules game=speed`` (RULES-SPEED.md section 7), in the order a writer prints them.
SPEED_KEYS = ("game", "cards", "same", "remake", "points", "penalty", "stuck", "deal", "tie",
              "deadlock", "deadlock_result", "wins")
_SPEED_NAMED = {"tie": TIE_NAMES, "deadlock_result": DEADLOCK_NAMES, "remake": REMAKE_NAMES}


class SpeedRules:
    """Rules of Speed (RULES-SPEED.md); same interface as :class:`Rules`.

    ``game`` is always ``"speed"``; ``points`` 0 means a match of ``wins`` games.
    """

    GAME = "speed"
    KEYS = SPEED_KEYS

    def __init__(self, cards=20, same=0, remake=REMAKE_REST, points=0, penalty=500, stuck=1000,
                 deal=300, tie=TIE_REPLAY, deadlock=13, deadlock_result=DEADLOCK_FEWER, wins=2):
        self.game = "speed"
        self.cards = cards
        self.same = same
        self.remake = remake
        self.points = points
        self.penalty = penalty
        self.stuck = stuck
        self.deal = deal
        self.tie = tie
        self.deadlock = deadlock
        self.deadlock_result = deadlock_result
        self.wins = wins
        self.check()

    def check(self):
        """Raise ``ValueError`` naming the first invalid setting."""
        if self.game != "speed":
            raise ValueError("game must be speed")
        if isinstance(self.cards, bool) or self.cards not in CARDS_CHOICES:
            raise ValueError("cards must be one of 20/15")
        _check_choice("same", self.same, ("0", "1"))
        self.same = int(self.same)
        for key in ("points", "penalty", "stuck", "deal"):
            _check_int(key, getattr(self, key), 0)
        _check_int("deadlock", self.deadlock, 1)
        _check_int("wins", self.wins, 1)
        for key in ("remake", "tie", "deadlock_result"):
            _check_choice(key, getattr(self, key), _SPEED_NAMED[key])

    def set(self, key, text):
        """Set one setting from its log text, e.g. ``set("remake", "whole")``."""
        if key == "game":
            if text != "speed":
                raise ValueError("game of these rules is speed, not %r" % text)
            return
        if key in _SPEED_NAMED:
            names = _SPEED_NAMED[key]
            if text not in names:
                raise ValueError("%s must be one of %s, not %r" % (key, "/".join(names), text))
            value = names.index(text)
        elif key in SPEED_KEYS:
            if not text or not all("0" <= c <= "9" for c in text):  # ASCII: not str.isdigit
                raise ValueError("%s must be a non-negative integer, not %r" % (key, text))
            value = int(text)
        else:
            raise ValueError("unknown rules key %r for game=speed" % key)
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
        if key in _SPEED_NAMED:
            return _SPEED_NAMED[key][value]
        return str(value)

    def copy_from(self, other):
        """Copy every setting from another ``SpeedRules``."""
        for key in SPEED_KEYS:
            setattr(self, key, getattr(other, key))


def _check_int(key, value, low):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < DURATION_LIMIT:
        raise ValueError("%s must be an integer in [%d, 2**28), not %r" % (key, low, value))


def _check_choice(key, value, names):
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, int) or not 0 <= value < len(names):
        raise ValueError("%s must be one of %s" % (key, "/".join(names)))
