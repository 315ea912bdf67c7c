"""Steady-state operations of Speed, set up for heap measurement.

``cases()`` builds every game first, then returns ``(name, fn, a, b, c, n)`` rows:
``n`` calls of ``fn(a, b, c)`` that must allocate nothing, in an order that makes
each one meaningful (the illegal play comes before the presses it locks).
``SpeedDriver`` plays whole games with small ints only, streaming a log line per press.
"""

from engine.cards import parse_card
from engine.family import OVER, PLAY
from engine.family_rules import DEADLOCK_MAX  # the longest stuck run: these games cycle through it
from engine.logwriter import LogWriter
from engine.rng import Rng
from engine.speed_rules import SpeedRules
from engine.speed import SpeedGame


class Counter:
    """A sink that only counts events (as a screen's dirty flag would)."""

    def __init__(self):
        self.n = 0

    def event(self, ev, t, i):
        self.n += 1


class SpeedDriver:
    """Two players making mostly fitting plays, as on the device."""

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
            mask = game.legal[player]
            n = rng.below(10)
            if rng.below(4) and mask:  # mostly a play that fits
                while not (mask >> n) & 1:
                    n = n + 1 if n < 9 else 0
            game.press(player, n, self.t)
            self.writer.press(self.t, player, n)

    def play_game(self, _a=None, _b=None):
        """Play until the game is over (bounded)."""
        for _ in range(20000):
            self.step()
            if self.game.phase == OVER:
                return


def new_game(seed, rules):
    """A game dealt at 0 and in play at 300."""
    game = SpeedGame(rules)
    game.sink = Counter().event
    game.shuffle(seed)
    game.start(0)
    game.advance(300)
    return game


def find(game, player, legal):
    """The first play that does (or does not) fit for ``player``, or -1."""
    for n in range(10):
        if bool((game.legal[player] >> n) & 1) == legal:
            return n
    return -1


def press_and_judge(game, player, n):
    """Press at the next ms, then let time move past it so the tick is judged."""
    t = game.clock + 1
    game.press(player, n, t)
    game.advance(t + 1)


def tie_and_judge(game, na, nb):
    """A plays ``na`` and B ``nb`` (on the same pile) in the same ms; judge the tick."""
    t = game.clock + 1
    game.press(0, na, t)
    game.press(1, nb, t)
    game.advance(t + 1)


def advance_by(game, ms, _unused):
    """Time moves on by ``ms`` (nothing due, or a stuck pause and a turn)."""
    game.advance(game.clock + ms)


def stuck_deck():
    """Nobody ever fits: hands of kings, queens and aces, the middle and side piles
    only fives, sevens and nines (tests/test_speed_rules.py's remake deck)."""
    head = {0: "KC", 1: "QC", 2: "KD", 3: "QD", 4: "KH", 20: "QH", 21: "KS", 22: "QS",
            23: "AC", 24: "AD", 40: "5S", 41: "5C", 42: "7D", 43: "7H", 44: "7S",
            45: "7C", 46: "9D", 47: "9H", 48: "9S", 49: "9C", 50: "5D", 51: "5H"}
    deck = bytearray(52)
    used = bytearray(52)
    for k in head:
        deck[k] = parse_card(head[k])
        used[deck[k]] = 1
    c = 0
    for k in range(52):
        if k not in head:
            while used[c]:
                c += 1
            deck[k] = c
            used[c] = 1
    return deck


def _tie_game(seed, rules):
    """A game in play where A's and B's first fitting plays are on one pile."""
    while True:
        game = new_game(seed, rules)
        na = find(game, 0, True)
        nb = find(game, 1, True)
        if game.phase == PLAY and na >= 0 and nb >= 0 and (na < 5) == (nb < 5):
            return game, na, nb, seed
        seed += 1


def stuck_game(remake):
    game = SpeedGame(SpeedRules(deadlock=DEADLOCK_MAX, stuck=100, deal=50, remake=remake))
    game.sink = Counter().event
    game.set_deck(stuck_deck())
    game.start(0)
    game.advance(50)
    return game


def cases():
    """Build every game needed, then return the rows to measure and the stuck games."""
    game, na, nb, seed = _tie_game(0, SpeedRules())
    coin, ca, cb, _ = _tie_game(seed + 1, SpeedRules(tie=1))
    over = new_game(1, SpeedRules())
    over._end(over.clock, 2, 2)  # any finished game
    rest = stuck_game(0)
    whole = stuck_game(1)
    rows = [
        ("press: tie (replay)", tie_and_judge, game, na, nb, 20),
        ("press: illegal", press_and_judge, game, 0, find(game, 0, False), 1),
        ("press: locked", press_and_judge, game, 0, na, 20),
        ("press: cover", press_and_judge, game, 1, nb, 1),
        ("press: tie (coin)", tie_and_judge, coin, ca, cb, 1),
        ("press: ignored (game over)", press_and_judge, over, 0, 3, 20),
        ("advance with nothing due", advance_by, game, 7, None, 100),
        ("stuck -> turn / remake rest", advance_by, rest, 150, None, 30),
        ("stuck -> turn / remake whole", advance_by, whole, 150, None, 30),
    ]
    return rows, rest, whole


def game_drivers():
    """Games set up to be played whole, one per house rule."""
    drivers = []
    for seed, rules in ((1, SpeedRules()), (2, SpeedRules(cards=15, tie=1)), (3, SpeedRules(same=1)),
                        (4, SpeedRules(remake=1, points=30)), (5, SpeedRules(deadlock=2, penalty=0))):
        g = SpeedGame(rules)
        g.sink = Counter().event
        g.shuffle(seed)
        g.start(0)
        d = SpeedDriver(g, seed)
        d.step()  # warm-up: first calls are not steady state
        drivers.append(d)
    return drivers
