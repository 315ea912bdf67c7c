"""The handheld's flow: title, menu, a match game after game, pause, the main-loop step.

:meth:`App.step` is one turn of the main loop, given ``now`` (``ticks_ms()`` read
just before). Its order never hands the engine a time behind its clock:

1. drain the button queue: each pad press goes to the engine with *its own*
   timestamp; START is handled here too; an overflowed queue is cleared, counted
   and logged. The scanner runs in the tick interrupt, so a press drained here can
   carry a timestamp ``t`` not before ``now`` (scanned after ``now`` was read, or in
   the same ms): the pass then runs at ``t + 1`` instead. All the events of one scan
   enter the queue at once and the next scan is at least 1 ms later (2 ms scan
   interval), so tick ``t`` is complete once drained: running at ``t + 1`` judges and
   draws the press in this same pass rather than the next, and nothing later in the
   pass (a CPU seat's press at ``now``) lands behind the game's clock. The pass's
   time is at most 1 ms ahead of ``ticks_ms()``; the next pass never runs earlier
   (its ``now`` is raised to this one's). A time behind the clock is still clamped
   (a constant ``#`` comment is logged and ``clamps`` counted), but the loop can no
   longer produce one;
2. ``game.advance(now)`` (the engine ignores a time behind its clock): the presses
   read in this pass are judged and drawn in this same pass; a ``clock`` line is
   logged when time alone changed the game, and every few seconds;
3. flow: start the next game, notice a game's end, ...;
4. CPU seats step at ``now`` and press through the same path as a pad;
5. draw what changed, then ``display.refresh()`` once.

Which game is played is the menu's choice, a kind of ``hw.games`` (the 2x4 game, the
shared row, ...): it makes the engine, its rules, its CPU player and its table view,
and maps a pad button to the engine's argument; everything above is the same for
every game. Only the chosen game is in the heap: when a match of another game begins,
the old game, its view and its CPU seats are dropped, the old game's own modules
forgotten (``_forget``) and collected, then the new one's imported and built.

Only the current screen exists: the title, the menu or the table (``READY`` to
``DONE``) is built when it is shown and dropped when another is, with a
``gc.collect()`` before the build (the old scene is freed first, so the heap's
high-water mark is one screen's) and one after it (the build's garbage is gone
before play, so no collection is due during play); screen changes only. The glyph sheet (``hw.gfx.glyph_sheet``) is made once and
shared by all screens; the card sheet once, with the first table.

Every press given to the engine is logged (``hw.serial_log``), so the streamed log
replays to exactly the device's game. A match runs game after game until one player
has won it (then START begins another with the same choices, a pad shows the menu);
a drawn game is followed by another game with a fresh shuffle (a new seed from the
device's own generator). START pauses and resumes (presses are not
played while paused; the engine's clock keeps running, so a deal or a stuck pause
may end during a pause); holding START for a second returns to the menu (the game
is first advanced to the pass's time, so a press read in that same pass is judged on
the device as the log's replay judges it).

Every timer (the READY/RESULT/GO countdowns, the START long press, the title's idle
time, the CPU seats) stays right however long the device sits, although
``ticks_diff`` reads a gap of 2**28 ms or more backwards: a deadline that has passed
is remembered as passed (``until`` is kept just behind ``now``; ``go`` is a flag),
and a paused CPU seat hears the time (``idle``) on every pass.

Attract mode: after ``attract_ms`` (:data:`ATTRACT_MS`, 20 s; ``CSPEED_ATTRACT_S``
in ``settings.toml``, 0 = never) on the title screen with no button event, the
device plays CPU vs CPU: both seats are ``engine.family_bot`` players, each seat's level
drawn from :data:`ATTRACT_LEVELS` by the device's generator, one-game matches
(:data:`ATTRACT_WINS`) with hints on and the piezo silent, one after another. The
table's message line reads "DEMO - press any button" (upright for A, upside down
for B) whenever no other message is due. Each demo match is streamed like any match
but preceded by a ``# attract`` comment line (the line just before its ``CSLOG 1``
header), so a host can tell a demo from a real match; the demo's log replays like
any other. The first press of any button (either pad or START) ends the demo at
once: ``# attract stopped (button)`` is logged, the title is shown, and that press
(with anything read in the same pass) is not played and does not act on the title;
a bot's press of the pass before, already logged, is judged (``game.finish()``), as
the log's replay judges it at the log's end.
Attract mode needs ``engine.family_bot``; without it the title just waits. The demo plays
the game chosen in the menu, one variation after another (``VARIATIONS`` of its
kind: the row game's defaults, then suit match, rank or suit, three piles, six
piles, redeal two; Speed's defaults, then 15 cards each, same rank too, whole-pile
remakes).

Button test mode (``hw.button_test``, ``hw.button_view``): the menu's "Button test"
item with START, or START held while the handheld starts. On its first pass the app
rescans the keys (``Buttons.rescan``: a keypad scanner made while a key is held
reports nothing for that key until then), so a START held at power-on is read as a
press; if that press is stamped within :data:`BOOT_HOLD_MS` of the first pass and
START is still held at the long press (1 s), the mode opens (a quick tap there opens
the menu as usual). In the mode every key event goes to the test (lit, counted,
printed on the console) and nothing else; holding START 2 s returns to the menu.

Implementation Notes
--------------------

**Software and Dependencies:** ``engine`` (game's constants, log, rng, ticks); ``hw``
games (the engines, rules, bots and table views, imported by the chosen kind),
views, menu, seats, serial log, buzzer. No CircuitPython-only module is imported
here: the display, the buttons, the serial port and the piezo are passed in.
"""

