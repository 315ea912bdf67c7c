"""The game screen: the 2x4 table, pack counts, score, locks and messages.

Seat A sits at the bottom edge, seat B at the top edge, facing each other; B's row
and all of B's text are drawn upside down. From top to bottom::

    B's strip   (B's pack count at B's left, LOCKED, the score)        upside down
    B's row     positions 7 6 5 4 (B's own left is the screen's right) turned
    messages    one line for B (upside down), one line for A
    A's row     positions 0 1 2 3
    A's strip   (A's pack count, LOCKED, the score "A 1 - 0 B  first to 2")

Every card carries its index in two corners, one upright for each seat
(``hw.draw.card_view``): both players read every card; each row's text is for its seat.
The score reads the reader's own letter first ("B 0 - 1 A" on B's strip); vs the
CPU, seat B is "CPU".

Drawing design (what a refresh costs is the pixels it redraws times the layers each
pixel passes through):

* a card is a border of four thin TileGrids (its colour: one palette entry, so a
  pending/hint/flash mark redraws ~2 px wide strips, not the card), a face (one
  opaque TileGrid over a shared 1-bit bitmap), and two indices (rank and suit, one
  tile each, the second pair turned 180 degrees) and a centre pip, over
  ``hw.draw.gfx.rank_sheet`` / ``suit_sheet`` (pre-scaled: no scaled group; at most
  :data:`GLYPH_SCALE_MAX`: the pixels a cover redraws are what it costs), opaque,
  sharing the card's palette (its colour). Showing another card sets at most five tile
  indices and one palette entry: the refresh redraws those tiles only, each pixel
  from one layer. Row B's cards are the same, their pip turned;
* all text is ``hw.draw.text.Text`` (glyph tiles over one prebuilt glyph sheet, each field
  an opaque box in the colour below it: one layer per pixel): a pack count going down
  redraws a digit cell; LOCKED is a red box shown or hidden; messages change only the
  cells that differ, and never in the frame that redraws cards: a game's last cover
  is drawn first, its result message one frame (a millisecond or two) later.

Link play (``hw.app.linked``) draws the table from one seat (``player`` 0 or 1): that
seat's row and strip at the bottom, the other's at the top, the whole table turned
for seat B (its row 4 5 6 7 from the left), and everything upright; ``player`` -1 is
the shared screen above.

The scene is built when the table is shown (``hw.app`` builds one screen at a time)
and :meth:`TableView.update` reads the engine's views and touches only what changed
since the last frame: steady-state frames allocate nothing. Border colours: orange
marks a pending position, light blue a coverable one when hints are on, magenta a
flashing one (a tie, see ``hw.app.feedback``, which also gives each seat's line a note). In attract
mode (``hw.app``) the message line carries the "DEMO - press any button" banner
(``MSG_DEMO``; see ``DEMO_OF``).

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.text``; reads
``engine.grid.GridGame`` views (``tops``, ``packs``, ``pending``, ``coverable``,
``phase``, ``locked_at``, ``score``, ``changes``) and, optionally, a
``hw.app.feedback.Feedback`` (``lines``, ``flash``, ``cpu``); ``hw.messages`` (the texts).
"""

import displayio

from engine.cards import NO_CARD
from engine.family import PLAY
from hw.draw import gfx
from hw.draw import card_view
from hw.draw.card_view import CardView, Shapes
from hw.draw.text import LEFT, RIGHT, Text
from hw.messages import (
    LOCKED_AT, LOCKED_TEXT, MESSAGES, MESSAGE_WIDTH, MSG_NONE, PACK_AT, PACK_TEXT, SCORE_WIDTH,
    write_score,
)


