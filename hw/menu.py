"""The match menu as data: which options exist, which is chosen, and the rules they make.

No drawing and no buttons here: ``hw.views.menu_view`` draws a :class:`Menu`,
``hw.app`` moves it. The items are the game (``hw.games.GAMES``), then the chosen
game's own options (its kind's ``OPTIONS``), then the options every game shares:
players (2 humans, or 1 player vs CPU when the CPU player is installed), the CPU
level, the match length (best of 1/3/5), the tie policy, the penalty and hints. The
last item, "Button test", is an action, not a choice: START on it opens the button
test mode (``hw.views.button_check``); it is not saved. So is "Link" before it, shown
on a board with link pins (:attr:`Menu.link` >= 0): its value is the role this
handheld takes, host (seat A: its menu's choices make the match) or guest (seat B),
and START on it opens the link screen (``hw.app.linked``).

The choices survive a power cycle in the power-cut-safe record of
``hw.store.record`` (:meth:`save` / :meth:`load`), which also holds the players'
stats (``Menu.record``): the shared choices, the chosen game, and a row of options
for every game, so each game keeps its own options when another is chosen.

Implementation Notes
--------------------

Only the chosen game's kind is imported (:meth:`kind`, ``hw.games.use``). A
stored option the game does not have (another version, a bad copy) is its default.
Moving the cursor or changing a value allocates nothing.

**Software and Dependencies:** ``engine.family_rules`` (tie codes), ``hw.store.record``,
``hw.games``; optional ``engine.family_bot`` (``LEVEL_NAMES``).
"""

from engine.compat import const
from engine.family_rules import TIE_COIN, TIE_REPLAY
from hw import games
from hw.store.record import MAX_GAMES, MENU_ITEMS, OPTION_BYTES, UNSET, Record

# Items: the shared choices (0-5: ``values`` and the record's MENU bytes, in this
# order), the game, the button test, then the chosen game's options (OPTION + i).
PLAYERS = 0
LEVEL = 1
MATCH = 2
TIES = 3
PENALTY = 4
HINTS = 5
GAME = 6
BUTTON_TEST = 7
LINK = 8
OPTION = 9  # the chosen game's option i is item OPTION + i

_LABELS = const(("Players", "CPU level", "Match", "Ties", "Penalty", "Hints", "Game",
                 "Button test", "Link"))
_LINK_ROLES = const(("as host (A)", "as guest (B)"))
_WINS = const((1, 2, 3))
_PENALTIES = const((0, 250, 500, 1000))
TIE_POLICIES = (TIE_REPLAY, TIE_COIN)
DEFAULTS = (0, 0, 1, 0, 2, 0)  # 2 players, -, best of 3, replay, 500 ms, no hints


def bot_levels():
    """Return the CPU levels a player may pick, or ``()`` if the CPU player is not installed.

    ``perfect`` (a few ms per card, never wrong) exists for tests, not for people.
    """
    import sys

    loaded = "engine.family_bot" in sys.modules
    try:
        from engine.family_bot import LEVEL_NAMES, PERFECT
    except ImportError:
        return ()
    if not loaded:  # its code comes back with a CPU player's: a match without one keeps ~2 KB
        games.forget("engine.family_bot")
    return tuple(LEVEL_NAMES[:PERFECT])


