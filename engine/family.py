"""The family's base game: the codes every game shares (phases, press results, events,
outcomes, return codes) and :class:`FamilyGame`, whose set-up, input, time, locks, end
of a tick, end of a game and sink every game of the family inherits.

A game of the family (``engine.grid.GridGame``, ``engine.row.RowGame``,
``engine.speed.SpeedGame``, ...) names its ``GAME`` key and ``RULES`` class, how many
press codes it takes (``codes``: positions, piles or plays; ``KEYS_PER_PLAYER`` bounds
them), and provides ``_alloc`` (its own buffers), ``_new_match`` (what it takes from
the rules), ``_clear_table`` (its part of an empty table), ``_lay_out`` (its deal at
start), ``_run_steps``, ``_resolve`` (judging a tick) and the state a trial start copies
(``_STATE_INTS``/``_STATE_BUFS``, after :data:`FAMILY_INTS`/:data:`FAMILY_BUFS`).

Implementation Notes
--------------------

Everything is allocated in ``__init__``, including the *trial* game a start during a
game is tried on, so a refused start changes nothing and allocates nothing. A game made
with ``trial=False`` (the firmware's, which starts a game only once the last is over:
it saves the copy's 1.7 KB of heap) refuses every start while its game is on with
``E_BUSY``, even one that judging the pending tick would have allowed. After set-up no
call allocates on MicroPython or CircuitPython: every stored value is a small int
(times below 2**29, masks below 2**30). ``EVENT_NAMES``, ``RESULT_NAMES`` and
``WHY_NAMES`` are class attributes too, so a game may name its own (the trace reads
them from the game).
"""

from engine.compat import const
from engine.family_rules import DEADLOCK_FEWER
from engine.rng import Rng, shuffle
from engine.ticks import ticks_add, ticks_diff

TICK_CAPACITY = const(64)

# Phases of a game.
IDLE = const(0)  # no game started yet
DEALING = const(1)  # cards on the table, presses ignored until the deal window ends
PLAY = const(2)
STUCK = const(3)  # no coverable position: pause, then gather and deal again
OVER = const(4)  # the game has ended (the match may go on)

# Return codes of press/start/advance (no exceptions in steady state).
OK = const(0)
E_TIME = const(1)  # earlier than the game's clock (or not a tick value)
E_NO_GAME = const(2)  # a press before the first start
E_ARG = const(3)  # player or position out of range, or an argument not an int
E_FULL = const(4)  # more than TICK_CAPACITY presses in one ms
E_NO_DECK = const(5)  # start without a deck waiting
E_BUSY = const(6)  # start while the previous game is still on
E_MATCH_OVER = const(7)  # start after the match was won

PLAYER_A = const(0)
PLAYER_B = const(1)
PLAYER_NAMES = ("A", "B")

# Phases.
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

ERROR_NAMES = (
    "ok", "time goes backwards", "press before the first start",
    "player or position out of range (or not an int)", "more than 64 presses in one millisecond",
    "no seed or deck waiting for this start", "the previous game is not over",
    "the match is over",
)



def _lowest_bits():
    table = bytearray(256)
    for m in range(1, 256):
        while not (m >> table[m]) & 1:
            table[m] += 1
    return bytes(table)


# LOWEST_BIT[m]: the index of the lowest set bit of the byte m (m > 0).
LOWEST_BIT = _lowest_bits()

_TICKS_LIMIT = const(1 << 29)
_TICKS_MAX = const((1 << 29) - 1)
_TICKS_HALF = const(1 << 28)


# What a start during a game copies to its trial game (ints, then buffers) for every
# game; each game adds its own.
FAMILY_INTS = (
    "penalty", "deal_ms", "stuck_ms", "match_over", "match_winner", "games", "started", "clock",
    "has_deck", "changes", "phase", "result", "why", "coverable", "stuck_count", "deals",
    "stucks", "ties", "tick_n", "tick_t", "due",
)
FAMILY_BUFS = (
    "tick_player", "tick_pos", "tick_result", "tick_card", "score", "lock_end", "locked",
    "covers", "illegals",
)


def _copy(dst, src):
    """``dst[:] = src`` without allocating (a list's slice assignment allocates 16 bytes
    on MicroPython; element stores do not)."""
    for i in range(len(src)):
        dst[i] = src[i]


# End of a game from the players out of cards (bit 0 = A, bit 1 = B).
_OUT_RESULT = (-1, WIN_A, WIN_B, DRAW)


