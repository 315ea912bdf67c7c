"""Shared-row California Speed: the rules state machine (RULES-ROW.md).

The second game of the family: one row of 3, 4 or 6 shared piles between the
players and an *active card* (the top of each player's own pack, face up) that is
played onto a pile whose top it matches (by rank, suit, or either). Same contract
as :mod:`engine.grid` -- the same calls, return codes, sink events, press results
and phases -- so a screen, a log reader or a bot drives either game the same way::

    game = RowGame(RowRules(piles=4), sink)   # set-up: allocates every buffer once
    game.shuffle(seed)                         # or game.set_deck(codes)
    game.start(t)                              # both players deal one card per pile at t
    game.press(player, pile, t)                # OK or an E_* code, never raises
    game.advance(now)                          # time has reached now: run what is due
    game.finish()                              # end of input: resolve the last tick

Views a screen or a bot may read at any time: ``phase``, ``piles`` (the number of
piles), ``tops`` (card code by pile; entries from ``piles`` on are ``NO_CARD``),
``heights``, ``packs`` ([A, B], the active card included), ``active`` ([A, B] card
codes, ``NO_CARD`` for a player with no cards), ``legal`` ([A, B] bit masks of the
piles each active card matches, whatever the phase and the locks), ``match_mode``,
``locked_at(p, t)``, ``lock_left(p, t)``, ``score``, ``stuck_count`` and
``changes`` (moves whenever anything shown changes). ``coverable`` is the union of
both players' ``legal`` masks in play (0 otherwise), for code written for the 2x4
game.

Sink events (``sink(ev, t, i)``), in the order of LOG.md's trace: ``EV_DEAL``,
``EV_PRESS`` (``i`` indexes ``tick_player``, ``tick_pos`` -- the pile --,
``tick_result`` and, for a cover, ``tick_card``), ``EV_TICK``, ``EV_STUCK``,
``EV_OVER`` (``result``, ``why``) and ``EV_MATCH`` (``match_winner``, ``score``).

Memory layout (all allocated in ``__init__``; 52-entry arrays are indexed by card):

* ``deck`` bytearray(52): the next game's dealing order (A's pack top first, then B's).
* ``pack`` bytearray(104): two ring buffers, A at [0:52], B at [52:104];
  ``pack_head`` is each ring's top (the active card), ``packs`` its count.
  Cards never go back under a pack in this game, so a ring only shrinks.
* ``tops``/``heights`` bytearray(6) by pile; ``down`` bytearray(52): the card under
  a card on its pile (a singly linked list per pile, top down; only tests walk it).
* ``changed``: six small ints, the *stamp* of each pile's last change. A stamp is
  a counter that moves when the time of a change differs from the previous one,
  so equal stamps mean equal times and the order of stamps is the order of times
  -- without comparing times that may be days apart on a wrapping clock.
* ``tick_player``/``tick_pos``/``tick_result``/``tick_card`` bytearray(64): the
  presses of the tick being collected, in arrival order.
* ``locked`` bytearray(2) and ``lock_end``; ``score``, ``covers``, ``illegals``:
  two-int lists.

Implementation Notes
--------------------

Every stored value is a small int (times below 2**29, masks below 2**16), so no
call allocates after set-up on MicroPython or CircuitPython (tests/mpy/vm_row_alloc.py
proves it per press, advance, redeal and whole game). A tick is judged in one pass
over its presses with 16-bit masks keyed ``player * 8 + pile``; then each player's
play is the lowest pile of their candidates (one card per action), and two plays on
one pile are a tie. ``legal`` is recomputed only when a top or an active card
changes. The coin generator (``rng``) takes over the shuffle's generator
(``deck_rng``) at ``start``, so a ``seed``/``deck`` waiting for its start does not
change the coin tosses of the game still on. A ``start`` while a game is on is tried
on a private copy (allocated the first time, never by the firmware), so a refused
start changes nothing. Constants are those of :mod:`engine.grid`, shared by both
games.
"""

from engine.cards import NO_CARD
from engine.compat import const
from engine.family import (
    COVER, DEALING, EV_DEAL, FAMILY_BUFS, FAMILY_INTS, IGNORED, ILLEGAL, LOCKED, LOST_TIE, PLAY,
    TIE, FamilyGame,
)
from engine.family_rules import TIE_COIN
from engine.row_rules import MATCH_RANK, MATCH_SUIT, REDEAL_TWO, RowRules
from engine.ticks import ticks_add, ticks_diff

