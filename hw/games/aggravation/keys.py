"""Aggravation's controls: a stack of a row that grows, pressed with one button or two.

Each row is drawn in *lines* of four stacks from its owner's left (``hw.games.
aggravation.table``): stack ``k`` of a row is in column ``k % 4``, line ``k // 4``
(line 0 at its owner's edge), and keeps that place while the row grows. Each seat's
2x4 pad (``hw.board.pads``: buttons 0-3 the near row, 4-7 the far row, each from the
seat's own left) has one button per column::

    far row    the opponent's row, columns 3 2 1 0 (mirrored, as the 2x4 game)  4 5 6 7
    near row   the seat's own row, columns 0 1 2 3 from its own left            0 1 2 3

A press of a column:

* no stack in it: nothing;
* one stack in it: that stack is pressed at once (a cover, or a tap when the seat is
  out of cards), legal or not, as at the table: every stack of a row of up to four
  is one press;
* several stacks, exactly ONE of which this seat can press legally now (coverable
  for a cover; for a tap, its rank on two tops -- and while a tap is held, the held
  rank on another stack, the call): that one is pressed at once;
* otherwise (several legal, or none) the column is *selected* (outlined, its lines
  labelled 1-4 on the screen) and nothing is pressed. The next press on the same
  pad row chooses the line: its button's place from the seat's left is the line
  (1st button = line 0, at the row owner's edge), and the press is stamped with this
  second press's time; a button whose line has no stack cancels. A press on the
  other pad row drops the selection and is judged afresh as above. A selection
  also lapses after :data:`SELECT_MS`, when a stack of its column changes (a cover,
  a deal, a scoop) and with the game.

So every stack is at most two presses, its button never changes while its row
grows, an illegal press in a column of several stacks always takes two deliberate
presses, and a player out of cards calls with two presses, one per stack, whenever
each is the only stack of its column that can be tapped.

Implementation Notes
--------------------

:meth:`Controls.target` is called once per pad press (``hw.games`` ``target``) and
reads the engine's views ``phase``, ``row_len``, ``tops``, ``packs``, ``coverable``,
``pairs``, ``frustration``, ``held``, ``hold_card``, ``games`` and ``clock`` (the last
pass's time: the press's own time is what the app stamps), storing small ints in
preallocated buffers: it allocates nothing (tests/test_aggravation_keys.py and the
firmware's 0 B press frames). Legality is judged on the views as they stand when
the press is read; the engine judges the press on the table at its tick's start,
which differs only in a race the rules settle, as at the table. ``changes`` counts
the selections' changes, for the screen.
"""

from engine.compat import const
from engine.ticks import ticks_diff

# (private constants are folded by MicroPython's compiler: no global, no name kept)
_LINE = const(4)  # stacks per line: the pad's columns
_ROWS = const(14)  # engine.aggravation.ROW_BASE: B's first position
_LONGEST = const(13)  # engine.aggravation.ROW_MAX: stacks in a row, at most
SELECT_MS = const(1500)  # a selection lapses after this long
_NONE = const(255)
_DEALING = const(1)  # engine.family's phases
_PLAY = const(2)
_STUCK = const(3)


def column_button(seat, pos):
    """The pad button (0-7) of the column of stack ``pos`` on ``seat``'s pad; with
    :func:`line_of`, what presses it (for tests, docs and scripts)."""
    owner = 1 if pos >= _ROWS else 0
    column = (pos - owner * _ROWS) % _LINE
    return column if owner == seat else _LINE + _LINE - 1 - column


def line_of(pos):
    """The line of stack ``pos`` in its row (0 at its owner's edge)."""
    return (pos % _ROWS) // _LINE


class Controls:
    """Both seats' selections (see the module doc)."""

    def __init__(self):
        self.far = bytearray(b"\xff\xff")  # each seat's selected pad row (0 near, 1 far)
        self.column = bytearray(2)  # its column, from the row owner's left
        self.since = [0, 0]  # when it was made (the engine's clock)
        self.game = [0, 0]  # game.games then
        self.seen = bytearray(2 * _LINE)  # the column's tops then, by line
        self.changes = 0

    def reset(self):
        """Forget both selections."""
        for seat in range(2):
            self._drop(seat)

    def _drop(self, seat):
        if self.far[seat] != _NONE:
            self.far[seat] = _NONE
            self.changes += 1

    def _tops_kept(self, game, seat, owner, column, store):
        """True if the tops of ``owner``'s ``column`` are those seen (``store``: see them)."""
        tops = game.tops
        seen = self.seen
        kept = True
        for line in range(_LINE):
            k = column + _LINE * line
            top = tops[owner * _ROWS + k] if k < _LONGEST else _NONE
            if store:
                seen[seat * _LINE + line] = top
            elif seen[seat * _LINE + line] != top:
                kept = False
        return kept

    def selection(self, game, seat, now):
        """``seat``'s selected column as ``owner * 4 + column`` (owner: the row's seat),
        or -1. A selection that has lapsed at ``now`` (see the module doc) is dropped."""
        far = self.far[seat]
        if far == _NONE:
            return -1
        owner = seat ^ far
        column = self.column[seat]
        if not _DEALING <= game.phase <= _STUCK or self.game[seat] != game.games or \
                not 0 <= ticks_diff(now, self.since[seat]) < SELECT_MS or \
                not self._tops_kept(game, seat, owner, column, False):
            self._drop(seat)
            return -1
        return owner * _LINE + column

    def _legal(self, game, seat, pos, held):
        """True if ``seat`` may press ``pos`` now (``held``: its held tap, or -1)."""
        if game.phase != _PLAY:
            return False
        if game.packs[seat]:
            return (game.coverable >> pos) & 1
        if game.frustration:
            return False
        if held >= 0:  # the call: the held rank on another stack
            card = game.hold_card[seat]
            return pos != held and game.tops[pos] >> 2 == card >> 2
        return (game.pairs >> pos) & 1

    def target(self, game, seat, button):
        """The position ``seat``'s pad ``button`` (0-7) presses now, or -1."""
        far = button >> 2
        place = button & 3  # from the seat's left
        if self.far[seat] != _NONE and self.selection(game, seat, game.clock) >= 0:
            if self.far[seat] == far:  # the line
                owner = seat ^ far
                k = self.column[seat] + _LINE * place
                self._drop(seat)
                return owner * _ROWS + k if k < game.row_len[owner] else -1
            self._drop(seat)  # the other pad row: judged afresh
        owner = seat ^ far
        column = 3 - place if far else place
        n = game.row_len[owner]
        if column >= n:
            return -1
        base = owner * _ROWS
        if column + _LINE >= n:
            return base + column  # the column's one stack
        held = -1
        if not game.packs[seat]:
            held = game.held(seat, game.clock)
            if held >= 0 and game.tops[held] != game.hold_card[seat]:
                held = -1  # covered since: the next tap is judged as a first tap
        found = -1
        k = column
        while k < n:
            if self._legal(game, seat, base + k, held):
                if found >= 0:
                    found = -2  # several
                    break
                found = base + k
            k += _LINE
        if found >= 0:
            return found
        self.far[seat] = far
        self.column[seat] = column
        self.since[seat] = game.clock
        self.game[seat] = game.games
        self._tops_kept(game, seat, owner, column, True)
        self.changes += 1
        return -1
