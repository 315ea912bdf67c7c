"""Speed's controls: a play is a hand card and a middle pile, made with one or two buttons.

A Speed play names one of the seat's five hand slots and one of the two middle piles
(``n = 5 * pile + slot``, RULES-SPEED.md section 3). Each seat's 2x4 pad (``hw.board.pads``:
buttons 0-3 the near row, 4-7 the far row, each from the seat's own left) reads::

    far row    PILE-L   CANCEL   card 4   PILE-R        (buttons 4 5 6 7)
    near row   card 0   card 1   card 2   card 3        (buttons 0 1 2 3)

* the near row is the hand's first four cards, drawn in the same order at the
  seat's own edge of the screen; the fifth card is on the far row, next to PILE-R
  (the hand's right end), above card 3;
* PILE-L and PILE-R are the middle piles on the seat's left and right (for A piles
  0 and 1; B sits opposite, so for B piles 1 and 0): the outer far buttons, as the
  piles are left and right of the screen's middle.

A press of a card:

* while the game is in play, if the card fits exactly ONE middle pile, it is played
  there at once (one button, stamped with this press's time);
* otherwise (it fits both piles, or none, or the cards are being dealt) the card is
  *selected*: it is marked on the screen and nothing is played;
* a press of an empty slot does nothing.

A press of PILE-L or PILE-R with a card selected, while the game is in play, plays
that card on that pile, stamped with the pile press's own time, and drops the
selection whatever the engine decides (a card that does not fit there is an illegal
play and locks the pad, as at the table). A pile press with nothing selected does
nothing; so does one outside play (the deal window, a stuck pause: the rules would
ignore the play), which keeps the selection for a pile press once play begins. CANCEL drops the
selection; so does a press of another card (which is then judged as above), the
selected card leaving its slot, and a new game.

Why: a play is one press whenever one press can only mean one play (the usual case:
most cards that fit, fit one pile); the second press is asked for only when the card
needs a destination. Nothing is ever played by a lone pile press, by CANCEL, or by a
card that fits nowhere: an illegal play (and its lock) always takes two deliberate
presses, a card and then a pile. The buttons that act at once on their own -- the
five cards -- play only legal moves.

Implementation Notes
--------------------

:meth:`Controls.target` is called once per pad press (``hw.games`` ``target``); it
reads the engine's ``phase``, ``hands``, ``legal`` and ``games`` views and stores
ints in preallocated bytearrays, so it allocates nothing (tests/test_speed_keys.py
and the firmware's 0 B press frames). A fit is judged on the ``legal`` masks as
they stand when the press is read; the engine judges the play on the table at its
tick's start, which differs only if another press, read earlier in the same pass,
changed a pile (a race the rules settle, as at the table). ``changes`` counts the
selection's changes, for the screen.
"""

from engine.cards import NO_CARD

CARD_BUTTONS = b"\x00\x01\x02\x03\xff\xff\x04\xff"  # button -> hand slot (255: none)
PILE_LEFT = 4
CANCEL = 5
PILE_RIGHT = 7
NONE = 255
_DEALING = 1  # engine.grid phases
_PLAY = 2
_STUCK = 3
_SLOTS = 5


def slot_button(slot):
    """The pad button (0-7) of hand ``slot`` (for tests, docs and the emulator)."""
    return CARD_BUTTONS.find(bytes((slot,)))


def pile_button(seat, pile):
    """The pad button of middle ``pile`` (0 on A's left) on ``seat``'s pad."""
    left = pile == 0 if seat == 0 else pile == 1
    return PILE_LEFT if left else PILE_RIGHT


class Controls:
    """Both seats' selections (see the module doc)."""

    def __init__(self):
        self.selected = bytearray(b"\xff\xff")  # each seat's selected slot (NONE: none)
        self.card = bytearray(b"\xff\xff")  # the card it held when selected
        self.game = [0, 0]  # game.games when selected
        self.changes = 0

    def reset(self):
        """Forget both selections (a new match or game)."""
        for seat in range(2):
            self._drop(seat)

    def _drop(self, seat):
        if self.selected[seat] != NONE:
            self.selected[seat] = NONE
            self.changes += 1

    def selection(self, game, seat):
        """``seat``'s selected slot, or -1. A selection whose card has left its slot, or
        seen when no game is on (a game's end is always drawn) or from an earlier game
        of the match, is dropped here."""
        slot = self.selected[seat]
        if slot == NONE:
            return -1
        phase = game.phase
        if not _DEALING <= phase <= _STUCK or self.game[seat] != game.games or \
                game.hands[seat * _SLOTS + slot] != self.card[seat]:
            self._drop(seat)
            return -1
        return slot

    def target(self, game, seat, button):
        """The play (``n``) that ``seat``'s pad ``button`` (0-7) makes now, or -1."""
        slot = CARD_BUTTONS[button]
        if slot != NONE:
            card = game.hands[seat * _SLOTS + slot]
            if card == NO_CARD:
                return -1
            legal = game.legal[seat]
            on0 = (legal >> slot) & 1
            on1 = (legal >> (_SLOTS + slot)) & 1
            if game.phase == _PLAY and on0 != on1:
                self._drop(seat)
                return slot if on0 else _SLOTS + slot
            if self.selected[seat] != slot or self.card[seat] != card:
                self.selected[seat] = slot
                self.card[seat] = card
                self.changes += 1
            self.game[seat] = game.games
            return -1
        if button == CANCEL:
            self._drop(seat)
            return -1
        if button != PILE_LEFT and button != PILE_RIGHT:
            return -1
        slot = self.selection(game, seat)
        if slot < 0 or game.phase != _PLAY:
            return -1
        self._drop(seat)
        left = button == PILE_LEFT
        pile = 0 if left == (seat == 0) else 1
        return _SLOTS * pile + slot
