"""The CPU opponent of Speed (RULES-SPEED.md): :class:`engine.family_bot.Bot`'s player,
looking at the two middle piles and its own hand of five.

It reads only what a player sees at the table -- ``phase``, the middle ``tops``,
its own ``hands`` slots, ``same``, its own pad's ``lock_left`` and ``changes`` --
and presses through the caller, exactly like :class:`engine.family_bot.Bot` (same driving
calls, same levels, its own generator, zero allocation per step)::

    bot = SpeedBot(game, PLAYER_B, NORMAL, seed)
    bot.reset(now)                 # whenever a game starts
    n = bot.step(now)              # after game.advance(now); -1: nothing to press
    if n >= 0:
        game.press(PLAYER_B, n, now)   # n = 5 * pile + slot

How it plays: when a pile top or one of its own cards changes, every play (a hand
card onto a pile) that newly fits -- or whose pile top or card changed while it
fitted -- is noticed one reaction time later, or overlooked for an extra ``miss``
delay; during the deal window it already looks at the face-up cards. It makes the
play it noticed first (on equal times the pile nearest its own left -- pile 0 for
A, pile 1 for B, who sits opposite -- then the lowest slot) one movement time
later, one card at a time; a play that stops fitting is dropped as
:class:`engine.family_bot.Bot` drops a target, and a slip puts a card that does not fit
(never an empty slot) on a pile (the lock follows).

Implementation Notes
--------------------

Only seeing and choosing differ from the 2x4 bot, so this class overrides
``_look``, ``_choose`` and ``_first_notice`` and inherits the timing, the lock
handling and the draw discipline (draws only on a look or a choice, never per
call). Fitting is :func:`engine.speed.fits`.
"""

from engine.family_bot import (
    MISS_MAX, MISS_MIN, MISS_PCT, MOVE_MAX, MOVE_MIN, NORMAL, REACT_MAX, REACT_MIN, SLIP_PCT, Bot,
    popcount,
)
from engine.cards import NO_CARD
from engine.compat import const
from engine.speed import PLAYS, SLOTS, fits
from engine.ticks import ticks_add, ticks_diff

_DEALING = const(1)  # engine.family phases
_PLAY = const(2)


class SpeedBot(Bot):
    """A CPU player for ``player`` (0 = A, 1 = B) of a :class:`engine.speed.SpeedGame`."""

    def __init__(self, game, player, level=NORMAL, seed=0):
        super().__init__(game, player, level, seed)
        self.notice = [0] * PLAYS
        self.seen_top = bytearray(2)
        self.seen_hand = bytearray(SLOTS)
        self.held = 0  # plays whose slot holds a card, at the last look

    def _visible(self):
        """Mask of the plays n that fit (deal window or play), else 0; ``held``
        becomes the mask of plays whose slot holds a card (no tuple: no allocation)."""
        g = self.game
        self.held = 0
        if g.phase != _PLAY and g.phase != _DEALING:
            return 0
        same = g.same
        base = self.player * SLOTS
        t0 = g.tops[0]
        t1 = g.tops[1]
        mask = 0
        held = 0
        for slot in range(SLOTS):
            card = g.hands[base + slot]
            if card != NO_CARD:
                held |= 1 << slot | 1 << (SLOTS + slot)
                if fits(same, card, t0):
                    mask |= 1 << slot
                if fits(same, card, t1):
                    mask |= 1 << (SLOTS + slot)
        self.held = held
        return mask

    def _look(self, now):
        """The table changed: update what is watched and when it will be seen."""
        g = self.game
        p = self.p
        self.seen = g.changes
        mask = self._visible()
        tops = g.tops
        hands = g.hands
        base = self.player * SLOTS
        old = self.mask
        react = -1
        for n in range(PLAYS):
            bit = 1 << n
            pile = 1 if n >= SLOTS else 0
            slot = n - SLOTS * pile
            if not mask & bit:
                self.watch &= ~bit
            elif (not old & bit or tops[pile] != self.seen_top[pile]
                  or hands[base + slot] != self.seen_hand[slot]):
                if react < 0:
                    react = self._draw(p[REACT_MIN], p[REACT_MAX])
                delay = react
                if p[MISS_PCT] and self.rng.below(100) < p[MISS_PCT]:
                    delay += self._draw(p[MISS_MIN], p[MISS_MAX])
                self.notice[n] = ticks_add(now, delay)
                self.watch |= bit
        t = self.target
        if t >= 0 and not self.wrong and not self.gone and not (mask >> t) & 1:
            self.gone = True
            self.gone_at = now
        self.mask = mask
        self.seen_top[0] = tops[0]
        self.seen_top[1] = tops[1]
        for slot in range(SLOTS):
            self.seen_hand[slot] = hands[base + slot]
        left = g.lock_left(self.player, now)
        if left and ticks_diff(ticks_add(now, left), self.free_at) > 0:
            self.free_at = ticks_add(now, left)
        if g.phase != _PLAY and g.phase != _DEALING:
            self.target = -1

    def _first_notice(self):
        best = -1
        notice = self.notice
        for n in range(PLAYS):
            if (self.watch >> n) & 1 and (best < 0 or ticks_diff(notice[n], best) < 0):
                best = notice[n]
        return best

    def _choose(self, now):
        """Commit to the next play; False (and ``wake`` set) if none is due."""
        notice = self.notice
        best = -1
        near = SLOTS if self.player else 0  # the pile on this player's left first
        for k in range(PLAYS):
            n = (near + k) % PLAYS
            if (self.watch >> n) & 1 and ticks_diff(now, notice[n]) >= 0:
                if best < 0 or ticks_diff(notice[n], notice[best]) < 0:
                    best = n
        if best < 0:
            self.wake = self._first_notice()
            return False
        p = self.p
        self.wrong = False
        bad = self.held & ~self.mask
        if bad and p[SLIP_PCT] and self.rng.below(100) < p[SLIP_PCT]:
            k = self.rng.below(popcount(bad))
            for n in range(PLAYS):
                if (bad >> n) & 1:
                    if not k:
                        best = n
                        break
                    k -= 1
            self.wrong = True
        self.target = best
        self.gone = False
        self.press_at = ticks_add(now, self._draw(p[MOVE_MIN], p[MOVE_MAX]))
        return True
