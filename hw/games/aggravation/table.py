"""Aggravation's screen: two rows that grow from their owners' edges, in lines of four.

Seat A sits at the bottom edge, seat B at the top edge; all of B's text is upside
down. Link play (``hw.app.linked``) draws the table from one seat (``player`` 0 or 1):
that seat's row and strip at the bottom, the table turned half a turn for seat B, and
every text upright (each card keeps its two indices: one reads upright from here). Each row is drawn in *lines* of four stacks from its owner's left, line 0 at
its owner's edge: stack ``k`` is in column ``k % 4`` (from the owner's left: B's
left is the screen's right), line ``k // 4`` -- the pad's buttons
(``hw.games.aggravation.keys``) press the same columns. From top to bottom::

    B's strip   B's pack (or share, or call window), message, B's games   upside down
    B's row     line 0 (B's stacks 0-3, from the screen's right), line 1, ...
    (a thin line between the rows, where they meet)
    A's row     ..., line 1, line 0 (A's stacks 0-3 from the left)
    A's strip   A's pack (or share, or call window), message, A's games

The screen has room for five lines of cards, the most the book allows (both rows
together hold at most 14 stacks, a row at most 13: 13 + 1 or 9 + 5 stacks make five
lines of four), at every size; so no card ever moves while its row grows. Every card
carries its index in two corners, one upright for each seat (the layout of
``hw.draw.card_view``): both players read every stack. The screen owns 14
cards: A's stack ``k`` is drawn by card ``k``, B's by card ``13 - k`` (the two rows
never need more than 14), moved into place when a row reaches it.

Borders: magenta flashes a tie (``hw.app.feedback``); blue outlines the column a seat
has selected (``hw.games.aggravation.keys``), each of its stacks labelled with the
button (1-4 from the seat's left, on the same pad row) that chooses it, upright for
that seat; white is a held tap (the stack tapped first, waiting for its partner);
orange a pending stack; light blue a coverable one when hints are on.

Each strip's left field tells its seat where it stands: ``Pack 26`` while it has
cards; in Aggravation, out of cards, ``Out! 400ms`` (the call window it has for a
call) and, while a tap is held, ``Call 250ms`` counting the window down; in
Frustration ``Share 22/10``: the seat's share and the target. The message line says
what ``hw.messages`` and ``hw.app.feedback`` say (in this game's words where needed:
"Call! A wins", "Target! CPU wins", "Scooping the rows"); LOCKED covers it while the
seat's pad is locked. The score reads "1/2 wins" (games won of the games the match
needs), as Speed's. The cards are in ``cards_layer``, which the app hides while
"Get ready..." shows.

Implementation Notes
--------------------

Drawing as in ``hw.games.grid.table``: a card is a face, two indices and four border
bars, text is glyph tiles (the layout of ``hw.draw.text``), each an opaque TileGrid
over a shared bitmap, one layer per pixel; :meth:`AggravationView.update` reads the
engine's views and touches only what changed, so a frame allocates nothing. Heap, not
the 26 stack positions, is the Pico's constraint, so the screen owns 14 cards (never
one per position) and no per-card or per-field objects: each card is nine TileGrids
straight in the scene (moving one is setting nine ``x``/``y``), each text field one
TileGrid, kept in flat lists; a card's colours are shared palettes it switches
between (black or red ink; one palette per border colour), as are the text fields'
(one per colour pair). No centre pip. Cards are redrawn first, a message one frame
later. Text is drawn at scale 1 (every supported screen is at most 320 wide). The
scene is built by ``hw.games.aggravation.scene``, whose code is forgotten once built.

**Software and Dependencies:** ``hw.draw.gfx``, ``hw.messages``;
``hw.games.aggravation.scene`` (the build: forgotten once built); reads
``engine.aggravation.AggravationGame`` views (``tops``, ``row_len``, ``packs``,
``shares``, ``pending``, ``coverable``, ``phase``, ``held``, ``hold_left``,
``call_ms``, ``target``, ``frustration``, ``scooping``, ``locked_at``, ``score``,
``why``, ``changes``, ``rules``) and ``game.controls``
(``hw.games.aggravation.keys.Controls``: the selections).
"""

