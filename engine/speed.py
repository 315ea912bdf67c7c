"""Speed: hands of five, two middle piles, one rank up or down (RULES-SPEED.md).

The third game of the family. Each player holds a hand of 5 slots (refilled from
their own draw pile) and plays a card onto one of two middle piles whose top is one
rank above or below it (the ace between king and 2; with ``same=1`` the same rank
too). When nobody can play, the two side piles each turn a card onto the middle
pile beside them; when both side piles are empty they are remade from the middle
piles. Same contract as :mod:`engine.grid` and :mod:`engine.row` -- the same calls,
return codes, sink events, press results and phases::

    game = SpeedGame(SpeedRules(), sink)   # set-up: allocates every buffer once
    game.shuffle(seed)                     # or game.set_deck(codes)
    game.start(t)                          # deal; both middle cards turned up at t
    game.press(player, n, t)               # a play: n = 5 * pile + slot (0-9)
    game.advance(now)                      # time has reached now: run what is due
    game.finish()                          # end of input: resolve the last tick

Views a screen or a bot may read at any time: ``phase``, ``tops`` ([pile 0, pile 1]
card codes), ``heights`` (middle pile sizes), ``hands`` (10 card codes: A's slots
0-4, then B's; ``NO_CARD`` for an empty slot), ``draws`` and ``sides`` ([A, B] draw
pile and [0, 1] side pile counts), ``legal`` ([A, B] 10-bit masks of the plays n
that fit, whatever the phase and the locks), ``held(p)`` (hand + draw pile),
``locked_at(p, t)``, ``lock_left(p, t)``, ``score`` (games won), ``points`` (match
points when ``points`` is on), ``stuck_count`` and ``changes``. ``coverable`` is the
union of both ``legal`` masks in play (0 otherwise), for code written for the 2x4
game ("can anyone play?").

Sink events (``sink(ev, t, i)``) as in :mod:`engine.grid`: ``EV_DEAL`` (the start,
and every turn of side cards), ``EV_PRESS`` (``tick_pos`` holds n), ``EV_TICK``,
``EV_STUCK``, ``EV_OVER``, ``EV_MATCH``.

Memory layout (all allocated in ``__init__``):

* ``deck`` bytearray(52): the next game's dealing order (top first).
* ``hands`` bytearray(10); ``draw`` bytearray(52): A's draw pile at [0:26], B's at
  [26:52], top at ``draw_head``; draw piles only shrink.
* ``side`` bytearray(104) and ``mid`` bytearray(104): the side and middle piles as
  stacks (pile p at [52p:52p+52], bottom first, top at the end), counts in
  ``sides``/``heights``; ``_scratch`` bytearray(52) for a remake's shuffle.
* ``tick_*`` bytearray(64): the presses of the tick being collected.

Implementation Notes
--------------------

Every stored value is a small int (masks below 2**20), so no call allocates after
set-up in MicroPython or CircuitPython (tests/mpy/vm_speed_alloc.py proves it per
press, advance, turn, remake and whole game). A tick is judged in one pass with
20-bit masks keyed ``player * 10 + n``; each player's play is their lowest
candidate n (lowest pile, then lowest slot). The coin and remake generator
(``rng``) takes over the shuffle's generator (``deck_rng``) at ``start``. A
``start`` while a game is on is tried on a private copy, made at set-up (:mod:`engine.family`).
"""

from engine.cards import NO_CARD
from engine.compat import const
from engine.family import (
    COVER, DEALING, EV_DEAL, FAMILY_BUFS, FAMILY_INTS, IGNORED, ILLEGAL, LOCKED, LOST_TIE, PLAY,
    TIE, FamilyGame,
)
from engine.family_rules import TIE_COIN
from engine.rng import shuffle
from engine.speed_rules import REMAKE_WHOLE, SpeedRules
from engine.ticks import ticks_add, ticks_diff

SLOTS = const(5)
PLAYS = const(10)  # n = 5 * pile + slot


def fits(same, card, top):
    """True if ``card`` may be played on ``top``: one rank up or down (K-A-2 loop),
    or the same rank when ``same``."""
    d = ((card >> 2) - (top >> 2)) % 13
    return d == 1 or d == 12 or (same and d == 0)


