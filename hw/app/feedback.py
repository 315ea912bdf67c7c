"""What the players are told of each event: a sound, a note on a seat's message line, a flash.

``hw.app`` hands every engine event to :meth:`Feedback.on_event` (it returns the
sound, a ``hw.board.buzzer`` id) and every frame's message id to :meth:`Feedback.message`
(it returns the id to show, and sets ``lines``, the id shown on each seat's line, and
``flash``, the positions whose border is lit this frame). The table
(``hw.games.grid.table.TableView.update``) draws ``lines`` and ``flash``.

What each event gives (on screen; sound):

* a cover: the new card, in both corners so both players read it; a click, higher
  for A than for B;
* an illegal press: "Not a match!" on the presser's line, LOCKED in its strip; a low
  buzz;
* a locked press: "Locked: wait" on the presser's line; a thud;
* a tie: "Tie! Nobody covers" on both lines, the tied card and the cards of its rank
  flash (magenta borders); a double chirp;
* a lost coin toss: "Lost the coin toss" / "Won the coin toss", the card flashes; a
  falling pair;
* no match: "No match - new deal" (the game's phase); a falling tone;
* the redeal: "Dealing" (the game's phase); a rising run;
* a game's end: who won, the same line for both seats ("A wins the game"; vs the
  CPU: "CPU wins the game"); a long tone;
* a match's end: who won ("B wins the match"), then "START: new match", in turn
  (START starts one); a fanfare.

A note shows for :data:`NOTE_MS` and only while nothing else is to be told (no
message, or "GO!"). Results follow one scheme in every game (``hw.messages``): the
winner is named by seat letter, and vs the CPU seat B is named "CPU" (:data:`CPU_OF`).
In the demo (attract mode) messages pass unchanged (``hw.messages.DEMO_OF`` words
them), and there are no notes; flashes still show.

Implementation Notes
--------------------

Allocation-free per event and per frame: ids and times are small ints kept in a
``bytearray`` and two-int lists made in ``__init__``.

**Software and Dependencies:** ``engine.family`` (results and events of every game), ``engine.ticks``;
``hw.board.buzzer`` (sound ids), ``hw.messages`` (message ids).
"""

from engine.family import (
    COVER, EV_DEAL, EV_MATCH, EV_OVER, EV_PRESS, EV_STUCK, ILLEGAL, LOCKED, LOST_TIE, TIE,
)
from engine.ticks import ticks_add, ticks_diff
from hw.board import buzzer as bz
from hw import messages  # the message ids (no view: it comes with its game)

NOTE_MS = 1200  # a note's time on its seat's line
FLASH_MS = 900  # a tie's flash
BLINK_MS = 150  # the flash's half period (lit, then not)
RESULT_SHOWN_MS = 2500  # match over: the result, then the prompt for PROMPT_MS
PROMPT_MS = 1500

# vs the CPU: the result messages that name seat B "CPU"
_CPU_WORDING = {
    messages.MSG_WIN_A: messages.MSG_CPU_WIN_A, messages.MSG_WIN_B: messages.MSG_CPU_WIN_B,
    messages.MSG_MATCH_A: messages.MSG_CPU_MATCH_A, messages.MSG_MATCH_B: messages.MSG_CPU_MATCH_B,
}
CPU_OF = tuple(_CPU_WORDING.get(i, i) for i in range(len(messages.MESSAGES)))
del _CPU_WORDING  # only CPU_OF is needed: give the heap back


