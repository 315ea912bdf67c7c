"""The game screen: the 2x4 table, pack counts, score, locks and messages.

Seat A sits at the bottom edge, seat B at the top edge, facing each other; B's row
and all of B's text are drawn upside down. From top to bottom::

    B's strip   (B's pack count at B's left, LOCKED, B's games won)   upside down
    B's row     positions 7 6 5 4 (B's own left is the screen's right) upside down
    messages    one line for B (upside down), one line for A
    A's row     positions 0 1 2 3
    A's strip   (A's pack count, LOCKED, A's games won)

The scene is built once; :meth:`TableView.update` reads the engine's views and
touches only what changed since the last frame (cards, border colours, counts,
locks, messages), using constant strings made at start-up: steady-state frames
allocate nothing in this module. The 8 cards are laid out once by
``adafruit_displayio_layout``'s ``GridLayout`` (4x2; B's cells anchored to the top
of their cell, A's to the bottom, the messages between them). Border colours: orange
marks a pending position, light blue a coverable one when hints are on. In attract
mode (``hw.app``) the message line carries the "DEMO - press any button" banner
(``MSG_DEMO``; see ``DEMO_OF``).

Implementation Notes
--------------------

**Software and Dependencies:** ``displayio``; ``adafruit_display_text.bitmap_label``,
``adafruit_displayio_layout.layouts.grid_layout``; ``hw.gfx``; reads
``engine.game.Game`` views (``tops``, ``packs``, ``pending``, ``coverable``,
``phase``, ``locked_at``, ``score``, ``changes``).
"""

import displayio
from adafruit_displayio_layout.layouts.grid_layout import GridLayout

from engine.cards import NO_CARD, is_red, rank, suit
from engine.game import PLAY
from hw import gfx

# Messages: (text for A, text for B), by message id.
MSG_NONE = 0
MSG_READY = 1
MSG_DEAL = 2
MSG_GO = 3
MSG_STUCK = 4
MSG_WIN_A = 5
MSG_WIN_B = 6
MSG_DRAW = 7
MSG_DEADLOCK = 8
MSG_MATCH_A = 9
MSG_MATCH_B = 10
MSG_PAUSED = 11
MSG_DEMO = 12  # attract mode (hw.app): the banner
MSG_DEMO_WIN_A = 13  # attract mode: results told alike to both seats (no "You")
MSG_DEMO_WIN_B = 14
MSG_DEMO_MATCH_A = 15
MSG_DEMO_MATCH_B = 16
DEMO_TEXT = "DEMO - press any button"
MESSAGES = (
    ("", ""),
    ("Get ready...", "Get ready..."),
    ("Dealing", "Dealing"),
    ("GO!", "GO!"),
    ("No match - new deal", "No match - new deal"),
    ("You win the game!", "A wins the game"),
    ("B wins the game", "You win the game!"),
    ("Draw - new shuffle", "Draw - new shuffle"),
    ("Deadlock: draw", "Deadlock: draw"),
    ("You win the match!", "A wins the match"),
    ("B wins the match", "You win the match!"),
    ("Paused: START resumes", "Paused: START resumes"),
    (DEMO_TEXT, DEMO_TEXT),
    ("A wins the game", "A wins the game"),
    ("B wins the game", "B wins the game"),
    ("A wins the match", "A wins the match"),
    ("B wins the match", "B wins the match"),
)
# During attract mode a message id is shown as DEMO_OF[id]: the banner whenever
# nothing else needs telling (no message, "Get ready", "GO!"), neutral results.
DEMO_OF = (
    MSG_DEMO, MSG_DEMO, MSG_DEAL, MSG_DEMO, MSG_STUCK, MSG_DEMO_WIN_A, MSG_DEMO_WIN_B,
    MSG_DRAW, MSG_DEADLOCK, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B, MSG_DEMO,
    MSG_DEMO, MSG_DEMO_WIN_A, MSG_DEMO_WIN_B, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B,
)

PACK_TEXT = tuple("Pack %d" % n for n in range(53))
WON_TEXT = tuple(tuple("Won %d of %d" % (s, w) for s in range(w + 1)) for w in range(10))
LOCKED_TEXT = "LOCKED"


