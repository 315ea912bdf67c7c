"""Aggravation and Frustration: rows that grow, a call to win (RULES-AGGRAVATION.md).

The fourth game of the family. Each player's **row** of stacks grows one card per deal
round, dealt only onto a *dry* table (nothing coverable); matches are covered as in the
2x4 game, over all the stacks of both rows. In Aggravation (``frustration=0``) a player
out of cards *taps*: two taps on two tops of one rank within the call window are a
**call**, which wins. In Frustration (``frustration=1``) a pack that runs out has the
rows scooped back under the packs, and a player wins when their *share* is at most the
target. Same contract as :mod:`engine.grid` -- the same calls, return codes, sink
events, phases -- so a screen, a log reader or a bot drives it like the others::

    game = AggravationGame(AggravationRules(), sink)   # set-up: allocates every buffer
    game.shuffle(seed)                                  # or game.set_deck(codes)
    game.start(t)                                       # the first deal round at t
    game.press(player, pos, t)                          # pos 0-27; OK or E_*, never raises
    game.advance(now)                                   # time has reached now
    game.finish()                                       # end of input: the last tick

Positions: A's k-th stack (from A's left) is ``k`` (0-12), B's is ``14 + k`` (14-26);
13 and 27 never hold a stack, and a press on a position with no stack is ``illegal``.

Views a screen or a bot may read at any time: ``phase`` (``STUCK`` is the dry pause,
and the scooping pause when ``scooping`` is 1), ``tops`` (28 card codes by position,
``NO_CARD`` where there is no stack), ``heights``, ``row_len`` ([A, B] stacks per row),
``packs`` ([A, B] face-down counts; 0 = out of cards), ``shares`` ([A, B], pack + own
row), ``coverable`` (bit mask by position: what a player with cards may cover; with
both packs empty, what may be tapped), ``pairs`` (tops whose rank shows on another top:
what a player out of cards may tap), ``pending``, ``held(p, t)`` (the position player
``p`` holds a tap on at ``t``, or -1), ``hold_left(p, t)`` (ms of its call window
left), ``hold_card`` ([A, B] the card tapped), ``call_ms``, ``target``,
``frustration``, ``locked_at``, ``lock_left``, ``score``, ``changes`` (moves whenever
anything shown changes, a hold's end included).

Sink events (``sink(ev, t, i)``), in the order of RULES-AGGRAVATION.md section 7:
``EV_DEAL`` (a deal round), ``EV_PRESS`` (``i`` indexes ``tick_player``, ``tick_pos``,
``tick_result`` -- ``TAP`` and ``CALL`` besides the family's results -- and, for a
cover, ``tick_card``), ``EV_TICK``, ``EV_DRY`` (the family's ``EV_STUCK``, named
``dry``), ``EV_SCOOP`` (Frustration: the rows were gathered), ``EV_OVER`` (``result``,
``why``: ``WHY_CALL``, ``WHY_BOTH_CALL``, ``WHY_SHARE``, ``WHY_DRY``) and ``EV_MATCH``.

Memory layout (all allocated in ``__init__``; 52-entry arrays are indexed by card):

* ``pack`` bytearray(104): two ring buffers (A at [0:52], B at [52:104]), top at
  ``pack_head``, count in ``packs``; a Frustration scoop puts cards under them.
* ``tops``/``bottoms``/``heights`` bytearray(28) by position; ``up``/``down``
  bytearray(52): each stack as a doubly linked list (a scoop walks it bottom up).
* ``by_rank``: 13 small ints, the mask of positions whose top shows each rank; with
  it ``pairs``, ``pending`` and ``rutters`` (28-bit masks) are kept up to date from
  the stacks a tick covers or a round deals, never recomputed over the table.
* ``hold_pos`` / ``hold_end`` (two ints each) and ``hold_card`` bytearray(2): each
  player's held tap (-1: none), when its window closes, and the card it held.
* ``tick_*`` bytearray(64): the presses of the tick being collected.

Implementation Notes
--------------------

Every stored value is a small int: position masks have 28 bits (< 2**28), and the
masks keyed by (player, position) that the 2x4 game keeps in one int are one int per
player here (56 bits would be a long int on MicroPython), so no call allocates after
set-up (tests/mpy/vm_aggravation_alloc.py proves it per press, tick, deal round, dry
pause, scoop, tap, call, refused start and bot step). A tick is judged in one pass
over its presses (duplicates, locks, covers against the tick-start ``coverable``,
taps collected), then each player's taps in rising position order against their hold,
then ties, locks and the covers (A's in rising position order, then B's). A hold ends
by time only: :meth:`_move_to` drops a hold whose window has passed, as locks end, so
no stored time is ever compared across a wrap.
"""

