"""The match menu as data: which options exist, which is chosen, and the rules they make.

No drawing and no buttons here: ``hw.menu_view`` draws a :class:`Menu`, ``hw.app``
moves it. The options are the game (``hw.games.KINDS``: the 2x4 game, the shared
row, ...), players (2 humans, or 1 player vs CPU when ``engine.family_bot`` is installed),
the CPU level, match length (best of 1/3/5), tie policy, penalty and hints; with the
shared-row game chosen also its piles (3/4/6), what matches (rank, suit, rank or
suit) and the redeal when stuck (all piles, or two); with Speed its house rules
(RULES-SPEED.md: 20 or 15 cards each, the same rank too, the remake, a points match). :meth:`Menu.rules` returns the
``engine.grid_rules.GridRules`` of the 2x4 game; the chosen game's kind (:meth:`Menu.kind`)
makes its own rules from the menu. The last item, "Button test", is an action, not a
choice: START on it opens the button test mode (``hw.button_test``); it is not
saved. The choices survive a power cycle in the
power-cut-safe record of ``hw.record`` (:meth:`save` / :meth:`load`), which also
holds the players' stats (``Menu.record``).

Items 0-5 (``values``) are the record's first six menu bytes, as before; the game and
the row and Speed options (items 6-13, ``more``) are the record's added menu bytes
(``hw.record.MORE``), so an older record loads with the 2x4 game and the row defaults.
:data:`ORDER` is the order the items are shown and walked in; the game is drawn as
the menu's heading line.

Implementation Notes
--------------------

**Software and Dependencies:** ``engine.grid_rules``, ``hw.record``, ``hw.games`` (names
only); optional ``engine.family_bot`` (``LEVEL_NAMES``).
"""

from engine.family_rules import TIE_COIN, TIE_REPLAY
from engine.grid_rules import GridRules
from hw.games import KINDS, ROW, SPEED
from hw.record import MORE_DEFAULTS, MORE_ITEMS, Record

PLAYERS = 0
LEVEL = 1
MATCH = 2
TIES = 3
PENALTY = 4
HINTS = 5
GAME = 6  # hw.games.KINDS index
PILES = 7  # the row game: engine.row_rules.PILE_CHOICES index
MATCH_BY = 8  # the row game: engine.row_rules MATCH_RANK/SUIT/EITHER
REDEAL = 9  # the row game: engine.row_rules REDEAL_ALL/TWO
SPEED_CARDS = 10  # Speed: engine.speed_rules.CARDS_CHOICES index (20/15 each)
SPEED_SAME = 11  # Speed: same rank too (engine.speed_rules same 0/1)
SPEED_REMAKE = 12  # Speed: engine.speed_rules REMAKE_REST/WHOLE
SPEED_POINTS = 13  # Speed: SPEED_POINTS index (0: a match of games)
BUTTON_TEST = 14  # an action (START opens the button test), not a saved choice
ITEMS = 15

LABELS = ("Players", "CPU level", "Match", "Ties", "Penalty", "Hints", "Game", "Piles",
          "Match by", "If stuck", "Cards", "Same rank", "Remake", "Points", "Button test")
ORDER = (GAME, PILES, MATCH_BY, REDEAL, SPEED_CARDS, SPEED_SAME, SPEED_REMAKE, SPEED_POINTS,
         PLAYERS, LEVEL, MATCH, TIES, PENALTY, HINTS, BUTTON_TEST)
ROW_ITEMS = (PILES, MATCH_BY, REDEAL)  # shown only with the row game chosen
SPEED_ITEMS = (SPEED_CARDS, SPEED_SAME, SPEED_REMAKE, SPEED_POINTS)  # only with Speed
SPEED_POINTS_TO = (0, 25, 50, 100)  # Speed's points match (docs/SIMULATION.md: 25 ~ 5 min)
WINS = (1, 2, 3)
PENALTIES = (0, 250, 500, 1000)
TIE_POLICIES = (TIE_REPLAY, TIE_COIN)
DEFAULTS = (0, 0, 1, 0, 2, 0)  # 2 players, -, best of 3, replay, 500 ms, no hints


def bot_levels():
    """Return the CPU levels a player may pick, or ``()`` if the CPU player is not installed.

    ``perfect`` (a few ms per card, never wrong) exists for tests, not for people.
    """
    try:
        from engine.family_bot import LEVEL_NAMES, PERFECT
    except ImportError:
        return ()
    return tuple(LEVEL_NAMES[:PERFECT])