class Menu:
    """Option values and a cursor over the options that are visible."""

    def __init__(self, levels=()):
        self.levels = tuple(levels)
        self.shared = (
            ("2 players", "1 player vs CPU") if self.levels else ("2 players",),
            self.levels or ("-",),
            ("best of 1", "best of 3", "best of 5"),
            ("replay", "coin toss"),
            ("off", "250 ms", "500 ms", "1 s"),
            ("off", "on"),
            games.NAMES,
            ("START",),
            _LINK_ROLES,
        )
        self.values = bytearray(DEFAULTS)  # the shared choices, items 0-5
        self.game = 0  # hw.games.GAMES index
        self.options = bytearray(b"\xff" * (MAX_GAMES * OPTION_BYTES))  # every game's
        self.record = Record(DEFAULTS)
        self._checked = -1  # the game whose stored options were checked
        self.order = ()  # the items in the order they are shown and walked
        self.cursor = MATCH if not self.levels else PLAYERS
        self.changes = 0
        self.games_seen = 0  # moves when the chosen game (and so the items) changes
        self.link = -1  # "Link": -1 hidden (no link pins), else the role (not saved)
        self._chosen()

    # ------------------------------------------------------------- the game

    def kind(self):
        """The chosen game's kind (a module of ``hw.games``, see ``hw.games.use``)."""
        kind = games.use(self.game)
        if self._checked != self.game:
            self._checked = self.game
            self._check_options(kind)
        return kind

    def _chosen(self):
        """The game changed: its options become items (allocates: set-up)."""
        kind = self.kind()
        self.order = ((GAME,) + tuple(OPTION + i for i in range(len(kind.OPTIONS)))
                      + (PLAYERS, LEVEL, MATCH, TIES, PENALTY, HINTS, LINK, BUTTON_TEST))
        self.games_seen += 1

    def _check_options(self, kind):
        """Unset or out-of-range options of the chosen game are its defaults."""
        base = self.game * OPTION_BYTES
        for i in range(len(kind.OPTIONS)):
            value = self.options[base + i]
            if value == UNSET or value >= len(kind.OPTIONS[i][1]):
                self.options[base + i] = kind.DEFAULTS[i]

    def option(self, i):
        """The chosen game's option ``i`` (an index into its choices)."""
        return self.options[self.game * OPTION_BYTES + i]

    # ---------------------------------------------------------------- items

    def choices(self, item):
        """The texts of ``item``'s values."""
        if item >= OPTION:
            return self.kind().OPTIONS[item - OPTION][1]
        return self.shared[item]

    def label(self, item):
        """The name of ``item``."""
        if item >= OPTION:
            return self.kind().OPTIONS[item - OPTION][0]
        return _LABELS[item]

    def value(self, item):
        """Return the chosen value (an index into ``choices(item)``) of ``item``."""
        if item == GAME:
            return self.game
        if item == BUTTON_TEST:
            return 0  # an action: one "value", never saved
        if item == LINK:
            return self.link
        if item >= OPTION:
            return self.option(item - OPTION)
        return self.values[item]

    def choose(self, game):
        """Make game ``game`` (an ``hw.games.GAMES`` index) the chosen one."""
        if game != self.game:
            self.game = game
            self._chosen()
            self.changes += 1

    def _set(self, item, value):
        if item == GAME:
            self.choose(value)
        elif item >= OPTION:
            self.options[self.game * OPTION_BYTES + item - OPTION] = value
        elif item == LINK:
            self.link = value
        elif item != BUTTON_TEST:
            self.values[item] = value

    def visible(self, item):
        """Return True if ``item`` is shown: the CPU options only with a CPU player,
        the match length only when the game plays to a number of wins, a game's option
        as its kind says."""
        if item == PLAYERS:
            return bool(self.levels)
        if item == LEVEL:
            return bool(self.levels) and self.values[PLAYERS] == 1
        if item == LINK:
            return self.link >= 0
        kind = self.kind()
        if item == MATCH:
            wins = getattr(kind, "plays_to_wins", None)
            return wins is None or wins(self)
        if item >= OPTION:
            shown = getattr(kind, "option_shown", None)
            return shown is None or shown(self, item - OPTION)
        return True

    def shown(self):
        """Return the visible items in the order they are shown."""
        return tuple(item for item in self.order if self.visible(item))

    def move(self, step):
        """Move the cursor to the next visible item up (-1) or down (+1), wrapping."""
        order = self.order
        at = 0
        while at < len(order) and order[at] != self.cursor:
            at += 1
        if at == len(order):
            at = 0
        for _ in range(len(order)):
            at = (at + step) % len(order)
            if self.visible(order[at]):
                break
        self.cursor = order[at]
        self.changes += 1

    def change(self, step):
        """Step the value under the cursor by -1 or +1, wrapping."""
        item = self.cursor
        count = len(self.choices(item))
        self._set(item, (self.value(item) + step) % count)
        self.changes += 1

    def text(self, item):
        """Return the chosen value's text for ``item``."""
        return self.choices(item)[self.value(item)]

    # --------------------------------------------------------------- choices

    def penalty(self):
        """Return the chosen penalty in ms."""
        return _PENALTIES[self.values[PENALTY]]

    def tie(self):
        """Return the chosen tie policy."""
        return TIE_POLICIES[self.values[TIES]]

    def wins(self):
        """Return the games needed to win the match."""
        return _WINS[self.values[MATCH]]

    def vs_cpu(self):
        """Return True if seat B is the CPU."""
        return bool(self.levels) and self.values[PLAYERS] == 1

    def level(self):
        """Return the CPU level index (into ``engine.family_bot.LEVEL_NAMES``)."""
        return self.values[LEVEL]

    def hints(self):
        """Return True if coverable positions are highlighted."""
        return self.values[HINTS] == 1

    def on_button_test(self):
        """Return True if the cursor is on "Button test" (START opens it)."""
        return self.cursor == BUTTON_TEST

    def rules(self):
        """The chosen game's rules, as the menu's choices make them."""
        return self.kind().rules(self)

    # ------------------------------------------------------------ the record

    def save(self, nvm):
        """Store the choices (and the stats) in ``nvm`` if they changed."""
        record = self.record
        record.set_menu(self.values, self.game, self.options)
        record.save(nvm)

    def load(self, nvm):
        """Restore the record saved by :meth:`save`; keep the defaults if there is none.

        A value out of range for its option (another version, a bad copy) keeps that
        option's default.
        """
        record = self.record
        record.load(nvm)
        for i in range(MENU_ITEMS):
            value = record.menu_value(i)
            self.values[i] = value if value < len(self.shared[i]) else DEFAULTS[i]
        for i in range(MAX_GAMES * OPTION_BYTES):
            self.options[i] = record.buf_option(i)
        game = record.game()
        if game >= len(games.GAMES):
            game = 0
        self.game = game
        self._checked = -1  # its options are checked when its kind is loaded
        self._chosen()
        if not self.visible(self.cursor) or self.cursor not in self.order:
            self.cursor = PLAYERS if self.levels else MATCH
            if not self.visible(self.cursor):
                self.move(1)
        self.changes += 1
