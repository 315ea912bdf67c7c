"""The games the handheld plays, as plug-ins: one small class per game kind.

``hw.app`` runs the flow every game shares (title, menu, READY/GO/DONE, a match
game after game, pause, attract mode, the log, CPU seats); what differs between
games is described here, one *kind* per game, in :data:`KINDS` (the menu's order;
the menu remembers the index). A kind says:

* ``KEY``: the log's ``rules game=`` value (``grid``, ``row``, ``speed``);
  ``NAME``: the menu's text;
* ``RANK_FLASH``: a tie also flashes the other cards of its rank (``hw.feedback``);
* ``MODULES``: the modules only this game uses (its engine, rules, bot and view),
  imported when a match of it begins and forgotten (``hw.app._forget``) when another
  game is chosen, so the heap holds one game's code. The 2x4 game's engine, rules
  and bot modules stay (the other engines import their constants and base classes);
  its view goes;
* ``game(sink)``: a new engine (default rules), at match start;
* ``rules(menu)``: the rules the menu's choices make; ``attract_rules(i, wins)``:
  the rules of demo variation ``i`` (``VARIATIONS`` of them; attract mode plays
  each in turn);
* ``bot(game, seat, level, seed)``: the CPU player (``step(now)`` returns the
  engine argument to press, or -1);
* ``sheets(width, height)`` and ``view(width, height, glyphs, sheets)``: the card
  bitmaps (made once and kept while the game is chosen) and the table's view, whose
  ``update(game, now, msg, hints)`` draws a frame and whose ``group`` is shown;
* ``target(game, seat, button)``: the engine argument (``game.press(seat, n, t)``)
  that ``seat``'s pad button 0-7 (``hw.pads``: 0-3 near row, 4-7 far row, each left
  to right from the seat) presses, or -1 when that button does nothing in this game.
  It is called once per press, must not allocate, and may keep state (a game whose
  play takes two buttons remembers the first and returns -1 for it).

Every engine has the contract of ``engine.grid`` (the same calls, codes, phases,
events and ``tops``/``packs``/``score``/``locked_at`` views), so nothing else in the
firmware depends on which game is on. A new game is one class here, its view
module, and its name in :data:`KINDS`.

Implementation Notes
--------------------

**Software and Dependencies:** imports lazily, inside the methods: ``engine.grid``,
``engine.grid_rules``, ``engine.family_bot``, ``hw.table_view``, ``hw.pads`` (the 2x4 game);
``engine.row``, ``engine.row_rules``, ``engine.row_bot``, ``hw.row_view`` (the row
game); ``engine.speed``, ``engine.speed_rules``, ``engine.speed_bot``, ``hw.speed_view``,
``hw.speed_keys`` (Speed).
"""

GRID = 0
ROW = 1
SPEED = 2


class GridKind:
    """The 2x4 game (RULES.md): the handheld's first game."""

    KEY = "grid"
    RANK_FLASH = True  # a tie flashes the cards of its rank (hw.feedback: game.by_rank)
    NAME = "California Speed 2x4"
    # engine.grid_rules, engine.family_bot and engine.family stay: the other games are built on them
    MODULES = ("hw.table_view", "engine.grid")
    VARIATIONS = 1

    @staticmethod
    def game(sink):
        from engine.grid import GridGame
        from engine.grid_rules import GridRules

        return GridGame(GridRules(), sink, False)

    @staticmethod
    def rules(menu):
        return menu.rules()

    @staticmethod
    def attract_rules(variation, wins):
        from engine.grid_rules import GridRules

        return GridRules(wins=wins)

    @staticmethod
    def bot(game, seat, level, seed):
        from engine.grid_bot import GridBot

        return GridBot(game, seat, level, seed)

    @staticmethod
    def sheets(width, height):
        from hw.table_view import card_sheets

        return card_sheets(width, height)

    @staticmethod
    def view(width, height, glyphs, sheets):
        from hw.table_view import TableView

        return TableView(width, height, glyphs, sheets)

    @staticmethod
    def target(game, seat, button):
        # the pad mirrors the table from its seat (hw.pads.position), inlined
        if button < 4:
            return seat * 4 + button
        return (1 - seat) * 4 + 7 - button


# The row game's pads: near-row buttons 0-3 are the piles 0-3 as the seat sees them
# (its own left first); with 3 or 4 piles the far row is the same piles again, with 6
# the far row's two right-hand buttons are piles 4 and 5 (row_button maps back).
_ROW_SEAT_PILE = (
    # piles: 3                         4                           6
    bytes((0, 1, 2, 255, 0, 1, 2, 255)), bytes((0, 1, 2, 3, 0, 1, 2, 3)),
    bytes((0, 1, 2, 3, 255, 255, 4, 5)),
)


def row_seat_pile(piles, button):
    """The pile (numbered from the seat's own left) that ``button`` presses, or -1."""
    pile = _ROW_SEAT_PILE[0 if piles == 3 else 1 if piles == 4 else 2][button]
    return -1 if pile == 255 else pile


