"""Speed's rules configuration (RULES-SPEED.md), validated at set-up.

Implementation Notes
--------------------

Same interface as every game's rules (:class:`engine.family_rules.RulesBase`).
"""

from engine.compat import const
from engine.family_rules import (
    DEADLOCK_FEWER, DEADLOCK_NAMES, TIE_NAMES, TIE_REPLAY, RulesBase, check_choice, check_int,
)

REMAKE_REST = const(0)
REMAKE_WHOLE = const(1)
REMAKE_NAMES = ("rest", "whole")
CARDS_CHOICES = (20, 15)
POINTS_MAX = const(999)  # a points match: first to at most 999

# Keys of ``rules game=speed`` (RULES-SPEED.md section 7), in the order a writer prints them.
SPEED_KEYS = ("game", "cards", "same", "remake", "points", "penalty", "stuck", "deal", "tie",
              "deadlock", "deadlock_result", "wins")
_SPEED_NAMED = {"tie": TIE_NAMES, "deadlock_result": DEADLOCK_NAMES, "remake": REMAKE_NAMES}


class SpeedRules(RulesBase):
    """Rules of Speed (RULES-SPEED.md); same interface as :class:`engine.grid_rules.GridRules`.

    ``game`` is always ``"speed"``; ``points`` 0 means a match of ``wins`` games.
    """

    GAME = "speed"
    KEYS = SPEED_KEYS
    NAMED = _SPEED_NAMED
    PRESS = "play"

    def codes(self):
        """A press names a play: 5 * pile + hand slot (RULES-SPEED.md section 7)."""
        return 10

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
        if type(self.cards) is not int or self.cards not in CARDS_CHOICES:  # not 20.0
            raise ValueError("cards must be one of 20/15")
        check_choice("same", self.same, ("0", "1"))
        self.same = int(self.same)
        check_int("points", self.points, 0, POINTS_MAX)
        self.check_family()
        check_choice("remake", self.remake, REMAKE_NAMES)