class SpeedGame(FamilyGame):
    """One match of Speed between players A (0) and B (1)."""

    GAME = "speed"
    RULES = SpeedRules
    codes = PLAYS  # press(player, n, t): play n = 5 * pile + slot
    KEYS_PER_PLAYER = PLAYS
    _STATE_INTS = FAMILY_INTS + ("same", "remakes")
    _STATE_BUFS = FAMILY_BUFS + (
        "hands", "draw", "draw_head", "draws", "side", "sides", "mid", "heights", "tops",
        "legal", "points",
    )

    def _alloc(self):
        self.hands = bytearray(2 * SLOTS)
        self.draw = bytearray(52)
        self.draw_head = bytearray(2)
        self.draws = bytearray(2)
        self.side = bytearray(104)
        self.sides = bytearray(2)
        self.mid = bytearray(104)
        self.heights = bytearray(2)
        self.tops = bytearray(2)
        self._scratch = bytearray(52)
        self.legal = [0, 0]
        self.points = [0, 0]

    def _new_match(self, rules):
        self.same = rules.same
        self.points[0] = self.points[1] = 0

    # ------------------------------------------------------------------ views

    def held(self, player):
        """Cards ``player`` still holds: hand and draw pile."""
        n = self.draws[player]
        base = player * SLOTS
        for slot in range(SLOTS):
            if self.hands[base + slot] != NO_CARD:
                n += 1
        return n

    # -------------------------------------------------------------- internals

    def _clear_table(self):
        for k in range(2 * SLOTS):
            self.hands[k] = NO_CARD
        for k in range(2):
            self.draws[k] = 0
            self.draw_head[k] = 0
            self.sides[k] = 0
            self.heights[k] = 0
            self.tops[k] = NO_CARD
            self.legal[k] = 0
        self.remakes = 0

    def _deal_deck(self):
        """Deal ``deck`` (top first): A's hand and draw pile, B's, side piles, middle cards."""
        deck = self.deck
        n = self.rules.cards
        for player in range(2):
            at = player * n
            for slot in range(SLOTS):
                self.hands[player * SLOTS + slot] = deck[at + slot]
            for k in range(n - SLOTS):
                self.draw[player * 26 + k] = deck[at + SLOTS + k]
            self.draws[player] = n - SLOTS
        s = 25 - n  # 5 or 10 cards per side pile
        for pile in range(2):
            at = 2 * n + pile * s
            for k in range(s):  # stored bottom first: the deck's first card ends on top
                self.side[pile * 52 + k] = deck[at + s - 1 - k]
            self.sides[pile] = s
            self._put(pile, deck[50 + pile])

    def _put(self, pile, card):
        """Put ``card`` face up on middle pile ``pile``."""
        h = self.heights[pile]
        self.mid[pile * 52 + h] = card
        self.heights[pile] = h + 1
        self.tops[pile] = card

    def _update_table(self):
        """Recompute the legal masks after a change."""
        same = self.same
        hands = self.hands
        t0 = self.tops[0] >> 2
        t1 = self.tops[1] >> 2
        for player in range(2):
            mask = 0
            base = player * SLOTS
            for slot in range(SLOTS):
                card = hands[base + slot]
                if card != NO_CARD:
                    r = card >> 2
                    d = (r - t0) % 13
                    if d == 1 or d == 12 or (same and d == 0):
                        mask |= 1 << slot
                    d = (r - t1) % 13
                    if d == 1 or d == 12 or (same and d == 0):
                        mask |= 1 << (SLOTS + slot)
            self.legal[player] = mask
        self.coverable = self.legal[0] | self.legal[1] if self.phase == PLAY else 0
        self.changes += 1

    def _dealt(self, t):
        """Cards were turned at ``t``: the deal window starts."""
        self.phase = DEALING
        self.due = ticks_add(t, self.deal_ms)
        self.deals += 1
        self._update_table()
        self._emit(EV_DEAL, t, -1)

    def _can_turn(self):
        """Can side cards be turned (now, or after a remake)?"""
        if self.sides[0] or self.sides[1]:
            return True
        if self.rules.remake == REMAKE_WHOLE:
            return self.heights[0] + self.heights[1] > 0
        return self.heights[0] + self.heights[1] > 2

    def _remake(self):
        """Both side piles are empty: make new ones from the middle piles."""
        scratch = self._scratch
        mid = self.mid
        side = self.side
        self.remakes += 1
        if self.rules.remake == REMAKE_WHOLE:
            for pile in range(2):
                h = self.heights[pile]
                for k in range(h):  # bottom to top
                    scratch[k] = mid[pile * 52 + k]
                shuffle(self.rng, scratch, h)
                for k in range(h):  # index 0 on top
                    side[pile * 52 + k] = scratch[h - 1 - k]
                self.sides[pile] = h
                self.heights[pile] = 0
                self.tops[pile] = NO_CARD
            return
        k = 0
        for pile in range(2):  # each pile bottom up, without its top
            h = self.heights[pile]
            for j in range(h - 1):
                scratch[k] = mid[pile * 52 + j]
                k += 1
            mid[pile * 52] = mid[pile * 52 + h - 1]
            self.heights[pile] = 1
        shuffle(self.rng, scratch, k)
        h0 = (k + 1) >> 1
        for j in range(h0):  # side pile 0: indices 0 .. h0-1, index 0 on top
            side[j] = scratch[h0 - 1 - j]
        for j in range(k - h0):  # side pile 1: the rest, index h0 on top
            side[52 + j] = scratch[k - 1 - j]
        self.sides[0] = h0
        self.sides[1] = k - h0

    def _turn(self, t):
        """The pause is over: remake if need be, turn side cards, start a deal window."""
        if not self.sides[0] and not self.sides[1]:
            self._remake()
        for pile in range(2):
            s = self.sides[pile]
            if s:
                self.sides[pile] = s - 1
                self._put(pile, self.side[pile * 52 + s - 1])
        self._dealt(t)

    def _lay_out(self, t):
        """Start's deal: hands, draw piles and side piles; both middle cards turn at ``t``."""
        self._deal_deck()
        self._dealt(t)

    def _run_steps(self, t):
        """Run the timed steps (deal window end, pause end) due at or before ``t``."""
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
                self._turn(due)

    def _dead_end(self):
        """No side card can be turned, now or after a remake."""
        return not self._can_turn()

    def _left(self, player):
        return self.held(player)

    def _match_won(self, result):
        """A match of ``wins`` games, or of ``points`` (the loser's cards left)."""
        goal = self.rules.points
        if goal:
            self.points[result] += self.held(1 - result)
            return self.points[result] >= goal
        return self.score[result] >= self.rules.wins

    def _play(self, player, n):
        """Move the card of play ``n`` onto its pile and refill the slot; the card."""
        pile = 1 if n >= SLOTS else 0
        k = player * SLOTS + n - pile * SLOTS
        card = self.hands[k]
        self._put(pile, card)
        d = self.draws[player]
        if d:
            head = self.draw_head[player]
            self.hands[k] = self.draw[player * 26 + head]
            self.draw_head[player] = head + 1
            self.draws[player] = d - 1
        else:
            self.hands[k] = NO_CARD
        self.covers[player] += 1
        return card

    def _resolve(self):
        """Judge the pending tick on the table, hands and locks at its start."""
        # Kept per game, like the row game's: a press here is a hand card and a pile; a
        # shared loop would call back into the game once per press, in the hottest path.
        t = self.tick_t
        count = self.tick_n
        self.tick_n = 0
        players = self.tick_player
        plays = self.tick_pos
        results = self.tick_result
        cards = self.tick_card
        first = self._first
        in_play = self.phase == PLAY
        lock_a = self.locked_at(0, t)
        lock_b = self.locked_at(1, t)
        legal_a = self.legal[0]
        legal_b = self.legal[1]
        want_a = 0
        want_b = 0
        seen = 0  # bit player * 10 + n: already pressed in this tick
        bad_a = False
        bad_b = False
        for i in range(count):
            player = players[i]
            n = plays[i]
            key = player * PLAYS + n
            cards[i] = NO_CARD
            if not in_play or (seen >> key) & 1:
                results[i] = IGNORED
                continue
            seen |= 1 << key
            first[key] = i
            if lock_b if player else lock_a:
                results[i] = LOCKED
            elif not ((legal_b if player else legal_a) >> n) & 1:
                results[i] = ILLEGAL
                self.illegals[player] += 1
                if player:
                    bad_b = True
                else:
                    bad_a = True
            else:
                results[i] = COVER
                if player:
                    want_b |= 1 << n
                else:
                    want_a |= 1 << n
        play_a = _lowest(want_a)  # one play per tick: the lowest n
        play_b = _lowest(want_b)
        for n in range(PLAYS):
            if n != play_a and (want_a >> n) & 1:
                results[first[n]] = IGNORED
            if n != play_b and (want_b >> n) & 1:
                results[first[PLAYS + n]] = IGNORED
        if play_a >= 0 and play_b >= 0 and (play_a >= SLOTS) == (play_b >= SLOTS):
            self.ties += 1  # both on one middle pile
            if self.rules.tie == TIE_COIN:
                if self.rng.below(2):  # 0: A wins the coin
                    results[first[play_a]] = LOST_TIE
                    play_a = -1
                else:
                    results[first[PLAYS + play_b]] = LOST_TIE
                    play_b = -1
            else:
                results[first[play_a]] = TIE
                results[first[PLAYS + play_b]] = TIE
                play_a = play_b = -1
        if self.penalty:
            if bad_a:
                self.locked[0] = 1
                self.lock_end[0] = ticks_add(t, self.penalty)
            if bad_b:
                self.locked[1] = 1
                self.lock_end[1] = ticks_add(t, self.penalty)
        out = 0
        played = play_a >= 0 or play_b >= 0
        if played:
            if play_a >= 0:
                cards[first[play_a]] = self._play(0, play_a)
                if not self.held(0):
                    out |= 1
            if play_b >= 0:
                cards[first[PLAYS + play_b]] = self._play(1, play_b)
                if not self.held(1):
                    out |= 2
            self.stuck_count = 0
            self._update_table()
        self._finish_tick(t, count, out, played)


def _lowest(mask):
    """The lowest set bit's index, or -1."""
    if not mask:
        return -1
    n = 0
    while not (mask >> n) & 1:
        n += 1
    return n