from engine.cards import NO_CARD
from engine.compat import const
from engine.family import (
    COVER, DEALING, DRAW, EV_DEAL, EV_PRESS, EV_STUCK, EV_TICK, EVENT_NAMES, FAMILY_BUFS,
    FAMILY_INTS, IGNORED, ILLEGAL, LOCKED, LOST_TIE, LOWEST_BIT, PLAY, RESULT_NAMES, STUCK, TIE,
    WHY_NAMES, WIN_A, WIN_B, FamilyGame,
)
from engine.family_rules import TIE_COIN
from engine.aggravation_rules import AggravationRules
from engine.ticks import ticks_add, ticks_diff

POSITIONS = const(28)  # press codes: A's stacks 0-12, B's 14-26 (13 and 27 never exist)
ROW_BASE = const(14)  # B's first position
ROW_MAX = const(13)  # stacks in one row, at most (both rows: 14)
_ALL = const((1 << 28) - 1)

# Press results this game adds to the family's (engine.family).
TAP = const(6)  # a legal first tap, held
CALL = const(7)  # a second tap on the held rank: the game is won
AGG_RESULT_NAMES = RESULT_NAMES + ("tap", "call")

# Events: the family's, with ``stuck`` named ``dry``, and the scoop.
EV_DRY = EV_STUCK
EV_SCOOP = const(6)
AGG_EVENT_NAMES = EVENT_NAMES[:EV_STUCK] + ("dry",) + EVENT_NAMES[EV_STUCK + 1:] + ("scoop",)

# Why a game ended: the family's codes keep their meaning; these follow them.
WHY_CALL = const(3)
WHY_BOTH_CALL = const(4)
WHY_SHARE = const(5)
WHY_DRY = const(6)
AGG_WHY_NAMES = WHY_NAMES + ("call", "both-call", "share", "dry")


def lowest(mask):
    """The index of the lowest set bit of a non-zero mask below 2**32."""
    low = mask & 0xFF
    if low:
        return LOWEST_BIT[low]
    low = (mask >> 8) & 0xFF
    if low:
        return 8 + LOWEST_BIT[low]
    low = (mask >> 16) & 0xFF
    if low:
        return 16 + LOWEST_BIT[low]
    return 24 + LOWEST_BIT[(mask >> 24) & 0xFF]


