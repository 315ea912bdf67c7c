"""Speed's screen: both hands at their own edges, the two middle piles big in the middle.

Seat A sits at the bottom edge, seat B at the top edge, facing each other; B's cards
and all of B's text are drawn upside down. From top to bottom::

    B's strip   B's draw pile count (LOCKED over it), message, B's score   upside down
    B's hand    slots 4 3 2 1 0 (B's own left is the screen's right)     upside down
    middle      side 0 count | middle pile 0 | middle pile 1 | side 1 count
    A's hand    slots 0 1 2 3 4
    A's strip   A's draw pile count (LOCKED over it), message, A's score

* The middle piles are the biggest cards (rank and suit at the largest glyph scale,
  ``hw.draw.card_view.GLYPH_SCALE_MAX``); pile 0 is on A's left, as RULES-SPEED.md puts
  it. Each side pile's count is written beside its middle pile twice, upright for A
  (below the middle line) and upside down for B (above it), so both read it.
* A hand card shows one index, upright for its owner (the hand is theirs to play,
  RULES-SPEED.md); the middle piles show one for each seat.
* A hand card's border tells its state to its owner: orange = selected
  (``hw.games.speed.keys``: waiting for a pile button), red = the pad is locked (all five),
  light blue = it fits a pile (hints on: attract mode, or the menu's hints), dark =
  an empty slot.
* A tie (both players on one pile in one tick) outlines the pile fought over in
  magenta (``gfx.FLASH``, the tie's colour on every table) and says "Tie" in both
  strips for :data:`TIE_MS`; the pile is the one ``hw.app.feedback`` flashes (bit
  ``n`` of ``flashing`` is the play ``n = 5 * pile + slot``). LOCKED is a red box over
  the seat's draw pile count while its pad is locked (a locked seat plays nothing, so
  its count cannot change meanwhile): the message beside it stays readable.
* Messages are short (at most :data:`MESSAGE_WIDTH` characters: the strip also holds
  the counts on a 240-pixel-wide screen, the message centred between them); a game
  won by going out says "Speed!", one won on a deadlock by fewer cards says so. Each
  seat's strip also shows that seat's notes from ``hw.app.feedback`` ("Not 1 up or
  down!", "Locked: wait"). The score reads "1/2 wins" (games won of the games the
  match needs) or "12/50 pts" in a points match.

Link play (``hw.app.linked``) draws the table from one seat (``player`` 0 or 1): that
seat's hand and strip at the bottom, the table turned for seat B, every card and text
upright, and the opponent's hand as card backs (RULES-SPEED.md: a hand is its
owner's to see), their number the count of cards in it.

Drawing design as in ``hw.games.grid.table`` (``hw.draw.card_view.CardView`` per card, ``hw.draw.text``
glyph tiles for text, one layer per pixel): :meth:`SpeedView.update` reads the
engine's views and touches only what changed, so a frame allocates nothing; cards are
redrawn first, a message one frame later.

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.text``,
``hw.draw.card_view``, ``hw.messages`` (the message ids ``hw.app`` gives); reads
``engine.speed.SpeedGame`` views (``tops``, ``hands``, ``draws``, ``sides``,
``legal``, ``phase``, ``locked_at``, ``score``, ``points``, ``ties``, ``result``,
``why``, ``changes``, ``rules``) and ``game.controls`` (``hw.games.speed.keys.Controls``,
put on the engine by ``hw.games.SpeedKind``: the selections).
"""

import displayio

from engine.cards import NO_CARD
from engine.compat import const
from engine.family import PLAY, WHY_DEADLOCK
from engine.ticks import ticks_add, ticks_diff
from hw.draw import gfx
from hw import messages
from hw.draw.card_view import (
    GLYPH_SCALE_MAX, CardView, Shapes, card_glyphs_h, suit_scale,
)
from hw.draw.text import LEFT, RIGHT, Text

_SLOTS = 5
TIE_MS = 700