def table_layout(width, height):
    """Return the geometry (a dict of ints) of the table on a ``width x height`` screen."""
    strip = max(12, height // 12)
    middle = max(24, height // 6)
    gap = max(2, width // 80)
    card_h = (height - 2 * strip - middle) // 2 - 2 * gap
    card_w = width // 4 - 2 * gap
    # Two corner indices and a pip, as large as fit (hw.draw.card_view.card_layout).
    scale = card_view.card_layout(card_w, card_h)["rank_scale"]
    return {
        "width": width, "height": height, "strip": strip, "middle": middle, "gap": gap,
        "card_w": card_w, "card_h": card_h, "scale": scale,
        "text_scale": max(1, min(strip // 12, width // 240)),
        "message_scale": max(1, min(middle // 24, width // 200)),
    }


def card_places(geo):
    """Return the (x, y) of each position's card, positions 0-7 (row B turned)."""
    width = geo["width"]
    cell = width // 4
    gap = geo["gap"]
    top = geo["strip"] + gap
    bottom = geo["height"] - geo["strip"] - gap - geo["card_h"]
    places = []
    for pos in range(8):
        column = pos if pos < 4 else 7 - pos  # B's own left (4) is the screen's right
        x = column * cell + (cell - geo["card_w"]) // 2
        places.append((x, bottom if pos < 4 else top))
    return places


def card_sheets(width, height):
    """Return ``(ranks, suits, pips)``: the sheets for a ``width x height`` table's cards
    (``hw.draw.card_view.card_sheets``; ``pips`` None if the cards have no room for one)."""
    geo = table_layout(width, height)
    return card_view.card_sheets(geo["card_w"], geo["card_h"])


class TableView:
    """The game scene for a ``width x height`` display; ``group`` is its root."""

    def __init__(self, width, height, glyphs, cards, player=-1):
        """``glyphs``: ``hw.draw.gfx.glyph_sheet()``; ``cards``: :func:`card_sheets` for
        this screen (made once by the caller and kept: they do not change); ``player``:
        the seat the table is seen from (-1: both, facing each other)."""
        geo = table_layout(width, height)
        self.player = player
        self.geometry = geo
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        strip = geo["strip"]
        for seat in range(2):
            y = height - strip if seat == 0 else 0
            box, _ = gfx.panel(0, y, width, strip, gfx.PANEL, cell=4)
            self.group.append(box)

        shapes = Shapes(geo["card_w"], geo["card_h"], cards[0], cards[1],
                        cards[2] if len(cards) > 2 else None)
        self.cards_layer = displayio.Group()  # hidden by hw.app while "Get ready..." shows
        self.group.append(self.cards_layer)
        self.cards = []
        for pos, (x, y) in enumerate(card_places(geo)):
            if player == 1:  # seen from B: the table turned half a turn
                x = width - x - geo["card_w"]
                y = height - y - geo["card_h"]
            card = CardView(shapes, x, y, geo["card_w"], geo["card_h"], geo["scale"],
                            flipped=pos >= 4 and player < 0)
            self.cards.append(card)
            self.cards_layer.append(card.group)

        ts = geo["text_scale"]
        ms = geo["message_scale"]
        margin = max(4, width // 40)
        self.packs_text = []
        self.won_text = []  # the score lines
        self.lock_text = []
        self.messages = []
        mid = height // 2
        quarter = geo["middle"] // 4
        cell = gfx.GLYPH_W * ts
        for seat in range(2):
            flip = seat == 1 and player < 0
            near = seat == 0 if player < 0 else seat == player  # at the bottom edge
            y = height - strip // 2 if near else strip // 2
            left = margin if not flip else width - margin  # the reader's left
            right = width - margin if not flip else margin
            lock_x = left + LOCKED_AT * cell if not flip else left - LOCKED_AT * cell
            pack = Text(glyphs, len(PACK_TEXT) + 1, gfx.TEXT, ts, flip, (0.0, 0.5), (left, y),
                        LEFT, gfx.PANEL)
            pack.set(PACK_TEXT)
            won = Text(glyphs, SCORE_WIDTH, gfx.DIM, ts, flip, (1.0, 0.5), (right, y), RIGHT,
                       gfx.PANEL)
            lock = Text(glyphs, len(LOCKED_TEXT), gfx.GOLD, ts, flip, (0.0, 0.5),
                        (lock_x, y), background=gfx.LOCKED)
            lock.set(LOCKED_TEXT)
            lock.hidden = True
            message = Text(glyphs, MESSAGE_WIDTH, gfx.GOLD, ms, flip, (0.5, 0.5),
                           (width // 2, mid + quarter if near else mid - quarter),
                           background=gfx.FELT)
            for text in (pack, won, lock, message):
                self.group.append(text.group)
            self.packs_text.append(pack)
            self.won_text.append(won)
            self.lock_text.append(lock)
            self.messages.append(message)

        self.changes = -1
        self.hints = False
        self.wins = -1
        self.cpu = False
        self.flash = 0  # the positions drawn lit
        self.score = bytearray(2)
        self.packs = bytearray(2)
        self.locked = bytearray(2)
        self.message = -1
        self.lines = bytearray(b"\xff\xff")  # the message id on each seat's line
        self.set_message(MSG_NONE)
        self._write_scores(1)

    def set_message(self, msg, lines=None):
        """Show message ``msg`` (an ``MSG_*`` id) to both players, or ``lines[seat]``
        to each seat if given (``hw.app.feedback``: a note for one seat)."""
        self.message = msg
        for seat in range(2):
            shown = msg if lines is None else lines[seat]
            if shown != self.lines[seat]:
                self.lines[seat] = shown
                self.messages[seat].set(MESSAGES[shown][seat])

    def _write_scores(self, wins):
        """Write both score lines: "<me> n - n <them>  first to <wins>"."""
        for seat in range(2):
            write_score(self.won_text[seat], seat, self.cpu, self.score, wins)

    def _color(self, pos, top, pending, coverable, flash):
        """The border colour of position ``pos`` showing ``top``."""
        if top == NO_CARD:
            return gfx.EMPTY
        if (flash >> pos) & 1:
            return gfx.FLASH
        if (pending >> pos) & 1:
            return gfx.PENDING
        if (coverable >> pos) & 1:
            return gfx.HINT
        return gfx.EDGE

    def update(self, game, now, msg, hints, feedback=None):
        """Bring the scene up to date with ``game`` at time ``now`` (and with
        ``feedback``, a ``hw.app.feedback.Feedback``, if given: notes, flashes, the CPU)."""
        wins = game.rules.wins
        flash = 0
        cpu = False
        if feedback is not None:
            flash = feedback.flash
            cpu = feedback.cpu
        busy = False  # cards redrawn this frame: the message waits for the next
        if game.changes != self.changes or hints != self.hints or wins != self.wins or \
                cpu != self.cpu:
            self.changes = game.changes
            self.hints = hints
            tops = game.tops
            pending = game.pending
            coverable = game.coverable if game.phase == PLAY and hints else 0
            cards = self.cards
            for pos in range(8):  # calls only for what changed: a call costs ~30 us
                top = tops[pos]
                card = cards[pos]
                if top != card.card:
                    card.show(top)
                    busy = True
                color = self._color(pos, top, pending, coverable, self.flash)
                if color != card.border:
                    card.mark(color)
                    busy = True
            rescore = wins != self.wins or cpu != self.cpu
            for seat in range(2):
                count = game.packs[seat]
                if count != self.packs[seat]:
                    self.packs[seat] = count
                    self.packs_text[seat].number(PACK_AT, count, 2)
                score = game.score[seat]
                if score != self.score[seat]:
                    self.score[seat] = score
                    rescore = True
            self.wins = wins
            self.cpu = cpu
            if rescore:
                self._write_scores(wins)
        if flash != self.flash and not busy:  # a flash waits for a frame without cards
            self.flash = flash
            tops = game.tops
            pending = game.pending
            coverable = game.coverable if game.phase == PLAY and hints else 0
            for pos in range(8):
                card = self.cards[pos]
                color = self._color(pos, tops[pos], pending, coverable, flash)
                if color != card.border:
                    card.mark(color)
            busy = True
        for seat in range(2):
            locked = 1 if game.locked_at(seat, now) else 0
            if locked != self.locked[seat]:
                self.locked[seat] = locked
                self.lock_text[seat].hidden = not locked
        if not busy:
            self.set_message(msg, feedback.lines if feedback is not None else None)

    def shown_top(self, pos):
        """Return the card code shown at ``pos`` (for tests and the emulator)."""
        return self.cards[pos].card
