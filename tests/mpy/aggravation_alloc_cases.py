"""Aggravation and Frustration's steady-state operations, set up for heap measurement
(tests/mpy/vm_aggravation_alloc.py).

Everything here is set-up: games dealt from the rule tests' decks
(tests/aggravation_helpers.py) and brought to the state a measurement needs, logs turned
into :class:`Script` rows of small ints, drivers with preallocated generators. The
measured calls (``press_and_judge``, ``Script.play``, ``Driver.play_game``,
``BotDriver.run`` ...) use small ints only.
"""

import sys

sys.path.append(__file__.rsplit("/", 2)[0])  # tests/: the rule tests' decks

from aggravation_helpers import (  # noqa: E402
    DRY_END, SPLIT, deck_line, play_out, race_deck, race_presses, split_presses,
)
from engine.aggravation import AggravationGame  # noqa: E402
from engine.aggravation_bot import AggravationBot  # noqa: E402
from engine.aggravation_rules import AggravationRules  # noqa: E402
from engine.cards import parse_card  # noqa: E402
from engine.family import OVER, PLAY  # noqa: E402
from engine.logwriter import LogWriter  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.ticks import ticks_add  # noqa: E402

_PRESS = 0
_CLOCK = 1


class Counter:
    """A sink that only counts events (as a screen's dirty flag would)."""

    def __init__(self):
        self.n = 0

    def event(self, ev, t, i):
        self.n += 1


def codes(deck):
    """The 52 card codes of a ``deck ...`` line."""
    return [parse_card(c) for c in deck.split()[1:]]


class Script:
    """The ``press``/``clock`` lines of a log after its ``start``, as rows of small ints."""

    def __init__(self, lines):
        self.rows = []
        for line in lines:
            f = line.split()
            if f[0] == "press":
                self.rows.append((_PRESS, int(f[1]), 1 if f[2] == "B" else 0, int(f[3])))
            elif f[0] == "clock":
                self.rows.append((_CLOCK, int(f[1]), 0, 0))

    def play(self, game, _a=None, _b=None):
        """Feed every row to ``game`` (allocation-free: the rows are made)."""
        for row in self.rows:
            if row[0] == _PRESS:
                game.press(row[2], row[3], row[1])
            else:
                game.advance(row[1])


def new_game(deck, rules=None, start=1000):
    """A game dealt from ``deck`` (a ``deck`` line) at ``start``, with a counting sink."""
    game = AggravationGame(rules)
    game.sink = Counter().event
    game.set_deck(codes(deck))
    game.start(start)
    return game


def played(deck, lines, rules=None):
    """A game dealt from ``deck`` at 1000 after ``lines`` (press/clock) are played."""
    game = new_game(deck, rules)
    Script(lines).play(game)
    return game


def press_and_judge(game, player, pos):
    """Press at the next ms, then let time move past it so the tick is judged."""
    t = game.clock + 1
    game.press(player, pos, t)
    game.advance(t + 1)


def press_after_lock(game, player, pos):
    """A press once any lock has ended (an illegal press is illegal again)."""
    t = game.clock + game.penalty + 1
    game.press(player, pos, t)
    game.advance(t + 1)


def press_after_window(game, player, pos):
    """A tap after the call window: always a first tap."""
    t = game.clock + game.call_ms + 1
    game.press(player, pos, t)
    game.advance(t + 1)


def tie_and_judge(game, pos, _unused):
    """Both players press ``pos`` in the same ms; judge the tick."""
    t = game.clock + 1
    game.press(0, pos, t)
    game.press(1, pos, t)
    game.advance(t + 1)


def advance_by(game, ms, _unused):
    """Time moves on by ``ms``."""
    game.advance(game.clock + ms)


class Racer:
    """A's race covers (0, 14, 0, ...), one per call, each judged."""

    def __init__(self, game):
        self.game = game
        self.k = 0

    def cover(self, _a=None):
        press_and_judge(self.game, 0, 14 if self.k & 1 else 0)
        self.k += 1


def taps_game(b_cards="5S 9S 7S 8S", rules=None):
    """A out of cards; 0 = 5H and 14 = 5S match (tests/test_aggravation_rules.py's TAPS)."""
    return played(race_deck(b_cards), race_presses() + ["press 1700 B 14", "clock 1701"], rules)


def split_end():
    """Both packs empty; 0 = 5H and 14 = 5S match."""
    return played(SPLIT, split_presses() + ["clock 1700"])


def scooping_game():
    """Frustration: A's pack ran out at 1640; the scoop is due at 2140."""
    return played(race_deck(), race_presses() + ["clock 1641"], AggravationRules(frustration=1))


def deal_emptied_game():
    """Frustration: the round at 2200 deals A's last card; scooping from 2500."""
    return played(race_deck("9S 7S 8S"), race_presses(covers=24) +
                  ["press 1700 B 0", "press 1700 B 14", "clock 2201"],
                  AggravationRules(frustration=1))


# Six dry rounds: A deals A-6, B 7-Q (twelve ranks), a match only at the seventh.
DRY_ROUNDS = deck_line("AC 2C 3C 4C 5C 6C", "7D 8D 9D TD JD QD")


def dry_end_script():
    """The rule tests' both-out-on-a-dry-table game, as a deck and a script."""
    lines, _ = play_out(DRY_END)
    return Script(lines[4:])


class Driver:
    """Two players pressing mostly coverable (or, out of cards, tappable) positions."""

    def __init__(self, game, seed):
        self.game = game
        self.rng = Rng(seed)
        self.t = game.clock
        self.writer = LogWriter()

    def step(self):
        """Advance the clock a little, then maybe press for each player."""
        game = self.game
        rng = self.rng
        self.t += 1 + rng.below(3) * rng.below(200)
        game.advance(self.t)
        if game.phase != PLAY:
            return
        for player in range(2):
            mask = game.coverable if game.packs[player] else game.pairs
            pos = rng.below(28)
            if rng.below(4) and mask:  # mostly a position that can be pressed
                while not (mask >> pos) & 1:
                    pos = pos + 1 if pos < 27 else 0
            game.press(player, pos, self.t)
            self.writer.press(self.t, player, pos)

    def play_game(self, _a=None, _b=None):
        """Play until the game is over (bounded)."""
        for _ in range(20000):
            self.step()
            if self.game.phase == OVER:
                return


def game_drivers():
    """Games set up to be played whole with random presses, one per variation."""
    drivers = []
    for seed, rules in ((1, AggravationRules()), (2, AggravationRules(tie=1, call=150)),
                        (3, AggravationRules(rutter=1, penalty=0)),
                        (4, AggravationRules(frustration=1)),
                        (5, AggravationRules(frustration=1, target=20, tie=1, stuck=0, deal=0))):
        game = AggravationGame(rules)
        game.sink = Counter().event
        game.shuffle(seed)
        game.start(0)
        d = Driver(game, seed)
        d.step()  # warm-up: first calls are not steady state
        drivers.append(d)
    return drivers


class BotDriver:
    """A game and two bots; ``run(ms)`` plays on for ``ms`` ms, restarting games, as the
    firmware drives them (advance, step each bot, press what it returns)."""

    def __init__(self, rules, level_a, level_b, seed):
        self.game = AggravationGame(rules)
        self.bot_a = AggravationBot(self.game, 0, level_a, seed + 1)
        self.bot_b = AggravationBot(self.game, 1, level_b, seed + 2)
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

    def run(self, ms, _b=None):
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
