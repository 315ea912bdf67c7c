"""The 2x4 game (RULES.md): the handheld's first game, with David Rutter's variant.

Each pad mirrors the table from its seat (``hw.board.pads``): the near row is the
seat's own four stacks, left to right from the seat, the far row the opponent's.
The menu's option is RULES.md section 8's ``rutter`` variant.
"""

from hw.board.pads import position  # (loaded with the buttons anyway)

KEY = "grid"
OPTIONS = (
    ("Rutter rule", ("off", "on")),  # RULES.md section 8: a stack on its own rank is coverable
)
DEFAULTS = b"\x00"
RANK_FLASH = True  # a tie flashes the cards of its rank (hw.app.feedback: game.by_rank)
MODULES = ("hw.games.grid.table", "hw.games.grid", "engine.grid_bot", "engine.grid",
           "engine.grid_rules")
VARIATIONS = 2  # the demo: RULES.md's defaults, then the Rutter rule


def game(sink):
    from engine.grid import GridGame

    return GridGame(None, sink, False)  # no trial copy: starts only after a game is over


def rules(menu):
    from engine.grid_rules import GridRules

    return GridRules(penalty=menu.penalty(), tie=menu.tie(), wins=menu.wins(),
                     rutter=menu.option(0))


def attract_rules(variation, wins):
    from engine.grid_rules import GridRules

    return GridRules(wins=wins, rutter=variation)


def bot(game, seat, level, seed):
    from engine.grid_bot import GridBot

    return GridBot(game, seat, level, seed)


def sheets(width, height):
    from hw.games.grid.table import card_sheets

    return card_sheets(width, height)


def view(width, height, glyphs, sheets, player=-1):
    from hw.games.grid.table import TableView

    return TableView(width, height, glyphs, sheets, player)


def target(game, seat, button):
    """The pad mirrors the table from its seat (``hw.board.pads.position``)."""
    return position(seat, button)
