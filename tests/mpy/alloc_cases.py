"""Steady-state engine operations, set up for heap measurement (vm_alloc, bench_vm).

``cases()`` builds every game first, then returns ``(name, fn, a, b, c, n)`` rows:
``n`` calls of ``fn(a, b, c)`` that must allocate nothing, in an order that makes
each one meaningful (the illegal press comes before the presses it locks).
``Driver`` plays whole games with small ints only, streaming a log line per press.
"""

from engine.family import OVER, PLAY
from engine.family_rules import DEADLOCK_MAX  # the longest stuck run: these games cycle through it
from engine.grid import GridGame
from engine.logwriter import LogWriter
from engine.rng import Rng
from engine.grid_rules import GridRules


class Counter:
    """A sink that only counts events (as a screen's dirty flag would)."""

    def __init__(self):
        self.n = 0

    def event(self, ev, t, i):
        self.n += 1


class Driver:
    """Two players pressing mostly coverable positions, as on the device."""

    def __init__(self, game, seed):
        self.game = game
        self.rng = Rng(seed)
        self.t = game.clock
        self.writer = LogWriter()

    def step(self):
        """Advance the clock a little, then maybe press for each player."""
        game = self.game
        rng = self.rng
        self.t += 1 + rng.below(250)
        game.advance(self.t)
        if game.phase != PLAY:
            return
        for player in range(2):
            mask = game.coverable
            pos = rng.below(8)
            if rng.below(4) and mask:  # mostly a coverable position
                while not (mask >> pos) & 1:
                    pos = (pos + 1) & 7
            game.press(player, pos, self.t)
            self.writer.press(self.t, player, pos)

    def play_game(self, _a=None, _b=None):
        """Play until the game is over (bounded)."""
        for _ in range(20000):
            self.step()
            if self.game.phase == OVER:
                return


def new_game(seed, rules):
    """A game dealt at 0 and in play at 300."""
    game = GridGame(rules)
    game.sink = Counter().event
    game.shuffle(seed)
    game.start(0)
    game.advance(300)
    return game


def find(game, coverable):
    """Return the first position that is (or is not) coverable, or -1."""
    for pos in range(8):
        if bool((game.coverable >> pos) & 1) == coverable:
            return pos
    return -1


def press_and_judge(game, player, pos):
    """Press at the next ms, then let time move past it so the tick is judged."""
    t = game.clock + 1
    game.press(player, pos, t)
    game.advance(t + 1)


def tie_and_judge(game, pos, _unused):
    """Both players press ``pos`` in the same ms; judge the tick."""
    t = game.clock + 1
    game.press(0, pos, t)
    game.press(1, pos, t)
    game.advance(t + 1)


def advance_by(game, ms, _unused):
    """Time moves on by ``ms`` (nothing due, or a stuck pause ending)."""
    game.advance(game.clock + ms)


def no_match_deck():
    """The deck of tests/test_rules.py that never shows a match, as codes."""
    deck = bytearray(52)
    seen = bytearray(13)
    for i, name in enumerate("A23456A234567A23456A234567" + "89TJQ7K89TJQK89TJQ7K89TJQK"):
        r = "A23456789TJQK".find(name)
        deck[i] = r * 4 + seen[r]
        seen[r] += 1
    return deck


def cases():
    """Build every game needed, then return the rows to measure and the stuck game."""
    seed = 0
    game = new_game(seed, GridRules())
    while find(game, True) < 0:  # a deal with a match
        seed += 1
        game = new_game(seed, GridRules())
    coin = new_game(seed, GridRules(tie=1))
    over = new_game(seed, GridRules())
    over._end(over.clock, 2, 2)  # any finished game
    stuck = GridGame(GridRules(deadlock=DEADLOCK_MAX, stuck=100, deal=50))
    stuck.sink = Counter().event
    stuck.set_deck(no_match_deck())
    stuck.start(0)
    stuck.advance(100)
    cover = find(game, True)
    rows = [
        ("press: tie (replay)", tie_and_judge, game, cover, None, 20),
        ("press: illegal", press_and_judge, game, 0, find(game, False), 1),
        ("press: locked", press_and_judge, game, 0, cover, 20),
        ("press: cover", press_and_judge, game, 1, cover, 1),
        ("press: tie (coin)", tie_and_judge, coin, find(coin, True), None, 1),
        ("press: ignored (game over)", press_and_judge, over, 0, 3, 20),
        ("advance with nothing due", advance_by, game, 7, None, 100),
        ("stuck -> gather -> deal", advance_by, stuck, 150, None, 50),
    ]
    return rows, stuck


def game_drivers():
    """Three games set up to be played whole (different rules)."""
    drivers = []
    for seed in (1, 2, 3):
        g = GridGame(GridRules(tie=seed & 1, rutter=seed == 3))
        g.sink = Counter().event
        g.shuffle(seed)
        g.start(0)
        d = Driver(g, seed)
        d.step()  # warm-up: first calls are not steady state
        drivers.append(d)
    return drivers
