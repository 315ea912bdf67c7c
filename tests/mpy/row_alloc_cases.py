"""Steady-state operations of the shared-row game, set up for heap measurement.

``cases()`` builds every game first, then returns ``(name, fn, a, b, c, n)`` rows:
``n`` calls of ``fn(a, b, c)`` that must allocate nothing, in an order that makes
each one meaningful (the illegal press comes before the presses it locks).
``RowDriver`` plays whole games with small ints only, streaming a log line per press.
"""

from engine.family import OVER, PLAY
from engine.family_rules import DEADLOCK_MAX  # the longest stuck run: these games cycle through it
from engine.logwriter import LogWriter
from engine.rng import Rng
from engine.row import RowGame
from engine.row_rules import RowRules


class Counter:
    """A sink that only counts events (as a screen's dirty flag would)."""

    def __init__(self):
        self.n = 0

    def event(self, ev, t, i):
        self.n += 1


class RowDriver:
    """Two players pressing mostly legal piles, as on the device."""

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
        n = game.piles
        for player in range(2):
            mask = game.legal[player]
            pile = rng.below(n)
            if rng.below(4) and mask:  # mostly a legal pile
                while not (mask >> pile) & 1:
                    pile = pile + 1 if pile + 1 < n else 0
            game.press(player, pile, self.t)
            self.writer.press(self.t, player, pile)

    def play_game(self, _a=None, _b=None):
        """Play until the game is over (bounded)."""
        for _ in range(20000):
            self.step()
            if self.game.phase == OVER:
                return


def new_game(seed, rules):
    """A game dealt at 0 and in play at 300."""
    game = RowGame(rules)
    game.sink = Counter().event
    game.shuffle(seed)
    game.start(0)
    game.advance(300)
    return game


def find(game, player, legal):
    """The first pile that is (or is not) legal for ``player``, or -1."""
    for pile in range(game.piles):
        if bool((game.legal[player] >> pile) & 1) == legal:
            return pile
    return -1


def press_and_judge(game, player, pile):
    """Press at the next ms, then let time move past it so the tick is judged."""
    t = game.clock + 1
    game.press(player, pile, t)
    game.advance(t + 1)


def tie_and_judge(game, pile, _unused):
    """Both players press ``pile`` in the same ms; judge the tick."""
    t = game.clock + 1
    game.press(0, pile, t)
    game.press(1, pile, t)
    game.advance(t + 1)


def advance_by(game, ms, _unused):
    """Time moves on by ``ms`` (nothing due, or a stuck pause and a redeal)."""
    game.advance(game.clock + ms)


def no_match_deck():
    """B's cards cycle through ranks 2-8, A's are 9-K and aces: with rank match no
    active card ever matches a top, so every deal is stuck (tests/test_row_rules.py)."""
    deck = bytearray(52)
    used = bytearray(52)
    for i in range(26):
        r = 1 + i % 7
        s = 0
        while used[r * 4 + s]:
            s += 1
        used[r * 4 + s] = 1
        deck[26 + i] = r * 4 + s
    k = 0
    low = 0
    for c in range(52):  # A: one high card, the two low leftovers, then the rest
        if not used[c]:
            if 1 <= c >> 2 <= 7:
                deck[1 + low] = c
                low += 1
            elif k == 0:
                deck[0] = c
                k = 3
            else:
                deck[k] = c
                k += 1
    return deck


def no_match_two_deck():
    """A deck that stays stuck under ``redeal=two`` (rank match): B's two first-deal
    cards on piles 2 and 3 are an 8 and a 9 that never show again as an active card,
    and B's other cards cycle through the ranks 2-7 so that its active card differs
    from the two cards it has just dealt; A shows only tens to kings and aces (its
    8s and 9s sit where it never shows them: the first deal and odd places)."""
    deck = bytearray(52)
    used = bytearray(52)
    j = 0
    for i in range(26):
        if i in (2, 3):
            r = 7 if i == 2 else 8
        else:
            r = 1 + j % 6
            j += 1
        s = 0
        while used[r * 4 + s]:
            s += 1
        used[r * 4 + s] = 1
        deck[26 + i] = r * 4 + s
    hidden = (0, 1, 2, 3, 5, 7)  # A's places that never show as its active card
    h = 0
    k = 0
    for c in range(52):
        if used[c]:
            continue
        if c >> 2 in (7, 8):
            deck[hidden[h]] = c
            h += 1
        else:
            while k in hidden:
                k += 1
            deck[k] = c
            k += 1
    return deck


def _both_legal(seed, rules):
    """A game (seed >= ``seed``) in play where both players may play on one pile."""
    while True:
        game = new_game(seed, rules)
        if game.legal[0] & game.legal[1] and game.phase == PLAY:
            return game, seed
        seed += 1


def cases():
    """Build every game needed, then return the rows to measure and the stuck games."""
    either = RowRules(match=2)
    game, seed = _both_legal(0, either)
    both = game.legal[0] & game.legal[1]
    tie_pile = 0
    while not (both >> tie_pile) & 1:
        tie_pile += 1
    coin, _ = _both_legal(seed, RowRules(match=2, tie=1))
    cpile = 0
    while not ((coin.legal[0] & coin.legal[1]) >> cpile) & 1:
        cpile += 1
    over = new_game(1, RowRules())
    over._end(over.clock, 2, 2)  # any finished game
    stuck_all = RowGame(RowRules(deadlock=DEADLOCK_MAX, stuck=100, deal=50))
    stuck_all.sink = Counter().event
    stuck_all.set_deck(no_match_deck())
    stuck_all.start(0)
    stuck_all.advance(50)
    stuck_two = RowGame(RowRules(deadlock=DEADLOCK_MAX, stuck=100, deal=50, redeal=1))
    stuck_two.sink = Counter().event
    stuck_two.set_deck(no_match_two_deck())
    stuck_two.start(0)
    stuck_two.advance(50)
    rows = [
        ("press: tie (replay)", tie_and_judge, game, tie_pile, None, 20),
        ("press: illegal", press_and_judge, game, 0, find(game, 0, False), 1),
        ("press: locked", press_and_judge, game, 0, tie_pile, 20),
        ("press: cover", press_and_judge, game, 1, find(game, 1, True), 1),
        ("press: tie (coin)", tie_and_judge, coin, cpile, None, 1),
        ("press: ignored (game over)", press_and_judge, over, 0, 3, 20),
        ("advance with nothing due", advance_by, game, 7, None, 100),
        ("stuck -> redeal all", advance_by, stuck_all, 75, None, 8),
        ("stuck -> redeal two", advance_by, stuck_two, 75, None, 12),
    ]
    return rows, stuck_all, stuck_two


def game_drivers():
    """Games set up to be played whole, one per variation."""
    drivers = []
    for seed, rules in ((1, RowRules()), (2, RowRules(match=1, tie=1)), (3, RowRules(match=2, piles=3)),
                        (4, RowRules(piles=6)), (5, RowRules(redeal=1, match=1))):
        g = RowGame(rules)
        g.sink = Counter().event
        g.shuffle(seed)
        g.start(0)
        d = RowDriver(g, seed)
        d.step()  # warm-up: first calls are not steady state
        drivers.append(d)
    return drivers
