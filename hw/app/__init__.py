"""The handheld's main loop: the buttons, START, and one pass of every part of the app.

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

The app's other jobs are its parts (mixins of :class:`App`, one module each):
``hw.app.screens`` (one screen at a time), ``hw.app.match`` (a match, game after game,
and the CPU seats) and ``hw.app.attract`` (attract mode and the power-on hold); the
menu's data is ``hw.menu``, the seats ``hw.app.seats``, each event's sound and notes
``hw.app.feedback``.

START pauses and resumes (presses are not played while paused; the engine's clock
keeps running, so a deal or a stuck pause may end during a pause); holding START for a
second returns to the menu (the game is first advanced to the pass's time, so a press
read in that same pass is judged on the device as the log's replay judges it). In
the menu, holding START shows the stats; in the button test mode every key event goes
to the test (lit, counted, printed on the console) and nothing else, and holding
START 2 s returns to the menu.

Implementation Notes
--------------------

**Software and Dependencies:** ``engine`` (the family's codes, rng, ticks); ``hw``
games (the engines, rules, bots and table views, imported by the chosen kind), views,
menu, seats, serial log, buzzer. No CircuitPython-only module is imported here: the
display, the buttons, the serial port and the piezo are passed in.
"""

from engine.compat import const
from engine.family import ERROR_NAMES, OK
from engine.rng import SEED_LIMIT, Rng
from engine.ticks import ticks_add, ticks_diff
from hw.app.attract import ATTRACT_LEVELS, ATTRACT_MAX_MS, ATTRACT_MS, Attract
from hw.app.match import MatchFlow
from hw.app.modes import (
    BUTTONS, DONE, GAME, LINK, MENU, MENU_SCREEN, NO_SCREEN, READY, STATS, STATS_SCREEN, TITLE,
)
from hw.app.screens import Screens
from hw.app.seats import HumanSeat
from hw.board.buzzer import SOUND_NONE, Silent
from hw.board.pads import KEY_START
from hw.board.serial_log import MatchLog
from hw.draw import gfx
from hw.menu import Menu, bot_levels
from hw.store.stats import StatsKeeper

_LONG_PRESS_MS = const(1000)

# bytes: logged without allocating
_OVERFLOW_TEXT = const(b"keypad queue overflowed: presses were lost")
_ABANDON_TEXT = const(b"match abandoned (START held)")
_MENU_LINK = const(8)  # hw.menu.LINK: the menu's "Link" item
_CLAMP_TEXT = const(b"press time behind the clock: clamped")


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