MAX_PILES = const(6)


def matches(mode, a, b):
    """True if card ``a`` may be played on card ``b`` under match ``mode``."""
    if mode == MATCH_RANK:
        return a >> 2 == b >> 2
    if mode == MATCH_SUIT:
        return a & 3 == b & 3
    return a >> 2 == b >> 2 or a & 3 == b & 3


class RowGame(FamilyGame):
    """One match of shared-row California Speed between players A (0) and B (1)."""

    GAME = "row"
    RULES = RowRules
    codes = MAX_PILES  # press(player, pile, t); set to the match's piles
    _STATE_INTS = FAMILY_INTS + ("piles", "match_mode", "_stamp", "_stamp_t")
    _STATE_BUFS = FAMILY_BUFS + (
        "pack", "pack_head", "packs", "tops", "heights", "down", "active", "legal", "changed",
    )

    def _alloc(self):
        self.pack = bytearray(104)
        self.pack_head = bytearray(2)
        self.packs = bytearray(2)
        self.tops = bytearray(MAX_PILES)
        self.heights = bytearray(MAX_PILES)
        self.down = bytearray(52)
        self.active = bytearray(2)
        self.legal = bytearray(2)
        self.changed = [0] * MAX_PILES

    def _new_match(self, rules):
        self.piles = self.codes = rules.piles
        self.match_mode = rules.match

    # -------------------------------------------------------------- internals

    def _clear_table(self):
        for pile in range(MAX_PILES):
            self.tops[pile] = NO_CARD
            self.heights[pile] = 0
            self.changed[pile] = 0
        self.packs[0] = self.packs[1] = 0
        self.pack_head[0] = self.pack_head[1] = 0
        self.active[0] = self.active[1] = NO_CARD
        self.legal[0] = self.legal[1] = 0
        self._stamp = 0
        self._stamp_t = -1

    def _lay_out(self, t):
        """Start's deal: each player's half of the deck is their pack; a full deal round."""
        self._split_deck()
        self._deal(t, False)

    def _stamp_at(self, t):
        """The change stamp of time ``t`` (equal times, equal stamps)."""
        if t != self._stamp_t:
            self._stamp += 1
            self._stamp_t = t
        return self._stamp

    def _take(self, player):
        """Take the active card of ``player`` (the pack is not empty)."""
        head = self.pack_head[player]
        self.pack_head[player] = head + 1 if head < 51 else 0
        self.packs[player] -= 1
        return self.pack[player * 52 + head]

    def _put(self, pile, card, stamp):
        """Put ``card`` face up on ``pile``."""
        self.down[card] = self.tops[pile]
        self.tops[pile] = card
        self.heights[pile] += 1
        self.changed[pile] = stamp

    def _update_table(self):
        """Recompute the active cards and the legal masks after a change."""
        mode = self.match_mode
        tops = self.tops
        for player in range(2):
            card = NO_CARD
            mask = 0
            if self.packs[player]:
                card = self.pack[player * 52 + self.pack_head[player]]
                for pile in range(self.piles):
                    top = tops[pile]
                    if mode == MATCH_RANK:
                        ok = card >> 2 == top >> 2
                    elif mode == MATCH_SUIT:
                        ok = card & 3 == top & 3
                    else:
                        ok = card >> 2 == top >> 2 or card & 3 == top & 3
                    if ok:
                        mask |= 1 << pile
            self.active[player] = card
            self.legal[player] = mask
        self.coverable = self.legal[0] | self.legal[1] if self.phase == PLAY else 0
        self.changes += 1

    def _deal(self, t, redeal):
        """A deal round at ``t``: full (start, ``redeal=all``) or onto the two latest piles.

        On each pile A's card goes down first, then B's; a player never deals the
        last card of their pack.
        """
        stamp = self._stamp_at(t)
        two = redeal and self.rules.redeal == REDEAL_TWO
        first = second = 0
        if two:
            first = self._latest(-1)
            second = self._latest(first)
        count = 2 if two else self.piles
        for k in range(count):
            pile = k
            if two:
                pile = first if k == 0 else second
            for player in range(2):
                if self.packs[player] > 1:
                    self._put(pile, self._take(player), stamp)
        self.phase = DEALING
        self.due = ticks_add(t, self.deal_ms)
        self.deals += 1
        self._update_table()
        self._emit(EV_DEAL, t, -1)

    def _latest(self, skip):
        """The pile changed most recently (lower number on equal times), not ``skip``."""
        best = -1
        changed = self.changed
        for pile in range(self.piles):
            if pile != skip and (best < 0 or changed[pile] > changed[best]):
                best = pile
        return best

    def _run_steps(self, t):
        """Run the timed steps (deal end, pause end) due at or before ``t``."""
        while self.due >= 0:
            due = self.due
            if ticks_diff(t, due) < 0:
                return
            self.due = -1
            if self.phase == DEALING:
                self.phase = PLAY
                self._update_table()
                if not self.coverable:
                    self._become_stuck(due)
            else:
                self._deal(due, True)

    def _dead_end(self):
        """Neither player can deal again (a player never deals their last card)."""
        return self.packs[0] < 2 and self.packs[1] < 2

    def _resolve(self):
        """Judge the pending tick on the table, active cards and locks at its start."""
        # Kept per game, like Speed's: a press here is a pile; a shared loop would call
        # back into the game once per press, in the device's hottest path.
        t = self.tick_t
        n = self.tick_n
        self.tick_n = 0
        players = self.tick_player
        piles = self.tick_pos
        results = self.tick_result
        cards = self.tick_card
        first = self._first
        in_play = self.phase == PLAY
        lock_a = self.locked_at(0, t)
        lock_b = self.locked_at(1, t)
        legal_a = self.legal[0]
        legal_b = self.legal[1]
        want_a = 0  # each player's candidate piles
        want_b = 0
        seen = 0  # bit player * 8 + pile: already pressed in this tick
        bad_a = False
        bad_b = False
        for i in range(n):
            player = players[i]
            pile = piles[i]
            key = player * 8 + pile
            cards[i] = NO_CARD
            if not in_play or (seen >> key) & 1:
                results[i] = IGNORED
                continue
            seen |= 1 << key
            first[key] = i
            if lock_b if player else lock_a:
                results[i] = LOCKED
            elif not ((legal_b if player else legal_a) >> pile) & 1:
                results[i] = ILLEGAL
                self.illegals[player] += 1
                if player:
                    bad_b = True
                else:
                    bad_a = True
            else:
                results[i] = COVER
                if player:
                    want_b |= 1 << pile
                else:
                    want_a |= 1 << pile
        play_a = _lowest(want_a)  # one card per action: the lowest pile plays
        play_b = _lowest(want_b)
        for pile in range(self.piles):
            if pile != play_a and (want_a >> pile) & 1:
                results[first[pile]] = IGNORED
            if pile != play_b and (want_b >> pile) & 1:
                results[first[8 + pile]] = IGNORED
        if play_a >= 0 and play_a == play_b:
            self.ties += 1
            if self.rules.tie == TIE_COIN:
                if self.rng.below(2):  # 0: A wins the coin
                    results[first[play_a]] = LOST_TIE
                    play_a = -1
                else:
                    results[first[8 + play_b]] = LOST_TIE
                    play_b = -1
            else:
                results[first[play_a]] = TIE
                results[first[8 + play_b]] = TIE
                play_a = play_b = -1
        if self.penalty:
            if bad_a:
                self.locked[0] = 1
                self.lock_end[0] = ticks_add(t, self.penalty)
            if bad_b:
                self.locked[1] = 1
                self.lock_end[1] = ticks_add(t, self.penalty)
        out = 0
        if play_a >= 0 or play_b >= 0:
            stamp = self._stamp_at(t)
            for player in range(2):
                pile = play_b if player else play_a
                if pile >= 0:
                    card = self._take(player)
                    self._put(pile, card, stamp)
                    cards[first[player * 8 + pile]] = card
                    self.covers[player] += 1
                    if not self.packs[player]:
                        out |= 1 << player
            self.stuck_count = 0
            self._update_table()
        self._finish_tick(t, n, out, play_a >= 0 or play_b >= 0)


def _lowest(mask):
    """The lowest set bit's index, or -1."""
    if not mask:
        return -1
    pile = 0
    while not (mask >> pile) & 1:
        pile += 1
    return pile
