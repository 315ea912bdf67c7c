"""The shared-row game's rules configuration (RULES-ROW.md), validated at set-up.

Implementation Notes
--------------------

Apart from ``engine.rules`` so that firmware playing the 2x4 game does not hold it in
its heap; same interface as :class:`engine.rules.Rules`.
"""

from engine.compat import const
from engine.rules import (
    TIE_REPLAY,
    TIE_NAMES,
    DEADLOCK_FEWER,
    DEADLOCK_NAMES,
    KEYS,
    Rules,
    _check_int,
    _check_choice,
)

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


