"""The CPU opponent of every game: a bot that sees and presses like a person.

:class:`Bot` is the timing every game's CPU player shares (``engine.<game>_bot``
subclasses it and says what it sees: ``_look`` and ``_choose``). A bot reads only
what a player at the table sees (each game's bot names the views), never the packs,
the deck or the game's generator, and presses nothing itself: ``step(now)`` returns a
position and the caller presses it through ``game.press(player, pos, now)`` exactly
as it would a human's press (and logs it), so a bot game's log replays card for card.

Driving it (allocation-free after set-up)::

    bot = GridBot(game, PLAYER_B, NORMAL, seed)   # set-up (any game's bot)
    bot.reset(now)                            # whenever a game starts
    # every loop iteration, *after* game.advance(now):
    pos = bot.step(now)
    if pos >= 0:
        game.press(PLAYER_B, pos, now)
    bot.next_time()   # earliest time step() may act if nothing changes, or -1
    bot.idle(now)     # instead of step() while the game is paused

Like the game, the bot needs to hear the time at least every 2**28 ms (``step`` or
``idle``): a bot left for days (a paused game) then finds every time it stored
passed, so its comparisons never wrap back.

How it plays (all delays drawn uniformly from the level's ranges, ms):

* **Seeing.** When the table changes, every position that has newly become
  coverable (or whose top card changed while coverable) is *noticed* one reaction
  time later (one draw per look at the table). During the deal the bot already
  scans the face-up cards for pairs, as a person does. With probability ``miss``
  a position is overlooked for an extra ``miss`` delay.
* **Pressing.** When its hand is free the bot picks the position it noticed first
  (on equal times, scanning from its own left: own row, then the far row), commits to it and presses it one movement
  time later: one card at a time. If the target stops being coverable meanwhile
  (the opponent was faster), the bot stops its hand when that happened at least
  the minimum reaction time before the press; a later change it can only catch
  with probability ``abort`` -- otherwise it presses and takes the lock.
* **Slips.** With probability ``slip`` a chosen press goes to a random position that
  is not coverable (an illegal press: the pad locks). The bot waits out its lock.

Levels (``LEVELS``; per-card time is reaction + movement when the bot is idle):

===========  ===========  ==========  ===========  ===============  ======  =======
level        reaction     movement    per card     missed for       slips   abort
===========  ===========  ==========  ===========  ===============  ======  =======
beginner     400-2000     100-1000    500-3000     20 %: 1000-3000  5 %     20 %
normal       200-500      100-300     300-800      10 %: 500-2000   2 %     50 %
expert       120-300      60-180      180-480      4 %: 300-1000    1 %     75 %
perfect      0            1-4         1-4          never            never   100 %
===========  ===========  ==========  ===========  ===============  ======  =======

(Times in ms. "missed for": chance that a new coverable position is overlooked, and
for how long. "slips": chance that a chosen press goes to a wrong position.
"abort": chance to stop a press whose target vanished less than the minimum
reaction time before it.)

Anchors: other speed games' AI waits 300-800 ms per card (normal), scaled x0.6 for
a fast player (expert) and about x2 for a slow one, and beginners take 500-3000 ms
per card. ``perfect`` is for tests: it never presses an illegal position (given
that the caller advances the game to ``now`` before ``step(now)``); its random
1-4 ms movement breaks same-position ties between two perfect bots.

Randomness comes from the bot's own :class:`engine.rng.Rng` (never the game's, which
decides coin ties and must match a replay that has no bots). Draws happen only when
the bot looks at a changed table or chooses a press, never per call, so how often
``step`` is called changes the bot's timing by at most the call interval and never
its sequence of random numbers. ``step`` is cheap when nothing changed: one
counter comparison and two time comparisons.

Implementation Notes
--------------------

Times are compared as ``(a - b) & (2**29 - 1) >= 2**28`` (``ticks_diff(a, b) < 0``
written out) in the paths taken every step, so a step makes no call it can avoid.
A subclass allocates ``notice`` (one time per press code it watches) at set-up.
"""

from engine.compat import const
from engine.rng import Rng
from engine.ticks import ticks_diff


BEGINNER = const(0)
NORMAL = const(1)
EXPERT = const(2)
PERFECT = const(3)
LEVEL_NAMES = ("beginner", "normal", "expert", "perfect")

# Parameter indices within a level's row.
REACT_MIN = const(0)
REACT_MAX = const(1)
MOVE_MIN = const(2)
MOVE_MAX = const(3)
MISS_PCT = const(4)
MISS_MIN = const(5)
MISS_MAX = const(6)
SLIP_PCT = const(7)
CHECK_PCT = const(8)
N_PARAMS = const(9)

# One row of small ints per level, read by index (no allocation).
LEVELS = (
    (400, 2000, 100, 1000, 20, 1000, 3000, 5, 20),  # beginner
    (200, 500, 100, 300, 10, 500, 2000, 2, 50),  # normal
    (120, 300, 60, 180, 4, 300, 1000, 1, 75),  # expert
    (0, 0, 1, 4, 0, 0, 0, 0, 100),  # perfect
)