def row_button(piles, seat_pile):
    """The first pad button that presses pile ``seat_pile`` (from the seat's left)."""
    for button in range(8):
        if row_seat_pile(piles, button) == seat_pile:
            return button
    return -1


class RowKind:
    """Shared-row California Speed (RULES-ROW.md) and its variations."""

    KEY = "row"
    RANK_FLASH = False  # a tie flashes its pile only
    NAME = "Shared row"
    MODULES = ("hw.row_view", "engine.row_bot", "engine.row", "engine.row_rules")
    # Demo variations: the defaults, then the rule sheet's five (RULES-ROW.md).
    VARIATIONS = 6

    @staticmethod
    def game(sink):
        from engine.row import RowGame
        from engine.row_rules import RowRules

        return RowGame(RowRules(), sink, False)

    @staticmethod
    def rules(menu):
        from engine.row_rules import PILE_CHOICES, RowRules

        return RowRules(piles=PILE_CHOICES[menu.row_piles()], match=menu.row_match(),
                        redeal=menu.row_redeal(), penalty=menu.penalty(), tie=menu.tie(),
                        wins=menu.wins())

    @staticmethod
    def attract_rules(variation, wins):
        from engine.row_rules import MATCH_EITHER, MATCH_SUIT, REDEAL_TWO, RowRules

        rules = RowRules(wins=wins)
        if variation == 1:
            rules.match = MATCH_SUIT  # suit match
        elif variation == 2:
            rules.match = MATCH_EITHER  # rank or suit
        elif variation == 3:
            rules.piles = 3
        elif variation == 4:
            rules.piles = 6
        elif variation == 5:
            rules.redeal = REDEAL_TWO  # draw two if stuck
        return rules

    @staticmethod
    def bot(game, seat, level, seed):
        from engine.row_bot import RowBot

        return RowBot(game, seat, level, seed)

    @staticmethod
    def sheets(width, height):
        from hw.row_view import card_sheets

        return card_sheets(width, height)

    @staticmethod
    def view(width, height, glyphs, sheets):
        from hw.row_view import RowView

        return RowView(width, height, glyphs, sheets)

    @staticmethod
    def target(game, seat, button):
        piles = game.piles
        pile = row_seat_pile(piles, button)
        if pile < 0:
            return -1
        return pile if seat == 0 else piles - 1 - pile  # B sees the row reversed


class SpeedKind:
    """Speed (RULES-SPEED.md): hands of five, two middle piles, one rank up or down.

    A play takes a hand card and a pile: ``hw.speed_keys`` turns pad buttons into
    plays; its :class:`~hw.speed_keys.Controls` (both seats' selections) is made with
    the engine and kept on it as ``game.controls`` (the view reads it from there to
    mark a selected card), so it goes when another game is chosen.
    """

    KEY = "speed"
    RANK_FLASH = False  # a tie flashes its place only
    NAME = "Speed"
    MODULES = ("hw.speed_view", "hw.speed_keys", "engine.speed_bot", "engine.speed",
               "engine.speed_rules")
    # Demo variations: the defaults, then the house rules (RULES-SPEED.md).
    VARIATIONS = 4

    @staticmethod
    def game(sink):
        from engine.speed import SpeedGame
        from engine.speed_rules import SpeedRules
        from hw.speed_keys import Controls

        game = SpeedGame(SpeedRules(), sink, False)
        game.controls = Controls()
        return game

    @staticmethod
    def rules(menu):
        from engine.speed_rules import CARDS_CHOICES, SpeedRules

        return SpeedRules(cards=CARDS_CHOICES[menu.speed_cards()], same=menu.speed_same(),
                          remake=menu.speed_remake(), points=menu.speed_points(),
                          penalty=menu.penalty(), tie=menu.tie(), wins=menu.wins())

    @staticmethod
    def attract_rules(variation, wins):
        from engine.speed_rules import REMAKE_WHOLE, SpeedRules

        rules = SpeedRules(wins=wins)
        if variation == 1:
            rules.cards = 15  # 15 cards each
        elif variation == 2:
            rules.same = 1  # same rank too
        elif variation == 3:
            rules.remake = REMAKE_WHOLE  # new side piles from whole middle piles
        return rules

    @staticmethod
    def bot(game, seat, level, seed):
        from engine.speed_bot import SpeedBot

        return SpeedBot(game, seat, level, seed)

    @staticmethod
    def sheets(width, height):
        from hw.speed_view import card_sheets

        return card_sheets(width, height)

    @staticmethod
    def view(width, height, glyphs, sheets):
        from hw.speed_view import SpeedView

        return SpeedView(width, height, glyphs, sheets)

    @staticmethod
    def target(game, seat, button):
        return game.controls.target(game, seat, button)


KINDS = (GridKind, RowKind, SpeedKind)  # the menu's order (its index is remembered in nvm)
