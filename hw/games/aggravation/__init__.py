"""Aggravation and Frustration (RULES-AGGRAVATION.md): rows that grow, a call to win.

A press names a stack of one of the two rows: ``hw.games.aggravation.keys`` turns pad
buttons into positions, one button per column of four (two presses when a column
holds several stacks that could be meant); its :class:`~hw.games.aggravation.keys.
Controls` is made with the engine and kept on it as ``game.controls`` (the view
reads it to outline a selected column), so it goes when another game is chosen.
The menu's options: the mode, Frustration's target (shown with Frustration only) and
Aggravation's call window (shown with Aggravation only). The demo plays Aggravation,
then Frustration to a target of 20 (the default 10 takes minutes a game:
docs/SIMULATION.md).
"""

from engine.compat import const

KEY = "aggravation"
OPTIONS = (
    ("Mode", ("Aggravation", "Frustration")),
    ("Target", ("10", "15", "20")),
    ("Call window", ("300 ms", "400 ms", "600 ms")),
)
DEFAULTS = b"\x00\x00\x01"  # Aggravation, target 10, the book's 400 ms
_TARGETS = const((10, 15, 20))
_CALLS = const((300, 400, 600))
RANK_FLASH = False  # a tie flashes its stack only
MODULES = ("hw.games.aggravation.scene", "hw.games.aggravation.table",
           "hw.games.aggravation.keys", "hw.games.aggravation", "engine.aggravation_bot",
           "engine.aggravation", "engine.aggravation_rules")
VARIATIONS = 2  # the demo: Aggravation, then Frustration
_DEMO_TARGET = const(20)


def option_shown(menu, i):
    """The target with Frustration only, the call window with Aggravation only."""
    if i == 1:
        return menu.option(0) == 1
    if i == 2:
        return menu.option(0) == 0
    return True


def game(sink):
    from engine.aggravation import AggravationGame
    from hw.games.aggravation.keys import Controls

    game = AggravationGame(None, sink, False)  # no trial copy: starts only after a game is over
    game.controls = Controls()
    return game


def rules(menu):
    from engine.aggravation_rules import AggravationRules

    return AggravationRules(frustration=menu.option(0), target=_TARGETS[menu.option(1)],
                            call=_CALLS[menu.option(2)], penalty=menu.penalty(),
                            tie=menu.tie(), wins=menu.wins())


def attract_rules(variation, wins):
    from engine.aggravation_rules import AggravationRules

    if variation:
        return AggravationRules(frustration=1, target=_DEMO_TARGET, wins=wins)
    return AggravationRules(wins=wins)


def bot(game, seat, level, seed):
    from engine.aggravation_bot import AggravationBot

    return AggravationBot(game, seat, level, seed)


def sheets(width, height):
    from hw.games import forget
    from hw.games.aggravation.scene import card_sheets

    made = card_sheets(width, height)
    forget("hw.games.aggravation.scene")  # build-time code: see view()
    return made


def view(width, height, glyphs, sheets, player=-1):
    from hw.games import forget
    from hw.games.aggravation.table import AggravationView

    made = AggravationView(width, height, glyphs, sheets, player)
    forget("hw.games.aggravation.scene")  # the scene's builder: no heap during play
    return made


def target(game, seat, button):
    return game.controls.target(game, seat, button)


def press_button(seat, pos):
    """The button whose press alone presses ``pos``: its column's (for tools reading a
    log; a press that took a line button too is told by its time, not by this)."""
    from hw.games.aggravation.keys import column_button

    return column_button(seat, pos)