_PLAY = const(2)  # engine.family's phase (not imported: keeps the bot light)
# engine.ticks, written out in the hot paths: ``(a - b) & _MAX >= _HALF`` is
# ``ticks_diff(a, b) < 0`` (a is before b) without a call.
_MAX = const((1 << 29) - 1)
_HALF = const(1 << 28)
# A silence after which every stored time has passed: longer than any delay a
# level can draw (reaction + miss < 2**21), shorter than half the clock.
_STALE = const(1 << 22)


def level_params(level):
    """Return a level's parameter row from an index, a name or a 9-int tuple."""
    if isinstance(level, str):
        level = LEVEL_NAMES.index(level)
    if isinstance(level, int):
        return LEVELS[level]
    if len(level) != N_PARAMS:
        raise ValueError("a level is %d ints" % N_PARAMS)
    for v in level:
        if not 0 <= v < (1 << 20):
            raise ValueError("level parameters must be in [0, 2**20)")
    return tuple(level)


class Bot:
    """The timing of a CPU player for ``player`` (0 = A, 1 = B) of ``game``.

    A game's bot allocates ``notice`` (one time per press code) and whatever it
    remembers of the table, and provides ``_look(now)`` (the table changed: set
    ``notice``/``watch``/``mask``, drop a gone target, wait out a lock) and
    ``_choose(now)`` (commit to ``target`` and ``press_at``, or set ``wake``).
    """

    def __init__(self, game, player, level=NORMAL, seed=0):
        self.game = game
        self.player = player
        self.p = level_params(level)
        for lo in (REACT_MIN, MOVE_MIN, MISS_MIN):  # set-up only
            if self.p[lo] > self.p[lo + 1]:
                raise ValueError("level parameter %d: min > max" % lo)
        self.rng = Rng(seed)
        self.reset(0)

    def reset(self, now, seed=-1):
        """Forget the table (a game starts at ``now``); reseed if ``seed >= 0``."""
        if seed >= 0:
            self.rng.seed(seed)
        self.seen = -1  # game.changes at the last look (-1: look at once)
        self.mask = 0  # positions that looked coverable at the last look
        self.watch = 0  # positions with a notice time
        self.target = -1  # committed press, or -1
        self.wrong = False  # the committed press is a slip
        self.gone = False  # the target stopped being coverable since it was chosen
        self.gone_at = now
        self.press_at = now
        self.free_at = now  # the hand is busy (or the pad locked) until then
        self.wake = now  # earliest time step() may act, -1: only on a change
        self.last = now  # the time of the last step or idle
        self.presses = 0

    def next_time(self):
        """Return the earliest time ``step`` may press if nothing changes, or -1."""
        return self.wake

    def idle(self, now):
        """Hear the time without acting (a paused game): keeps stored times right."""
        if (now - self.last) & _MAX >= _STALE:
            self._catch_up(now)
        self.last = now

    def _catch_up(self, now):
        """After a long silence every stored time has passed: keep them just behind
        ``now`` (in the past, as they are, but never far enough to wrap round)."""
        long_ago = (now - _STALE) & _MAX
        notice = self.notice
        for pos in range(len(notice)):  # every code the game's bot watches
            notice[pos] = long_ago
        self.gone_at = self.press_at = self.free_at = long_ago
        if self.wake >= 0:
            self.wake = long_ago

    # ------------------------------------------------------------------ step

    def step(self, now):
        """Return the position to press at ``now`` (0-7), or -1."""
        g = self.game
        if (now - self.last) & _MAX >= _STALE:
            self._catch_up(now)
        self.last = now
        if g.changes != self.seen:
            self._look(now)
        elif self.wake < 0 or (now - self.wake) & _MAX >= _HALF:
            return -1  # the cheap path: nothing new, nothing due
        if g.phase != _PLAY:
            self.wake = -1  # the end of the deal is a change: look then
            return -1
        if (now - self.free_at) & _MAX >= _HALF:  # the hand is busy
            self.wake = self.free_at
            if self.target >= 0 and ticks_diff(self.press_at, self.wake) > 0:
                self.wake = self.press_at
            return -1
        pos = self._aimed(now)
        if pos < 0:
            return -1
        if self.gone and (ticks_diff(now, self.gone_at) >= self.p[REACT_MIN]
                          or self.rng.below(100) < self.p[CHECK_PCT]):
            # Saw in time that the target went away: take the next one.
            pos = self._aimed(now)
            if pos < 0:
                return -1
        # The press is judged once time moves on; look again from now + 1.
        self.free_at = (now + 1) & _MAX
        self.wake = self.free_at
        self.presses += 1
        return pos

    def _draw(self, lo, hi):
        """Uniform int in [lo, hi] from the bot's own generator."""
        if hi <= lo:
            return lo
        return lo + self.rng.below(hi - lo + 1)

    def _aimed(self, now):
        """Return the target once its press time has come (choosing one if need be), else -1."""
        if self.target < 0 and not self._choose(now):
            return -1
        if (now - self.press_at) & _MAX >= _HALF:  # not yet
            self.wake = self.press_at
            return -1
        pos = self.target
        self.target = -1
        return pos


def popcount(mask):
    """The number of set bits of ``mask``."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n
