"""The shared-row game's rules configuration (RULES-ROW.md), validated at set-up.

Implementation Notes
--------------------

Same interface as every game's rules (:class:`engine.family_rules.RulesBase`).
"""

from engine.compat import const
from engine.family_rules import (
    DEADLOCK_FEWER, DEADLOCK_NAMES, TIE_NAMES, TIE_REPLAY, RulesBase, check_choice,
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


class RowRules(RulesBase):
    """Rules of the shared-row game (RULES-ROW.md); same interface as :class:`engine.grid_rules.GridRules`.

    ``game`` is always ``"row"``; ``rutter`` is not a setting of this game.
    """

    GAME = "row"
    KEYS = ROW_KEYS
    NAMED = _ROW_NAMED
    PRESS = "pile"

    def codes(self):
        """A press names a pile."""
        return self.piles

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
        if type(self.piles) is not int or self.piles not in PILE_CHOICES:  # not 4.0
            raise ValueError("piles must be one of 3/4/6")
        self.check_family()
        for key in ("match", "redeal"):
            check_choice(key, getattr(self, key), _ROW_NAMED[key])