from engine.aggravation import WHY_BOTH_CALL, WHY_CALL
from engine.cards import NO_CARD
from engine.compat import const
from engine.family import PLAY
from hw import messages
from hw.draw import gfx

_SLOTS = const(14)  # cards: both rows together never hold more stacks
LINES = const(5)  # lines of cards on the screen: the most both rows need
_ROWS = const(14)  # B's first position (engine.aggravation.ROW_BASE)
TILES = const(9)  # per card: face, A's rank, B's rank, A's suit, B's suit, four border bars
SELECTED = const(0x2F5BFF)  # a selected column: its stacks' borders and line labels (blue)
HELD = const(0xFFFFFF)  # a held tap's stack: white (orange and gold are too alike)
# Border colours, by the code a card keeps (EDGE, PENDING, HINT, FLASH, SELECTED, HELD).
MARKS = (gfx.EDGE, gfx.PENDING, gfx.HINT, gfx.FLASH, SELECTED, HELD)

# Messages: (text for A, text for B), by id: every hw.messages MSG_* id (in this
# game's words where the shared text is too long for the strip or says otherwise), then
# this game's own results after them, worded as every game words one (hw.messages: the
# same line for both seats, the winner named).
_WORDS = {
    messages.MSG_STUCK: messages.both(b"No match - dealing"),
    messages.MSG_PAUSED: messages.both(b"Paused - START"),
    messages.MSG_DEMO: messages.both(b"DEMO: press a key"),
}
_OWN = len(messages.MESSAGES)
MSG_CALL_A = _OWN  # replaces a game's result when A / B / the CPU called
MSG_TARGET_A = _OWN + 3  # ... when a share met the target (Frustration)
MSG_BOTH_CALLED = _OWN + 6
MSG_SCOOPING = _OWN + 7
MESSAGES = tuple(_WORDS.get(i, texts) for i, texts in enumerate(messages.MESSAGES)) + (
    messages.both(b"Call! A wins"),
    messages.both(b"Call! B wins"),
    messages.both(b"Call! CPU wins"),
    messages.both(b"Target! A wins"),
    messages.both(b"Target! B wins"),
    messages.both(b"Target! CPU wins"),
    messages.both(b"Both called: draw"),
    messages.both(b"Scooping the rows"),
)
del _WORDS
MESSAGE_WIDTH = const(18)  # the longest message (tests/test_fw_aggravation.py)
LEFT_WIDTH = const(11)  # "Share 26/10", "Call 350ms"
SCORE_WIDTH = const(8)  # "1/2 wins": games won of the games the match needs (as Speed)
LOCKED_TEXT = b" LOCKED "
# What a strip's left field shows: its kinds, and the words before the figures.
_PACK = const(0)
_OUT = const(1)
_CALLING = const(2)
_SHARE = const(3)
_LABELS = const((b"Pack ", b"Out! ", b"Call ", b"Share "))


def stack_x(geo, pos, player=-1):
    """The x of stack ``pos``'s card (B's row mirrored: its left is the screen's right;
    seen from B, ``player`` 1, the whole table turned half a turn)."""
    column = (pos % _ROWS) % 4
    if (pos >= _ROWS) != (player == 1):
        column = 3 - column
    return column * geo["cell"] + (geo["cell"] - geo["card_w"]) // 2


def stack_y(geo, pos, player=-1):
    """The y of stack ``pos``'s card (each row's line 0 at its owner's edge; the
    player's row at the bottom)."""
    line = (pos % _ROWS) // 4
    slot = line if (pos >= _ROWS) != (player == 1) else LINES - 1 - line
    return geo["top"] + slot * geo["pitch"]


def shown_text(field):
    """The text a field's TileGrid shows, blanks trimmed (a new ``str``: for tests)."""
    return "".join(chr(field[i] + gfx.FIRST_CHAR) for i in range(field.width)).strip()


