"""Heap figures of the engine inside the MicroPython VM (run by tools/bench_engine).

Prints one ``name value`` line per figure; not a test (tests/mpy/vm_alloc.py is).
"""

import gc
import sys

sys.path.append("/proj/tests/mpy")  # the VM's copy of tests/mpy (bench_engine passes it)

from mpyharness import measure  # noqa: E402
from alloc_cases import cases, game_drivers  # noqa: E402
from engine.grid import GridGame
from engine.grid_rules import GridRules

try:
    from engine.grid_bot import GridBot
except ImportError:
    GridBot = None


def setup_bytes():
    """Heap kept by a Game from construction to its first deal."""
    gc.collect()
    before = gc.mem_alloc()
    game = GridGame(GridRules())
    game.shuffle(1)
    game.start(0)
    gc.collect()
    return gc.mem_alloc() - before, game


def bot_steps(game, bots, n):
    """``n`` ms of two bots playing through the same press path as humans."""
    t = game.clock
    for _ in range(n):
        t += 1
        game.advance(t)
        for bot in bots:
            pos = bot.step(t)
            if pos >= 0:
                game.press(bot.player, pos, t)


def main():
    size, keep = setup_bytes()
    print("engine heap at set-up (bytes) %d" % size)
    rows, _ = cases()
    for name, fn, a, b, c, n in rows:
        fn(a, b, c)  # warm-up
        print("%s (bytes per op) %d" % (name, measure(fn, a, b, c, n) // n))
    for i, d in enumerate(game_drivers()):
        print("whole game %d (bytes) %d" % (i + 1, measure(d.play_game)))
    if GridBot is not None:
        g = GridGame()
        g.shuffle(3)
        g.start(0)
        bots = [GridBot(g, 0, 1, 11), GridBot(g, 1, 2, 12)]
        bot_steps(g, bots, 10)
        print("bot steps x2000 (bytes) %d" % measure(bot_steps, g, bots, 2000))


main()
