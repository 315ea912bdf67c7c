"""Shared-row California Speed (RULES-ROW.md) and its variations.

Each pad presses the piles left to right from its own seat: near-row buttons 0-3 are
piles 0-3 as the seat sees them (its own left first); with 3 or 4 piles the far row is
the same piles again, with 6 the far row's two right-hand buttons are piles 4 and 5
(:func:`row_button` maps back).

The menu's default for what matches is "rank or suit", not the rule sheet's rank:
with rank only, about half of all games end drawn (docs/SIMULATION.md: 200 bot games,
54.5 % draws); the log still says which was played.
"""

KEY = "row"
OPTIONS = (
    ("Piles", ("3", "4", "6")),
    ("Match by", ("rank", "suit", "rank or suit")),
    ("If stuck", ("all piles", "two piles")),
)
DEFAULTS = b"\x01\x02\x00"  # 4 piles, rank or suit, redeal all
PILE_CHOICES = (3, 4, 6)
RANK_FLASH = False  # a tie flashes its pile only
MODULES = ("hw.games.row.table", "hw.games.row", "engine.row_bot", "engine.row",
           "engine.row_rules")
VARIATIONS = 6  # the demo: the defaults, then the rule sheet's five (RULES-ROW.md)

# Each seat's buttons -> the pile from its own left (255: none), by piles 3 / 4 / 6.
_SEAT_PILE = (
    bytes((0, 1, 2, 255, 0, 1, 2, 255)), bytes((0, 1, 2, 3, 0, 1, 2, 3)),
    bytes((0, 1, 2, 3, 255, 255, 4, 5)),
)


def row_seat_pile(piles, button):
    """The pile (numbered from the seat's own left) that ``button`` presses, or -1."""
    pile = _SEAT_PILE[0 if piles == 3 else 1 if piles == 4 else 2][button]
    return -1 if pile == 255 else pile


def row_button(piles, seat_pile):
    """The first pad button that presses pile ``seat_pile`` (from the seat's left)."""
    for button in range(8):
        if row_seat_pile(piles, button) == seat_pile:
            return button
    return -1


def game(sink):
    from engine.row import RowGame

    return RowGame(None, sink, False)  # no trial copy: starts only after a game is over


def rules(menu):
    from engine.row_rules import RowRules

    return RowRules(piles=PILE_CHOICES[menu.option(0)], match=menu.option(1),
                    redeal=menu.option(2), penalty=menu.penalty(), tie=menu.tie(),
                    wins=menu.wins())


def attract_rules(variation, wins):
    from engine.row_rules import MATCH_EITHER, MATCH_SUIT, REDEAL_TWO, RowRules

    rules = RowRules(wins=wins, match=MATCH_EITHER)  # the menu's defaults first
    if variation == 1:
        rules.match = MATCH_SUIT
    elif variation == 2:
        rules.match = 0  # rank, the rule sheet's own
    elif variation == 3:
        rules.piles = 3
    elif variation == 4:
        rules.piles = 6
    elif variation == 5:
        rules.redeal = REDEAL_TWO  # draw two if stuck
    return rules


def bot(game, seat, level, seed):
    from engine.row_bot import RowBot

    return RowBot(game, seat, level, seed)


def sheets(width, height):
    from hw.games.row.table import card_sheets

    return card_sheets(width, height)


def view(width, height, glyphs, sheets, player=-1):
    from hw.games.row.table import RowView

    return RowView(width, height, glyphs, sheets, player)


def target(game, seat, button):
    piles = game.piles
    pile = row_seat_pile(piles, button)
    if pile < 0:
        return -1
    return pile if seat == 0 else piles - 1 - pile  # B sees the row reversed
