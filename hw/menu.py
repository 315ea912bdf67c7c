"""The match menu as data: which options exist, which is chosen, and the rules they make.

No drawing and no buttons here: ``hw.menu_view`` draws a :class:`Menu`, ``hw.app``
moves it. The options are players (2 humans, or 1 player vs CPU when
``engine.bot`` is installed), the CPU level, match length (best of 1/3/5), tie
policy, penalty and hints; the last item, "Button test", is an action, not a
choice: START on it opens the button test mode (``hw.button_test``), and it is not
saved. :meth:`Menu.rules` returns the ``engine.rules.Rules``
the match is played (and logged) with. The choices survive a power cycle in the
power-cut-safe record of ``hw.record`` (:meth:`save` / :meth:`load`), which also
holds the players' stats (``Menu.record``).

Implementation Notes
--------------------

**Software and Dependencies:** ``engine.rules``, ``hw.record``; optional ``engine.bot``
(``LEVEL_NAMES``).
"""

from engine.rules import TIE_COIN, TIE_REPLAY, Rules
from hw.record import Record

PLAYERS = 0
LEVEL = 1
MATCH = 2
TIES = 3
PENALTY = 4
HINTS = 5
BUTTON_TEST = 6  # an action (START opens the button test), not a saved choice

LABELS = ("Players", "CPU level", "Match", "Ties", "Penalty", "Hints", "Button test")
WINS = (1, 2, 3)
PENALTIES = (0, 250, 500, 1000)
TIE_POLICIES = (TIE_REPLAY, TIE_COIN)
DEFAULTS = (0, 0, 1, 0, 2, 0)  # 2 players, -, best of 3, replay, 500 ms, no hints


def bot_levels():
    """Return the CPU levels a player may pick, or ``()`` if the CPU player is not installed.

    ``perfect`` (a few ms per card, never wrong) exists for tests, not for people.
    """
    try:
        from engine.bot import LEVEL_NAMES, PERFECT
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
            ("START",),
        )
        self.values = bytearray(len(LABELS))  # the saved choices, then the action's 0
        for item, value in enumerate(DEFAULTS):
            self.values[item] = value
        self.record = Record(DEFAULTS)
        self.cursor = MATCH if not self.levels else PLAYERS
        self.changes = 0

    def visible(self, item):
        """Return True if ``item`` is shown (the CPU options only with a CPU player)."""
        if item == PLAYERS:
            return bool(self.levels)
        if item == LEVEL:
            return bool(self.levels) and self.values[PLAYERS] == 1
        return True

    def move(self, step):
        """Move the cursor to the next visible item up (-1) or down (+1), wrapping."""
        item = self.cursor
        for _ in range(len(LABELS)):
            item = (item + step) % len(LABELS)
            if self.visible(item):
                break
        self.cursor = item
        self.changes += 1

    def change(self, step):
        """Step the value under the cursor by -1 or +1, wrapping."""
        item = self.cursor
        count = len(self.choices[item])
        self.values[item] = (self.values[item] + step) % count
        self.changes += 1

    def text(self, item):
        """Return the chosen value's text for ``item``."""
        return self.choices[item][self.values[item]]

    def vs_cpu(self):
        """Return True if seat B is the CPU."""
        return bool(self.levels) and self.values[PLAYERS] == 1

    def level(self):
        """Return the CPU level index (into ``engine.bot.LEVEL_NAMES``)."""
        return self.values[LEVEL]

    def on_button_test(self):
        """Return True if the cursor is on "Button test" (START opens it)."""
        return self.cursor == BUTTON_TEST

    def hints(self):
        """Return True if coverable positions are highlighted."""
        return self.values[HINTS] == 1

    def rules(self):
        """Return the ``Rules`` these choices make (defaults for everything else)."""
        return Rules(penalty=PENALTIES[self.values[PENALTY]], tie=TIE_POLICIES[self.values[TIES]],
                     wins=WINS[self.values[MATCH]])

    def save(self, nvm):
        """Store the choices (and the stats) in ``nvm`` (``microcontroller.nvm``) if changed."""
        record = self.record
        record.set_menu(self.values)
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
        if not self.visible(self.cursor):
            self.move(1)
        self.changes += 1