class AggravationView:
    """The Aggravation scene for a ``width x height`` display; ``group`` is its root."""

    def __init__(self, width, height, glyphs, cards, player=-1):
        """``glyphs``: ``hw.draw.gfx.glyph_sheet()``; ``cards``: the sheets of
        ``hw.games.aggravation.scene.card_sheets``, which builds the scene; ``player``:
        the seat the table is seen from (link play: its row and strip at the bottom,
        every text upright; -1: both, facing each other)."""
        from hw.games.aggravation.scene import build

        self.player = player
        build(self, width, height, glyphs, cards)
        self.pos = bytearray(b"\xff" * _SLOTS)  # the stack each card shows (255: none)
        self.faces = bytearray(b"\xff" * _SLOTS)  # the card code each shows
        self.reds = bytearray(_SLOTS)
        self.marks = bytearray(_SLOTS)  # each card's border: an index of MARKS
        self.changes = -1
        self.picks = -1  # controls.changes drawn
        self.chosen = -1  # both selections drawn (see update)
        self.holds = -1  # both held taps drawn
        self.flash = 0
        self.hints = False
        self.lines = -1  # both rows' line counts drawn
        self.left = [-1, -1]  # each strip's left field drawn (see _left)
        self.score = [-1, -1]  # each strip's score drawn
        self.locked = bytearray(2)
        self.message = -1
        self.shown = bytearray(b"\xff\xff")  # the message id on each seat's line
        self.set_message(messages.MSG_NONE)

    def set_message(self, msg, lines=None):
        """Show message ``msg`` (an ``hw.messages`` MSG_* id, or one of this module's) to
        both players, or ``lines[seat]`` to each seat if given (``hw.app.feedback``'s notes)."""
        self.message = msg
        shown = self.shown
        for seat in range(2):
            line = msg if lines is None else lines[seat]
            if line != shown[seat]:
                shown[seat] = line
                text = MESSAGES[line][seat]
                _write(self.messages[seat], text, (MESSAGE_WIDTH - len(text)) // 2)

    def update(self, game, now, msg, hints, feedback=None):
        """Bring the scene up to date with ``game`` at time ``now`` (``feedback``: the
        app's ``hw.app.feedback.Feedback``: its notes' ids in ``lines``, its ``flash``)."""
        flash = feedback.flash if feedback is not None else 0
        controls = game.controls
        chosen = (controls.selection(game, 0, now) & 0xFF) | \
            (controls.selection(game, 1, now) & 0xFF) << 8
        holds = (game.held(0, now) & 0xFF) | (game.held(1, now) & 0xFF) << 8
        busy = False  # cards redrawn this frame: the message waits for the next
        if game.changes != self.changes or controls.changes != self.picks or \
                chosen != self.chosen or holds != self.holds or flash != self.flash or \
                hints != self.hints:
            self.changes = game.changes
            self.picks = controls.changes
            self.chosen = chosen
            self.holds = holds
            self.flash = flash
            self.hints = hints
            busy = self._cards(game, hints, flash, chosen, holds)
            self._labels(game, chosen)
        for seat in range(2):
            self._left(game, seat, now)
            score = game.score[seat] * 100 + game.rules.wins
            if score != self.score[seat]:
                self.score[seat] = score
                _figures(self.score_text[seat], True, b"", game.score[seat],
                         game.rules.wins, b" wins")
            locked = 1 if game.locked_at(seat, now) else 0
            if locked != self.locked[seat]:
                self.locked[seat] = locked
                self.lock_text[seat].hidden = not locked
        if busy:
            return
        if msg == messages.MSG_WIN_A or msg == messages.MSG_DEMO_WIN_A or \
                msg == messages.MSG_CPU_WIN_A:
            msg = MSG_CALL_A if game.why == WHY_CALL else MSG_TARGET_A  # else: a share
        elif msg == messages.MSG_WIN_B or msg == messages.MSG_DEMO_WIN_B:
            msg = MSG_CALL_A + 1 if game.why == WHY_CALL else MSG_TARGET_A + 1
        elif msg == messages.MSG_CPU_WIN_B:
            msg = MSG_CALL_A + 2 if game.why == WHY_CALL else MSG_TARGET_A + 2
        elif msg == messages.MSG_DRAW and game.why == WHY_BOTH_CALL:
            msg = MSG_BOTH_CALLED
        elif msg == messages.MSG_STUCK and game.scooping:
            msg = MSG_SCOOPING
        elif msg == messages.MSG_NONE or msg == messages.MSG_GO:  # quiet: a note may show
            self.set_message(msg, feedback.lines if feedback is not None else None)
            return
        self.set_message(msg)

    def _cards(self, game, hints, flash, chosen, holds):
        """Place, show and outline the stacks; True if a card was redrawn."""
        geo = self.geometry
        busy = False
        row_a = game.row_len[0]
        row_b = game.row_len[1]
        in_play = game.phase == PLAY
        pending = game.pending if in_play else 0
        coverable = game.coverable if in_play and hints else 0
        tops = game.tops
        tiles = self.tiles
        for v in range(_SLOTS):
            if v < row_a:
                pos = v
            elif _ROWS - 1 - v < row_b:
                pos = 2 * _ROWS - 1 - v
            else:
                pos = 255
            if pos != self.pos[v]:
                self.pos[v] = pos
                if pos == 255:
                    for k in range(TILES * v, TILES * v + TILES):
                        tiles[k].hidden = True
                    continue
                x = stack_x(geo, pos, self.player)
                y = stack_y(geo, pos, self.player)
                for k in range(TILES):
                    tile = tiles[TILES * v + k]
                    tile.x = x + self.dx[k]
                    tile.y = y + self.dy[k]
                    tile.hidden = False
                busy = True
            elif pos == 255:
                continue
            top = tops[pos]
            if top != self.faces[v]:
                self._show(v, top)
                busy = True
            owner = 1 if pos >= _ROWS else 0
            here = owner * 4 + (pos - owner * _ROWS) % 4  # as a selection names a column
            if (flash >> pos) & 1:
                mark = 3
            elif chosen & 0xFF == here or chosen >> 8 == here:
                mark = 4
            elif holds & 0xFF == pos or holds >> 8 == pos:
                mark = 5
            elif (pending >> pos) & 1:
                mark = 1
            elif (coverable >> pos) & 1:
                mark = 2
            else:
                mark = 0
            if mark != self.marks[v]:
                self.marks[v] = mark
                edge = self.edges[mark]
                for k in range(TILES * v + 5, TILES * v + TILES):
                    tiles[k].pixel_shader = edge
                busy = True
        lines = (row_a + 3) // 4 + ((row_b + 3) // 4) * 8
        if lines != self.lines:  # the thin line between the rows, where they meet
            self.lines = lines
            # B's lines fill slots 0.. from the top, A's slots ..4 from the bottom
            # (seen from B, the other way round)
            if self.player == 1:
                meet = (row_a + 3) // 4 + LINES - (row_b + 3) // 4
            else:
                meet = (row_b + 3) // 4 + LINES - (row_a + 3) // 4
            self.between.y = geo["top"] + meet * geo["pitch"] // 2 - (geo["gap"] + 1) // 2
        return busy

    def _show(self, v, card):
        """Show card code ``card`` on card ``v`` (a stack's top: never ``NO_CARD``)."""
        self.faces[v] = card
        tiles = self.tiles
        k = TILES * v + 1  # A's rank, B's rank, A's suit, B's suit
        value = card >> 2  # engine.cards.rank
        if tiles[k][0] != value:
            tiles[k][0] = value
            tiles[k + 1][0] = value
        value = card & 3  # engine.cards.suit
        if tiles[k + 2][0] != value:
            tiles[k + 2][0] = value
            tiles[k + 3][0] = value
        red = 1 if value == 1 or value == 2 else 0
        if red != self.reds[v]:
            self.reds[v] = red
            ink = self.red if red else self.black
            for i in range(k, k + 4):
                tiles[i].pixel_shader = ink

    def _labels(self, game, chosen):
        """Label the stacks of each seat's selected column with the buttons that choose them."""
        geo = self.geometry
        both = (chosen & 0xFF) == (chosen >> 8) and chosen & 0xFF != 0xFF
        for seat in range(2):
            picked = (chosen >> (8 * seat)) & 0xFF
            for line in range(4):
                label = self.labels[seat * 4 + line]
                k = (picked & 3) + 4 * line
                owner = picked >> 2
                if picked == 0xFF or k >= game.row_len[owner]:
                    label.hidden = True
                    continue
                pos = owner * _ROWS + k
                # both on one column: the bottom seat's label right of the other's
                shift = (4 if seat == (0 if self.player < 0 else self.player) else -4) \
                    if both else 0
                label.x = stack_x(geo, pos, self.player) + (geo["card_w"] - gfx.GLYPH_W) // 2 \
                    + shift
                label.y = stack_y(geo, pos, self.player) + (geo["card_h"] - gfx.GLYPH_H) // 2
                label.hidden = False

    def _left(self, game, seat, now):
        """The strip's left field: pack, share, or the call window (see the module doc)."""
        of = 0  # (one name at a time: a tuple assignment of three allocates on CircuitPython)
        if game.frustration:
            kind = _SHARE
            value = game.shares[seat]
            of = game.target
        elif game.packs[seat]:
            kind = _PACK
            value = game.packs[seat]
        else:
            value = game.hold_left(seat, now)
            if value > 0:
                kind = _CALLING
                value = (value + 9) // 10 * 10
            else:
                kind = _OUT
                value = game.call_ms
        if value > 9999:
            value = 9999
        key = kind * 100000000 + value * 10000 + of
        if key != self.left[seat]:
            self.left[seat] = key
            _figures(self.left_text[seat], False, _LABELS[kind], value, of,
                     b"ms" if kind == _CALLING or kind == _OUT else b"")

    def slot_of(self, pos):
        """The card (0-13) drawing stack ``pos``, or -1 (for tests and tools)."""
        for v in range(_SLOTS):
            if self.pos[v] == pos:
                return v
        return -1

    def shown_top(self, pos):
        """The card code shown at stack ``pos`` (``NO_CARD`` where no card is drawn)."""
        v = self.slot_of(pos)
        return NO_CARD if v < 0 else self.faces[v]

    def border_of(self, pos):
        """The border colour of stack ``pos``'s card (-1: not drawn)."""
        v = self.slot_of(pos)
        return -1 if v < 0 else MARKS[self.marks[v]]


def _put(field, i, code):
    tile = code - gfx.FIRST_CHAR
    if field[i] != tile:
        field[i] = tile


def _write(field, text, start):
    """Show ``text`` (bytes) from column ``start``, blanks elsewhere, without allocating."""
    n = len(text)
    for i in range(field.width):
        k = i - start
        _put(field, i, text[k] if 0 <= k < n else 32)


def _figures(field, right, label, value, of, unit):
    """Write ``label``, ``value``, ``/of`` if ``of``, then ``unit`` into ``field``, at its
    left or (``right``) its right, blanks elsewhere, without allocating."""
    n = len(label) + _digits(value) + len(unit)
    if of:
        n += 1 + _digits(of)
    width = field.width
    col = width - n if right and n < width else 0
    for i in range(col):
        _put(field, i, 32)
    for k in range(len(label)):
        if col + k < width:
            _put(field, col + k, label[k])
    col = _put_int(field, col + len(label), value)
    if of:
        _put(field, col, 47)  # "/"
        col = _put_int(field, col + 1, of)
    for i in range(col, width):
        _put(field, i, unit[i - col] if i - col < len(unit) else 32)


def _digits(value):
    n = 1
    while value >= 10:
        value //= 10
        n += 1
    return n


def _put_int(field, col, value):
    """Write ``value`` from column ``col``; return the column after it."""
    digits = _digits(value)
    for k in range(digits - 1, -1, -1):
        if col + k < field.width:
            _put(field, col + k, 48 + value % 10)
        value //= 10
    return col + digits
