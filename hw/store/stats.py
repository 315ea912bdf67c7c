"""Keep the players' stats (``hw.store.record``) from the engine's events, between and during games.

:class:`StatsKeeper` is fed the engine's events by the app's sink (``on_event``,
the same call the sound picker gets) and updates the record in RAM: who won each
game and in how long, the match, coin-toss ties won and lost, and each human's
reaction time, the first legal press (a cover, or a tie) after the table changed.
Attract-mode (demo) games are not counted; against the CPU, seat B's own stats are
not kept (its games count in the vs-CPU columns). The record is *written* to nvm
only by :meth:`save_between_games`, which the app calls when a game is over, never
while one is on (an RP2040 flash write stops the key scan).

Implementation Notes
--------------------

Allocation: the keeper holds ints and a 2-byte ``bytearray``; an event costs small-int
arithmetic and record updates in place (0 B in the MicroPython VM).

**Software and Dependencies:** ``engine.family`` (event and result codes), ``engine.ticks``,
``hw.store.record``.
"""

from engine.family import (
    COVER, EV_DEAL, EV_MATCH, EV_OVER, EV_PRESS, EV_TICK, LOST_TIE, TIE, WIN_A, WIN_B,
)
from engine.ticks import ticks_diff


class StatsKeeper:
    """Counts one match at a time into ``record`` (a ``hw.store.record.Record``)."""

    def __init__(self, record):
        self.record = record
        self.on = False  # counting this match (not a demo)
        self.level = -1  # CPU level of seat B, or -1 (two players)
        self.game_start = 0
        self.new_game = False
        self.changed_at = 0  # when the table last changed (deal or cover)
        self.reacted = bytearray(2)  # seat already reacted to this change
        self.covered = False  # a press of the tick being judged covered a card

    def match_begins(self, counted, level):
        """A match starts: ``counted`` False for a demo; ``level`` seat B's CPU level or -1."""
        self.on = counted
        self.level = level

    def game_begins(self, t):
        """The app started a game at tick ``t`` (its first deal follows)."""
        self.game_start = t
        self.new_game = True

    def on_event(self, ev, t, i, game):
        """The engine's event (``game`` is read, never changed)."""
        if not self.on:
            return
        record = self.record
        if ev == EV_DEAL or (ev == EV_TICK and self.covered):
            if ev == EV_DEAL and self.new_game:
                self.game_start = t
                self.new_game = False
            self.covered = False
            self.changed_at = t
            self.reacted[0] = 0
            self.reacted[1] = 0
        elif ev == EV_PRESS:
            seat = game.tick_player[i]
            result = game.tick_result[i]
            if result == LOST_TIE:
                record.tie(1 - seat)
            if result == COVER:
                self.covered = True
            if (result == COVER or result == TIE) and not self.reacted[seat]:
                self.reacted[seat] = 1
                if seat == 0 or self.level < 0:
                    record.reaction(seat, ticks_diff(t, self.changed_at))
        elif ev == EV_OVER:
            result = game.result
            if result == WIN_A or result == WIN_B:
                record.game_won(result, ticks_diff(t, self.game_start), self.level)
        elif ev == EV_MATCH:
            winner = game.match_winner
            if winner == WIN_A or winner == WIN_B:
                record.match_won(winner, self.level)

    def save_between_games(self, nvm):
        """Write the record if it changed (call only when no game is on)."""
        return self.record.save(nvm)
