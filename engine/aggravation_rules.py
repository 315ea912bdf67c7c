"""Aggravation and Frustration's rules configuration (RULES-AGGRAVATION.md), validated at set-up.

Keys (``rules game=aggravation``, RULES-AGGRAVATION.md section 7): ``frustration`` (0:
Aggravation, 1: Frustration), ``target`` (Frustration's winning share), ``call`` (the
call window, ms), and the family's ``penalty``, ``stuck`` (the dry pause), ``deal``,
``tie``, ``rutter``, ``wins``. The 2x4-only keys ``deadlock`` and ``deadlock_result``
are not keys of this game (a log naming them is malformed).

Bounds (every value a plain ``int``: a ``bool`` or a ``float`` such as 4.0 is refused):

=============  ==========================  ===========================================
key            range                       why
=============  ==========================  ===========================================
frustration    0-1
target         1-25                        the book (shares sum to 52: 25 + 27)
call           1 <= call < 2**28           the book (a window of 0 could never call)
penalty        0-10000 ms                  LOG.md's durations (the family's bound)
stuck, deal    0-10000 ms                  LOG.md's durations (the family's bound)
tie            0-1 (``replay``/``coin``)
rutter         0-1
wins           1-99                        the family's bound (LOG.md)
=============  ==========================  ===========================================

Implementation Notes
--------------------

Same interface as every game's rules (:class:`engine.family_rules.RulesBase`). The
checks are this module's own (stricter than ``family_rules.check_choice``, which lets a
bool through as 0/1), so they refuse the same values on every interpreter.
"""

from engine.compat import const
from engine.family_rules import (
    DURATION_LIMIT, DURATION_MAX, TIE_NAMES, TIE_REPLAY, WINS_MAX, RulesBase,
)

TARGET_MIN = const(1)
TARGET_MAX = const(25)

# Keys of ``rules game=aggravation``, in the order a writer prints them.
AGGRAVATION_KEYS = ("game", "frustration", "target", "call", "penalty", "stuck", "deal", "tie",
                    "rutter", "wins")
_NAMED = {"tie": TIE_NAMES}


def _check(key, value, low, high):
    """Raise ``ValueError`` unless ``value`` is an int (not a bool) in [low, high]."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError("%s must be an integer in [%d, %d], not %r" % (key, low, high, value))


class AggravationRules(RulesBase):
    """Rules of Aggravation and Frustration (RULES-AGGRAVATION.md).

    ``game`` is always ``"aggravation"``; ``frustration=1`` plays Frustration.
    """

    GAME = "aggravation"
    KEYS = AGGRAVATION_KEYS
    NAMED = _NAMED
    PRESS = "position"

    def codes(self):
        """A press names a position, 0-27 (A's stacks 0-12, B's 14-26)."""
        return 28

    def __init__(self, frustration=0, target=10, call=400, penalty=500, stuck=500, deal=300,
                 tie=TIE_REPLAY, rutter=0, wins=2):
        self.game = "aggravation"
        self.frustration = frustration
        self.target = target
        self.call = call
        self.penalty = penalty
        self.stuck = stuck
        self.deal = deal
        self.tie = tie
        self.rutter = rutter
        self.wins = wins
        self.check()

    def check(self):
        """Raise ``ValueError`` naming the first invalid setting."""
        if self.game != "aggravation":
            raise ValueError("game must be aggravation")
        _check("frustration", self.frustration, 0, 1)
        _check("target", self.target, TARGET_MIN, TARGET_MAX)
        _check("call", self.call, 1, DURATION_LIMIT - 1)
        for key in ("penalty", "stuck", "deal"):
            _check(key, getattr(self, key), 0, DURATION_MAX)
        if type(self.tie) is not int or not 0 <= self.tie < len(TIE_NAMES):
            raise ValueError("tie must be one of %s" % "/".join(TIE_NAMES))
        _check("rutter", self.rutter, 0, 1)
        _check("wins", self.wins, 1, WINS_MAX)
