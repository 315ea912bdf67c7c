"""California Speed on a 2x4 layout: the rules state machine (RULES.md).

The game knows nothing of screens, buttons or files. The caller feeds it presses and
the time; the game decides, and tells what it decided through an optional *sink*.

Driving it (allocation-free after set-up)::

    game = Game(Rules(), sink)      # set-up: allocates every buffer once
    game.shuffle(seed)              # or game.set_deck(codes)
    game.start(t)                   # deal at time t
    game.press(player, pos, t)      # a timestamped press; 0 = accepted
    game.advance(now)               # time has reached now: run what is due
    game.finish()                   # end of input: resolve the last tick

Times are ms ticks modulo 2**29 (``engine.ticks``); a press is queued in the *tick*
of its timestamp and judged once time moves past it (a later press, ``advance`` or
``start``), so simultaneous presses are judged together. Times must never go back:
``press``/``start``/``advance`` with an earlier time than ``clock`` return
``E_TIME`` and change nothing.

Results reach the caller two ways, neither of which allocates:

* ``sink(ev, t, i)`` is called for every event, in the order of LOG.md's trace:
  ``EV_DEAL``, ``EV_PRESS`` (``i`` indexes the tick buffers ``tick_player``,
  ``tick_pos``, ``tick_result``, ``tick_card``), ``EV_TICK``, ``EV_STUCK``,
  ``EV_OVER`` (see ``result``/``why``) and ``EV_MATCH`` (``match_winner``,
  ``score``). For other events ``i`` is -1. The sink reads the views below at call
  time and must not call back into the game.
* Views a screen or a bot may read at any time: ``phase``, ``tops`` (card codes by
  position, ``NO_CARD`` if empty), ``heights``, ``packs`` ([A, B] face-down counts),
  ``coverable`` and ``pending`` (bit masks, bit n = position n), ``locked_at(p, t)``,
  ``score``, and ``changes`` (a counter that
  moves whenever anything shown changes).

Memory layout (all allocated in ``__init__``; 52-entry arrays are indexed by card):

* ``deck``        bytearray(52): the next game's dealing order (A's pack top first, then B's).
* ``pack``        bytearray(104): two ring buffers, A at [0:52], B at [52:104];
  ``pack_head`` bytearray(2) is each ring's top, ``packs`` bytearray(2) its count.
* ``tops``/``bottoms``/``heights`` bytearray(8): each stack's top and bottom card and size.
* ``up``/``down`` bytearray(52): the card above / below a card in its stack (a
  doubly linked list per stack, so gathering walks bottom-up and rutter reads the
  card under the top).
* ``tick_player``/``tick_pos``/``tick_result``/``tick_card`` bytearray(64): the
  presses of the tick being collected, in arrival order; ``TICK_CAPACITY`` per ms.
* ``score``, ``lock_start``, ``covers``, ``illegals``: two-int lists (small ints only).
"""

from engine.cards import NO_CARD
from engine.rng import Rng, shuffle
from engine.rules import Rules, TIE_COIN, DEADLOCK_FEWER
from engine.ticks import ticks_add, ticks_diff

from engine.compat import const

PLAYER_A = const(0)
PLAYER_B = const(1)
PLAYER_NAMES = ("A", "B")
POSITIONS = const(8)
TICK_CAPACITY = const(64)

# Phases.
IDLE = const(0)  # no game started yet
DEALING = const(1)  # cards on the table, presses ignored until the deal window ends
PLAY = const(2)
STUCK = const(3)  # no coverable position: pause, then gather and deal again
OVER = const(4)  # the game has ended (the match may go on)
PHASE_NAMES = ("idle", "dealing", "play", "stuck", "over")

# Press results, as in LOG.md.
COVER = const(0)
ILLEGAL = const(1)
LOCKED = const(2)
TIE = const(3)
LOST_TIE = const(4)
IGNORED = const(5)
RESULT_NAMES = ("cover", "illegal", "locked", "tie", "lost-tie", "ignored")

# Events passed to the sink.
EV_DEAL = const(0)
EV_PRESS = const(1)
EV_TICK = const(2)
EV_STUCK = const(3)
EV_OVER = const(4)
EV_MATCH = const(5)
EVENT_NAMES = ("deal", "press", "tick", "stuck", "over", "match")

# Game results (``result``) and why the game ended (``why``).
WIN_A = const(0)
WIN_B = const(1)
DRAW = const(2)
OUTCOME_NAMES = ("A", "B", "draw")
WHY_OUT = const(0)
WHY_BOTH_OUT = const(1)
WHY_DEADLOCK = const(2)
WHY_NAMES = ("out", "both-out", "deadlock")

