"""The CPU opponent of Aggravation and Frustration (RULES-AGGRAVATION.md):
:class:`engine.family_bot.Bot`'s timing and levels, looking at two rows that grow.

It reads only what a player at the table sees -- ``phase``, ``tops``, ``row_len``,
``coverable`` and ``pairs`` (what the tops show), ``packs`` (how many cards each pack
holds, never their order), ``frustration``, its own held tap (``held``, ``hold_card``,
``hold_left``), its own pad's ``lock_left`` and ``changes`` -- and presses through
the caller like every bot of the family::

    bot = AggravationBot(game, PLAYER_B, NORMAL, seed)
    bot.reset(now)                  # whenever a game starts
    pos = bot.step(now)             # after game.advance(now); -1: nothing to press
    if pos >= 0:
        game.press(PLAYER_B, pos, now)

How it plays (the levels and the timing are :mod:`engine.family_bot`'s):

* **With cards** it plays as the 2x4 game's bot over the 28 positions: every position
  that newly becomes coverable (or whose top changed while coverable) is noticed one
  reaction time later (or overlooked for an extra ``miss`` delay); it covers the one it
  noticed first, one movement time later, one card at a time; on equal times it
  prefers its own row from its own left, then the far row from the far end (the stack
  nearest its own left); a slip presses an existing stack that is not coverable.
* **Out of cards** (Aggravation) it taps: it notices a rank shown on two tops as above
  and taps the one it noticed first; once the tap is held it taps a partner of the same
  rank (its preferred one) one movement time later, but always within the call window
  (two fingers, one after the other; with ``call`` of 1 ms no bot can call). A held
  stack covered before its second tap is a target gone: the bot stops its hand as the
  family's bot does, or taps and the engine judges that tap as a first tap. While its
  held stack still shows but has no partner left (the opponent covered it), it taps
  nothing until the window has closed: a tap of another rank would be illegal.

Implementation Notes
--------------------

Positions are visited by their bits (``engine.aggravation.lowest``), with 28-bit masks,
so a step allocates nothing (tests/mpy/vm_aggravation_alloc.py). Draws happen only on
a look at a changed table or on a choice, never per call.
"""

from engine.aggravation import POSITIONS, ROW_BASE, lowest
from engine.cards import NO_CARD
from engine.compat import const
from engine.family_bot import (
    MISS_MAX, MISS_MIN, MISS_PCT, MOVE_MAX, MOVE_MIN, NORMAL, REACT_MAX, REACT_MIN, SLIP_PCT, Bot,
    popcount,
)
from engine.ticks import ticks_add, ticks_diff

_DEALING = const(1)  # engine.family's phases (not imported: keeps the bot light)
_PLAY = const(2)
_MAX = const((1 << 29) - 1)  # engine.ticks, written out (see engine.family_bot)
_HALF = const(1 << 28)


