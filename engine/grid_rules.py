"""The 2x4 game's rules configuration (RULES.md), validated when it is set up.

Defaults are those of RULES.md; ``rutter`` is David Rutter's variant (RULES.md section 8).
"""

from engine.family_rules import (
    DEADLOCK_DRAW, DEADLOCK_NAMES, TIE_NAMES, TIE_REPLAY, RulesBase, check_choice,
)

# Log keys, in the order a writer prints them.
GRID_KEYS = ("penalty", "stuck", "deal", "tie", "deadlock", "deadlock_result", "rutter", "wins")


class GridRules(RulesBase):
    """Rules configuration of the 2x4 game; attribute names are the match-log keys."""

    GAME = "grid"  # the log's ``game`` (RULES.md's 2x4 game: never written, the default)
    KEYS = GRID_KEYS
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
        self.check_family()
        check_choice("rutter", self.rutter, ("0", "1"))
        self.rutter = int(self.rutter)
