"""Proves that every game's CPU opponent (2x4, shared row, Speed) is allocation-free per
step, inside the VM.

Two bots play whole games against each other, driven as the firmware does (advance
the game to ``now``, step each bot, press what it returns) one millisecond at a
time, across the 2**29 tick wrap and through game restarts (shuffle, start, reset).
Everything is set up before measuring; the measured loop must allocate 0 bytes
(gc.mem_alloc with the collector off) and survive micropython.heap_lock().

Run: node tests/mpy/vm.mjs tests/mpy/vm_bot_alloc.py  (pytest runs it via test_micropython.py)
"""
# vm-timeout: 900

import gc

from mpyharness import Report, measure

from engine.family_bot import BEGINNER, EXPERT, NORMAL, PERFECT
from engine.grid_bot import GridBot
from engine.family import OVER
from engine.grid import GridGame
from engine.row import RowGame
from engine.row_bot import RowBot
from engine.row_rules import RowRules
from engine.grid_rules import GridRules
from engine.speed import SpeedGame
from engine.speed_bot import SpeedBot
from engine.speed_rules import SpeedRules
from engine.ticks import ticks_add


class Driver:
    """A game and two bots; ``run(ms)`` plays on for ``ms`` milliseconds."""

    def __init__(self, game_class, bot_class, rules, level_a, level_b, seed):
        self.game = game_class(rules)
        self.bot_a = bot_class(self.game, 0, level_a, seed + 1)
        self.bot_b = bot_class(self.game, 1, level_b, seed + 2)
        self.seed = seed
        self.t = (1 << 29) - 7000  # the wrap comes 7 s in
        self.steps = 0
        self.presses = 0
        self.games = 0
        self._new_game()

    def _new_game(self):
        g = self.game
        if g.match_over:
            g.new_match()
        self.seed += 1
        g.shuffle(self.seed)
        g.start(self.t)
        self.bot_a.reset(self.t)
        self.bot_b.reset(self.t)
        self.games += 1

    def run(self, ms):
        g = self.game
        a = self.bot_a
        b = self.bot_b
        t = self.t
        for _ in range(ms):
            g.advance(t)
            if g.phase == OVER:
                self.t = t
                self._new_game()
            pos = a.step(t)
            if pos >= 0:
                g.press(0, pos, t)
                self.presses += 1
            pos = b.step(t)
            if pos >= 0:
                g.press(1, pos, t)
                self.presses += 1
            self.steps += 2
            t = ticks_add(t, 1)
        self.t = t


# Each game with its bot, and for each a level pairing and rules (variations too).
CASES = (
    ("2x4", GridGame, GridBot, ((NORMAL, NORMAL, 120000, GridRules()), (EXPERT, BEGINNER, 60000, GridRules()),
                        (PERFECT, PERFECT, 30000, GridRules()))),
    ("row", RowGame, RowBot, ((NORMAL, NORMAL, 120000, RowRules()),
                              (EXPERT, BEGINNER, 60000, RowRules(match=1, piles=6)),
                              (PERFECT, PERFECT, 30000, RowRules(match=2, piles=3, redeal=1)))),
    ("speed", SpeedGame, SpeedBot, ((NORMAL, NORMAL, 120000, SpeedRules()),
                                    (EXPERT, BEGINNER, 60000, SpeedRules(cards=15, same=1, tie=1)),
                                    (PERFECT, PERFECT, 30000, SpeedRules(remake=1, points=40)))),
)

r = Report("vm_bot_alloc")
for name, game_class, bot_class, runs in CASES:
    for la, lb, ms, rules in runs:
        d = Driver(game_class, bot_class, rules, la, lb, la * 10 + lb)
        d.run(300)  # warm-up: first calls, first deal
        steps0 = d.steps
        presses0 = d.presses
        games0 = d.games
        used = measure(d.run, ms)
        steps = d.steps - steps0
        what = "%s levels %d:%d" % (name, la, lb)
        print("%s: %d bot steps, %d presses, %d game starts, heap %s bytes (%s per step)"
              % (what, steps, d.presses - presses0, d.games - games0, used,
                 None if used is None else used / steps))
        r.check(d.presses - presses0 > 20, "%s: the bots pressed" % what)
        r.free("%s: %d ms of bot play allocates 0 bytes (heap_lock too)" % (what, ms // 4),
               d.run, ms // 4)
        r.check(used in (0, None), "%s: 0 bytes over %d steps" % (what, steps), used)
        r.check(d.games - games0 >= 2, "%s: game restarts were measured too" % what)

gc.collect()
r.done()