# Return codes of press/start/advance (no exceptions in steady state).
OK = const(0)
E_TIME = const(1)  # earlier than the game's clock (or not a tick value)
E_NO_GAME = const(2)  # a press before the first start
E_ARG = const(3)  # player or position out of range
E_FULL = const(4)  # more than TICK_CAPACITY presses in one ms
E_NO_DECK = const(5)  # start without a deck waiting
E_BUSY = const(6)  # start while the previous game is still on
E_MATCH_OVER = const(7)  # start after the match was won
ERROR_NAMES = (
    "ok", "time goes backwards", "press before the first start",
    "player or position out of range", "more than 64 presses in one millisecond",
    "no seed or deck waiting for this start", "the previous game is not over",
    "the match is over",
)

_ALL = const(0xFF)
_ZERO13 = bytes(13)
_TICKS_LIMIT = const(1 << 29)


class Game:
    """One match of California Speed between players A (0) and B (1)."""

    def __init__(self, rules=None, sink=None):
        self.rules = Rules()
        if rules is not None:
            self.rules.copy_from(rules)
            self.rules.check()
        self.sink = sink
        self.rng = Rng(0)
        self.deck = bytearray(52)
        self.pack = bytearray(104)
        self.pack_head = bytearray(2)
        self.packs = bytearray(2)
        self.tops = bytearray(8)
        self.bottoms = bytearray(8)
        self.heights = bytearray(8)
        self.up = bytearray(52)
        self.down = bytearray(52)
        self.tick_player = bytearray(TICK_CAPACITY)
        self.tick_pos = bytearray(TICK_CAPACITY)
        self.tick_result = bytearray(TICK_CAPACITY)
        self.tick_card = bytearray(TICK_CAPACITY)
        self._first = bytearray(16)  # tick index of each (player, pos)'s first press
        self._tops0 = bytearray(8)  # tops at the start of the tick being resolved
        self._ranks = bytearray(13)
        self.score = [0, 0]
        self.lock_start = [0, 0]
        self.locked = bytearray(2)
        self.covers = [0, 0]
        self.illegals = [0, 0]
        self.new_match()

    # ----------------------------------------------------------------- set-up

    def new_match(self):
        """Forget everything but the rules: score 0-0, no game, no clock."""
        r = self.rules
        self.penalty = r.penalty
        self.deal_ms = r.deal
        self.stuck_ms = r.stuck
        self.score[0] = self.score[1] = 0
        self.match_over = False
        self.match_winner = -1
        self.games = 0  # games started in this match, draws included
        self.started = False  # a game has been started (the clock is set)
        self.clock = 0
        self.has_deck = False
        self.changes = 0
        self._reset_table()
        self.phase = IDLE
        self.result = -1
        self.why = -1

    def set_rules(self, rules):
        """Replace the rules and begin a new match; not while a game is on."""
        if self.phase in (DEALING, PLAY, STUCK):
            raise ValueError("rules cannot change while a game is on")
        rules.check()
        self.rules.copy_from(rules)
        has_deck = self.has_deck  # a seed or deck may already wait for its start
        self.new_match()
        self.has_deck = has_deck

    def shuffle(self, seed):
        """Prepare the next game's deck: Fisher-Yates from ``seed``."""
        self.rng.seed(seed)
        for i in range(52):
            self.deck[i] = i
        shuffle(self.rng, self.deck, 52)
        self.has_deck = True

    def set_deck(self, codes):
        """Prepare the next game's deck from 52 distinct codes; False if invalid."""
        if len(codes) != 52:
            return False
        seen = 0
        for c in codes:
            if not 0 <= c < 52 or (seen >> c) & 1:
                return False
            seen |= 1 << c  # a long int on MicroPython: set-up only
        for i in range(52):
            self.deck[i] = codes[i]
        self.rng.seed(0)  # coin tosses of a dealt deck start from seed 0
        self.has_deck = True
        return True

    # ------------------------------------------------------------------ input

    def start(self, t):
        """Start the next game of the match: both players deal at ``t``."""
        if not 0 <= t < _TICKS_LIMIT or (self.started and ticks_diff(t, self.clock) < 0):
            return E_TIME
        if not self.has_deck:
            return E_NO_DECK
        if self.started:
            if self.tick_n:
                self._resolve()  # presses stamped t came before the start
            self._move_to(t)
            if self.match_over:
                return E_MATCH_OVER
            if self.phase != OVER:
                return E_BUSY
        self.started = True
        self.clock = t
        self.has_deck = False
        self.games += 1
        self._reset_table()
        for i in range(26):
            self.pack[i] = self.deck[i]
            self.pack[52 + i] = self.deck[26 + i]
        self.packs[0] = self.packs[1] = 26
        self._deal(t)
        self._run_steps(t)  # a zero-length deal window ends at once
        return OK

    def press(self, player, pos, t):
        """Queue a press of ``pos`` by ``player`` seen at time ``t``; OK or E_*."""
        if not 0 <= player <= 1 or not 0 <= pos < POSITIONS:
            return E_ARG
        if not self.started:
            return E_NO_GAME
        if not 0 <= t < _TICKS_LIMIT or ticks_diff(t, self.clock) < 0:
            return E_TIME
        self._move_to(t)
        n = self.tick_n
        if n == TICK_CAPACITY:
            return E_FULL
        self.tick_player[n] = player
        self.tick_pos[n] = pos
        self.tick_t = t
        self.tick_n = n + 1
        return OK

    def advance(self, t):
        """Time has reached ``t``: judge earlier ticks, run steps due by ``t``."""
        if not 0 <= t < _TICKS_LIMIT:
            return E_TIME
        if not self.started:
            self.clock = t
            return OK
        if ticks_diff(t, self.clock) < 0:
            return E_TIME
        self._move_to(t)
        return OK

    def finish(self):
        """End of input: judge the pending tick and run steps due by ``clock``."""
        if self.tick_n:
            self._resolve()
        if self.started:
            self._run_steps(self.clock)

    # ------------------------------------------------------------------ views

    def locked_at(self, player, t):
        """Return True if ``player``'s pad is locked at time ``t``."""
        return bool(self.locked[player]) and ticks_diff(t, self.lock_start[player]) < self.penalty

    def lock_left(self, player, t):
        """Return the ms of lock left for ``player`` at ``t`` (0 if none)."""
        if not self.locked[player]:
            return 0
        left = self.penalty - ticks_diff(t, self.lock_start[player])
        return left if 0 < left <= self.penalty else 0

    def due_at(self):
        """Return the time of the next timed step, or -1 if none is waiting."""
        return self.due if self.phase in (DEALING, STUCK) else -1

    # -------------------------------------------------------------- internals

    def _reset_table(self):
        for pos in range(8):
            self.tops[pos] = NO_CARD
            self.bottoms[pos] = NO_CARD
            self.heights[pos] = 0
        self.packs[0] = self.packs[1] = 0
        self.pack_head[0] = self.pack_head[1] = 0
        self.coverable = 0
        self.pending = 0
        self.locked[0] = self.locked[1] = 0
        self.covers[0] = self.covers[1] = 0
        self.illegals[0] = self.illegals[1] = 0
        self.stuck_count = 0
        self.deals = 0
        self.stucks = 0
        self.ties = 0
        self.tick_n = 0
        self.tick_t = 0
        self.due = 0
        self.changes += 1

    def _move_to(self, t):
        """Time reaches ``t``: judge an earlier tick, then run the steps due by ``t``."""
        if self.tick_n and t != self.tick_t:
            self._resolve()
        self._run_steps(t)
        self.clock = t

    def _emit(self, ev, t, i):
        sink = self.sink
        if sink is not None:
            sink(ev, t, i)

    def _take(self, player):
        """Take the top card of ``player``'s pack (the pack is not empty)."""
        base = player * 52
        head = self.pack_head[player]
        card = self.pack[base + head]
        self.pack_head[player] = (head + 1) % 52
        self.packs[player] -= 1
        return card

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
        for player in range(2):
            for k in range(4):
                self._place(player * 4 + k, self._take(player))
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

    def _matches(self):
        """Return the mask of positions that are coverable on the current tops."""
        ranks = self._ranks
        ranks[0:13] = _ZERO13
        tops = self.tops
        for pos in range(8):
            ranks[tops[pos] >> 2] += 1
        mask = self.pending
        for pos in range(8):
            top = tops[pos]
            if ranks[top >> 2] > 1:
                mask |= 1 << pos
            elif self.rules.rutter and self.heights[pos] > 1 and self.down[top] >> 2 == top >> 2:
                mask |= 1 << pos
        return mask

    def _run_steps(self, t):
        """Run the timed steps (deal end, pause end) due at or before ``t``."""
        while self.phase == DEALING or self.phase == STUCK:
            due = self.due
            if ticks_diff(t, due) < 0:
                return
            if self.phase == DEALING:
                self.phase = PLAY
                self.coverable = self._matches()
                self.changes += 1
                if not self.coverable:
                    self._become_stuck(due)
            else:
                self._gather()
                self._deal(due)

    def _become_stuck(self, t):
        self.stuck_count += 1
        self.stucks += 1
        self.coverable = 0
        self.pending = 0
        self.changes += 1
        self._emit(EV_STUCK, t, -1)
        if self.stuck_count >= self.rules.deadlock:
            packs = self.packs
            result = DRAW
            if self.rules.deadlock_result == DEADLOCK_FEWER and packs[0] != packs[1]:
                result = WIN_A if packs[0] < packs[1] else WIN_B
            self._end(t, result, WHY_DEADLOCK)
        else:
            self.phase = STUCK
            self.due = ticks_add(t, self.stuck_ms)

    def _end(self, t, result, why):
        self.phase = OVER
        self.result = result
        self.why = why
        self.locked[0] = self.locked[1] = 0  # locks end with the game
        self.changes += 1
        if result != DRAW:
            self.score[result] += 1
            if self.score[result] >= self.rules.wins:
                self.match_over = True
                self.match_winner = result
        self._emit(EV_OVER, t, -1)
        if self.match_over:
            self._emit(EV_MATCH, t, -1)

    def _resolve(self):
        """Judge the pending tick against the layout and locks at its start."""
        t = self.tick_t
        n = self.tick_n
        self.tick_n = 0
        players = self.tick_player
        positions = self.tick_pos
        results = self.tick_result
        cards = self.tick_card
        first = self._first
        in_play = self.phase == PLAY
        coverable = self.coverable
        lock_a = self.locked_at(0, t)
        lock_b = self.locked_at(1, t)
        want_a = 0  # positions each player would cover on their own
        want_b = 0
        seen = 0  # bit player * 8 + pos: already pressed in this tick
        bad_a = False
        bad_b = False
        for i in range(n):
            player = players[i]
            pos = positions[i]
            key = player * 8 + pos
            cards[i] = NO_CARD
            if not in_play or (seen >> key) & 1:
                results[i] = IGNORED
                continue
            seen |= 1 << key
            first[key] = i
            if lock_b if player else lock_a:
                results[i] = LOCKED
            elif not (coverable >> pos) & 1:
                results[i] = ILLEGAL
                self.illegals[player] += 1
                if player:
                    bad_b = True
                else:
                    bad_a = True
            else:
                results[i] = COVER
                if player:
                    want_b |= 1 << pos
                else:
                    want_a |= 1 << pos
        both = want_a & want_b
        if both:
            for pos in range(8):
                if (both >> pos) & 1:
                    self.ties += 1
                    if self.rules.tie == TIE_COIN:
                        loser = 1 - self.rng.below(2)
                        results[first[loser * 8 + pos]] = LOST_TIE
                    else:
                        loser = 2
                        results[first[pos]] = TIE
                        results[first[8 + pos]] = TIE
                    if loser != 1:
                        want_a &= ~(1 << pos)
                    if loser != 0:
                        want_b &= ~(1 << pos)
        if self.penalty:
            if bad_a:
                self.locked[0] = 1
                self.lock_start[0] = t
            if bad_b:
                self.locked[1] = 1
                self.lock_start[1] = t
        covered = 0
        out = 0
        if want_a | want_b:
            self._tops0[0:8] = self.tops
            for player in range(2):
                want = want_b if player else want_a
                for pos in range(8):
                    if (want >> pos) & 1:
                        i = first[player * 8 + pos]
                        if not self.packs[player]:
                            results[i] = IGNORED  # ran out earlier in this tick
                            continue
                        card = self._take(player)
                        self._place(pos, card)
                        cards[i] = card
                        covered |= 1 << pos
                        self.covers[player] += 1
                        if not self.packs[player]:
                            out |= 1 << player
            self._update_pending(covered)
            self.coverable = self._matches()
            self.stuck_count = 0
            self.changes += 1
        real = False
        for i in range(n):
            if results[i] != IGNORED:
                real = True
            self._emit(EV_PRESS, t, i)
        if real:
            self.changes += 1
            self._emit(EV_TICK, t, -1)
        if out:
            if out == 3:
                self._end(t, DRAW, WHY_BOTH_OUT)
            else:
                self._end(t, WIN_A if out == 1 else WIN_B, WHY_OUT)
        elif covered and not self.coverable:
            self._become_stuck(t)

    def _update_pending(self, covered):
        """Uncovered partners of a covered position's match become pending."""
        tops0 = self._tops0
        pending = self.pending
        for pos in range(8):
            if (covered >> pos) & 1:
                rank = tops0[pos] >> 2
                for other in range(8):
                    if not (covered >> other) & 1 and tops0[other] >> 2 == rank:
                        pending |= 1 << other
        self.pending = pending & ~covered & _ALL
