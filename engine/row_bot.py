"""The CPU opponent of the shared-row game (RULES-ROW.md): :class:`engine.family_bot.Bot`'s
player, looking at a row of piles and its own active card.

It reads only what a player sees at the table -- ``phase``, the pile ``tops``, its
own ``active`` card, the match mode, its own pad's ``lock_left`` and ``changes`` --
and presses through the caller, exactly like :class:`engine.family_bot.Bot` (same driving
calls, same levels, its own generator, zero allocation per step)::

    bot = RowBot(game, PLAYER_B, NORMAL, seed)
    bot.reset(now)                 # whenever a game starts
    pile = bot.step(now)           # after game.advance(now); -1: nothing to press
    if pile >= 0:
        game.press(PLAYER_B, pile, now)

How it plays: when the table or its own active card changes, every pile its active
card newly matches (or whose top changed while it matched, or all of them after a
new active card) is noticed one reaction time later, or overlooked for an extra
``miss`` delay; during the deal it already looks at the face-up cards. It presses
the pile it noticed first (on equal times the one nearest its own left: pile 0 for
A, the last pile for B, who sees the row reversed) one movement time later, one
card at a time; a target that stops matching is dropped as :class:`engine.family_bot.Bot`
drops one, and a slip goes to a random pile that does not match (the lock follows).

Implementation Notes
--------------------

Only seeing and choosing differ from the 2x4 bot, so this class overrides
``_look``, ``_choose`` and ``_first_notice`` and inherits the timing, the lock
handling and the draw discipline (draws only on a look or a choice, never per
call). Matching follows ``game.match_mode`` with :func:`engine.row.matches`.
"""

from engine.family_bot import (
    MISS_MAX, MISS_MIN, MISS_PCT, MOVE_MAX, MOVE_MIN, NORMAL, REACT_MAX, REACT_MIN, SLIP_PCT, Bot,
    popcount,
)
from engine.cards import NO_CARD
from engine.compat import const
from engine.row import MAX_PILES, matches
from engine.ticks import ticks_add, ticks_diff

_DEALING = const(1)  # engine.family phases
_PLAY = const(2)


class RowBot(Bot):
    """A CPU player for ``player`` (0 = A, 1 = B) of a :class:`engine.row.RowGame`."""

    def __init__(self, game, player, level=NORMAL, seed=0):
        super().__init__(game, player, level, seed)
        self.notice = [0] * MAX_PILES
        self.seen_top = bytearray(MAX_PILES)
        self.seen_active = NO_CARD

    def reset(self, now, seed=-1):
        """Forget the table (a game starts at ``now``); reseed if ``seed >= 0``."""
        super().reset(now, seed)
        self.seen_active = NO_CARD

    def _visible(self):
        """Mask of the piles this player's active card matches (deal or play), else 0."""
        g = self.game
        if g.phase != _PLAY and g.phase != _DEALING:
            return 0
        card = g.active[self.player]
        if card == NO_CARD:
            return 0
        mode = g.match_mode
        tops = g.tops
        mask = 0
        for pile in range(g.piles):
            if matches(mode, card, tops[pile]):
                mask |= 1 << pile
        return mask

    def _look(self, now):
        """The table changed: update what is watched and when it will be seen."""
        g = self.game
        p = self.p
        self.seen = g.changes
        mask = self._visible()
        tops = g.tops
        old = self.mask
        fresh = g.active[self.player] != self.seen_active  # a new card in hand: look again
        react = -1
        for pile in range(g.piles):
            bit = 1 << pile
            if not mask & bit:
                self.watch &= ~bit
            elif fresh or not old & bit or tops[pile] != self.seen_top[pile]:
                if react < 0:
                    react = self._draw(p[REACT_MIN], p[REACT_MAX])
                delay = react
                if p[MISS_PCT] and self.rng.below(100) < p[MISS_PCT]:
                    delay += self._draw(p[MISS_MIN], p[MISS_MAX])
                self.notice[pile] = ticks_add(now, delay)
                self.watch |= bit
        t = self.target
        if t >= 0 and not self.wrong and not self.gone and not (mask >> t) & 1:
            self.gone = True
            self.gone_at = now
        self.mask = mask
        self.seen_top[0:MAX_PILES] = tops
        self.seen_active = g.active[self.player]
        left = g.lock_left(self.player, now)
        if left and ticks_diff(ticks_add(now, left), self.free_at) > 0:
            self.free_at = ticks_add(now, left)
        if g.phase != _PLAY and g.phase != _DEALING:
            self.target = -1

    def _first_notice(self):
        best = -1
        notice = self.notice
        for pile in range(self.game.piles):
            if (self.watch >> pile) & 1 and (best < 0 or ticks_diff(notice[pile], best) < 0):
                best = notice[pile]
        return best

    def _choose(self, now):
        """Commit to the next press; False (and ``wake`` set) if none is due."""
        notice = self.notice
        n = self.game.piles
        best = -1
        for k in range(n):
            pile = n - 1 - k if self.player else k  # from this player's own left
            if (self.watch >> pile) & 1 and ticks_diff(now, notice[pile]) >= 0:
                if best < 0 or ticks_diff(notice[pile], notice[best]) < 0:
                    best = pile
        if best < 0:
            self.wake = self._first_notice()
            return False
        p = self.p
        self.wrong = False
        bad = ~self.mask & ((1 << n) - 1)
        if bad and p[SLIP_PCT] and self.rng.below(100) < p[SLIP_PCT]:
            k = self.rng.below(popcount(bad))
            for pile in range(n):
                if (bad >> pile) & 1:
                    if not k:
                        best = pile
                        break
                    k -= 1
            self.wrong = True
        self.target = best
        self.gone = False
        self.press_at = ticks_add(now, self._draw(p[MOVE_MIN], p[MOVE_MAX]))
        return True