# Messages: (text for A, text for B), by id: every hw.messages MSG_* id (in Speed's
# words where the shared text says something else or is too long for the strip),
# then Speed's own ids after them.
_SPEED_WORDS = {
    messages.MSG_STUCK: (b"Stuck - turning", b"Stuck - turning"),
    messages.MSG_DRAW: (b"Draw - new deal", b"Draw - new deal"),
    messages.MSG_PAUSED: (b"Paused - START", b"Paused - START"),
    messages.MSG_DEMO: (b"DEMO: press a key", b"DEMO: press a key"),
    messages.MSG_TIE: (b"Tie - nothing moves", b"Tie - nothing moves"),
    messages.MSG_ILLEGAL: (b"Not 1 up or down!", b"Not 1 up or down!"),
}
_OWN = len(messages.MESSAGES)
MSG_OUT_A = _OWN  # replaces MSG_WIN_A when A went out
MSG_OUT_B = _OWN + 1
MSG_FEWER_A = _OWN + 2  # a deadlock won with fewer cards
MSG_FEWER_B = _OWN + 3
MESSAGES = tuple(_SPEED_WORDS.get(i, texts) for i, texts in enumerate(messages.MESSAGES)) + (
    messages.both(b"Speed! A is out"),  # results: the same words on both lines (hw.messages)
    messages.both(b"Speed! B is out"),
    messages.both(b"Stuck: A has fewer"),
    messages.both(b"Stuck: B has fewer"),
)
del _SPEED_WORDS
MESSAGE_WIDTH = 19  # the longest message

_DRAW_TEXT = const(b"Draw 15")  # the draw pile's count is written at _DRAW_AT
_DRAW_AT = const(5)
_BACK = const(-2)  # CardView.show: the card's back
SCORE_WIDTH = 11  # "1/2 wins" or "12/100 pts", at the reader's right
WINS_UNIT = b" wins"
POINTS_UNIT = b" pts"
_SIDE_TEXT = const(b"Side 10")
_SIDE_AT = const(5)
LOCKED_TEXT = b"LOCKED"  # over the draw count, in a field as wide


