"""California Speed on a 2x4 layout: the rules state machine (RULES.md).

The game knows nothing of screens, buttons or files. The caller feeds it presses and
the time; the game decides, and tells what it decided through an optional *sink*.

Driving it (allocation-free after set-up)::

    game = GridGame(GridRules(), sink)  # set-up: allocates every buffer once
    game.shuffle(seed)              # or game.set_deck(codes)
    game.start(t)                   # deal at time t
    game.press(player, pos, t)      # a timestamped press; 0 = accepted
    game.advance(now)               # time has reached now: run what is due
    game.finish()                   # end of input: resolve the last tick

Times are ms ticks modulo 2**29 (``engine.ticks``); a press is queued in the *tick*
of its timestamp and judged once time moves past it (a later press, ``advance`` or
``start``), so simultaneous presses are judged together. Times must never go back:
``press``/``start``/``advance`` with an earlier time than ``clock`` return
``E_TIME`` and change nothing, and so does any refused call (a refused ``start``
runs no timed step). The caller's contract: arguments are ints (anything else is
refused with ``E_ARG``, never raised; so is a bool), and consecutive times are less
than 2**28 ms apart -- call ``advance`` at least that often (once a day is plenty)
and a game may sit for any number of days: a lock or a timed step whose time has
been passed ends for good, so no comparison ever wraps back.

Results reach the caller two ways, neither of which allocates:

* ``sink(ev, t, i)`` is called for every event, in the order of LOG.md's trace:
  ``EV_DEAL``, ``EV_PRESS`` (``i`` indexes the tick buffers ``tick_player``,
  ``tick_pos``, ``tick_result`` and, for a cover, ``tick_card``), ``EV_TICK``,
  ``EV_STUCK``, ``EV_OVER`` (see ``result``/``why``) and ``EV_MATCH``
  (``match_winner``, ``score``). For other events ``i`` is -1. The sink reads the
  views below at call time and must not call back into the game.
* Views a screen or a bot may read at any time: ``phase``, ``tops`` (card codes by
  position, ``NO_CARD`` if empty), ``heights``, ``packs`` ([A, B] face-down counts),
  ``coverable`` and ``pending`` (bit masks, bit n = position n), ``locked_at(p, t)``,
  ``lock_left(p, t)``, ``score``, and ``changes`` (a counter that moves whenever
  anything shown changes).

Memory layout (all allocated in ``__init__``; 52-entry arrays are indexed by card):

* ``deck``        bytearray(52): the next game's dealing order (A's pack top first, then B's).
* ``pack``        bytearray(104): two ring buffers, A at [0:52], B at [52:104];
  ``pack_head`` bytearray(2) is each ring's top, ``packs`` bytearray(2) its count.
* ``tops``/``bottoms``/``heights`` bytearray(8): each stack's top and bottom card and size.
* ``up``/``down`` bytearray(52): the card above / below a card in its stack (a
  doubly linked list per stack: gathering walks it bottom-up).
* ``by_rank`` bytearray(13): for each rank, the mask of positions whose top shows it.
  With it the coverable mask is kept up to date from the one or two stacks a tick
  covers, never recomputed over the layout: ``pairs`` (tops whose rank shows on
  another top), ``rutters`` (tops on a card of their rank, rutter rule only) and
  ``pending`` (unanswered partners of a covered match) are small-int masks and
  ``coverable`` is their union while in play.
* ``tick_player``/``tick_pos``/``tick_result``/``tick_card`` bytearray(64): the
  presses of the tick being collected, in arrival order; ``TICK_CAPACITY`` per ms.
* ``_first`` bytearray(16): the tick index of each (player, pos)'s first press.
* ``locked`` bytearray(2): a player's pad is locked, until ``lock_end[player]``.
* ``score``, ``lock_end``, ``covers``, ``illegals``: two-int lists (small ints only).
* ``rng`` decides coin ties; ``deck_rng`` shuffles the next deck and hands its state
  to ``rng`` at that game's ``start`` (a ``seed``/``deck`` waits for its start).
* ``_trial``: a second game a start during a game is tried on (``engine.family``).

Implementation Notes
--------------------

Every stored value is a small int below 2**30 (times below 2**29, masks below
2**16, counters restart with each game or match), so nothing allocates on
MicroPython or CircuitPython (31-bit small ints).
A tick's presses are judged in one pass over the tick buffers with 16-bit masks
keyed ``player * 8 + pos``; the covers are then applied lowest key first (A's in
rising position order, then B's). A ``start`` while a game is on is first tried on
a private copy of the game made at set-up, so a refused start changes nothing.
"""

