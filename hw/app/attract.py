"""Attract mode and the power-on hold: what the handheld does before anyone plays.

Attract mode: after ``attract_ms`` (:data:`ATTRACT_MS`, 20 s; ``CSPEED_ATTRACT_S`` in
``settings.toml``, 0 = never) on the title screen with no button event, the device
plays CPU vs CPU: both seats are CPU players, each seat's level drawn from
:data:`ATTRACT_LEVELS` by the device's generator, one-game matches
(:data:`ATTRACT_WINS`) with hints on and the piezo silent, one after another. The
demos go through every game of ``hw.games`` and each game's variations in turn
(``VARIATIONS`` of its kind: the 2x4 game with and without the Rutter rule, the row
game's six, Speed's four house rules, ...), starting with the game chosen in the menu.
The table's message line reads "DEMO - press any button" whenever no other message is
due. Each demo match is streamed like any match but preceded by a ``# attract``
comment line (the line just before its ``CSLOG 1`` header), so a host can tell a demo
from a real match; the demo's log replays like any other. The first press of any
button (either pad or START) ends the demo at once: ``# attract stopped (button)`` is
logged, the title is shown, and that press (with anything read in the same pass) is
not played and does not act on the title; a bot's press of the pass before, already
logged, is judged (``game.finish()``), as the log's replay judges it at the log's end.
Attract mode needs the CPU player; without it the title just waits.

The power-on hold: on its first pass the app rescans the keys
(``Buttons.rescan``: a keypad scanner made while a key is held reports nothing for
that key until then), so a START held at power-on is read as a press; if that press
is stamped within :data:`BOOT_HOLD_MS` of the first pass and START is still held at the
long press (1 s), the button test mode opens (a quick tap there opens the menu as
usual).

Implementation Notes
--------------------

:class:`Attract` is a part of :class:`hw.app.App` (a mixin): it owns ``attract``,
``attract_ms``, ``attract_levels``, ``attract_game``, ``attract_variation``,
``attract_games``, ``idle_from``, ``booting``, ``boot_until`` and ``test_from_boot``.
"""

from engine.ticks import ticks_add, ticks_diff
from hw import games
from hw.app.modes import BUTTONS, TITLE
from hw.app.seats import CpuSeat
from hw.board.buzzer import SOUND_NONE

ATTRACT_MS = 20000  # idle time on the title before the demo starts (0: never)
ATTRACT_LEVELS = ("normal", "expert")  # each demo seat's level is drawn from these
ATTRACT_WINS = 1  # a demo match is one game (a draw is followed by another)
ATTRACT_HINTS = True  # coverable positions outlined during the demo
ATTRACT_TEXT = b"attract"  # logged as "# attract" just before a demo match's header
ATTRACT_STOP_TEXT = b"attract stopped (button)"
ATTRACT_MAX_MS = 86400000  # longest accepted timeout (one day; ticks_diff holds 2**28)
BOOT_HOLD_MS = 300  # START read down this soon after the first pass: held at power-on


class Attract:
    """Attract mode and the power-on hold (see the module docstring)."""

    def begin_attract(self, now):
        """Start a demo match, CPU vs CPU (see the module docstring)."""
        self.log.comment(ATTRACT_TEXT)  # just before the demo match's header
        self.stats.match_begins(False, -1)  # demo games are not counted
        self.matches += 1
        kind = games.use(self.attract_game)
        self._use(kind)
        game = self._new_match(kind.attract_rules(self.attract_variation, ATTRACT_WINS))
        self.attract_variation += 1  # the next demo: this game's next variation, or
        if self.attract_variation >= kind.VARIATIONS:  # the next game's first
            self.attract_variation = 0
            self.attract_game = (self.attract_game + 1) % len(games.GAMES)
        levels = self.attract_levels
        seeds = self.seeds
        for seat in range(2):
            level = levels[seeds.below(len(levels))]
            self.seats[seat] = CpuSeat(game, seat, level, seeds.next(), kind.bot)
        self._get_ready(ATTRACT_HINTS, True, now)

    def stop_attract(self):
        """End the demo at once and show the title (a button was pressed)."""
        # A bot's press of the last pass is logged but its tick not yet judged; the
        # log's replay judges it at the log's end: so does the device, silently.
        self.game.finish()
        self.sound = SOUND_NONE
        self.log.comment(ATTRACT_STOP_TEXT)
        self.attract = False
        self.paused = False
        self.seats[0] = self.humans[0]
        self.seats[1] = self.humans[1]
        self.start_down = False
        self._show(TITLE)

    def _title_idle(self, now):
        """On the title: start the demo once no button has moved for ``attract_ms``."""
        if not self.attract_ms or not self.attract_levels:
            return
        if self.idle_from < 0 or self.start_down:
            self.idle_from = now
        elif ticks_diff(now, self.idle_from) >= self.attract_ms:
            self.begin_attract(now)

    def _boot(self, now):
        """The first pass: rescan the keys, so a START held at power-on reports a press."""
        self.booting = False
        rescan = getattr(self.buttons, "rescan", None)
        if rescan is not None:
            rescan()
            self.boot_until = ticks_add(now, BOOT_HOLD_MS) or 1  # 0 means "closed"

    def _enter_button_test(self, start_held):
        """Show the button test mode; ``start_held``: START is down (power-on)."""
        self.boot_until = 0
        self.test_from_boot = start_held
        self._show(BUTTONS)