def speed_layout(width, height):
    """Return the geometry (a dict of ints) of Speed's screen on ``width x height``."""
    strip = max(12, height // 12)
    gap = max(2, width // 80)
    cell = width // _SLOTS
    hand_w = cell - 2 * gap
    avail = height - 2 * strip
    pile_min = card_glyphs_h(GLYPH_SCALE_MAX) + 2 * gfx.BORDER + 4
    hand_h = min(avail // 4, hand_w * 6 // 5)
    if avail - 2 * hand_h - 4 * gap < pile_min:  # a small screen: the piles stay big
        hand_h = max(card_glyphs_h(1) + 2 * gfx.BORDER + 2, (avail - 4 * gap - pile_min) // 2)
    pile_h = avail - 2 * hand_h - 4 * gap
    pile_w = min(pile_h * 3 // 4, width // 4)
    return {
        "width": width, "height": height, "strip": strip, "gap": gap, "cell": cell,
        "hand_w": hand_w, "hand_h": hand_h, "pile_w": pile_w, "pile_h": pile_h,
        "hand_scale": _fit_scale(hand_w, hand_h), "pile_scale": _fit_scale(pile_w, pile_h),
        "text_scale": max(1, min(strip // 12, width // 240)),
    }


def _fit_scale(w, h):
    """The largest glyph scale (up to GLYPH_SCALE_MAX) whose rank and suit fit a w x h card."""
    scale = 1
    while scale < GLYPH_SCALE_MAX and \
            card_glyphs_h(scale + 1) <= h - 2 * gfx.BORDER - 2 and \
            gfx.RANK_TILE_W * (scale + 1) <= w - 2 * gfx.BORDER - 2:
        scale += 1
    return scale


def hand_places(geo):
    """The (x, y) of each hand card: A's slots 0-4, then B's (B's turned: slot 0 at the
    screen's right)."""
    cell = geo["cell"]
    gap = geo["gap"]
    off = (cell - geo["hand_w"]) // 2
    top = geo["strip"] + gap
    bottom = geo["height"] - geo["strip"] - gap - geo["hand_h"]
    places = []
    for k in range(2 * _SLOTS):
        slot = k % _SLOTS
        column = slot if k < _SLOTS else _SLOTS - 1 - slot
        places.append((column * cell + off, bottom if k < _SLOTS else top))
    return places


def pile_places(geo):
    """The (x, y) of middle piles 0 and 1 (0 on A's left)."""
    mid = geo["width"] // 2
    gap = geo["gap"]
    y = geo["strip"] + 2 * gap + geo["hand_h"]
    return ((mid - gap - geo["pile_w"], y), (mid + gap, y))


def card_sheets(width, height):
    """``(hand ranks, hand suits, pile ranks, pile suits)`` for a ``width x height`` screen
    (one pair when both scales are the same)."""
    geo = speed_layout(width, height)
    hs = geo["hand_scale"]
    ps = geo["pile_scale"]
    hand = (gfx.rank_sheet(None, hs), gfx.suit_sheet(suit_scale(hs)))
    pile = hand if ps == hs else (gfx.rank_sheet(None, ps), gfx.suit_sheet(suit_scale(ps)))
    return hand + pile


class SpeedView:
    """The Speed scene for a ``width x height`` display; ``group`` is its root."""

    def __init__(self, width, height, glyphs, sheets, player=-1):
        """``glyphs``: ``hw.draw.gfx.glyph_sheet()``; ``sheets``: :func:`card_sheets` (made once
        and kept); ``player``: link play's seat, the one the table is seen from (-1: both, facing)."""
        geo = speed_layout(width, height)
        self.player = player
        self.geometry = geo
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        strip = geo["strip"]
        for seat in range(2):
            box, _ = gfx.panel(0, height - strip if seat == 0 else 0, width, strip, gfx.PANEL,
                               cell=4)
            self.group.append(box)

        hand_shapes = Shapes(geo["hand_w"], geo["hand_h"], sheets[0], sheets[1])
        self.cards_layer = displayio.Group()  # hidden by hw.app while "Get ready..." shows
        self.group.append(self.cards_layer)
        self.hand = []
        turned = player == 1  # seen from B: the table turned half a turn
        for k, (x, y) in enumerate(hand_places(geo)):
            if turned:
                x = width - x - geo["hand_w"]
                y = height - y - geo["hand_h"]
            card = CardView(hand_shapes, x, y, geo["hand_w"], geo["hand_h"], geo["hand_scale"],
                            flipped=k >= _SLOTS and player < 0, one_index=True)
            self.hand.append(card)
            self.cards_layer.append(card.group)
        pile_shapes = Shapes(geo["pile_w"], geo["pile_h"], sheets[2], sheets[3])
        self.piles = []
        for x, y in pile_places(geo):
            if turned:
                x = width - x - geo["pile_w"]
                y = height - y - geo["pile_h"]
            card = CardView(pile_shapes, x, y, geo["pile_w"], geo["pile_h"], geo["pile_scale"],
                            flipped=False)
            self.piles.append(card)
            self.cards_layer.append(card.group)

        ts = geo["text_scale"]
        margin = max(3, width // 60)
        mid_y = geo["strip"] + 2 * geo["gap"] + geo["hand_h"] + geo["pile_h"] // 2
        quarter = max(geo["pile_h"] // 4, 7 * ts)
        (x0, _), (x1, _) = pile_places(geo)
        side_x = (x0 // 2, (x1 + geo["pile_w"] + width) // 2)  # centres of the side areas
        self.side_text = []  # [pile 0 for A, pile 0 for B, pile 1 for A, pile 1 for B]
        if turned:
            side_x = (width - side_x[0], width - side_x[1])
        for pile in range(2):
            for seat in range(2):
                y = mid_y + quarter if seat == 0 or player >= 0 else mid_y - quarter
                side = Text(glyphs, len(_SIDE_TEXT), gfx.DIM, ts, seat == 1 and player < 0,
                            (0.5, 0.5), (side_x[pile], y), LEFT, gfx.FELT)
                side.set(_SIDE_TEXT)
                side.hidden = player >= 0 and seat != player  # one copy, upright
                self.group.append(side.group)
                self.side_text.append(side)
        # the message: centred between the draw count and the score (A's side; B's mirrored)
        middle = (width + (len(_DRAW_TEXT) - SCORE_WIDTH) * gfx.GLYPH_W * ts) // 2
        self.draw_text = []
        self.score_text = []
        self.lock_text = []
        self.messages = []
        for seat in range(2):
            flip = seat == 1 and player < 0
            near = seat == 0 if player < 0 else seat == player  # at the bottom edge
            y = height - strip // 2 if near else strip // 2
            left = margin if not flip else width - margin  # the reader's left
            right = width - margin if not flip else margin
            draw = Text(glyphs, len(_DRAW_TEXT), gfx.TEXT, ts, flip, (0.0, 0.5), (left, y), LEFT,
                        gfx.PANEL)
            draw.set(_DRAW_TEXT)
            score = Text(glyphs, SCORE_WIDTH, gfx.DIM, ts, flip, (1.0, 0.5), (right, y), RIGHT,
                         gfx.PANEL)
            message = Text(glyphs, MESSAGE_WIDTH, gfx.GOLD, ts, flip, (0.5, 0.5),
                           (middle if not flip else width - middle, y), background=gfx.PANEL)
            lock = Text(glyphs, len(_DRAW_TEXT), gfx.GOLD, ts, flip, (0.0, 0.5), (left, y),
                        background=gfx.LOCKED)
            lock.set(LOCKED_TEXT)
            lock.hidden = True
            for text in (draw, score, message, lock):
                self.group.append(text.group)
            self.draw_text.append(draw)
            self.score_text.append(score)
            self.lock_text.append(lock)
            self.messages.append(message)

        self.changes = -1
        self.picks = -1  # controls.changes drawn
        self.hints = False
        self.goal = -1  # rules.points (0: wins) drawn
        self.wins = -1
        self.draws = bytearray(b"\xff\xff")
        self.sides = bytearray(b"\xff\xff")
        self.score = [-1, -1]
        self.locked = bytearray(2)
        self.ties = 0
        self.tie_until = 0
        self.tie_on = False
        self.tie_piles = 0  # bit p: middle pile p was fought over (outlined while tie_on)
        self.message = -1
        self.shown = bytearray(b"\xff\xff")  # the message id on each seat's line
        self.set_message(messages.MSG_NONE)

    def set_message(self, msg, lines=None):
        """Show message ``msg`` (an ``hw.messages`` MSG_* id, or one of this module's) to
        both players, or ``lines[seat]`` to each seat if given (``hw.app.feedback``: a note
        for one seat; not its tie note, as this screen words ties itself)."""
        self.message = msg
        shown = self.shown
        for seat in range(2):
            line = msg if lines is None or lines[seat] == messages.MSG_TIE else lines[seat]
            if line != shown[seat]:
                shown[seat] = line
                self.messages[seat].set(MESSAGES[line][seat])

    def update(self, game, now, msg, hints, feedback=None):
        """Bring the scene up to date with ``game`` at time ``now`` (``feedback``: the
        app's ``hw.app.feedback.Feedback``; its wording arrives in ``msg``, ties are drawn here)."""
        busy = False  # cards redrawn this frame: the message waits for the next
        ties = game.ties
        if ties != self.ties:
            if ties > self.ties:
                self.tie_on = True
                self.tie_until = ticks_add(now, TIE_MS)
                self.tie_piles = _piles(feedback.flashing if feedback is not None else 0)
                self.changes = -1  # the piles' borders
            self.ties = ties
        elif self.tie_on and ticks_diff(now, self.tie_until) >= 0:
            self.tie_on = False
            self.changes = -1
        locked_now = 0
        for seat in range(2):
            locked = 1 if game.locked_at(seat, now) else 0
            locked_now |= locked << seat
            if locked != self.locked[seat]:
                self.locked[seat] = locked
                self.lock_text[seat].hidden = not locked
                self.changes = -1  # the hand's borders
        picks = game.controls.changes
        if game.changes != self.changes or picks != self.picks or hints != self.hints:
            self.changes = game.changes
            self.picks = picks
            self.hints = hints
            busy = self._cards(game, hints, locked_now)
            self._counts(game)
        if not busy:
            if self.tie_on and (msg == messages.MSG_NONE or msg == messages.MSG_GO or
                                msg == messages.MSG_DEMO):
                msg = messages.MSG_TIE
            elif msg == messages.MSG_WIN_A or msg == messages.MSG_WIN_B or msg == messages.MSG_DEMO_WIN_A or \
                    msg == messages.MSG_DEMO_WIN_B:
                a = msg == messages.MSG_WIN_A or msg == messages.MSG_DEMO_WIN_A
                if game.why == WHY_DEADLOCK:
                    msg = MSG_FEWER_A if a else MSG_FEWER_B
                else:
                    msg = MSG_OUT_A if a else MSG_OUT_B
            elif msg == messages.MSG_NONE or msg == messages.MSG_GO:  # quiet: a seat's note may show
                self.set_message(msg, feedback.lines if feedback is not None else None)
                return
            self.set_message(msg)

    def _cards(self, game, hints, locked_now):
        """Show the hands and the piles; True if a card was redrawn."""
        busy = False
        in_play = game.phase == PLAY
        hands = game.hands
        controls = game.controls
        player = self.player
        for seat in range(2):
            hidden = player >= 0 and seat != player  # the opponent's hand: backs only
            legal = game.legal[seat] if in_play and hints and not hidden else 0
            legal |= legal >> _SLOTS  # bit slot: fits a pile
            picked = -1 if hidden else controls.selection(game, seat)
            locked = (locked_now >> seat) & 1
            for slot in range(_SLOTS):
                card = hands[seat * _SLOTS + slot]
                view = self.hand[seat * _SLOTS + slot]
                if hidden and card != NO_CARD:
                    if view.card != _BACK:
                        view.show(_BACK)
                        busy = True
                elif card != view.card:
                    view.show(card)
                    busy = True
                if card == NO_CARD:
                    color = gfx.EMPTY
                elif locked:
                    color = gfx.LOCKED
                elif slot == picked:
                    color = gfx.PENDING
                elif (legal >> slot) & 1:
                    color = gfx.HINT
                else:
                    color = gfx.EDGE
                if color != view.border:
                    view.mark(color)
                    busy = True
        tops = game.tops
        for pile in range(2):
            view = self.piles[pile]
            top = tops[pile]
            if top != view.card:
                view.show(top)
                busy = True
            if top == NO_CARD:
                color = gfx.EMPTY
            elif self.tie_on and (self.tie_piles >> pile) & 1:
                color = gfx.FLASH
            else:
                color = gfx.EDGE
            if color != view.border:
                view.mark(color)
                busy = True
        return busy

    def _counts(self, game):
        """The draw and side pile counts and the score fields, where they changed."""
        for seat in range(2):
            count = game.draws[seat]
            if count != self.draws[seat]:
                self.draws[seat] = count
                self.draw_text[seat].number(_DRAW_AT, count, 2)
        for pile in range(2):
            count = game.sides[pile]
            if count != self.sides[pile]:
                self.sides[pile] = count
                self.side_text[2 * pile].number(_SIDE_AT, count, 2)
                self.side_text[2 * pile + 1].number(_SIDE_AT, count, 2)
        rules = game.rules
        goal = rules.points
        wins = rules.wins
        for seat in range(2):
            value = game.points[seat] if goal else game.score[seat]
            if value != self.score[seat] or goal != self.goal or wins != self.wins:
                self.score[seat] = value
                _fraction(self.score_text[seat], value, goal if goal else wins,
                          POINTS_UNIT if goal else WINS_UNIT)
        self.goal = goal
        self.wins = wins

    def shown_hand(self, seat, slot):
        """The card code shown in ``seat``'s hand ``slot`` (for tests and the emulator)."""
        return self.hand[seat * _SLOTS + slot].card

    def shown_top(self, pile):
        """The card code shown on middle pile ``pile``."""
        return self.piles[pile].card


def _piles(plays):
    """The middle piles (bit p: pile p) of a mask of plays (bit n: n = 5 * pile + slot);
    both piles if the mask is empty (a tie drawn without ``hw.app.feedback``)."""
    piles = (1 if plays & 0x1F else 0) | (2 if plays >> _SLOTS else 0)
    return piles if piles else 3


def _fraction(text, value, of, unit):
    """Write ``value/of`` + ``unit`` into ``text`` (right-aligned), without allocating."""
    width = text.width
    digits_v = _digits(value)
    digits_o = _digits(of)
    n = digits_v + 1 + digits_o + len(unit)
    col = width - n if n < width else 0
    for i in range(col):
        text.put(i, 32)
    col = _put_int(text, col, value, digits_v)
    text.put(col, 47)  # "/"
    col = _put_int(text, col + 1, of, digits_o)
    text.write(col, unit)


def _digits(value):
    n = 1
    while value >= 10:
        value //= 10
        n += 1
    return n


def _put_int(text, col, value, digits):
    """Write ``value`` in ``digits`` columns from ``col``; the column after it."""
    for k in range(digits - 1, -1, -1):
        if col + k < text.width:
            text.put(col + k, 48 + value % 10)
        value //= 10
    return col + digits
