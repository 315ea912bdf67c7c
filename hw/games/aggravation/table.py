"""Aggravation's screen: two rows that grow from their owners' edges, in lines of four.

Seat A sits at the bottom edge, seat B at the top edge; all of B's text is upside
down. Each row is drawn in *lines* of four stacks from its owner's left, line 0 at
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
``hw.draw.card_view``): both players read every stack. The screen owns :data:`SLOTS`
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
"Call! You win!", "Scooping the rows"); LOCKED covers it while the seat's pad is
locked.

Implementation Notes
--------------------

Drawing as in ``hw.games.grid.table`` (a card is a face, two indices and four
border bars, opaque TileGrids over shared bitmaps; ``hw.draw.text`` glyph tiles; one
layer per pixel): :meth:`AggravationView.update` reads the engine's views and touches
only what changed, so a frame allocates nothing (moving a card or a label is setting a
group's ``x``/``y``). Heap, not the 26 stack positions, is the Pico's constraint: 14
cards are allocated, kept in flat lists rather than one ``CardView`` object each (the
objects' attributes would cost kilobytes), with one palette for a card's face and
indices; no centre pip. The line labels are single glyph tiles. Cards are redrawn
first, a message one frame later.

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.text``,
``hw.draw.card_view``, ``hw.messages``; reads ``engine.aggravation.AggravationGame``
views (``tops``, ``row_len``, ``packs``, ``shares``, ``pending``, ``coverable``,
``phase``, ``held``, ``hold_left``, ``call_ms``, ``target``, ``frustration``,
``scooping``, ``locked_at``, ``score``, ``why``, ``changes``, ``rules``) and
``game.controls`` (``hw.games.aggravation.keys.Controls``: the selections).
"""

import displayio

from engine.aggravation import WHY_BOTH_CALL, WHY_CALL
from engine.cards import NO_CARD
from engine.family import PLAY
from hw import messages
from hw.draw import card_view, gfx
from hw.draw.card_view import Shapes
from hw.draw.text import LEFT, RIGHT, Text

SLOTS = 14  # card views: both rows together never hold more stacks
LINES = 5  # lines of cards on the screen: the most both rows need
ROWS = 14  # B's first position (engine.aggravation.ROW_BASE)
SELECTED = 0x2F5BFF  # a selected column: its stacks' borders and its line labels (blue)
HELD = gfx.WHITE  # a held tap's stack (orange and gold are too alike)

# Messages: (text for A, text for B), by id: hw.messages' (reworded where too long for
# the strip), then this game's own from _OWN: call won by A / B told to each seat,
# the same told alike (the demo), then the same four for a share that met the target,
# then "both called" and the scooping pause.
_WORDS = {
    messages.MSG_STUCK: (b"No match - dealing", b"No match - dealing"),
    messages.MSG_PAUSED: (b"Paused - START", b"Paused - START"),
    messages.MSG_DEMO: (b"DEMO: press a key", b"DEMO: press a key"),
    messages.MSG_CPU_WIN_A: (b"You win the game!", b"Player wins"),
    messages.MSG_CPU_MATCH_A: (b"You win the match!", b"Player wins match"),
}
_OWN = len(messages.MESSAGES)
MESSAGES = tuple(_WORDS.get(i, texts) for i, texts in enumerate(messages.MESSAGES)) + (
    (b"Call! You win!", b"A called: A wins"), (b"B called: B wins", b"Call! You win!"),
    (b"A called: A wins", b"A called: A wins"), (b"B called: B wins", b"B called: B wins"),
    (b"Target! You win!", b"A hit the target"), (b"B hit the target", b"Target! You win!"),
    (b"A hit the target", b"A hit the target"), (b"B hit the target", b"B hit the target"),
    (b"Both called: draw", b"Both called: draw"), (b"Scooping the rows", b"Scooping the rows"),
)
del _WORDS
MESSAGE_WIDTH = 18  # the longest message
LEFT_WIDTH = 11  # "Share 26/10", "Call 350ms"
SCORE_WIDTH = 7  # "Won 1/2"
LOCKED_TEXT = b" LOCKED "
# What a strip's left field shows (its kinds, then the texts around the figures).
_PACK, _OUT, _CALLING, _SHARE = 0, 1, 2, 3
_LABELS = (b"Pack ", b"Out! ", b"Call ", b"Share ")