class AggravationGame(FamilyGame):
    """One match of Aggravation (or Frustration) between players A (0) and B (1)."""

    GAME = "aggravation"
    RULES = AggravationRules
    KEYS_PER_PLAYER = POSITIONS
    codes = POSITIONS  # press(player, pos, t): the position pressed
    EVENT_NAMES = AGG_EVENT_NAMES
    RESULT_NAMES = AGG_RESULT_NAMES
    WHY_NAMES = AGG_WHY_NAMES
    _STATE_INTS = FAMILY_INTS + (
        "rutter", "frustration", "target", "call_ms", "pending", "pairs", "rutters", "scooping",
        "scoops", "taps", "calls",
    )
    _STATE_BUFS = FAMILY_BUFS + (
        "pack", "pack_head", "packs", "tops", "bottoms", "heights", "up", "down", "by_rank",
        "row_len", "shares", "hold_pos", "hold_end", "hold_card",
    )

    def _alloc(self):
        self.pack = bytearray(104)
        self.pack_head = bytearray(2)
        self.packs = bytearray(2)
        self.tops = bytearray(POSITIONS)
        self.bottoms = bytearray(POSITIONS)
        self.heights = bytearray(POSITIONS)
        self.up = bytearray(52)
        self.down = bytearray(52)
        self.by_rank = [0] * 13
        self.row_len = bytearray(2)
        self.shares = [0, 0]
        self.hold_pos = [-1, -1]
        self.hold_end = [0, 0]
        self.hold_card = bytearray(2)

    def _new_match(self, rules):
        self.rutter = rules.rutter
        self.frustration = rules.frustration
        self.target = rules.target
        self.call_ms = rules.call

    # ------------------------------------------------------------------ views

    def held(self, player, t):
        """The position ``player`` holds a tap on at ``t`` (not before ``clock``), or -1."""
        pos = self.hold_pos[player]
        if pos >= 0 and ticks_diff(t, self.hold_end[player]) < 0:
            return pos
        return -1

    def hold_left(self, player, t):
        """The ms of ``player``'s call window left at ``t`` (0 if no tap is held)."""
        if self.hold_pos[player] < 0:
            return 0
        left = ticks_diff(self.hold_end[player], t)
        return left if 0 < left <= self.call_ms else 0

    def out(self, player):
        """True if ``player`` is out of cards (an empty pack)."""
        return not self.packs[player]

    # -------------------------------------------------------------- internals

    def _clear_table(self):
        for pos in range(POSITIONS):
            self.tops[pos] = NO_CARD
            self.bottoms[pos] = NO_CARD
            self.heights[pos] = 0
        for rank in range(13):
            self.by_rank[rank] = 0
        for player in range(2):
            self.packs[player] = 0
            self.pack_head[player] = 0
            self.row_len[player] = 0
            self.shares[player] = 0
            self.hold_pos[player] = -1
        self.pending = 0
        self.pairs = 0
        self.rutters = 0
        self.scooping = 0
        self.scoops = 0
        self.taps = 0
        self.calls = 0

    def _lay_out(self, t):
        """Start: each player's half of the deck is their pack; the first deal round at ``t``."""
        self._split_deck()
        self.shares[0] = self.shares[1] = 26
        self._deal(t)

    def _take(self, player):
        """Take the top card of ``player``'s pack (the pack is not empty)."""
        head = self.pack_head[player]
        self.pack_head[player] = head + 1 if head < 51 else 0
        self.packs[player] -= 1
        return self.pack[player * 52 + head]

    def _put_under(self, player, card):
        """Put ``card`` face down under ``player``'s pack."""
        self.pack[player * 52 + (self.pack_head[player] + self.packs[player]) % 52] = card
        self.packs[player] += 1

    def _place(self, pos, card):
        """Turn ``card`` face up on top of stack ``pos`` (a new stack if there is none)."""
        top = self.tops[pos]
        if top == NO_CARD:
            self.bottoms[pos] = card
        else:
            self.up[top] = card
        self.down[card] = top
        self.up[card] = NO_CARD
        self.tops[pos] = card
        self.heights[pos] += 1

    def _both_out(self):
        return not self.packs[0] and not self.packs[1]

    def _set_coverable(self):
        """Coverable from the masks; with both packs empty only a rank shown twice counts."""
        if self.packs[0] or self.packs[1]:
            self.coverable = self.pairs | self.pending | self.rutters
        else:
            self.coverable = self.pairs

    def _deal(self, t):
        """A deal round at ``t``: each player who has cards lays one at the end of their row."""
        by_rank = self.by_rank
        for player in range(2):
            if self.packs[player]:
                n = self.row_len[player]
                pos = player * ROW_BASE + n
                card = self._take(player)
                self._place(pos, card)
                self.row_len[player] = n + 1
                mates = by_rank[card >> 2] | 1 << pos
                by_rank[card >> 2] = mates
                if mates & (mates - 1):  # the rank now shows twice or more
                    self.pairs |= mates
        self.phase = DEALING
        self.due = ticks_add(t, self.deal_ms)
        self.coverable = 0
        self.deals += 1
        self.changes += 1
        self._emit(EV_DEAL, t, -1)

    def _scoop(self, t):
        """Frustration: each player puts their row under their pack, from their own left,
        each stack bottom card first; the rows are empty again."""
        for player in range(2):
            base = player * ROW_BASE
            for k in range(self.row_len[player]):
                pos = base + k
                card = self.bottoms[pos]
                while card != NO_CARD:
                    self._put_under(player, card)
                    card = self.up[card]
                self.tops[pos] = NO_CARD
                self.bottoms[pos] = NO_CARD
                self.heights[pos] = 0
            self.row_len[player] = 0
        for rank in range(13):
            self.by_rank[rank] = 0
        self.pairs = self.pending = self.rutters = self.coverable = 0
        self.scooping = 0
        self.scoops += 1
        self.changes += 1
        self._emit(EV_SCOOP, t, -1)

    def _start_scooping(self, t):
        """Frustration: a pack is empty; the table is shown for the pause, then scooped."""
        self.phase = STUCK
        self.scooping = 1
        self.coverable = 0
        self.due = ticks_add(t, self.stuck_ms)
        self.changes += 1

    def _become_dry(self, t):
        """No coverable position at ``t``: the dry pause, or a draw when both packs are empty."""
        self.stucks += 1
        self.coverable = 0
        self.changes += 1
        self._emit(EV_DRY, t, -1)
        if self._both_out():
            self._finish(t, DRAW, WHY_DRY)
        else:
            self.phase = STUCK
            self.due = ticks_add(t, self.stuck_ms)

    def _finish(self, t, result, why):
        """The game ends at ``t``: holds end with it."""
        self.hold_pos[0] = self.hold_pos[1] = -1
        self._end(t, result, why)

    def _run_steps(self, t):
        """Run the timed steps due at or before ``t``: deal window end, pause end."""
        while self.due >= 0:
            due = self.due
            if ticks_diff(t, due) < 0:
                return
            if self.phase == DEALING:
                self.phase = PLAY
                self.due = -1
                self.changes += 1
                if self.frustration and (not self.packs[0] or not self.packs[1]):
                    self._start_scooping(due)  # a deal round emptied a pack
                    continue
                self._set_coverable()
                if not self.coverable:
                    self._become_dry(due)
            elif self.scooping:
                self._scoop(due)
                self._deal(due)
            else:
                self._deal(due)

    def _move_to(self, t):
        """The family's move, then a hold whose window has passed by ``t`` ends for good."""
        FamilyGame._move_to(self, t)
        for player in range(2):
            if self.hold_pos[player] >= 0 and ticks_diff(t, self.hold_end[player]) >= 0:
                self.hold_pos[player] = -1
                self.changes += 1

    def _resolve(self):
        """Judge the pending tick on the table, holds and locks at its start.

        Locks and holds are read as they stand: ``_move_to`` has ended those over by the
        tick's time; a lock from this tick starts only after it.
        """
        t = self.tick_t
        n = self.tick_n
        self.tick_n = 0
        results = self.tick_result
        if self.phase != PLAY:  # dealing, a pause or over: nothing counts
            for i in range(n):
                results[i] = IGNORED
            self._after_tick(t, n, 0, 0)
            return
        players = self.tick_player
        positions = self.tick_pos
        first = self._first
        coverable = self.coverable
        seen_a = seen_b = 0  # positions each player pressed earlier in this tick
        want_a = want_b = 0  # positions each player would cover
        tap_a = tap_b = 0  # positions each player (out of cards) tapped
        bad = 0  # bit player: an illegal press (locks the pad after the tick)
        for i in range(n):
            player = players[i]
            pos = positions[i]
            bit = 1 << pos
            if player:
                if seen_b & bit:
                    results[i] = IGNORED
                    continue
                seen_b |= bit
            else:
                if seen_a & bit:
                    results[i] = IGNORED
                    continue
                seen_a |= bit
            first[player * POSITIONS + pos] = i
            if self.locked[player]:
                results[i] = LOCKED
            elif self.packs[player]:
                if coverable & bit:
                    results[i] = COVER
                    if player:
                        want_b |= bit
                    else:
                        want_a |= bit
                else:
                    results[i] = ILLEGAL
                    self.illegals[player] += 1
                    bad |= 1 << player
            elif self.frustration:
                results[i] = IGNORED  # (never in play: an empty pack is being scooped)
            elif player:
                tap_b |= bit
            else:
                tap_a |= bit
        called = 0  # bit player: called in this tick
        if tap_a:
            verdict = self._taps(0, tap_a, t)
            called |= verdict & 1
            bad |= verdict >> 1
        if tap_b:
            verdict = self._taps(1, tap_b, t)
            called |= (verdict & 1) << 1
            bad |= (verdict >> 1) << 1
        both = want_a & want_b
        while both:  # same-position ties, rising position order
            pos = lowest(both)
            bit = 1 << pos
            both &= both - 1
            self.ties += 1
            if self.rules.tie == TIE_COIN:  # below(2) == 0: A wins the coin
                if self.rng.below(2):
                    results[first[pos]] = LOST_TIE
                    want_a &= ~bit
                else:
                    results[first[POSITIONS + pos]] = LOST_TIE
                    want_b &= ~bit
            else:
                results[first[pos]] = TIE
                results[first[POSITIONS + pos]] = TIE
                want_a &= ~bit
                want_b &= ~bit
        if bad and self.penalty:
            for player in range(2):
                if (bad >> player) & 1:
                    self.locked[player] = 1
                    self.lock_end[player] = ticks_add(t, self.penalty)
        if want_a or want_b:
            self._cover(want_a, want_b)
        self._after_tick(t, n, called, want_a | want_b)

    def _taps(self, player, taps, t):
        """Judge ``player``'s taps of this tick in rising position order, each against the
        hold as the one before left it; return bit 0: a call, bit 1: an illegal tap."""
        results = self.tick_result
        first = self._first
        tops = self.tops
        base = player * POSITIONS
        fresh = False  # the hold was made in this tick
        verdict = 0
        while taps:
            pos = lowest(taps)
            taps &= taps - 1
            i = first[base + pos]
            held = self.hold_pos[player]
            if held >= 0 and ticks_diff(t, self.hold_end[player]) >= 0:
                held = self.hold_pos[player] = -1  # the window has passed: a first tap
            if held >= 0:
                if pos == held:
                    results[i] = IGNORED  # the held position itself, within the window
                    continue
                card = self.hold_card[player]
                if tops[held] == card:  # not covered since the first tap
                    if tops[pos] >> 2 == card >> 2:
                        results[i] = CALL
                        self.hold_pos[player] = -1  # the call uses the hold up
                        self.calls += 1
                        verdict |= 1
                        continue
                    results[i] = ILLEGAL
                    self.illegals[player] += 1
                    verdict |= 2
                    if not fresh:  # a hold from an earlier tick is dropped
                        self.hold_pos[player] = -1
                    continue
                self.hold_pos[player] = -1  # covered since: judged as a first tap
            if (self.pairs >> pos) & 1:
                results[i] = TAP
                self.taps += 1
                self.hold_pos[player] = pos
                self.hold_card[player] = tops[pos]
                self.hold_end[player] = ticks_add(t, self.call_ms)
                fresh = True
            else:
                results[i] = ILLEGAL
                self.illegals[player] += 1
                verdict |= 2
        return verdict

    def _cover(self, want_a, want_b):
        """Apply the covers (A's in rising position order, then B's); return the players
        whose pack ran out (bit 0 = A, bit 1 = B).

        Keeps ``by_rank``, ``pairs``, ``rutters``, ``pending`` and ``shares`` up to date
        from the covered stacks only, then sets ``coverable``.
        """
        by_rank = self.by_rank
        pairs = self.pairs
        pending = self.pending
        covered = 0
        out = 0
        for player in range(2):
            want = want_b if player else want_a
            base = player * POSITIONS
            while want:
                pos = lowest(want)
                want &= want - 1
                i = self._first[base + pos]
                if not self.packs[player]:
                    self.tick_result[i] = IGNORED  # ran out earlier in this tick
                    continue
                bit = 1 << pos
                old = self.tops[pos] >> 2  # the rank covered
                card = self._take(player)
                self._place(pos, card)
                self.tick_card[i] = card
                self.covers[player] += 1
                if (pos >= ROW_BASE) != (player == 1):  # the opponent's row: a card of share
                    self.shares[player] -= 1
                    self.shares[1 - player] += 1
                if not self.packs[player]:
                    out |= 1 << player
                covered |= bit
                # The other tops of the covered rank become pending (unless covered too).
                rest = by_rank[old] & ~bit
                by_rank[old] = rest
                pending |= rest
                if not rest & (rest - 1):  # the covered rank shows at most once now
                    pairs &= ~rest
                new = card >> 2
                mates = by_rank[new] | bit
                by_rank[new] = mates
                pairs = pairs | mates if mates & (mates - 1) else pairs & ~bit
                if self.rutter:
                    self.rutters = self.rutters | bit if old == new else self.rutters & ~bit
        self.pairs = pairs
        self.pending = pending & ~covered
        self._set_coverable()
        return out

    def _after_tick(self, t, n, called, played):
        """Events of a judged tick, then its end: a call, the target, a scoop, or dry."""
        results = self.tick_result
        real = False
        for i in range(n):
            if results[i] != IGNORED:
                real = True
            self._emit(EV_PRESS, t, i)
        if real:
            self.changes += 1
            self._emit(EV_TICK, t, -1)
        if called:
            if called == 3:
                self._finish(t, DRAW, WHY_BOTH_CALL)
            else:
                self._finish(t, WIN_B if called == 2 else WIN_A, WHY_CALL)
            return
        if not played:
            return
        if self.frustration:
            for player in range(2):
                if self.shares[player] <= self.target:
                    self._finish(t, WIN_B if player else WIN_A, WHY_SHARE)
                    return
            if not self.packs[0] or not self.packs[1]:
                self._start_scooping(t)
                return
        if not self.coverable:
            self._become_dry(t)