class AggravationBot(Bot):
    """A CPU player for ``player`` (0 = A, 1 = B) of an :class:`engine.aggravation.AggravationGame`."""

    def __init__(self, game, player, level=NORMAL, seed=0):
        self.notice = [0] * POSITIONS  # when each watched position is seen
        self.seen_top = bytearray(POSITIONS)  # tops at the last look
        # Preference on equal notice times (lower first): own row from own left, then the
        # far row from its far end (above this player's left hand).
        self.order = bytearray(POSITIONS)
        for k in range(ROW_BASE):
            near = player * ROW_BASE + k
            far = (1 - player) * ROW_BASE + ROW_BASE - 1 - k
            self.order[near] = k
            self.order[far] = ROW_BASE + k
        self.second = False  # the committed target is the second tap of a call
        self.held = -1  # the held position that second tap answers
        self.held_card = NO_CARD
        super().__init__(game, player, level, seed)

    def reset(self, now, seed=-1):
        """Forget the table (a game starts at ``now``); reseed if ``seed >= 0``."""
        Bot.reset(self, now, seed)
        self.second = False
        self.held = -1

    def _tapping(self):
        """True if this player taps rather than covers (out of cards, Aggravation)."""
        g = self.game
        return not g.packs[self.player] and not g.frustration

    def _look(self, now):
        """The table changed: update what is watched and when it will be seen."""
        g = self.game
        self.seen = g.changes
        phase = g.phase
        mask = 0
        if phase == _PLAY:
            mask = g.pairs if self._tapping() else g.coverable
        elif phase == _DEALING:
            mask = g.pairs  # dealt onto a dry table: what will be coverable is the pairs
        tops = g.tops
        old = self.mask
        seen_top = self.seen_top
        notice = self.notice
        self.watch &= mask  # no longer coverable: no longer watched
        react = -1  # one reaction draw per look, made only if something is new
        todo = mask
        while todo:
            pos = lowest(todo)
            todo &= todo - 1
            if not (old >> pos) & 1 or tops[pos] != seen_top[pos]:
                p = self.p
                if react < 0:
                    react = self._draw(p[REACT_MIN], p[REACT_MAX])
                delay = react
                if p[MISS_PCT] and self.rng.below(100) < p[MISS_PCT]:
                    delay += self._draw(p[MISS_MIN], p[MISS_MAX])
                notice[pos] = (now + delay) & _MAX
                self.watch |= 1 << pos
        t = self.target
        if t >= 0 and not self.wrong and not self.gone:
            if self.second:
                card = self.held_card
                ok = tops[self.held] == card and tops[t] >> 2 == card >> 2
            else:
                ok = (mask >> t) & 1
            if not ok:
                self.gone = True  # the target went away: from now on it can be seen
                self.gone_at = now
        self.mask = mask
        seen_top[0:POSITIONS] = tops
        left = g.lock_left(self.player, now)
        if left and ticks_diff(ticks_add(now, left), self.free_at) > 0:
            self.free_at = ticks_add(now, left)  # wait out the lock
        if phase != _PLAY and phase != _DEALING:
            self.target = -1  # a pause or over: the hand comes back

    def _choose(self, now):
        """Commit to the next press; False (and ``wake`` set) if none is due."""
        g = self.game
        p = self.p
        self.second = False
        if self._tapping():
            held = g.held(self.player, now)
            if held >= 0 and g.tops[held] == g.hold_card[self.player]:
                partner = self._partner(held)
                if partner >= 0:  # the second tap, within the window
                    gap = self._draw(p[MOVE_MIN], p[MOVE_MAX])
                    room = g.hold_left(self.player, now) - 1
                    if gap > room:
                        gap = room
                    self.second = True
                    self.held = held
                    self.held_card = g.tops[held]
                    self.wrong = False
                    self.target = partner
                    self.gone = False
                    self.press_at = (now + gap) & _MAX
                    return True
                # The partner was covered: a tap of another rank now would be illegal
                # (it drops the hold): wait for the window to close (its end is a change).
                self.wake = (now + g.hold_left(self.player, now)) & _MAX
                return False
        notice = self.notice
        order = self.order
        best = -1  # the due position noticed first (preferred on equal times)
        first = -1  # the earliest notice time of a watched position
        watch = self.watch
        while watch:
            pos = lowest(watch)
            watch &= watch - 1
            at = notice[pos]
            if (now - at) & _MAX >= _HALF:  # not seen yet
                if first < 0 or (at - first) & _MAX >= _HALF:
                    first = at
            elif best < 0 or (at - notice[best]) & _MAX >= _HALF or (
                    at == notice[best] and order[pos] < order[best]):
                best = pos
        if best < 0:
            self.wake = first
            return False
        self.wrong = False
        rows = g.row_len
        bad = ((1 << rows[0]) - 1 | ((1 << rows[1]) - 1) << ROW_BASE) & ~self.mask
        if bad and p[SLIP_PCT] and self.rng.below(100) < p[SLIP_PCT]:
            k = self.rng.below(popcount(bad))  # the k-th existing stack not coverable
            while k:
                bad &= bad - 1
                k -= 1
            best = lowest(bad)
            self.wrong = True
        self.target = best
        self.gone = False
        self.press_at = (now + self._draw(p[MOVE_MIN], p[MOVE_MAX])) & _MAX
        return True

    def _partner(self, held):
        """The preferred other position whose top shows the held top's rank, or -1."""
        g = self.game
        rank = g.tops[held] >> 2
        order = self.order
        best = -1
        todo = g.pairs & ~(1 << held)
        while todo:
            pos = lowest(todo)
            todo &= todo - 1
            if g.tops[pos] >> 2 == rank and (best < 0 or order[pos] < order[best]):
                best = pos
        return best
