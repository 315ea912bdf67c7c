"""Zero heap bytes in steady state: presses, clock ticks, redeals, whole games, log lines.

Runs in the MicroPython VM (tests/test_micropython.py). Every check is measured twice:
the growth of gc.mem_alloc() with the collector off, and a run under heap_lock().
Set-up (Game, Rules, LogWriter, the deck) happens before any measurement.
"""
# vm-timeout: 300

from mpyharness import Report, measure
from engine.game import Game, PLAY, OVER, STUCK
from engine.log import LogWriter
from engine.rng import Rng
from engine.rules import Rules


class Counter:
    """A sink that only counts events (as a screen's dirty flag would)."""

    def __init__(self):
        self.n = 0

    def event(self, ev, t, i):
        self.n += 1


class Driver:
    """Plays a game like two players pressing coverable positions; small ints only."""

    def __init__(self, game, seed):
        self.game = game
        self.rng = Rng(seed)
        self.t = 0
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
            if rng.below(4) == 0:
                pos = rng.below(8)  # a wrong press now and then
            elif mask:
                pos = rng.below(8)
                while not (mask >> pos) & 1:
                    pos = (pos + 1) & 7
            else:
                continue
            game.press(player, pos, self.t)
            self.writer.press(self.t, player, pos)  # the device streams every press

    def play_game(self):
        """Play until the game is over (bounded)."""
        for _ in range(20000):
            self.step()
            if self.game.phase == OVER:
                return


def new_game(seed, rules, t=0):
    game = Game(rules)
    counter = Counter()
    game.sink = counter.event
    game.shuffle(seed)
    game.start(t)
    game.advance(t + 300)
    return game


def find_cover(game):
    """Return a coverable position (or -1)."""
    for pos in range(8):
        if (game.coverable >> pos) & 1:
            return pos
    return -1


def find_illegal(game):
    for pos in range(8):
        if not (game.coverable >> pos) & 1:
            return pos
    return -1


report = Report("vm_alloc")

# --- each kind of press, judged in its own tick (press + the advance that judges it)


def press_and_judge(game, player, pos):
    t = game.clock + 1
    game.press(player, pos, t)
    game.advance(t + 1)


def tie_and_judge(game, pos, _=None):
    t = game.clock + 1
    game.press(0, pos, t)
    game.press(1, pos, t)
    game.advance(t + 1)


seed = 0
game = new_game(seed, Rules())
while find_cover(game) < 0:  # a deal with a match
    seed += 1
    game = new_game(seed, Rules())
report.free("press: tie (replay), 20 times", tie_and_judge, game, find_cover(game), None, n=20)
report.free("press: illegal", press_and_judge, game, 0, find_illegal(game))
report.free("press: locked, 20 times", press_and_judge, game, 0, find_cover(game), n=20)
report.free("press: cover", press_and_judge, game, 1, find_cover(game))

coin = new_game(seed, Rules(tie=1))
report.free("press: tie (coin)", tie_and_judge, coin, find_cover(coin), None)

over = new_game(seed, Rules(deadlock=1))
over._end(over.clock, 2, 2)
report.free("press: ignored (game over), 20 times", press_and_judge, over, 0, 3, n=20)


def advance_idle(game, _a=None, _b=None):
    game.advance(game.clock + 7)


report.free("advance with nothing due, 100 times", advance_idle, game, None, None, n=100)

# --- stuck -> pause -> gather -> deal, repeatedly (no cover ever: deadlock off)
stuck = Game(Rules(deadlock=1 << 27, stuck=100, deal=50))
stuck.sink = Counter().event
deck = bytearray(52)
for i, name in enumerate("A23456A234567A23456A234567" + "89TJQ7K89TJQK89TJQ7K89TJQK"):
    deck[i] = "A23456789TJQK".find(name) * 4 + (0 if i < 26 else 1)
# the ranks alone decide matches: make the codes distinct by spreading suits
seen = bytearray(13)
for i in range(52):
    r = deck[i] >> 2
    deck[i] = r * 4 + seen[r]
    seen[r] += 1
assert stuck.set_deck(deck)
stuck.start(0)
stuck.advance(100)
report.check(stuck.phase == STUCK, "the no-match deck is stuck after its deal")


def redeal(game, _a=None, _b=None):
    game.advance(game.clock + 150)  # pause ends: gather + deal, then stuck again


report.free("stuck -> gather -> deal, 50 cycles", redeal, stuck, None, None, n=50)
report.check(stuck.deals > 50, "redeals happened (%d deals)" % stuck.deals)

# --- whole games after set-up, with the log writer streaming every press


def whole_game(driver, _a=None, _b=None):
    driver.play_game()


for seed in (1, 2, 3):
    g = Game(Rules(tie=seed & 1, rutter=seed == 3))
    g.sink = Counter().event
    g.shuffle(seed)
    g.start(0)
    d = Driver(g, seed)
    d.step()  # warm-up: first calls
    used = measure(whole_game, d)
    report.check(g.phase == OVER, "seed %d: the game ended (%d deals)" % (seed, g.deals))
    report.check(used in (0, None), "seed %d: whole game allocates 0 bytes" % seed, "(%s bytes)" % used)

g = Game()
g.sink = Counter().event
g.shuffle(99)
g.start(0)
report.free("whole game under heap_lock", whole_game, Driver(g, 99))

w = LogWriter()
report.free("LogWriter.press", w.press, 536870911, 1, 7)
report.free("LogWriter.clock", w.clock, 123456)
report.check(bytes(w.press(536870911, 1, 7)) == b"press 536870911 B 7\n", "LogWriter formats a press")

report.done()