def agg_layout(width, height):
    """Return the geometry (a dict of ints) of Aggravation's screen on ``width x height``."""
    strip = max(12, height // 12)
    gap = max(2, width // 80)
    avail = height - 2 * strip
    pitch = avail // LINES
    cell = width // 4
    card_w = cell - 2 * gap
    card_h = pitch - gap
    return {
        "width": width, "height": height, "strip": strip, "gap": gap, "pitch": pitch,
        "top": strip + (avail - LINES * pitch + gap) // 2, "cell": cell, "card_w": card_w,
        "card_h": card_h, "scale": card_view.card_layout(card_w, card_h, pip_scale=0)["rank_scale"],
        "text_scale": max(1, min(strip // 12, width // 240)), "margin": max(2, width // 60),
    }


def stack_x(geo, pos):
    """The x of stack ``pos``'s card (B's row mirrored: its left is the screen's right)."""
    column = (pos % ROWS) % 4
    if pos >= ROWS:
        column = 3 - column
    return column * geo["cell"] + (geo["cell"] - geo["card_w"]) // 2


def stack_y(geo, pos):
    """The y of stack ``pos``'s card (each row's line 0 at its owner's edge)."""
    line = (pos % ROWS) // 4
    slot = line if pos >= ROWS else LINES - 1 - line
    return geo["top"] + slot * geo["pitch"]


def card_sheets(width, height):
    """Return ``(ranks, suits)`` for this screen's cards (``hw.draw.card_view``): no
    centre pip (a selected column's labels go there; 14 cards' pips cost heap)."""
    geo = agg_layout(width, height)
    return card_view.card_sheets(geo["card_w"], geo["card_h"])[:2]


class AggravationView:
    """The Aggravation scene for a ``width x height`` display; ``group`` is its root."""

    def __init__(self, width, height, glyphs, cards):
        """``glyphs``: ``hw.draw.gfx.glyph_sheet()``; ``cards``: :func:`card_sheets`."""
        geo = agg_layout(width, height)
        self.geometry = geo
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        strip = geo["strip"]
        for seat in range(2):
            box, _ = gfx.panel(0, height - strip if seat == 0 else 0, width, strip, gfx.PANEL,
                               cell=4)
            self.group.append(box)
        self.between = displayio.TileGrid(gfx.solid(width, 1), pixel_shader=gfx.palette(gfx.DIM))
        self.group.append(self.between)

        self._build_cards(geo, cards)
        self.pos = bytearray(b"\xff" * SLOTS)  # the stack each card shows (255: none)

        label_ink = gfx.palette(SELECTED, gfx.WHITE)  # the line labels: a button's number
        self.labels = []  # seat A's lines 0-3, then B's
        for seat in range(2):
            for line in range(4):
                label = displayio.TileGrid(glyphs, pixel_shader=label_ink, tile_width=gfx.GLYPH_W,
                                           tile_height=gfx.GLYPH_H,
                                           default_tile=49 + line - gfx.FIRST_CHAR)
                label.flip_x = label.flip_y = seat == 1
                label.hidden = True
                self.labels.append(label)
                self.group.append(label)

        ts = geo["text_scale"]
        margin = geo["margin"]
        cell = gfx.GLYPH_W * ts
        self.left_text = []
        self.score_text = []
        self.lock_text = []
        self.messages = []
        for seat in range(2):
            flip = seat == 1
            y = height - strip // 2 if seat == 0 else strip // 2
            sign = 1 if seat == 0 else -1
            left = margin if seat == 0 else width - margin  # the reader's left
            right = width - margin if seat == 0 else margin
            mid = (left + sign * LEFT_WIDTH * cell + right - sign * SCORE_WIDTH * cell) // 2
            fields = (
                Text(glyphs, LEFT_WIDTH, gfx.TEXT, ts, flip, (0.0, 0.5), (left, y), LEFT,
                     gfx.PANEL),
                Text(glyphs, SCORE_WIDTH, gfx.DIM, ts, flip, (1.0, 0.5), (right, y), RIGHT,
                     gfx.PANEL),
                Text(glyphs, MESSAGE_WIDTH, gfx.GOLD, ts, flip, (0.5, 0.5), (mid, y),
                     background=gfx.PANEL),
                Text(glyphs, len(LOCKED_TEXT), gfx.GOLD, ts, flip, (0.5, 0.5), (mid, y),
                     background=gfx.LOCKED),
            )
            fields[3].set(LOCKED_TEXT)
            fields[3].hidden = True
            for text in fields:
                self.group.append(text.group)
            self.left_text.append(fields[0])
            self.score_text.append(fields[1])
            self.messages.append(fields[2])
            self.lock_text.append(fields[3])

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

    def _build_cards(self, geo, cards):
        """The :data:`SLOTS` cards, hidden: each a group of a face, two indices (rank and
        suit, one upright for each seat, ``hw.draw.card_view``'s layout) over one
        palette, and four border bars over another. Kept in flat lists, not one object
        per card: 14 cards' Python objects would cost kilobytes of the Pico's heap."""
        w = geo["card_w"]
        h = geo["card_h"]
        b = gfx.BORDER
        shapes = Shapes(w, h, cards[0], cards[1])
        layout = shapes.layout
        single = layout.get("single", False)  # too small for two indices: A's only
        self.groups = []
        self.inks = []  # [FACE, ink colour] per card: the face and the indices
        self.edges = []  # the border's colour per card
        self.index_tiles = []  # per card: rank for A, rank for B, suit for A, suit for B
        self.faces = bytearray(b"\xff" * SLOTS)  # the card code each shows
        self.reds = bytearray(SLOTS)
        self.borders = [gfx.EDGE] * SLOTS
        for _ in range(SLOTS):
            group = displayio.Group()
            group.hidden = True
            ink = gfx.palette(gfx.FACE, gfx.BLACK)
            group.append(displayio.TileGrid(shapes.face, pixel_shader=ink, x=b, y=b))
            for sheet, blank, (tx, ty, tw, th) in (
                    (shapes.ranks, gfx.BLANK_RANK, layout["rank"]),
                    (shapes.suits, gfx.BLANK_SUIT, layout["suit"])):
                upright = displayio.TileGrid(sheet, pixel_shader=ink, tile_width=tw,
                                             tile_height=th, default_tile=blank, x=tx, y=ty)
                group.append(upright)
                self.index_tiles.append(upright)
                if single:
                    self.index_tiles.append(upright)
                    continue
                turned = displayio.TileGrid(sheet, pixel_shader=ink, tile_width=tw,
                                            tile_height=th, default_tile=blank,
                                            x=w - tx - tw, y=h - ty - th)
                turned.flip_x = turned.flip_y = True
                group.append(turned)
                self.index_tiles.append(turned)
            edge = gfx.palette(gfx.EDGE)
            for bitmap, ex, ey in ((shapes.hbar, b, 0), (shapes.hbar, b, h - b),
                                   (shapes.vbar, 0, b), (shapes.vbar, w - b, b)):
                group.append(displayio.TileGrid(bitmap, pixel_shader=edge, x=ex, y=ey))
            self.groups.append(group)
            self.inks.append(ink)
            self.edges.append(edge)
            self.group.append(group)

    def set_message(self, msg, lines=None):
        """Show message ``msg`` (an ``hw.messages`` MSG_* id, or one of this module's) to
        both players, or ``lines[seat]`` to each seat if given (``hw.app.feedback``'s notes)."""
        self.message = msg
        shown = self.shown
        for seat in range(2):
            line = msg if lines is None else lines[seat]
            if line != shown[seat]:
                shown[seat] = line
                self.messages[seat].set(MESSAGES[line][seat])

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
                _figures(self.score_text[seat], b"Won ", game.score[seat], game.rules.wins,
                         b"")
            locked = 1 if game.locked_at(seat, now) else 0
            if locked != self.locked[seat]:
                self.locked[seat] = locked
                self.lock_text[seat].hidden = not locked
        if busy:
            return
        if msg == messages.MSG_WIN_A or msg == messages.MSG_WIN_B or \
                msg == messages.MSG_DEMO_WIN_A or msg == messages.MSG_DEMO_WIN_B:
            own = _OWN if game.why == WHY_CALL else _OWN + 4  # else: a share
            if msg == messages.MSG_DEMO_WIN_A or msg == messages.MSG_DEMO_WIN_B:
                own += 2
            if msg == messages.MSG_WIN_B or msg == messages.MSG_DEMO_WIN_B:
                own += 1
            msg = own
        elif msg == messages.MSG_DRAW and game.why == WHY_BOTH_CALL:
            msg = _OWN + 8
        elif msg == messages.MSG_STUCK and game.scooping:
            msg = _OWN + 9
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
        for v in range(SLOTS):
            group = self.groups[v]
            if v < row_a:
                pos = v
            elif ROWS - 1 - v < row_b:
                pos = 2 * ROWS - 1 - v
            else:
                pos = 255
            if pos != self.pos[v]:
                self.pos[v] = pos
                if pos == 255:
                    group.hidden = True
                    continue
                group.x = stack_x(geo, pos)
                group.y = stack_y(geo, pos)
                group.hidden = False
                busy = True
            elif pos == 255:
                continue
            top = tops[pos]
            if top != self.faces[v]:
                self._show(v, top)
                busy = True
            owner = 1 if pos >= ROWS else 0
            here = owner * 4 + (pos - owner * ROWS) % 4  # as a selection names a column
            if (flash >> pos) & 1:
                color = gfx.FLASH
            elif chosen & 0xFF == here or chosen >> 8 == here:
                color = SELECTED
            elif holds & 0xFF == pos or holds >> 8 == pos:
                color = HELD
            elif (pending >> pos) & 1:
                color = gfx.PENDING
            elif (coverable >> pos) & 1:
                color = gfx.HINT
            else:
                color = gfx.EDGE
            if color != self.borders[v]:
                self.borders[v] = color
                self.edges[v][0] = color
                busy = True
        lines = (row_a + 3) // 4 + ((row_b + 3) // 4) * 8
        if lines != self.lines:  # the thin line between the rows, where they meet
            self.lines = lines
            # B's lines fill slots 0.. from the top, A's slots ..4 from the bottom
            meet = (row_b + 3) // 4 + LINES - (row_a + 3) // 4
            self.between.y = geo["top"] + meet * geo["pitch"] // 2 - (geo["gap"] + 1) // 2
        return busy

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
                pos = owner * ROWS + k
                shift = (4 if seat == 0 else -4) if both else 0  # both on one column
                label.x = stack_x(geo, pos) + (geo["card_w"] - gfx.GLYPH_W) // 2 + shift
                label.y = stack_y(geo, pos) + (geo["card_h"] - gfx.GLYPH_H) // 2
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
            _figures(self.left_text[seat], _LABELS[kind], value, of,
                     b"ms" if kind == _CALLING or kind == _OUT else b"")

    def _show(self, v, card):
        """Show card code ``card`` on card ``v`` (a stack's top: never ``NO_CARD``)."""
        self.faces[v] = card
        tiles = self.index_tiles
        k = 4 * v
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
            self.inks[v][1] = gfx.RED if red else gfx.BLACK

    def slot_of(self, pos):
        """The card (0-13) drawing stack ``pos``, or -1 (for tests and tools)."""
        for v in range(SLOTS):
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
        return -1 if v < 0 else self.borders[v]


def _figures(text, label, value, of, unit):
    """Write ``label``, ``value``, ``/of`` if ``of``, then ``unit`` into ``text``, at its
    left or (a RIGHT field) its right, blanks elsewhere, without allocating."""
    n = len(label) + _digits(value) + len(unit)
    if of:
        n += 1 + _digits(of)
    width = text.width
    col = width - n if text.align == RIGHT and n < width else 0
    for i in range(col):
        text.put(i, 32)
    text.write(col, label)
    col = _put_int(text, col + len(label), value)
    if of:
        text.put(col, 47)  # "/"
        col = _put_int(text, col + 1, of)
    text.write(col, unit)
    for i in range(col + len(unit), width):
        text.put(i, 32)


def _digits(value):
    n = 1
    while value >= 10:
        value //= 10
        n += 1
    return n


def _put_int(text, col, value):
    """Write ``value`` from column ``col``; return the column after it."""
    digits = _digits(value)
    for k in range(digits - 1, -1, -1):
        if col + k < text.width:
            text.put(col + k, 48 + value % 10)
        value //= 10
    return col + digits
