"""A match, game after game: get ready, play, the result, the match won; CPU seats.

Which game is played is the menu's choice, a kind of ``hw.games`` (the 2x4 game, the
shared row, ...): it makes the engine, its rules, its CPU player and its table view,
and maps a pad button to the engine's argument; everything here is the same for every
game. Only the chosen game is in the heap: when a match of another game begins, the old
game, its view and its CPU seats are dropped (``hw.games.use`` forgot its modules) and
collected, then the new one's imported and built.

Every press given to the engine is logged (``hw.board.serial_log``), so the streamed
log replays to exactly the device's game. A match runs game after game until one
player has won it (then START begins another with the same choices, a pad shows the
menu); a drawn game is followed by another game with a fresh shuffle (a new seed from
the device's own generator). While "Get ready..." shows, the table's cards are hidden
(the view's ``cards_layer``), so the last game's cards never sit under it. ``game.advance(now)`` runs on every pass; a ``clock``
line is logged when time alone changed the game, and every few seconds. A CPU seat
steps at ``now`` after the engine has advanced, and presses through the same path as a
pad (``App.press``).

Every timer (the READY/RESULT/GO countdowns) stays right however long the device sits,
although ``ticks_diff`` reads a gap of 2**28 ms or more backwards: a deadline that has
passed is remembered as passed (``until`` is kept just behind ``now``; ``go`` is a
flag), and a paused CPU seat hears the time (``idle``) on every pass.

Implementation Notes
--------------------

:class:`MatchFlow` is a part of :class:`hw.app.App` (a mixin): it owns ``game``,
``kind``, ``seats``, ``feedback``, ``hints``, ``until``, ``go``, ``first_play`` and
``logged_at``, and calls the app's ``press``, ``_show`` and ``log``.
"""

import gc

from engine.compat import const
from engine.family import DEALING, DRAW, ERROR_NAMES, OK, OVER, PLAY, STUCK, WHY_DEADLOCK, WIN_A
from engine.ticks import ticks_add, ticks_diff
from hw import messages  # the message ids (no view here: a view comes with its game)
from hw.app.modes import (
    DONE, GAME, MENU, NO_SCREEN, READY, RESULT, TABLE_SCREEN,
)
from hw.app.seats import CpuSeat

READY_MS = 1500
_RESULT_MS = const(2500)
GO_MS = 800
DONE_MS = 4000  # a demo's "A wins the match" stays this long, then the next demo
_CLOCK_EVERY_MS = const(5000)


class MatchFlow:
    """The match flow (see the module docstring)."""

    def begin_match(self, now):
        """Start a match with the menu's choices; the first game follows shortly."""
        menu = self.menu
        menu.save(self.nvm)
        linked = self.session is not None  # link play: seat B is the guest, never the CPU
        cpu = menu.vs_cpu() and not linked
        self.stats.match_begins(True, menu.level() if cpu else -1)
        self.matches += 1
        kind = menu.kind()
        self._use(kind)
        if linked:
            self.session.reset()  # a match begins: no presses wait
        game = self._new_match(menu.rules())
        self.seats[0] = self.humans[0]
        if cpu:
            self.seats[1] = CpuSeat(game, 1, menu.level(), self.seeds.next(), kind.bot)
        else:
            self.seats[1] = self.humans[1]
        self._get_ready(menu.hints(), False, now)

    def _use(self, kind):
        """Make ``kind`` the game in the heap (nothing to do if it already is).

        The old game, its table and its CPU seats are dropped (its modules were
        forgotten when ``hw.games.use`` loaded the new kind): the heap holds one game.
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
        self.game = None  # (hw.games.use has forgotten its modules)
        self.card_tiles = None
        self.kind = kind
        gc.collect()
        self.game = kind.game(self._on_event)

    def _new_match(self, rules):
        """Abandon any game still on, take ``rules`` and log the match header."""
        if self.feedback is None:
            from hw.app.feedback import Feedback

            self.feedback = Feedback()
        game = self.game
        game.new_match()  # ends a game in progress, so the rules may change
        game.set_rules(rules)
        self.log.match(game.rules)
        return game

    def _get_ready(self, hints, attract, now, show=True):
        self.hints = hints
        self.attract = attract
        self.feedback.new_match(not self.seats[1].human, attract, self.kind.RANK_FLASH)
        self.paused = False
        self._ready(now)
        if show:  # (a linked guest builds its table once its read of the cable is over)
            self._show(READY)

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

    def _advance(self, now):
        game = self.game
        before = game.changes
        game.advance(now)
        if game.changes != before or ticks_diff(game.clock, self.logged_at) >= _CLOCK_EVERY_MS:
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
            if self._due(now) and (self.session is None or self.session.seat == 0):
                self._start_game(now)  # (a linked guest waits for the host's start line)
        elif mode == GAME:
            if game.phase == OVER:
                self.mode = RESULT
                self.until = ticks_add(now, _RESULT_MS)
                self.stats.save_between_games(self.nvm)  # no game on: a flash stall is harmless
        elif mode == RESULT:
            if self._due(now):
                if game.match_over:
                    self.mode = DONE
                    self.until = ticks_add(now, DONE_MS)
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

    def _draw(self, now):
        if self.screen != TABLE_SCREEN:
            self.view.update(now)
        else:
            game = self.game
            layer = self.cards_layer
            if layer is not None:  # "Get ready...": the last game's cards are put away
                hide = self.mode == READY
                if layer.hidden != hide:
                    layer.hidden = hide
            if self.first_play and game.phase == PLAY:
                self.first_play = False
                self.go = True
                self.play_since = now
            elif self.go and ticks_diff(now, self.play_since) >= GO_MS:
                self.go = False  # shown for good: never comes back after a wrap
            self.view.update(game, now, self.message(now), self.hints, self.feedback)

    def message(self, now):
        """Return the message id (``hw.messages.MSG_*``) the table shows at ``now``
        (worded by ``hw.app.feedback``: the CPU named, the new-match prompt, notes)."""
        game = self.game
        mode = self.mode
        session = self.session
        if session is not None and READY <= mode < DONE and session.paused():
            msg = session.paused()  # "Link lost" or "Link back"
        elif self.paused:
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

    def _on_event(self, ev, t, i):
        """Engine sink: count stats, feedback and its sound (reads views only, never
        calls the game)."""
        self.stats.on_event(ev, t, i, self.game)
        sound = self.feedback.on_event(ev, t, i, self.game)
        if sound > self.sound:
            self.sound = sound