class Menu:
    """Option values and a cursor over the options that are visible."""

    def __init__(self, levels=()):
        self.levels = tuple(levels)
        self.choices = (
            ("2 players", "1 player vs CPU") if self.levels else ("2 players",),
            self.levels or ("-",),
            ("best of 1", "best of 3", "best of 5"),
            ("replay", "coin toss"),
            ("off", "250 ms", "500 ms", "1 s"),
            ("off", "on"),
            tuple(kind.NAME for kind in KINDS),
            ("3", "4", "6"),
            ("rank", "suit", "rank or suit"),
            ("all piles", "two piles"),
            ("20 each", "15 each"),
            ("no", "yes"),
            ("under tops", "whole piles"),
            ("off", "first to 25", "first to 50", "first to 100"),
            ("START",),
        )
        self.values = bytearray(DEFAULTS)  # items 0-5
        self.more = bytearray(MORE_DEFAULTS)  # items 6-13
        self.record = Record(DEFAULTS)
        self.cursor = MATCH if not self.levels else PLAYERS
        self.changes = 0

    def value(self, item):
        """Return the chosen value (an index into ``choices[item]``) of ``item``."""
        if item == BUTTON_TEST:
            return 0  # an action: one "value", never saved
        return self.values[item] if item < GAME else self.more[item - GAME]

    def _set(self, item, value):
        if item == BUTTON_TEST:
            return
        if item < GAME:
            self.values[item] = value
        else:
            self.more[item - GAME] = value

    def visible(self, item):
        """Return True if ``item`` is shown (the CPU options only with a CPU player, the
        row game's options only with the row game, Speed's only with Speed, and the
        match length not in a Speed match played for points)."""
        if item == PLAYERS:
            return bool(self.levels)
        if item == LEVEL:
            return bool(self.levels) and self.values[PLAYERS] == 1
        if item in ROW_ITEMS:
            return self.more[0] == ROW
        if item in SPEED_ITEMS:
            return self.more[0] == SPEED
        if item == MATCH:
            return self.more[0] != SPEED or self.more[SPEED_POINTS - GAME] == 0
        return True

    def shown(self):
        """Return the visible items in the order they are shown."""
        return tuple(item for item in ORDER if self.visible(item))

    def move(self, step):
        """Move the cursor to the next visible item up (-1) or down (+1), wrapping."""
        at = 0
        while ORDER[at] != self.cursor:
            at += 1
        for _ in range(len(ORDER)):
            at = (at + step) % len(ORDER)
            if self.visible(ORDER[at]):
                break
        self.cursor = ORDER[at]
        self.changes += 1

    def change(self, step):
        """Step the value under the cursor by -1 or +1, wrapping."""
        item = self.cursor
        count = len(self.choices[item])
        self._set(item, (self.value(item) + step) % count)
        self.changes += 1

    def text(self, item):
        """Return the chosen value's text for ``item``."""
        return self.choices[item][self.value(item)]

    def kind(self):
        """Return the chosen game's kind (a class of ``hw.games``)."""
        return KINDS[self.more[0]]

    def penalty(self):
        """Return the chosen penalty in ms."""
        return PENALTIES[self.values[PENALTY]]

    def tie(self):
        """Return the chosen tie policy."""
        return TIE_POLICIES[self.values[TIES]]

    def wins(self):
        """Return the games needed to win the match."""
        return WINS[self.values[MATCH]]

    def row_piles(self):
        """Return the row game's piles choice (an index into 3/4/6)."""
        return self.more[PILES - GAME]

    def row_match(self):
        """Return the row game's match mode (engine.row_rules MATCH_*)."""
        return self.more[MATCH_BY - GAME]

    def row_redeal(self):
        """Return the row game's redeal (engine.row_rules REDEAL_*)."""
        return self.more[REDEAL - GAME]

    def speed_cards(self):
        """Return Speed's cards choice (an index into engine.speed_rules.CARDS_CHOICES)."""
        return self.more[SPEED_CARDS - GAME]

    def speed_same(self):
        """Return Speed's ``same`` (1: the same rank is played too)."""
        return self.more[SPEED_SAME - GAME]

    def speed_remake(self):
        """Return Speed's remake (engine.speed_rules REMAKE_*)."""
        return self.more[SPEED_REMAKE - GAME]

    def speed_points(self):
        """Return Speed's points goal (0: a match of ``wins`` games)."""
        return SPEED_POINTS_TO[self.more[SPEED_POINTS - GAME]]

    def vs_cpu(self):
        """Return True if seat B is the CPU."""
        return bool(self.levels) and self.values[PLAYERS] == 1

    def level(self):
        """Return the CPU level index (into ``engine.family_bot.LEVEL_NAMES``)."""
        return self.values[LEVEL]

    def on_button_test(self):
        """Return True if the cursor is on "Button test" (START opens it)."""
        return self.cursor == BUTTON_TEST

    def hints(self):
        """Return True if coverable positions are highlighted."""
        return self.values[HINTS] == 1

    def rules(self):
        """Return the ``Rules`` these choices make (defaults for everything else)."""
        return GridRules(penalty=PENALTIES[self.values[PENALTY]], tie=TIE_POLICIES[self.values[TIES]],
                     wins=WINS[self.values[MATCH]])

    def save(self, nvm):
        """Store the choices (and the stats) in ``nvm`` (``microcontroller.nvm``) if changed."""
        record = self.record
        record.set_menu(self.values, self.more)
        record.save(nvm)

    def load(self, nvm):
        """Restore the record saved by :meth:`save`; keep the defaults if there is none.

        A value out of range for its option (another version, a bad copy) keeps
        that option's default.
        """
        record = self.record
        record.load(nvm)
        for item in range(len(DEFAULTS)):
            value = record.menu_value(item)
            self.values[item] = value if value < len(self.choices[item]) else DEFAULTS[item]
        for i in range(MORE_ITEMS):
            value = record.more_value(i)
            if GAME + i < len(self.choices) and value >= len(self.choices[GAME + i]):
                value = MORE_DEFAULTS[i]
            self.more[i] = value  # (a spare byte no item uses yet is kept as it is)
        if not self.visible(self.cursor):
            self.move(1)
        self.changes += 1