class FamilyGame:
    """A match of one game of the family between players A (0) and B (1)."""

    GAME = ""  # the log's ``rules game=`` value
    RULES = None  # the game's rules class
    KEYS_PER_PLAYER = 8  # press codes per player that ``_first`` can index
    EVENT_NAMES = EVENT_NAMES
    RESULT_NAMES = RESULT_NAMES
    WHY_NAMES = WHY_NAMES
    _STATE_INTS = FAMILY_INTS
    _STATE_BUFS = FAMILY_BUFS

    def __init__(self, rules=None, sink=None, trial=True):
        self.rules = self.RULES()
        if rules is not None:
            rules.check()
            self.rules.copy_from(rules)
        self.sink = sink
        self.rng = Rng(0)  # coin tosses (and any draw) of the game on
        self.deck_rng = Rng(0)  # the next deck's shuffle; rng takes it over at start
        self.deck = bytearray(52)
        self.tick_player = bytearray(TICK_CAPACITY)
        self.tick_pos = bytearray(TICK_CAPACITY)
        self.tick_result = bytearray(TICK_CAPACITY)
        self.tick_card = bytearray(TICK_CAPACITY)
        self._first = bytearray(2 * self.KEYS_PER_PLAYER)  # tick index of a key's first press
        self.score = [0, 0]
        self.lock_end = [0, 0]
        self.locked = bytearray(2)
        self.covers = [0, 0]
        self.illegals = [0, 0]
        self._alloc()
        # A start during a game is tried on this copy (see start); made here, at set-up.
        self._trial = type(self)(None, None, False) if trial else None
        self.new_match()

    def _alloc(self):
        """Allocate the game's own buffers (set-up)."""

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
        self._new_match(r)
        self._reset_table()
        self.phase = IDLE
        self.result = -1
        self.why = -1

    def _new_match(self, rules):
        """Take what the game reads from its rules at each match (set-up)."""

    def _reset_table(self):
        """An empty table, no lock, no pending tick or step: the game's then the family's."""
        self._clear_table()
        self.coverable = 0
        for player in range(2):
            self.locked[player] = 0
            self.covers[player] = 0
            self.illegals[player] = 0
        self.stuck_count = 0
        self.deals = 0
        self.stucks = 0
        self.ties = 0
        self.tick_n = 0
        self.tick_t = 0
        self.due = -1  # time of the next timed step (deal end, pause end), -1: none
        self.changes += 1

    def _clear_table(self):
        """The game's own part of an empty table."""

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
        """Prepare the next game's deck: Fisher-Yates from ``seed``.

        The game in progress keeps its own generator: the new one takes over at
        the next ``start`` (a coin tie judged before then is still the old game's).
        """
        self.deck_rng.seed(seed)
        for i in range(52):
            self.deck[i] = i
        shuffle(self.deck_rng, self.deck, 52)
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
        self.deck_rng.seed(0)  # coin tosses of a dealt deck start from seed 0
        self.has_deck = True
        return True

    def press(self, player, code, t):
        """Queue press ``code`` (below ``codes``) by ``player`` seen at time ``t``; OK or E_*."""
        if type(player) is not int or type(code) is not int or type(t) is not int:
            return E_ARG  # a bool too: MicroPython does not count it as an int
        if not 0 <= player <= 1 or not 0 <= code < self.codes:
            return E_ARG
        if not self.started:
            return E_NO_GAME
        if t != self.clock:  # same ms as the clock: nothing can be due
            if not 0 <= t < _TICKS_LIMIT or (t - self.clock) & _TICKS_MAX >= _TICKS_HALF:
                return E_TIME  # (the second test is ticks_diff(t, clock) < 0, written out)
            self._move_to(t)
        n = self.tick_n
        if n == TICK_CAPACITY:
            return E_FULL
        self.tick_player[n] = player
        self.tick_pos[n] = code
        self.tick_t = t
        self.tick_n = n + 1
        return OK

    def advance(self, t):
        """Time has reached ``t``: judge earlier ticks, run steps due by ``t``."""
        if type(t) is not int:
            return E_ARG
        if t == self.clock:
            return OK  # nothing can be due that has not run
        if not 0 <= t < _TICKS_LIMIT:
            return E_TIME
        if not self.started:
            self.clock = t
            return OK
        if (t - self.clock) & _TICKS_MAX >= _TICKS_HALF:  # ticks_diff(t, clock) < 0
            return E_TIME
        self._move_to(t)
        return OK

    def start(self, t):
        """Start the next game of the match at ``t``: the deal (``_lay_out``) at ``t``.

        Refused (and nothing changes) unless a deck waits and the game in progress
        is over by ``t`` -- judging its last tick and running its timed steps.
        """
        if type(t) is not int:
            return E_ARG
        if not 0 <= t < _TICKS_LIMIT or (self.started and ticks_diff(t, self.clock) < 0):
            return E_TIME
        if not self.has_deck:
            return E_NO_DECK
        if self.match_over:
            return E_MATCH_OVER
        if self.started:
            if self.phase != OVER:
                code = self._try_start(t)
                if code != OK:
                    return code
            if self.tick_n:
                self._resolve()  # presses stamped t came before the start
            self._move_to(t)
        self.started = True
        self.clock = t
        self.has_deck = False
        self.games += 1
        self.rng.state = self.deck_rng.state  # this game's coins follow its shuffle
        self._reset_table()
        self._lay_out(t)
        self._run_steps(t)  # a zero-length deal window ends at once
        return OK

    def finish(self):
        """End of input: judge the pending tick and run steps due by ``clock``."""
        if self.tick_n:
            self._resolve()
        if self.started:
            self._run_steps(self.clock)

    def locked_at(self, player, t):
        """Return True if ``player``'s pad is locked at time ``t`` (not before ``clock``)."""
        return bool(self.locked[player]) and ticks_diff(self.lock_end[player], t) > 0

    def lock_left(self, player, t):
        """Return the ms of lock left for ``player`` at ``t`` (0 if none)."""
        if not self.locked[player]:
            return 0
        left = ticks_diff(self.lock_end[player], t)
        return left if 0 < left <= self.penalty else 0

    def due_at(self):
        """Return the time of the next timed step, or -1 if none is waiting."""
        return self.due

    def _split_deck(self):
        """Each player's half of the shuffled deck becomes their pack (A the first 26)."""
        for i in range(26):
            self.pack[i] = self.deck[i]
            self.pack[52 + i] = self.deck[26 + i]
        self.packs[0] = self.packs[1] = 26

    def _move_to(self, t):
        """Time reaches ``t``: judge an earlier tick, run the steps due by ``t``, end locks."""
        if self.tick_n and t != self.tick_t:
            self._resolve()
        if self.due >= 0:
            self._run_steps(t)
        if self.locked[0] or self.locked[1]:
            self._end_locks(t)
        self.clock = t

    def _end_locks(self, t):
        """A lock whose end ``t`` has reached is over for good (times never wrap back)."""
        for player in range(2):
            if self.locked[player] and ticks_diff(t, self.lock_end[player]) >= 0:
                self.locked[player] = 0

    def _try_start(self, t):
        """Would a start at ``t`` be accepted? Tried on a copy: this game does not change."""
        trial = self._trial
        if trial is None:  # made without a trial (see the module notes)
            return E_BUSY
        trial.rules.copy_from(self.rules)
        for name in self._STATE_INTS:
            setattr(trial, name, getattr(self, name))
        for name in self._STATE_BUFS:
            _copy(getattr(trial, name), getattr(self, name))
        trial.rng.state = self.rng.state
        if trial.tick_n:
            trial._resolve()
        trial._move_to(t)
        if trial.match_over:
            return E_MATCH_OVER
        return OK if trial.phase == OVER else E_BUSY

    def _emit(self, ev, t, i):
        sink = self.sink
        if sink is not None:
            sink(ev, t, i)

    def _finish_tick(self, t, n, out, played):
        """The end of judging a tick of ``n`` presses: their events, the tick, then the end
        of the game (``out``: the players out of cards) or a stuck table."""
        results = self.tick_result
        real = False
        for i in range(n):
            if results[i] != IGNORED:
                real = True
            self._emit(EV_PRESS, t, i)
        if real:
            self.changes += 1
            self._emit(EV_TICK, t, -1)
        if out:
            self._end(t, _OUT_RESULT[out], WHY_BOTH_OUT if out == 3 else WHY_OUT)
        elif played and not self.coverable:
            self._become_stuck(t)

    def _become_stuck(self, t):
        """No coverable position: a pause then a redeal, or a deadlock's end."""
        self.stuck_count += 1
        self.stucks += 1
        self.coverable = 0
        self._stuck_table()
        self.changes += 1
        self._emit(EV_STUCK, t, -1)
        if self.stuck_count >= self.rules.deadlock or self._dead_end():
            a = self._left(0)
            b = self._left(1)
            result = DRAW
            if self.rules.deadlock_result == DEADLOCK_FEWER and a != b:
                result = WIN_A if a < b else WIN_B
            self._end(t, result, WHY_DEADLOCK)
        else:
            self.phase = STUCK
            self.due = ticks_add(t, self.stuck_ms)

    def _stuck_table(self):
        """What a stuck table clears beyond ``coverable``."""

    def _dead_end(self):
        """True if a stuck table can never be dealt again (the game ends at once)."""
        return False

    def _left(self, player):
        """The cards ``player`` has left, for a deadlock won by fewer cards."""
        return self.packs[player]

    def _end(self, t, result, why):
        """The game ends at ``t``; the match too once a player has won enough."""
        self.phase = OVER
        self.due = -1
        self.result = result
        self.why = why
        self.coverable = 0
        self.locked[0] = self.locked[1] = 0  # locks end with the game
        self.changes += 1
        if result != DRAW:
            self.score[result] += 1
            if self._match_won(result):
                self.match_over = True
                self.match_winner = result
        self._emit(EV_OVER, t, -1)
        if self.match_over:
            self._emit(EV_MATCH, t, -1)

    def _match_won(self, result):
        """True if the game just won by ``result`` wins the match."""
        return self.score[result] >= self.rules.wins
