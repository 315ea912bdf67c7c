"""The shared-row game's screen: one row of piles, each player's active card, counts, locks.

Seat A sits at the bottom edge, seat B at the top edge; all of B's text and cards
are drawn upside down. From top to bottom::

    B's strip   (B's pack count, LOCKED, the score)                    upside down
    B's band    B's active card (big, at B's left) and B's message line upside down
    the row     piles 0 .. n-1 from A's left; each pile is drawn twice, edge to edge:
                its upper half turned for B, its lower half upright for A
    A's band    A's active card (at A's left) and A's message line
    A's strip   (A's pack count, LOCKED, the score "A 1 - 0 B  first to 2")

So every card on the table reads the right way up from both seats, as the 2x4
game's rows do. Link play (``hw.app.linked``) draws it from one seat (``player`` 0 or
1): that seat's band and strip at the bottom, the row from its own left, both halves
of each pile and every text upright. The row holds 3, 4 or 6 piles (``game.piles``): the view keeps six
pile places, at the six-pile width, and spreads the ones in use evenly across the
screen when the pile count changes (a match of another variation), hiding the rest.

Drawing follows ``hw.games.grid.table`` (its module doc has the design): cards are
``hw.draw.card_view.CardView`` over one ``Shapes`` per card size and the sheets of
:func:`card_sheets` (made once, at one glyph scale whatever the pile count, so the
sheets survive a change of variation), text is ``hw.draw.text.Text``, and
:meth:`RowView.update` touches only what changed since the last frame: steady-state
and press frames allocate nothing. Pile borders: light blue marks a pile someone can
play on when hints are on. A tie (both players on one pile in one tick) is told on
the message line, "Tie - nobody plays" (or "Tie - coin toss"), for :data:`TIE_MS`
when no other message is due; the messages are those of ``hw.messages``, and each
seat's line also shows that seat's notes from ``hw.app.feedback`` ("Not a match!",
"Locked: wait", who won a coin toss).

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.text``,
``hw.draw.card_view``, ``hw.messages``; reads ``engine.row.RowGame``
views (``piles``, ``tops``, ``active``, ``packs``, ``coverable``, ``phase``,
``locked_at``, ``score``, ``ties``, ``changes``, ``rules``).
"""

import displayio

from engine.cards import NO_CARD
from engine.compat import const
from engine.family import PLAY
from engine.family_rules import TIE_COIN
from engine.ticks import ticks_diff
from hw.draw import gfx
from hw.draw.card_view import GLYPH_SCALE_MAX, CardView, Shapes, card_glyphs_h, suit_scale
from hw.messages import (
    LOCKED_AT, LOCKED_TEXT, MESSAGE_WIDTH, MESSAGES, MSG_DEMO, MSG_GO, MSG_NONE, MSG_TIE, PACK_AT,
    PACK_TEXT, SCORE_WIDTH, write_score,
)
from hw.draw.text import LEFT, RIGHT, Text

MAX_PILES = 6  # engine.row.MAX_PILES (not imported: the view needs no engine module)
TIE_MS = 900  # how long "Tie" stays on the message line
_TIE_TEXTS = const((b"Tie - nobody plays", b"Tie - coin toss"))  # by rules.tie (replay, coin)
_TIE_SHOWN = const(0xFE)  # in ``shown``: a seat's line tells the tie (not a MSG_* id)


def _fits(scale, card_w, card_h):
    """True if a card's rank and suit at ``scale`` fit a ``card_w x card_h`` card."""
    inner_w = card_w - 2 * gfx.BORDER - 2
    inner_h = card_h - 2 * gfx.BORDER - 2
    return card_glyphs_h(scale) <= inner_h and gfx.RANK_TILE_W * scale <= inner_w


