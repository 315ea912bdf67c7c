"""Speed (RULES-SPEED.md): hands of five, two middle piles, one rank up or down.

A play takes a hand card and a pile: ``hw.games.speed.keys`` turns pad buttons into
plays; its :class:`~hw.games.speed.keys.Controls` (both seats' selections) is made
with the engine and kept on it as ``game.controls`` (the view reads it from there to
mark a selected card), so it goes when another game is chosen. The menu's options are
the book's house rules; a match played for points does not ask the match length.
"""

from engine.compat import const

KEY = "speed"
OPTIONS = (
    ("Cards", ("20 each", "15 each")),
    ("Same rank", ("no", "yes")),
    ("Remake", ("under tops", "whole piles")),
    ("Points", ("off", "first to 25", "first to 50", "first to 100")),
)
DEFAULTS = b"\x00\x00\x00\x00"
_CARDS_TO = const((20, 15))
_POINTS_TO = const((0, 25, 50, 100))  # a points match (docs/SIMULATION.md: 25 is about 5 min)
RANK_FLASH = False  # a tie flashes its place only
MODULES = ("hw.games.speed.table", "hw.games.speed.keys", "hw.games.speed", "engine.speed_bot",
           "engine.speed", "engine.speed_rules")
VARIATIONS = 4  # the demo: the defaults, then the house rules (RULES-SPEED.md)


def plays_to_wins(menu):
    """A match of games (not of points): the match length is asked."""
    return menu.option(3) == 0


def game(sink):
    from engine.speed import SpeedGame
    from hw.games.speed.keys import Controls

    game = SpeedGame(None, sink, False)  # no trial copy: starts only after a game is over
    game.controls = Controls()
    return game


def rules(menu):
    from engine.speed_rules import SpeedRules

    return SpeedRules(cards=_CARDS_TO[menu.option(0)], same=menu.option(1),
                      remake=menu.option(2), points=_POINTS_TO[menu.option(3)],
                      penalty=menu.penalty(), tie=menu.tie(), wins=menu.wins())


def attract_rules(variation, wins):
    from engine.speed_rules import REMAKE_WHOLE, SpeedRules

    rules = SpeedRules(wins=wins)
    if variation == 1:
        rules.cards = 15
    elif variation == 2:
        rules.same = 1  # the same rank too
    elif variation == 3:
        rules.remake = REMAKE_WHOLE  # new side piles from whole middle piles
    return rules


def bot(game, seat, level, seed):
    from engine.speed_bot import SpeedBot

    return SpeedBot(game, seat, level, seed)


def sheets(width, height):
    from hw.games.speed.table import card_sheets

    return card_sheets(width, height)


def view(width, height, glyphs, sheets, player=-1):
    from hw.games.speed.table import SpeedView

    return SpeedView(width, height, glyphs, sheets, player)


def target(game, seat, button):
    return game.controls.target(game, seat, button)