class App(Screens, MatchFlow, Attract):
    """The firmware: give it a display, buttons and (optionally) a serial port."""

    def __init__(self, display, buttons, port=None, seed=None, buzzer=None, nvm=None,
                 levels=None, attract_ms=ATTRACT_MS, warning=None, link=None, clock=None):
        self.display = display
        self.buttons = buttons
        self.warning = warning  # bytes: a setting fell back to its default (on the title)
        self.log = MatchLog(port)
        self.menu = Menu(bot_levels() if levels is None else levels)
        self.nvm = nvm
        self.menu.load(nvm)
        self.kind = self.menu.kind()  # the game in the heap (hw.games.use)
        self.game = self.kind.game(self._on_event)
        self.stats = StatsKeeper(self.menu.record)  # counts into the record; saved between games
        self.reset_gesture = None  # hw.views.stats_reset.ResetGesture while the stats are shown
        self.glyphs = gfx.glyph_sheet()
        self.card_tiles = None  # the kind's card sheets, made with its first table
        self.view = None  # the current screen's view (one at a time)
        self.cards_layer = None  # the table view's cards (hw.app.screens), or None
        self.screen = NO_SCREEN
        self.seeds = Rng(boot_seed() if seed is None else seed % SEED_LIMIT)
        self.humans = (HumanSeat(), HumanSeat())
        self.seats = [self.humans[0], self.humans[1]]
        self.attract_ms = max(0, min(attract_ms, ATTRACT_MAX_MS))
        self.attract_levels = tuple(i for i, name in enumerate(self.menu.levels)
                                    if name in ATTRACT_LEVELS)
        self.attract_game = self.menu.game  # the next demo's game and its variation
        self.attract_variation = 0
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
        self.feedback = None  # hw.app.feedback.Feedback: each event's sound, notes, flashes
        # (made with the first match: its code takes no heap before one is played)
        self.clamps = 0
        self.frames = 0
        self.presses = 0  # presses given to the engine (human and CPU)
        self.matches = 0  # matches (and demo matches) begun
        self.screens = 0  # screens built
        self.collects = 0  # gc.collect() calls (two per screen change)
        self.late = 0  # this pass's time: past every human press handed to the engine
        self.last = -1  # the time of the last pass (-1: none yet)
        self.button_test = None  # hw.views.button_check.ButtonTest while the mode is shown
        self.test_from_boot = False  # the button test was entered with START held from power-on
        self.start_at_boot = False  # the START held now was down at power-on
        self.booting = True  # the first pass is still to come (it rescans the keys)
        self.menu_games = self.menu.games_seen  # the game whose options the menu shows
        self.boot_until = 0  # a START press stamped before this is "held at power-on"
        # Link play (hw.app.linked): ``link()`` opens the cable's port (None: no link pins)
        self.link = link
        self.clock = clock
        self.menu.link = 0 if link is not None and clock is not None else -1
        self.session = None  # hw.app.linked.LinkSession while linked: it runs link play
        self._show(TITLE)

    def run(self, ticks_ms):
        """The main loop: a :meth:`step` at ``ticks_ms()``, forever."""
        step = self.step
        while True:
            step(ticks_ms())

    def step(self, now):
        """One turn of the main loop at ``now`` (see the module docstring)."""
        if self.last >= 0 and ticks_diff(now, self.last) < 0:
            now = self.last  # the last pass ran up to 1 ms ahead: never go back
        if self.booting:
            self._boot(now)
        self.late = now
        session = self.session
        if session is not None:
            session.poll(now)
        self._read_buttons(now)
        if session is not None:
            session.tick(self.late)  # (past every press just read: its watermark covers them)
        if self.boot_until and ticks_diff(now, self.boot_until) >= 0:
            self.boot_until = 0  # closed for good (no wrap back days later)
        now = self.late  # past every press just handed to the engine: judged now
        self.last = now
        if self.start_down and not self.start_long and \
                ticks_diff(now, self.start_at) >= _LONG_PRESS_MS:
            self.start_long = True
            self._start_held(now)
        if READY <= self.mode <= DONE:
            if session is None:
                self._advance(now)
                self._flow(now)
                self._cpu(now)
            else:
                self._flow(session.step(now))  # judged (host) or followed (guest)
        elif self.mode == LINK:
            self.session.update(self.view)  # (entered in this pass, maybe)
        elif self.mode == TITLE:
            self._title_idle(now)
        elif self.mode == STATS:
            self.reset_gesture.tick(now)
        elif self.mode == BUTTONS:
            if self.button_test.tick(now):  # START held 2 s
                self._show(MENU)
        session = self.session  # (entered or left in this pass, maybe)
        self._draw(now if session is None else session.time(now))
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
            if mode == GAME and self.session is not None:  # either pad plays this seat
                session = self.session
                n = self.kind.target(self.game, session.seat, key & 7)
                if n >= 0:
                    t = buttons.timestamp
                    session.press(n, t)
                    if ticks_diff(t, self.late) >= 0:
                        self.late = ticks_add(t, 1)  # (a guest's watermark then covers it)
            elif mode == GAME:
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
            elif (mode == TITLE or mode == DONE) and self.session is None:
                self._show(MENU)
        if buttons.check_overflow(now):  # counted in buttons.overflows; keys reset
            self.start_down = False  # START's release may be lost: held START re-reports
            self.log.comment(_OVERFLOW_TEXT)

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
            self.log.comment(_CLAMP_TEXT)
            t = game.clock
        self.presses += 1
        code = game.press(seat, pos, t)
        if code == OK:
            self.log.press(t, seat, pos)
            self.logged_at = t
        else:
            self.log.comment(ERROR_NAMES[code])

    @property
    def button_presses(self):
        """Press events read by the button test mode while it is shown (for ``hw.diag``)."""
        test = self.button_test
        return 0 if test is None else test.events

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
            elif self.menu.cursor == _MENU_LINK:
                from hw.app.linked import start

                start(self)
            else:
                self.begin_match(now)
        elif self.session is not None:  # linked: START begins a match (no pause)
            self.session._start_tapped(now)  # pylint: disable=protected-access
        elif mode == DONE:  # match over: "START: new match"
            self.begin_match(now)
        else:
            self.paused = not self.paused

    def _start_held(self, now):
        if self.mode == TITLE and self.start_at_boot:
            self._enter_button_test(True)  # START held from power-on
            return
        if self.mode == MENU:
            self._show(STATS)
            return
        if self.session is not None:
            self.session._start_held(now)  # pylint: disable=protected-access
            return
        if READY <= self.mode < DONE:
            # Presses read in this pass are logged: judge them before the match is
            # dropped, as a replay of the log does (a clock line says so).
            self._advance(now)
            self.log.comment(_ABANDON_TEXT)
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
        if menu.games_seen != self.menu_games:  # another game: its options are items now
            self.menu_games = menu.games_seen
            self._build(MENU_SCREEN)