from engine.cards import NO_CARD
from engine.compat import const
from engine.family import (
    COVER, DEALING, EV_DEAL, FAMILY_BUFS, FAMILY_INTS, IGNORED, ILLEGAL, LOCKED, LOST_TIE,
    LOWEST_BIT, PLAY, TIE, FamilyGame,
)
from engine.family_rules import TIE_COIN
from engine.grid_rules import GridRules
from engine.ticks import ticks_add, ticks_diff

POSITIONS = const(8)
_ALL = const(0xFF)
_ZERO13 = bytes(13)


class GridGame(FamilyGame):
    """One match of California Speed on a 2x4 layout between players A (0) and B (1)."""

    GAME = "grid"
    RULES = GridRules
    codes = POSITIONS  # press(player, pos, t): the position pressed
    _STATE_INTS = FAMILY_INTS + ("rutter", "pending", "pairs", "rutters")
    _STATE_BUFS = FAMILY_BUFS + (
        "pack", "pack_head", "packs", "tops", "bottoms", "heights", "up", "down", "by_rank",
    )

    def _alloc(self):
        self.pack = bytearray(104)
        self.pack_head = bytearray(2)
        self.packs = bytearray(2)
        self.tops = bytearray(8)
        self.bottoms = bytearray(8)
        self.heights = bytearray(8)
        self.up = bytearray(52)
        self.down = bytearray(52)
        self.by_rank = bytearray(13)

    def _new_match(self, rules):
        self.rutter = rules.rutter

    # -------------------------------------------------------------- internals

    def _clear_table(self):
        for pos in range(8):
            self.tops[pos] = NO_CARD
            self.bottoms[pos] = NO_CARD
            self.heights[pos] = 0
        self.packs[0] = self.packs[1] = 0
        self.pack_head[0] = self.pack_head[1] = 0
        self.pending = 0
        self.pairs = 0
        self.rutters = 0

    def _lay_out(self, t):
        """Start's deal: each player's half of the deck is their pack; both deal at ``t``."""
        self._split_deck()
        self._deal(t)

    def _take(self, player):
        """Take the top card of ``player``'s pack (the pack is not empty)."""
        head = self.pack_head[player]
        self.pack_head[player] = head + 1 if head < 51 else 0
        self.packs[player] -= 1
        return self.pack[player * 52 + head]

    def _put_under(self, player, card):
        """Put ``card`` face down under ``player``'s pack."""
        base = player * 52
        self.pack[base + (self.pack_head[player] + self.packs[player]) % 52] = card
        self.packs[player] += 1

    def _place(self, pos, card):
        """Turn ``card`` face up on top of stack ``pos``."""
        top = self.tops[pos]
        if top == NO_CARD:
            self.bottoms[pos] = card
        else:
            self.up[top] = card
        self.down[card] = top
        self.up[card] = NO_CARD
        self.tops[pos] = card
        self.heights[pos] += 1

    def _deal(self, t):
        """Both players deal 4 from their pack onto their own row, left first."""
        by_rank = self.by_rank
        by_rank[0:13] = _ZERO13
        for pos in range(8):
            card = self._take(pos >> 2)
            self._place(pos, card)
            by_rank[card >> 2] |= 1 << pos
        pairs = 0
        for rank in range(13):
            mask = by_rank[rank]
            if mask & (mask - 1):  # two tops or more show this rank
                pairs |= mask
        self.pairs = pairs
        self.rutters = 0  # one card per stack
        self.phase = DEALING
        self.due = ticks_add(t, self.deal_ms)
        self.coverable = 0
        self.pending = 0
        self.deals += 1
        self.changes += 1
        self._emit(EV_DEAL, t, -1)

    def _gather(self):
        """Each player puts their row under their pack, stack by stack, bottom up."""
        for pos in range(8):
            player = pos >> 2
            card = self.bottoms[pos]
            while card != NO_CARD:
                self._put_under(player, card)
                card = self.up[card]
            self.tops[pos] = NO_CARD
            self.bottoms[pos] = NO_CARD
            self.heights[pos] = 0

    def _run_steps(self, t):
        """Run the timed steps (deal end, pause end) due at or before ``t``."""
        while self.due >= 0:
            due = self.due
            if ticks_diff(t, due) < 0:
                return
            if self.phase == DEALING:
                self.phase = PLAY
                self.due = -1
                self.coverable = self.pairs  # fresh stacks: nothing pending, no rutter
                self.changes += 1
                if not self.coverable:
                    self._become_stuck(due)
            else:
                self._gather()
                self._deal(due)

    def _stuck_table(self):
        self.pending = 0

    def _resolve(self):
        """Judge the pending tick against the layout and locks at its start.

        Locks are read as they stand: ``_move_to`` has ended those over by the
        tick's time, and a lock from this tick starts only after it.
        """
        t = self.tick_t
        n = self.tick_n
        self.tick_n = 0
        results = self.tick_result
        if self.phase != PLAY:  # dealing, stuck or over: nothing counts
            for i in range(n):
                results[i] = IGNORED
            self._finish_tick(t, n, 0, 0)
            return
        seen = 0  # bit player * 8 + pos: pressed earlier in this tick
        want = 0  # bit player * 8 + pos: a cover if no one else wants it
        bad = 0  # bit player: an illegal press (locks the pad after the tick)
        for i in range(n):
            player = self.tick_player[i]
            key = player * 8 + self.tick_pos[i]
            if (seen >> key) & 1:
                results[i] = IGNORED
                continue
            seen |= 1 << key
            self._first[key] = i
            if self.locked[player]:
                results[i] = LOCKED
            elif (self.coverable >> (key & 7)) & 1:
                results[i] = COVER
                want |= 1 << key
            else:
                results[i] = ILLEGAL
                self.illegals[player] += 1
                bad |= 1 << player
        if want & (want >> 8):
            want = self._ties(want)
        if bad and self.penalty:
            for player in range(2):
                if (bad >> player) & 1:
                    self.locked[player] = 1
                    self.lock_end[player] = ticks_add(t, self.penalty)
        out = self._cover(want) if want else 0
        self._finish_tick(t, n, out, want)

    def _ties(self, want):
        """Settle positions both players would cover; return the covers left."""
        both = want & (want >> 8) & _ALL
        results = self.tick_result
        first = self._first
        for pos in range(8):
            if (both >> pos) & 1:
                self.ties += 1
                if self.rules.tie == TIE_COIN:  # below(2) == 0: A wins the coin
                    loser = 1 - self.rng.below(2)
                    results[first[loser * 8 + pos]] = LOST_TIE
                    want &= ~(1 << (loser * 8 + pos))
                else:
                    results[first[pos]] = TIE
                    results[first[8 + pos]] = TIE
                    want &= ~(0x101 << pos)
        return want

    def _cover(self, want):
        """Apply the covers in ``want`` (bits player * 8 + pos), lowest first.

        Keeps ``by_rank``, ``pairs``, ``rutters`` and ``pending`` up to date from
        the covered stacks only, then sets ``coverable``. Returns the players whose
        pack ran out (bit 0 = A, bit 1 = B).
        """
        by_rank = self.by_rank
        pairs = self.pairs
        pending = self.pending
        covered = 0
        out = 0
        while want:
            low = want & _ALL
            key = LOWEST_BIT[low] if low else 8 + LOWEST_BIT[want >> 8]
            want &= want - 1
            player = key >> 3
            if not self.packs[player]:
                self.tick_result[self._first[key]] = IGNORED  # ran out earlier in this tick
                continue
            pos = key & 7
            bit = 1 << pos
            old = self.tops[pos] >> 2  # the rank covered
            card = self._take(player)
            self._place(pos, card)
            self.tick_card[self._first[key]] = card
            self.covers[player] += 1
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
            # ``pos`` left its old rank's pairs; it pairs again if its new rank shows twice.
            pairs = pairs | mates if mates & (mates - 1) else pairs & ~bit
            if self.rutter:
                self.rutters = self.rutters | bit if old == new else self.rutters & ~bit
        self.pairs = pairs
        self.pending = pending = pending & ~covered
        self.coverable = pairs | pending | self.rutters
        self.stuck_count = 0
        return out