def table_layout(width, height):
    """Return the geometry (a dict of ints) of the table on a ``width x height`` screen."""
    strip = max(12, height // 12)
    middle = max(24, height // 6)
    gap = max(2, width // 80)
    card_h = (height - 2 * strip - middle) // 2 - 2 * gap
    card_w = width // 4 - 2 * gap
    scale = max(1, min((card_h - 6) // 22, (card_w - 6) // 12))
    return {
        "width": width, "height": height, "strip": strip, "middle": middle, "gap": gap,
        "card_w": card_w, "card_h": card_h, "scale": scale,
        "grid_y": strip, "grid_h": height - 2 * strip,
        "text_scale": max(1, min(strip // 12, width // 240)),
        "message_scale": max(1, min(middle // 24, width // 200)),
    }


class CardView(displayio.Group):
    """One table position: frame, rank and suit tiles; turned 180 degrees for row B.

    ``width``/``height`` are read-only properties (``GridLayout`` tries to set them,
    gets ``AttributeError`` as on a board, and keeps the card's size).
    """

    def __init__(self, frame, ranks, suits, suit_palette, scale, flipped):
        super().__init__()
        self._width = frame.width
        self._height = frame.height
        self.frame_palette = gfx.palette(gfx.FELT, gfx.EDGE, gfx.FACE, transparent=0)
        self.append(displayio.TileGrid(frame, pixel_shader=self.frame_palette))
        self.ink = gfx.palette(gfx.FACE, gfx.BLACK, transparent=0)
        self.rank = displayio.TileGrid(ranks, pixel_shader=self.ink,
                                       tile_width=gfx.RANK_TILE_W, tile_height=gfx.RANK_TILE_H)
        self.suit = displayio.TileGrid(suits, pixel_shader=suit_palette,
                                       tile_width=gfx.SUIT_SIZE, tile_height=gfx.SUIT_SIZE)
        rank_w = gfx.RANK_TILE_W * scale
        rank_h = gfx.RANK_TILE_H * scale
        suit_s = gfx.SUIT_SIZE * scale
        top = (self._height - rank_h - scale - suit_s) // 2
        places = (
            (self.rank, (self._width - rank_w) // 2, top, rank_w, rank_h),
            (self.suit, (self._width - suit_s) // 2, top + rank_h + scale, suit_s, suit_s),
        )
        self.face = displayio.Group()
        for tile, x, y, w, h in places:
            if flipped:  # turn the card 180 degrees: mirror the place, flip the tile
                x = self._width - x - w
                y = self._height - y - h
                tile.flip_x = True
                tile.flip_y = True
            holder = displayio.Group(scale=scale, x=x, y=y)
            holder.append(tile)
            self.face.append(holder)
        self.append(self.face)
        self.flipped = flipped
        self.card = -1
        self.border = gfx.EDGE
        self.show(NO_CARD)

    @property
    def width(self):
        """The card's width in pixels."""
        return self._width

    @property
    def height(self):
        """The card's height in pixels."""
        return self._height

    def show(self, card):
        """Show card code ``card`` (``NO_CARD``: an empty position)."""
        if card == self.card:
            return
        self.card = card
        if card == NO_CARD:
            self.face.hidden = True
            self.frame_palette[2] = gfx.FELT
            return
        self.frame_palette[2] = gfx.FACE
        self.rank[0] = rank(card)
        self.suit[0] = suit(card)
        self.ink[1] = gfx.RED if is_red(card) else gfx.BLACK
        self.face.hidden = False

    def mark(self, color):
        """Set the border colour."""
        if color != self.border:
            self.border = color
            self.frame_palette[1] = color


class TableView:
    """The game scene for a ``width x height`` display; ``group`` is its root."""

    def __init__(self, width, height):
        geo = table_layout(width, height)
        self.geometry = geo
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        strip = geo["strip"]
        self.strips = []
        self.strip_palettes = []
        for seat in range(2):
            y = height - strip if seat == 0 else 0
            box, pal = gfx.panel(0, y, width, strip, gfx.PANEL, cell=4)
            self.group.append(box)
            self.strips.append(box)
            self.strip_palettes.append(pal)

        ranks = gfx.rank_sheet()
        suits = gfx.suit_sheet()
        suit_palette = gfx.palette(gfx.FACE, gfx.BLACK, gfx.RED, transparent=0)
        frame = gfx.card_frame(geo["card_w"], geo["card_h"])
        self.grid = GridLayout(x=0, y=geo["grid_y"], width=width, height=geo["grid_h"],
                               grid_size=(4, 2), cell_padding=geo["gap"])
        self.cards = []
        for pos in range(8):
            self.cards.append(CardView(frame, ranks, suits, suit_palette, geo["scale"],
                                       flipped=pos >= 4))
        for column in range(4):
            # Row B on top: B's own left (position 4) is the screen's right.
            self.grid.add_content(self.cards[7 - column], grid_position=(column, 0),
                                  cell_size=(1, 1), cell_anchor_point=(0.5, 0.0),
                                  layout_cells=False)
            self.grid.add_content(self.cards[column], grid_position=(column, 1),
                                  cell_size=(1, 1), cell_anchor_point=(0.5, 1.0),
                                  layout_cells=False)
        self.grid.layout_cells()
        self.group.append(self.grid)

        ts = geo["text_scale"]
        ms = geo["message_scale"]
        margin = max(4, width // 40)
        self.pack_labels = []
        self.won_labels = []
        self.lock_labels = []
        self.message_labels = []
        mid = height // 2
        quarter = geo["middle"] // 4
        for seat in range(2):
            flip = seat == 1
            y = height - strip // 2 if seat == 0 else strip // 2
            left = margin if seat == 0 else width - margin  # the reader's left
            right = width - margin if seat == 0 else margin
            pack = gfx.label(PACK_TEXT[0], flip, gfx.TEXT, ts, (0.0, 0.5), (left, y))
            won = gfx.label(WON_TEXT[2][0], flip, gfx.DIM, ts, (1.0, 0.5), (right, y))
            lock = gfx.label(LOCKED_TEXT, flip, gfx.GOLD, ts, (0.5, 0.5), (width // 2, y))
            lock.hidden = True
            message = gfx.label(MESSAGES[MSG_READY][seat], flip, gfx.GOLD, ms, (0.5, 0.5),
                                (width // 2, mid + quarter if seat == 0 else mid - quarter))
            for lab in (pack, won, lock, message):
                self.group.append(lab)
            self.pack_labels.append(pack)
            self.won_labels.append(won)
            self.lock_labels.append(lock)
            self.message_labels.append(message)

        self.changes = -1
        self.hints = False
        self.wins = -1
        self.score = bytearray(2)
        self.packs = bytearray(2)
        self.locked = bytearray(2)
        self.message = -1
        self.set_message(MSG_NONE)

    def set_message(self, msg):
        """Show message ``msg`` (an ``MSG_*`` id) to both players."""
        if msg == self.message:
            return
        self.message = msg
        texts = MESSAGES[msg]
        for seat in range(2):
            lab = self.message_labels[seat]
            if msg == MSG_NONE:
                lab.hidden = True
            else:
                gfx.set_text(lab, texts[seat])
                lab.hidden = False

    def update(self, game, now, msg, hints):
        """Bring the scene up to date with ``game`` at time ``now``."""
        wins = game.rules.wins
        if game.changes != self.changes or hints != self.hints or wins != self.wins:
            self.changes = game.changes
            self.hints = hints
            tops = game.tops
            pending = game.pending
            coverable = game.coverable if game.phase == PLAY else 0
            for pos in range(8):
                top = tops[pos]
                card = self.cards[pos]
                card.show(top)
                if top == NO_CARD:
                    card.mark(gfx.EMPTY)
                elif (pending >> pos) & 1:
                    card.mark(gfx.PENDING)
                elif hints and (coverable >> pos) & 1:
                    card.mark(gfx.HINT)
                else:
                    card.mark(gfx.EDGE)
            for seat in range(2):
                count = game.packs[seat]
                if count != self.packs[seat] or wins != self.wins:
                    self.packs[seat] = count
                    gfx.set_text(self.pack_labels[seat], PACK_TEXT[count])
                score = game.score[seat]
                if score != self.score[seat] or wins != self.wins:
                    self.score[seat] = score
                    gfx.set_text(self.won_labels[seat], WON_TEXT[wins][min(score, wins)])
            self.wins = wins
        for seat in range(2):
            locked = 1 if game.locked_at(seat, now) else 0
            if locked != self.locked[seat]:
                self.locked[seat] = locked
                self.lock_labels[seat].hidden = not locked
                self.strip_palettes[seat][0] = gfx.LOCKED if locked else gfx.PANEL
        self.set_message(msg)

    def shown_top(self, pos):
        """Return the card code shown at ``pos`` (for tests and the emulator)."""
        return self.cards[pos].card