import gc

from engine.family import DEALING, DRAW, ERROR_NAMES, OK, OVER, PLAY, STUCK, WHY_DEADLOCK, WIN_A
from engine.rng import Rng, SEED_LIMIT
from engine.ticks import ticks_add, ticks_diff
from hw import gfx
from hw import messages  # the message ids (no view here: a view comes with its game)
from hw.buzzer import SOUND_NONE, Silent
from hw.menu import Menu, bot_levels
from hw.menu_view import MenuView, TitleView
from hw.pads import KEY_START
from hw.record import ByteStore
from hw.seats import CpuSeat, HumanSeat
from hw.serial_log import MatchLog
from hw.stats import StatsKeeper

# Modes.
TITLE = 0
MENU = 1
READY = 2  # a match is on: "get ready" before a game
GAME = 3  # a game is being played
RESULT = 4  # a game has ended: its result is shown
DONE = 5  # the match has been won
STATS = 6  # the stats screen (START held in the menu)
BUTTONS = 7  # the button test mode (hw.button_test)
MODE_NAMES = ("title", "menu", "ready", "game", "result", "done", "stats", "buttons")

READY_MS = 1500
RESULT_MS = 2500
GO_MS = 800
LONG_PRESS_MS = 1000
CLOCK_EVERY_MS = 5000
BOOT_HOLD_MS = 300  # START read down this soon after the first pass: held at power-on

OVERFLOW_TEXT = b"keypad queue overflowed: presses were lost"  # bytes: logged without allocating
ABANDON_TEXT = b"match abandoned (START held)"
CLAMP_TEXT = b"press time behind the clock: clamped"

# Screens: which scene is built (one at a time).
NO_SCREEN = -1
TITLE_SCREEN = 0
MENU_SCREEN = 1
TABLE_SCREEN = 2
STATS_SCREEN = 3
BUTTONS_SCREEN = 4

# Attract mode (CPU vs CPU on an idle title screen).
ATTRACT_MS = 20000  # idle time on the title before the demo starts (0: never)
ATTRACT_LEVELS = ("normal", "expert")  # each demo seat's level is drawn from these
ATTRACT_WINS = 1  # a demo match is one game (a draw is followed by another)
ATTRACT_HINTS = True  # coverable positions outlined during the demo
ATTRACT_DONE_MS = 4000  # "A wins the match" stays this long, then the next demo
ATTRACT_TEXT = b"attract"  # logged as "# attract" just before a demo match's header
ATTRACT_STOP_TEXT = b"attract stopped (button)"
ATTRACT_MAX_MS = 86400000  # longest accepted timeout (one day; ticks_diff holds 2**28)