class Feedback:
    """Notes, flashes and sounds for one table (see the module doc)."""

    def __init__(self):
        self.cpu = False  # seat B is the CPU
        self.ranks = True  # a tie flashes the cards of its rank too (the 2x4 game)
        self.demo = False
        self.notes = bytearray(2)  # per seat: a note's message id (0: none)
        self.note_until = [0, 0]
        self.lines = bytearray(2)  # per seat: the message id shown (set by message())
        self.flashing = 0  # positions flashing (bit n = position n)
        self.flash_from = 0
        self.flash = 0  # the positions lit this frame
        self.redeal = False  # the next deal follows "no match"
        self.match_at = 0  # when the match's result was first shown
        self.match_shown = False

    def new_match(self, cpu, demo, ranks=True):
        """A match begins: ``cpu`` if seat B is the CPU, ``demo`` in attract mode (both
        seats are CPUs there: named A and B); ``ranks``: a tie also flashes the other
        cards of its rank (the 2x4 table's ``by_rank``; other games flash the place only)."""
        self.ranks = ranks
        self.cpu = cpu and not demo
        self.demo = demo
        self.notes[0] = self.notes[1] = 0
        self.flashing = 0
        self.flash = 0
        self.redeal = False

    def _note(self, seat, msg, t):
        if not self.demo:
            self.notes[seat] = msg
            self.note_until[seat] = ticks_add(t, NOTE_MS)

    def _flash(self, mask, t):
        self.flashing |= mask
        self.flash_from = t

    def on_event(self, ev, t, i, game):
        """An engine event (the sink's arguments); return its sound (``hw.board.buzzer``)."""
        if ev == EV_PRESS:
            result = game.tick_result[i]
            seat = game.tick_player[i]
            if result == COVER:
                return bz.SOUND_COVER_A if seat == 0 else bz.SOUND_COVER_B
            pos = game.tick_pos[i]
            if result == ILLEGAL:
                self._note(seat, messages.MSG_ILLEGAL, t)
                return bz.SOUND_ILLEGAL
            if result == LOCKED:
                self._note(seat, messages.MSG_LOCKED, t)
                return bz.SOUND_LOCKED
            if result == TIE:  # both presses report it: each seat's note, one flash
                self._note(seat, messages.MSG_TIE, t)
                self._flash((1 << pos) | (game.by_rank[game.tops[pos] >> 2] if self.ranks
                                          else 0), t)
                return bz.SOUND_TIE
            if result == LOST_TIE:
                self._note(seat, messages.MSG_LOST_TIE, t)
                self._note(1 - seat, messages.MSG_WON_TIE, t)
                self._flash(1 << pos, t)
                return bz.SOUND_LOST_TIE
            return bz.SOUND_NONE  # ignored: dealing, stuck or over
        if ev == EV_STUCK:
            self.redeal = True
            return bz.SOUND_STUCK
        if ev == EV_DEAL:
            if self.redeal:
                self.redeal = False
                return bz.SOUND_REDEAL
            return bz.SOUND_NONE
        if ev == EV_OVER:
            self.notes[0] = self.notes[1] = 0
            return bz.SOUND_OVER
        if ev == EV_MATCH:
            return bz.SOUND_MATCH
        return bz.SOUND_NONE

    def message(self, msg, now):
        """Return the message id to show at ``now`` for the app's ``msg``; set
        ``lines`` (each seat's id) and ``flash`` (the positions lit this frame)."""
        if self.flashing:
            spent = ticks_diff(now, self.flash_from)
            if spent >= FLASH_MS or spent < 0:
                self.flashing = 0
                self.flash = 0
            else:
                self.flash = self.flashing if (spent // BLINK_MS) % 2 == 0 else 0
        if not self.demo:
            if self.cpu:
                msg = CPU_OF[msg]
            if msg == messages.MSG_MATCH_A or msg == messages.MSG_MATCH_B or \
                    msg == messages.MSG_CPU_MATCH_A or msg == messages.MSG_CPU_MATCH_B:
                if not self.match_shown:
                    self.match_shown = True
                    self.match_at = now
                spent = ticks_diff(now, self.match_at)
                if spent >= 0 and spent % (RESULT_SHOWN_MS + PROMPT_MS) >= RESULT_SHOWN_MS:
                    msg = messages.MSG_NEW_MATCH
            else:
                self.match_shown = False
        quiet = msg == messages.MSG_NONE or msg == messages.MSG_GO
        for seat in range(2):
            note = self.notes[seat]
            if note and ticks_diff(now, self.note_until[seat]) >= 0:
                note = self.notes[seat] = 0
            self.lines[seat] = note if note and quiet else msg
        return msg