def row_layout(width, height):
    """Return the geometry (a dict of ints) of the row game on a ``width x height`` screen."""
    strip = max(12, height // 12)
    gap = max(2, width // 80)
    avail = height - 2 * strip
    pile_w = width // MAX_PILES - 2 * gap  # the six-pile width, whatever the variation
    # The largest glyph scale whose cards fit: two pile halves, and in each band (an
    # active card and a message line) one card with a gap above and below it.
    scale = GLYPH_SCALE_MAX
    while scale > 1:
        need = card_glyphs_h(scale) + 2 * gfx.BORDER + 2
        if 4 * need + 6 * gap <= avail and _fits(scale, pile_w, need):
            break
        scale -= 1
    need = card_glyphs_h(scale) + 2 * gfx.BORDER + 2
    half = need + max(0, avail - 4 * need - 6 * gap) // 4  # one pile half
    band = (avail - 2 * half - 2 * gap) // 2
    active_h = band - 2 * gap if band - 2 * gap >= need else band - 2  # a small screen
    active_w = min(pile_w + pile_w // 3, width // 4)
    return {
        "width": width, "height": height, "strip": strip, "gap": gap, "band": band,
        "half": half, "pile_w": pile_w, "active_w": active_w, "active_h": active_h,
        "scale": scale, "text_scale": max(1, min(strip // 12, width // 240)),
        "margin": max(4, width // 40),
    }


def pile_xs(geo, piles):
    """Return the x of each pile's cards for ``piles`` piles, from A's left."""
    cell = geo["width"] // piles
    return tuple(i * cell + (cell - geo["pile_w"]) // 2 for i in range(piles))


def card_sheets(width, height):
    """Return ``(rank sheet, suit sheet)`` at the scale of the row game's screen."""
    scale = row_layout(width, height)["scale"]
    return gfx.rank_sheet(None, scale), gfx.suit_sheet(suit_scale(scale))


class RowView:
    """The row game's scene for a ``width x height`` display; ``group`` is its root."""

    def __init__(self, width, height, glyphs, cards, player=-1):
        """``glyphs``: ``hw.draw.gfx.glyph_sheet()``; ``cards``: :func:`card_sheets`;
        ``player``: link play's seat, the one the table is seen from (-1: both, facing each other)."""
        geo = row_layout(width, height)
        self.player = player
        self.geometry = geo
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        strip = geo["strip"]
        band = geo["band"]
        half = geo["half"]
        scale = geo["scale"]
        for seat in range(2):
            y = height - strip if seat == 0 else 0
            box, _ = gfx.panel(0, y, width, strip, gfx.PANEL, cell=4)
            self.group.append(box)

        # The row: pile i's B half above the middle line, its A half below it.
        mid = height // 2
        shapes = Shapes(geo["pile_w"], half, cards[0], cards[1])
        self.cards_layer = displayio.Group()  # hidden by hw.app while "Get ready..." shows
        self.group.append(self.cards_layer)
        self.piles_a = []  # by pile (A's half: upright)
        self.piles_b = []  # by pile (B's half: turned)
        for pile in range(MAX_PILES):
            for seat, halves in ((1, self.piles_b), (0, self.piles_a)):
                near = seat == 0 if player < 0 else seat == player
                y = mid if near else mid - half
                card = CardView(shapes, 0, y, geo["pile_w"], half, scale,
                                flipped=seat == 1 and player < 0)
                halves.append(card)
                self.cards_layer.append(card.group)

        # The active cards, at each seat's own left (B's left is the screen's right).
        margin = geo["margin"]
        aw = geo["active_w"]
        ah = geo["active_h"]
        active_shapes = Shapes(aw, ah, cards[0], cards[1])
        self.actives = []
        self.messages = []
        ms = 1
        for seat in range(2):
            flip = seat == 1 and player < 0
            near = seat == 0 if player < 0 else seat == player  # at the bottom edge
            inset = (band - ah) // 2
            top = height - strip - band + inset if near else strip + inset
            x = margin if not flip else width - margin - aw
            card = CardView(active_shapes, x, top, aw, ah, scale, flipped=flip)
            self.actives.append(card)
            self.cards_layer.append(card.group)
            # The message line: beside the active card, centred in the rest of the band.
            rest_x = margin + aw + (width - margin - aw) // 2
            mx = rest_x if not flip else width - rest_x
            message = Text(glyphs, MESSAGE_WIDTH, gfx.GOLD, ms, flip, (0.5, 0.5),
                           (mx, top + ah // 2), background=gfx.FELT)
            self.messages.append(message)
            self.group.append(message.group)

        ts = geo["text_scale"]
        self.packs_text = []
        self.won_text = []
        self.lock_text = []
        for seat in range(2):
            flip = seat == 1 and player < 0
            near = seat == 0 if player < 0 else seat == player
            y = height - strip // 2 if near else strip // 2
            left = margin if not flip else width - margin  # the reader's left
            right = width - margin if not flip else margin
            pack = Text(glyphs, len(PACK_TEXT) + 1, gfx.TEXT, ts, flip, (0.0, 0.5), (left, y),
                        LEFT, gfx.PANEL)
            pack.set(PACK_TEXT)
            won = Text(glyphs, SCORE_WIDTH, gfx.DIM, ts, flip, (1.0, 0.5), (right, y), RIGHT,
                       gfx.PANEL)
            cell = gfx.GLYPH_W * ts
            lock_x = left + LOCKED_AT * cell if not flip else left - LOCKED_AT * cell
            lock = Text(glyphs, len(LOCKED_TEXT), gfx.GOLD, ts, flip, (0.0, 0.5),
                        (lock_x, y), background=gfx.LOCKED)
            lock.set(LOCKED_TEXT)
            lock.hidden = True
            for text in (pack, won, lock):
                self.group.append(text.group)
            self.packs_text.append(pack)
            self.won_text.append(won)
            self.lock_text.append(lock)

        self.piles = 0  # piles laid out (0: none yet)
        self.changes = -1
        self.hints = False
        self.wins = -1
        self.cpu = False
        self.score = bytearray(2)
        self.packs = bytearray(2)
        self.locked = bytearray(2)
        self.ties = 0
        self.tie_at = 0
        self.tie_on = False
        self.message = -1
        self.shown = bytearray(b"\xff\xff")  # each seat's line: a MSG_* id, or _TIE_SHOWN
        self.set_message(MSG_NONE)

    def _lay_out(self, piles):
        """Place ``piles`` piles evenly across the screen; hide the others (set-up)."""
        self.piles = piles
        geo = self.geometry
        xs = pile_xs(geo, piles)
        for pile in range(MAX_PILES):
            for card in (self.piles_a[pile], self.piles_b[pile]):
                if pile < piles:
                    x = xs[pile]
                    if self.player == 1:  # B's left is pile n-1's side
                        x = geo["width"] - x - geo["pile_w"]
                    card.group.x = x
                    card.x = x
                card.group.hidden = pile >= piles

    def set_message(self, msg, lines=None):
        """Show message ``msg`` (an ``hw.messages`` ``MSG_*`` id) to both players, or
        ``lines[seat]`` to each seat if given (``hw.app.feedback``: a note for one seat;
        not its "Tie!" note, as this screen words ties itself)."""
        self.message = msg
        shown = self.shown
        for seat in range(2):
            line = msg if lines is None or lines[seat] == MSG_TIE else lines[seat]
            if line != shown[seat]:
                shown[seat] = line
                self.messages[seat].set(MESSAGES[line][seat])

    def _tie_message(self, tie):
        text = _TIE_TEXTS[1 if tie else 0]
        shown = self.shown
        for seat in range(2):
            if shown[seat] != _TIE_SHOWN:
                shown[seat] = _TIE_SHOWN
                self.messages[seat].set(text)

    def update(self, game, now, msg, hints, feedback=None):
        """Bring the scene up to date with ``game`` at time ``now`` (``feedback``, the
        app's ``hw.app.feedback.Feedback``: its message ids arrive worded in ``msg``, its
        notes in ``lines``; this screen tells ties itself and draws no flashes)."""
        wins = game.rules.wins
        cpu = feedback is not None and feedback.cpu
        busy = False  # cards redrawn this frame: the message waits for the next
        if game.piles != self.piles:
            self._lay_out(game.piles)
            self.changes = -1
        if game.changes != self.changes or hints != self.hints or wins != self.wins or \
                cpu != self.cpu:
            self.changes = game.changes
            self.hints = hints
            tops = game.tops
            coverable = game.coverable if game.phase == PLAY and hints else 0
            for pile in range(self.piles):  # calls only for what changed
                top = tops[pile]
                a = self.piles_a[pile]
                b = self.piles_b[pile]
                if top != a.card:
                    a.show(top)
                    b.show(top)
                    busy = True
                if top == NO_CARD:
                    color = gfx.EMPTY
                elif (coverable >> pile) & 1:
                    color = gfx.HINT
                else:
                    color = gfx.EDGE
                if color != a.border:
                    a.mark(color)
                    b.mark(color)
                    busy = True
            rescore = wins != self.wins or cpu != self.cpu
            for seat in range(2):
                card = self.actives[seat]
                active = game.active[seat]
                if active != card.card:
                    card.show(active)
                    card.mark(gfx.EMPTY if active == NO_CARD else gfx.EDGE)
                    busy = True
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
                for seat in range(2):
                    write_score(self.won_text[seat], seat, cpu, self.score, wins)
            if game.ties != self.ties:
                if game.ties > self.ties:  # a new tie (a new game starts from 0)
                    self.tie_on = True
                    self.tie_at = now
                self.ties = game.ties
        for seat in range(2):
            locked = 1 if game.locked_at(seat, now) else 0
            if locked != self.locked[seat]:
                self.locked[seat] = locked
                self.lock_text[seat].hidden = not locked
        if self.tie_on and not 0 <= ticks_diff(now, self.tie_at) < TIE_MS:
            self.tie_on = False
        if busy:
            return
        if self.tie_on and (msg == MSG_NONE or msg == MSG_DEMO or msg == MSG_GO):
            self._tie_message(game.rules.tie == TIE_COIN)
        else:
            self.set_message(msg, feedback.lines if feedback is not None else None)

    def shown_top(self, pile):
        """Return the card code shown on ``pile`` (both halves agree; for tests)."""
        a = self.piles_a[pile].card
        return a if a == self.piles_b[pile].card else -1

    def shown_active(self, seat):
        """Return the card code shown as ``seat``'s active card (for tests)."""
        return self.actives[seat].card