def boot_seed():
    """Return a seed for the device's generator from ``os.urandom`` (or the clock)."""
    try:
        import os
        data = os.urandom(4)
        value = 0
        for byte in data:
            value = (value << 8) | byte
        return value % SEED_LIMIT
    except (ImportError, NotImplementedError, AttributeError):
        import supervisor
        return supervisor.ticks_ms() % SEED_LIMIT


def _forget(name):
    """Drop an imported module, so the collector can take its code."""
    import sys

    sys.modules.pop(name, None)
    package, _, leaf = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)


class App:
    """The firmware: give it a display, buttons and (optionally) a serial port."""

    def __init__(self, display, buttons, port=None, seed=None, buzzer=None, nvm=None,
                 levels=None, attract_ms=ATTRACT_MS, warning=None):
        self.display = display
        self.buttons = buttons
        self.warning = warning  # bytes: a setting fell back to its default (on the title)
        self.log = MatchLog(port)
        self.menu = Menu(bot_levels() if levels is None else levels)
        self.nvm = nvm
        self.menu.load(nvm)
        self.kind = self.menu.kind()  # the game in the heap (hw.games)
        self.game = self.kind.game(self._on_event)
        self.stats = StatsKeeper(self.menu.record)  # counts into the record; saved between games
        self.reset_gesture = None  # hw.stats_screen.ResetGesture while the stats are shown
        self.glyphs = gfx.glyph_sheet()
        self.card_tiles = None  # the kind's card sheets, made with its first table
        self.view = None  # the current screen's view (one at a time)
        self.screen = NO_SCREEN
        self.seeds = Rng(boot_seed() if seed is None else seed % SEED_LIMIT)
        self.humans = (HumanSeat(), HumanSeat())
        self.seats = [self.humans[0], self.humans[1]]
        self.attract_ms = max(0, min(attract_ms, ATTRACT_MAX_MS))
        self.attract_levels = tuple(i for i, name in enumerate(self.menu.levels)
                                    if name in ATTRACT_LEVELS)
        self.attract_variation = 0  # the next demo's variation of the chosen game
        self.attract = False  # a demo match is on
        self.idle_from = -1  # title: time of the last button event (-1: next step)
        self.attract_games = 0  # demo games started since boot
        self.buzzer = buzzer if buzzer is not None else Silent()
        self.mode = -1
        self.paused = False
        self.hints = False
        self.until = 0
        self.start_down = False
        self.start_at = 0
        self.start_long = False
        self.first_play = False
        self.go = False  # "GO" is showing (from play_since, for GO_MS)
        self.play_since = 0
        self.logged_at = 0
        self.sound = SOUND_NONE
        self.feedback = None  # hw.feedback.Feedback: each event's sound, notes, flashes
        # (made with the first match: its code takes no heap before one is played)
        self.clamps = 0
        self.frames = 0
        self.presses = 0  # presses given to the engine (human and CPU)
        self.matches = 0  # matches (and demo matches) begun
        self.screens = 0  # screens built
        self.collects = 0  # gc.collect() calls (two per screen change)
        self.late = 0  # this pass's time: past every human press handed to the engine
        self.last = -1  # the time of the last pass (-1: none yet)
        self.button_test = None  # hw.button_test.ButtonTest while the mode is shown
        self.test_from_boot = False  # the button test was entered with START held from power-on
        self.start_at_boot = False  # the START held now was down at power-on
        self.booting = True  # the first pass is still to come (it rescans the keys)
        self.boot_until = 0  # a START press stamped before this is "held at power-on"
        self._show(TITLE)

    # ---------------------------------------------------------------- the loop

    def step(self, now):
        """One turn of the main loop at ``now`` (see the module docstring)."""
        if self.last >= 0 and ticks_diff(now, self.last) < 0:
            now = self.last  # the last pass ran up to 1 ms ahead: never go back
        if self.booting:
            self._boot(now)
        self.late = now
        self._read_buttons(now)
        if self.boot_until and ticks_diff(now, self.boot_until) >= 0:
            self.boot_until = 0  # closed for good (no wrap back days later)
        now = self.late  # past every press just handed to the engine: judged now
        self.last = now
        if self.start_down and not self.start_long and \
                ticks_diff(now, self.start_at) >= LONG_PRESS_MS:
            self.start_long = True
            self._start_held(now)
        if READY <= self.mode <= DONE:
            self._advance(now)
            self._flow(now)
            self._cpu(now)
        elif self.mode == TITLE:
            self._title_idle(now)
        elif self.mode == STATS:
            self.reset_gesture.tick(now)
        elif self.mode == BUTTONS:
            if self.button_test.tick(now):  # START held 2 s
                self._show(MENU)
        self._draw(now)
        if self.sound:
            if not self.attract:  # the demo plays silently
                self.buzzer.beep(self.sound, now)
            self.sound = SOUND_NONE
        self.buzzer.update(now)
        self.log.pump(now)  # log bytes a slow host has not taken yet
        self.display.refresh()
        self.frames += 1

    def _read_buttons(self, now):
        buttons = self.buttons
        woke = False  # a press ended the demo: the rest of this pass is dropped too
        while buttons.read():
            key = buttons.key
            if woke or self.attract:
                if buttons.pressed and key <= KEY_START and not woke:
                    woke = True
                    self.stop_attract()
                continue
            if self.mode == BUTTONS:
                self.button_test.key(key, buttons.pressed, buttons.timestamp)
                continue
            if key == KEY_START and buttons.pressed:  # down at power-on (rescanned)?
                self.start_at_boot = bool(self.boot_until) and \
                    ticks_diff(buttons.timestamp, self.boot_until) < 0
            if self.mode == TITLE:
                self.idle_from = -1
            if self.mode == STATS:
                self._stats_key(key, buttons.pressed, buttons.timestamp)
                continue
            if key == KEY_START:
                self._start_key(buttons.pressed, buttons.timestamp, now)
                continue
            if key > 15 or not buttons.pressed:
                continue
            seat = key >> 3
            mode = self.mode
            if mode == GAME:
                if not self.paused and self.seats[seat].human:
                    n = self.kind.target(self.game, seat, key & 7)
                    if n < 0:
                        continue  # a button this game does not use
                    t = buttons.timestamp
                    self.press(seat, n, t)
                    if ticks_diff(t, self.late) >= 0:
                        self.late = ticks_add(t, 1)  # tick t is complete: judge it now
            elif mode == MENU:
                self._menu_key(key & 3)
            elif mode == TITLE or mode == DONE:
                self._show(MENU)
        if buttons.check_overflow(now):  # counted in buttons.overflows; keys reset
            self.start_down = False  # START's release may be lost: held START re-reports
            self.log.comment(OVERFLOW_TEXT)

    @property
    def overflows(self):
        """Key-queue overflows since start-up."""
        return self.buttons.overflows

    def press(self, seat, pos, t):
        """Give the engine a press by ``seat`` on ``pos`` (the engine's argument: a
        position, a pile, ...) at ``t``, and log it."""
        game = self.game
        if ticks_diff(t, game.clock) < 0:  # the loop's order rules this out (see above)
            self.clamps += 1
            self.log.comment(CLAMP_TEXT)
            t = game.clock
        self.presses += 1
        code = game.press(seat, pos, t)
        if code == OK:
            self.log.press(t, seat, pos)
            self.logged_at = t
        else:
            self.log.comment(ERROR_NAMES[code])

    def _advance(self, now):
        game = self.game
        before = game.changes
        game.advance(now)
        if game.changes != before or ticks_diff(game.clock, self.logged_at) >= CLOCK_EVERY_MS:
            self.log.clock(game.clock)
            self.logged_at = game.clock

    def _due(self, now):
        """True once ``until`` has passed; a passed deadline is kept just behind
        ``now``, so it stays passed however long the device sits (no wrap back)."""
        if ticks_diff(now, self.until) >= 0:
            self.until = now
            return True
        return False

    def _flow(self, now):
        if self.paused:
            self._due(now)  # a countdown that ran out while paused stays run out
            return
        game = self.game
        mode = self.mode
        if mode == READY:
            if self._due(now):
                self._start_game(now)
        elif mode == GAME:
            if game.phase == OVER:
                self.mode = RESULT
                self.until = ticks_add(now, RESULT_MS)
                self.stats.save_between_games(self.nvm)  # no game on: a flash stall is harmless
        elif mode == RESULT:
            if self._due(now):
                if game.match_over:
                    self.mode = DONE
                    self.until = ticks_add(now, ATTRACT_DONE_MS)
                else:
                    self._ready(now)
        elif mode == DONE:
            if self.attract and self._due(now):
                self.begin_attract(now)  # the demo loops while nobody touches a button

    def _cpu(self, now):
        if self.mode != GAME:
            return
        if self.paused:
            for seat in range(2):  # a paused bot still hears the time (no wrap back)
                controller = self.seats[seat]
                if not controller.human:
                    controller.idle(now)
            return
        for seat in range(2):
            controller = self.seats[seat]
            if not controller.human:
                pos = controller.step(now)
                if pos >= 0:
                    self.press(seat, pos, now)

    def _title_idle(self, now):
        """On the title: start the demo once no button has moved for ``attract_ms``."""
        if not self.attract_ms or not self.attract_levels:
            return
        if self.idle_from < 0 or self.start_down:
            self.idle_from = now
        elif ticks_diff(now, self.idle_from) >= self.attract_ms:
            self.begin_attract(now)

    def _draw(self, now):
        if self.screen != TABLE_SCREEN:
            self.view.update(now)
        else:
            game = self.game
            if self.first_play and game.phase == PLAY:
                self.first_play = False
                self.go = True
                self.play_since = now
            elif self.go and ticks_diff(now, self.play_since) >= GO_MS:
                self.go = False  # shown for good: never comes back after a wrap
            self.view.update(game, now, self.message(now), self.hints, self.feedback)

    # The current screen's view, by kind (None when another screen is shown).
    @property
    def title_view(self):
        """The title screen's view while it is shown, else None."""
        return self.view if self.screen == TITLE_SCREEN else None

    @property
    def menu_view(self):
        """The menu's view while it is shown, else None."""
        return self.view if self.screen == MENU_SCREEN else None

    @property
    def stats_view(self):
        """The stats screen's view while it is shown, else None."""
        return self.view if self.screen == STATS_SCREEN else None

    @property
    def button_view(self):
        """The button test's view while it is shown, else None."""
        return self.view if self.screen == BUTTONS_SCREEN else None

    @property
    def button_presses(self):
        """Press events read by the button test mode while it is shown (for ``hw.diag``)."""
        test = self.button_test
        return 0 if test is None else test.events

    @property
    def table(self):
        """The game table's view while it is shown, else None."""
        return self.view if self.screen == TABLE_SCREEN else None

    def message(self, now):
        """Return the message id (``hw.messages.MSG_*``) the table shows at ``now``
        (worded by ``hw.feedback``: the CPU named, the new-match prompt, notes)."""
        game = self.game
        mode = self.mode
        if self.paused:
            msg = messages.MSG_PAUSED
        elif mode == READY:
            msg = messages.MSG_READY
        elif mode == GAME:
            phase = game.phase
            if phase == DEALING:
                msg = messages.MSG_DEAL
            elif phase == STUCK:
                msg = messages.MSG_STUCK
            elif phase == PLAY and self.go:
                msg = messages.MSG_GO
            else:
                msg = messages.MSG_NONE
        elif mode == DONE:
            msg = messages.MSG_MATCH_A if game.match_winner == WIN_A else messages.MSG_MATCH_B
        elif mode == RESULT:
            if game.result == DRAW:
                msg = messages.MSG_DEADLOCK if game.why == WHY_DEADLOCK else messages.MSG_DRAW
            else:
                msg = messages.MSG_WIN_A if game.result == WIN_A else messages.MSG_WIN_B
        else:
            msg = messages.MSG_NONE
        return self.feedback.message(messages.DEMO_OF[msg] if self.attract else msg, now)

    # ------------------------------------------------------------ transitions

    def _show(self, mode):
        self.mode = mode
        if mode == TITLE:
            screen = TITLE_SCREEN
            self.idle_from = -1
        elif mode == MENU:
            screen = MENU_SCREEN
            self.paused = False
            self.attract = False
        elif mode == STATS:
            screen = STATS_SCREEN
            from hw.stats_screen import ResetGesture  # only while shown (see _build)

            self.reset_gesture = ResetGesture()
            self.start_down = False  # the held START's release is the stats screen's
        elif mode == BUTTONS:
            screen = BUTTONS_SCREEN
            self.start_down = False  # START's events are the test's now
        else:
            screen = TABLE_SCREEN
        if screen != self.screen:
            self._build(screen)

    def _build(self, screen):
        """Drop the current screen's scene, collect, build ``screen``'s and show it."""
        display = self.display
        if display.root_group is not None:
            display.root_group = None  # the display lets go of the old scene
        self.view = None
        if self.screen == STATS_SCREEN and screen != STATS_SCREEN:
            self.reset_gesture = None
            _forget("hw.stats_view")  # their code goes with their screen
            _forget("hw.stats_screen")
        if self.screen == BUTTONS_SCREEN and screen != BUTTONS_SCREEN:
            self.button_test = None
            _forget("hw.button_view")
            _forget("hw.button_test")
        self.screen = NO_SCREEN
        gc.collect()
        width = display.width
        height = display.height
        if screen == TITLE_SCREEN:
            view = TitleView(width, height, self.glyphs, self.warning)
        elif screen == MENU_SCREEN:
            view = MenuView(width, height, self.menu, self.glyphs)
        elif screen == STATS_SCREEN:
            from hw.stats_view import StatsView  # only while shown (see _build's start)

            view = StatsView(width, height, self.menu.record, self.menu.levels,
                             self.reset_gesture, self.glyphs,
                             on_fram=isinstance(self.nvm, ByteStore))
        elif screen == BUTTONS_SCREEN:
            from hw.button_test import ButtonTest  # only while shown (see _build's start)
            from hw.button_view import ButtonView

            self.button_test = ButtonTest(getattr(self.buttons, "wiring", None),
                                          self.start_at if self.test_from_boot else None)
            view = ButtonView(width, height, self.glyphs, self.button_test)
        else:
            kind = self.kind
            if self.card_tiles is None:
                self.card_tiles = kind.sheets(width, height)
            view = kind.view(width, height, self.glyphs, self.card_tiles)
            _forget("hw.card_fit")  # the cards' layout code: needed to build only
        self.view = view
        self.screen = screen
        self.screens += 1
        gc.collect()  # the build's garbage, so that no collection falls in play
        self.collects += 2
        display.root_group = view.group

    def _start_key(self, pressed, t, now):
        if pressed:
            self.start_down = True
            self.start_at = t
            self.start_long = False
            return
        if self.start_down and not self.start_long:
            self._start_tapped(now)
        self.start_down = False

    def _start_tapped(self, now):
        mode = self.mode
        if mode == TITLE:
            self._show(MENU)
        elif mode == MENU:
            if self.menu.on_button_test():
                self._enter_button_test(False)
            else:
                self.begin_match(now)
        elif mode == DONE:  # match over: "START: new match"
            self.begin_match(now)
        else:
            self.paused = not self.paused

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

    def _start_held(self, now):
        if self.mode == TITLE and self.start_at_boot:
            self._enter_button_test(True)  # START held from power-on
            return
        if self.mode == MENU:
            self._show(STATS)
            return
        if READY <= self.mode < DONE:
            # Presses read in this pass are logged: judge them before the match is
            # dropped, as a replay of the log does (a clock line says so).
            self._advance(now)
            self.log.comment(ABANDON_TEXT)
        if self.mode != TITLE:
            self._show(MENU)

    def _stats_key(self, key, pressed, t):
        """A key on the stats screen: the reset gesture, or START back to the menu."""
        gesture = self.reset_gesture
        before = gesture.state
        state = gesture.key(key, pressed, t)
        if state == gesture.DONE:
            record = self.menu.record
            record.reset_stats()
            record.save(self.nvm)  # in the menu: no game on
            self._build(STATS_SCREEN)  # the zeros (the prompt says "Stats reset")
        elif key == KEY_START and pressed and before != gesture.CONFIRM:
            self._show(MENU)

    def _menu_key(self, button):
        menu = self.menu
        if button == 0:
            menu.move(-1)
        elif button == 1:
            menu.move(1)
        elif button == 2:
            menu.change(-1)
        else:
            menu.change(1)

    def begin_match(self, now):
        """Start a match with the menu's choices; the first game follows shortly."""
        menu = self.menu
        menu.save(self.nvm)
        self.stats.match_begins(True, menu.level() if menu.vs_cpu() else -1)
        self.matches += 1
        kind = menu.kind()
        self._use(kind)
        game = self._new_match(kind.rules(menu))
        self.seats[0] = self.humans[0]
        if menu.vs_cpu():
            self.seats[1] = CpuSeat(game, 1, menu.level(), self.seeds.next(), kind.bot)
        else:
            self.seats[1] = self.humans[1]
        self._get_ready(menu.hints(), False, now)

    def begin_attract(self, now):
        """Start a demo match, CPU vs CPU (see the module docstring); needs ``engine.family_bot``."""
        self.log.comment(ATTRACT_TEXT)  # just before the demo match's header
        self.stats.match_begins(False, -1)  # demo games are not counted
        self.matches += 1
        kind = self.menu.kind()
        self._use(kind)
        variation = self.attract_variation % kind.VARIATIONS
        self.attract_variation = variation + 1
        game = self._new_match(kind.attract_rules(variation, ATTRACT_WINS))
        levels = self.attract_levels
        seeds = self.seeds
        for seat in range(2):
            level = levels[seeds.below(len(levels))]
            self.seats[seat] = CpuSeat(game, seat, level, seeds.next(), kind.bot)
        self._get_ready(ATTRACT_HINTS, True, now)

    def _use(self, kind):
        """Make ``kind`` the game in the heap (nothing to do if it already is).

        The old game, its table and its CPU seats are dropped and its own modules
        forgotten before the new game's are imported: the heap holds one game.
        """
        if kind is self.kind:
            return
        if self.screen == TABLE_SCREEN:  # the old game's table: not shown any more
            if self.display.root_group is not None:
                self.display.root_group = None
            self.view = None
            self.screen = NO_SCREEN
        self.seats[0] = self.humans[0]
        self.seats[1] = self.humans[1]
        self.game = None
        self.card_tiles = None
        for name in self.kind.MODULES:
            _forget(name)
        self.kind = kind
        gc.collect()
        self.game = kind.game(self._on_event)

    def _new_match(self, rules):
        """Abandon any game still on, take ``rules`` and log the match header."""
        if self.feedback is None:
            from hw.feedback import Feedback

            self.feedback = Feedback()
        game = self.game
        game.new_match()  # ends a game in progress, so the rules may change
        game.set_rules(rules)
        self.log.match(game.rules)
        return game

    def _get_ready(self, hints, attract, now):
        self.hints = hints
        self.attract = attract
        self.feedback.new_match(not self.seats[1].human, attract, self.kind.RANK_FLASH)
        self.paused = False
        self._ready(now)
        self._show(READY)

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

    def _ready(self, now):
        self.mode = READY
        self.until = ticks_add(now, READY_MS)

    def _start_game(self, now):
        game = self.game
        t = now if ticks_diff(now, game.clock) >= 0 else game.clock
        seed = self.seeds.next()
        game.shuffle(seed)
        code = game.start(t)
        if code != OK:
            self.log.comment(ERROR_NAMES[code])
            self._show(MENU)
            return
        self.log.game(seed, t)
        self.logged_at = t
        if self.attract:
            self.attract_games += 1
        for controller in self.seats:
            controller.reset(t)
        self.first_play = True
        self.go = False
        self.mode = GAME

    def _on_event(self, ev, t, i):
        """Engine sink: count stats, feedback and its sound (reads views only, never
        calls the game)."""
        self.stats.on_event(ev, t, i, self.game)
        sound = self.feedback.on_event(ev, t, i, self.game)
        if sound > self.sound:
            self.sound = sound
