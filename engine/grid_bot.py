"""The CPU opponent of the 2x4 game (RULES.md): :class:`engine.family_bot.Bot`'s timing,
looking at the eight stacks.

It reads only what a player at the table sees -- the game's public views ``phase``,
``tops``, ``coverable`` (pending positions included), ``lock_left`` (its own pad's
lock) and ``changes`` -- never the packs, the deck or the game's generator
(tests/test_bot.py runs it through a proxy that exposes nothing else).

How it sees and chooses (the levels and the timing are :mod:`engine.family_bot`'s):

* **Seeing.** When the table changes, every position that has newly become
  coverable (or whose top card changed while coverable) is *noticed* one reaction
  time later (one draw per look at the table). During the deal the bot already
  scans the face-up cards for pairs, as a person does. With probability ``miss``
  a position is overlooked for an extra ``miss`` delay.
* **Pressing.** When its hand is free the bot picks the position it noticed first
  (on equal times, scanning from its own left: own row, then the far row), commits
  to it and presses it one movement time later: one card at a time. If the target
  stops being coverable meanwhile (the opponent was faster), the bot stops its hand
  when that happened at least the minimum reaction time before the press; a later
  change it can only catch with probability ``abort`` -- otherwise it presses and
  takes the lock.
* **Slips.** With probability ``slip`` a chosen press goes to a random position that
  is not coverable (an illegal press: the pad locks). The bot waits out its lock.

Implementation Notes
--------------------

Positions are visited by their bits (``engine.family.LOWEST_BIT``), so a step makes
no call it can avoid; the draws and decisions are exactly those of a plain scan over
the 8 positions.
"""

from engine.compat import const
from engine.family import LOWEST_BIT
from engine.family_bot import (
    MISS_MAX, MISS_MIN, MISS_PCT, MOVE_MAX, MOVE_MIN, NORMAL, REACT_MAX, REACT_MIN, SLIP_PCT, Bot,
    popcount,
)
from engine.ticks import ticks_add, ticks_diff

_DEALING = const(1)  # engine.family's phases (not imported: keeps the bot light)
_PLAY = const(2)
_ALL = const(0xFF)
_ZERO13 = bytes(13)
_MAX = const((1 << 29) - 1)  # engine.ticks, written out (see engine.family_bot)
_HALF = const(1 << 28)
# Each player's preference on equal notice times, by position (lower first): own
# row left to right, then the far row from the near end (so two players split a pair).
_RANK = ((0, 1, 2, 3, 7, 6, 5, 4), (7, 6, 5, 4, 0, 1, 2, 3))


class GridBot(Bot):
    """A CPU player for ``player`` (0 = A, 1 = B) of a :class:`engine.grid.GridGame`."""

    def __init__(self, game, player, level=NORMAL, seed=0):
        self.notice = [0, 0, 0, 0, 0, 0, 0, 0]  # when each watched position is seen
        self.seen_top = bytearray(8)  # tops at the last look
        self._ranks = bytearray(13)  # pair scan during the deal
        super().__init__(game, player, level, seed)

    def _visible(self):
        """Mask of positions a player can see will be coverable once a deal ends."""
        g = self.game
        if g.phase != _DEALING:
            return 0
        # Dealing: fresh stacks, so coverable will be exactly the paired ranks.
        ranks = self._ranks
        ranks[0:13] = _ZERO13
        tops = g.tops
        for pos in range(8):
            ranks[tops[pos] >> 2] += 1
        mask = 0
        for pos in range(8):
            if ranks[tops[pos] >> 2] > 1:
                mask |= 1 << pos
        return mask

    def _look(self, now):
        """The table changed: update what is watched and when it will be seen."""
        g = self.game
        self.seen = g.changes
        mask = g.coverable if g.phase == _PLAY else self._visible()
        tops = g.tops
        old = self.mask
        seen_top = self.seen_top
        self.watch &= mask  # no longer coverable: no longer watched
        react = -1  # one reaction draw per look, made only if something is new
        todo = mask
        while todo:
            pos = LOWEST_BIT[todo]
            todo &= todo - 1
            if not (old >> pos) & 1 or tops[pos] != seen_top[pos]:
                p = self.p
                if react < 0:
                    react = self._draw(p[REACT_MIN], p[REACT_MAX])
                delay = react
                if p[MISS_PCT] and self.rng.below(100) < p[MISS_PCT]:
                    delay += self._draw(p[MISS_MIN], p[MISS_MAX])
                self.notice[pos] = (now + delay) & _MAX
                self.watch |= 1 << pos
        t = self.target
        if t >= 0 and not self.wrong and not self.gone and not (mask >> t) & 1:
            self.gone = True  # the target went away: from now on it can be seen
            self.gone_at = now
        self.mask = mask
        seen_top[0:8] = tops
        left = g.lock_left(self.player, now)
        if left and ticks_diff(ticks_add(now, left), self.free_at) > 0:
            self.free_at = ticks_add(now, left)  # wait out the lock
        if g.phase != _PLAY and g.phase != _DEALING:
            self.target = -1  # stuck or over: the hand comes back

    def _choose(self, now):
        """Commit to the next press; False (and ``wake`` set) if none is due."""
        notice = self.notice
        rank = _RANK[self.player]
        best = -1  # the due position noticed first (first in scan order on equal times)
        first = -1  # the earliest notice time of a watched position
        watch = self.watch
        while watch:
            pos = LOWEST_BIT[watch]
            watch &= watch - 1
            at = notice[pos]
            if (now - at) & _MAX >= _HALF:  # not seen yet
                if first < 0 or (at - first) & _MAX >= _HALF:
                    first = at
            elif best < 0 or (at - notice[best]) & _MAX >= _HALF or (
                    at == notice[best] and rank[pos] < rank[best]):
                best = pos
        if best < 0:
            self.wake = first
            return False
        p = self.p
        self.wrong = False
        bad = ~self.game.coverable & _ALL
        if bad and p[SLIP_PCT] and self.rng.below(100) < p[SLIP_PCT]:
            k = self.rng.below(popcount(bad))  # the k-th non-coverable position
            for pos in range(8):
                if (bad >> pos) & 1:
                    if not k:
                        best = pos
                        break
                    k -= 1
            self.wrong = True
        self.target = best
        self.gone = False
        self.press_at = (now + self._draw(p[MOVE_MIN], p[MOVE_MAX])) & _MAX
        return True
