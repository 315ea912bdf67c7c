"""What the row and Speed bot tests share: one description of each game (its engine,
bot and rules classes, its variations, what its players see) and the drivers that play
a game with two bots -- the simulator's and a firmware-like one stepping every ms."""

from engine.family_bot import NORMAL
from engine.family import OVER
from engine.row import RowGame
from engine.row_bot import RowBot
from engine.row_rules import RowRules
from engine.speed import SpeedGame
from engine.speed_bot import SpeedBot
from engine.speed_rules import SpeedRules
from engine.ticks import TICKS_PERIOD, ticks_add
from tools.simulate import play_game

WRAP_START = TICKS_PERIOD - 20000


class Kind:
    """One game of the family as the bot tests need it."""

    def __init__(self, name, game, bot, rules, variations, seen, one_rule):
        self.name = name
        self.game = game
        self.bot = bot
        self.rules = rules
        self.variations = variations
        self.seen = seen  # the game's attributes a player at the table may read
        self.one_rule = one_rule  # a variation for the public-view test

    def __repr__(self):
        return self.name

    def rules_of(self, text):
        rules = self.rules()
        for item in text.split():
            key, _, value = item.partition("=")
            rules.set(key, value)
        return rules

    def new_game(self, seed, levels=(NORMAL, NORMAL), bot_seeds=(1, 2), rules=None, t=0,
                 sink=None):
        game = self.game(rules, sink)
        game.shuffle(seed)
        game.start(t)
        return game, (self.bot(game, 0, levels[0], bot_seeds[0]),
                      self.bot(game, 1, levels[1], bot_seeds[1]))

    def play(self, seed, levels=(NORMAL, NORMAL), bot_seeds=(1, 2), rules=None, t=0):
        """A game played by the simulator's driver: (game, its log lines)."""
        game, bots = self.new_game(seed, levels, bot_seeds, rules, t)
        lines = []
        play_game(game, bots, t, lines.append)
        return game, lines

    def public_view(self, game):
        """``game`` seen through only the attributes in ``seen`` (others raise)."""
        return PublicView(game, self.seen)


class PublicView:
    """Exposes only what a player at the table sees (``names``) and ``lock_left``."""

    def __init__(self, game, names):
        self._g = game
        self._names = names

    def __getattr__(self, name):
        if name not in self._names:
            raise AttributeError(name)
        return getattr(self._g, name)

    def lock_left(self, p, t):
        return self._g.lock_left(p, t)


ROW = Kind("row", RowGame, RowBot, RowRules,
           ["", "match=suit", "match=either", "piles=3", "piles=6", "redeal=two"],
           ("phase", "tops", "piles", "active", "match_mode", "changes"), "redeal=two")
SPEED = Kind("speed", SpeedGame, SpeedBot, SpeedRules,
             ["", "cards=15", "same=1", "remake=whole", "tie=coin points=30"],
             ("phase", "tops", "hands", "same", "changes"), "same=1")
KINDS = (ROW, SPEED)


def play_every_ms(game, bots, t, on_press=None):
    """A firmware-like driver: advance and step the bots every millisecond; the presses."""
    for bot in bots:
        bot.reset(t)
    presses = []
    while game.phase != OVER:
        game.advance(t)
        for bot in bots:
            code = bot.step(t)
            if code >= 0:
                if on_press is not None:
                    on_press(bot, code, t)
                game.press(bot.player, code, t)
                presses.append("press %d %s %d" % (t, "AB"[bot.player], code))
        t = ticks_add(t, 1)
    return presses
