"""Proves that the Speed CPU opponent is allocation-free per step, inside the VM.

Two bots play whole games against each other, driven as the firmware does (advance
the game to ``now``, step each bot, press what it returns) one millisecond at a
time, across the 2**29 tick wrap and through game restarts (shuffle, start, reset).
Everything is set up before measuring; the measured loop must allocate 0 bytes
(gc.mem_alloc with the collector off) and survive micropython.heap_lock().

Run: node tests/mpy/vm.mjs tests/mpy/vm_speedbot_alloc.py  (pytest runs it via test_micropython.py)
"""
# vm-timeout: 300

import gc

from mpyharness import Report, measure

from engine.bot import BEGINNER, EXPERT, NORMAL, PERFECT
from engine.game import OVER
from engine.speed import SpeedGame
from engine.speedbot import SpeedBot
from engine.speedrules import SpeedRules
from engine.ticks import ticks_add


class Driver:
    """A game and two bots; ``run(ms)`` plays on for ``ms`` milliseconds."""

    def __init__(self, level_a, level_b, seed, rules):
        self.game = SpeedGame(rules)
        self.bot_a = SpeedBot(self.game, 0, level_a, seed + 1)
        self.bot_b = SpeedBot(self.game, 1, level_b, seed + 2)
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


r = Report("vm_speedbot_alloc")
for la, lb, ms, rules in ((NORMAL, NORMAL, 120000, SpeedRules()),
                          (EXPERT, BEGINNER, 60000, SpeedRules(cards=15, same=1, tie=1)),
                          (PERFECT, PERFECT, 30000, SpeedRules(remake=1, points=40))):
    d = Driver(la, lb, la * 10 + lb, rules)
    d.run(300)  # warm-up: first calls, first deal
    steps0 = d.steps
    presses0 = d.presses
    games0 = d.games
    used = measure(d.run, ms)
    steps = d.steps - steps0
    print("levels %d:%d: %d bot steps, %d presses, %d game starts, heap %s bytes (%s per step)"
          % (la, lb, steps, d.presses - presses0, d.games - games0, used,
             None if used is None else used / steps))
    r.check(d.presses - presses0 > 20, "levels %d:%d: the bots pressed" % (la, lb))
    r.free("levels %d:%d: %d ms of bot play allocates 0 bytes (heap_lock too)" % (la, lb, ms // 4),
           d.run, ms // 4)
    r.check(used in (0, None), "levels %d:%d: 0 bytes over %d steps" % (la, lb, steps), used)
    r.check(d.games - games0 >= 2, "levels %d:%d: game restarts were measured too" % (la, lb))

gc.collect()
r.done()
