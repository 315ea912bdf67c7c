"""The stats screen's content and its reset gesture, apart from how they are drawn.

:func:`stats_lines` turns a ``hw.record.Record`` into the screen's text lines (per
seat, vs each CPU level, streaks, fastest win, ties, reaction). It allocates: it is
called only when the screen is opened (and after a reset), never per frame.

:class:`ResetGesture` makes resetting the stats hard to do by accident: hold pad A's
button 1 and pad B's button 1 (the first near-row button of each pad) together for
``HOLD_MS``; the screen then asks for a confirmation, which is START within
``CONFIRM_MS``; any other key, or the time running out, cancels. Two players'
hands and a deliberate START are needed.

Implementation Notes
--------------------

``ResetGesture`` holds ints only; :meth:`ResetGesture.key` and
:meth:`ResetGesture.tick` allocate nothing.

**Software and Dependencies:** ``hw.record``, ``engine.ticks``; ``hw.profiles``
(``KEY_START``).
"""

from engine.ticks import ticks_diff
from hw import record as rec
from hw.profiles import KEY_START

HOLD_MS = 3000
CONFIRM_MS = 5000
KEY_A = 0  # pad A, button 0 (logical key 0)
KEY_B = 8  # pad B, button 0 (logical key 8)

IDLE = 0
HOLDING = 1
CONFIRM = 2
DONE = 3  # the stats were reset (the caller shows it and saves)

CONFIRM_TEXT = "Reset all stats? START = yes, any key = no"
HINT_TEXT = "Reset: hold A1 + B1 for 3 s"
DONE_TEXT = "Stats reset"


def _time(ms):
    if ms < 0:
        return "-"
    return "%d.%02d s" % (ms // 1000, (ms % 1000) // 10)


def stats_lines(record, levels=()):
    """The stats screen's lines (str) for ``record``; ``levels``: CPU level names."""
    r = record
    lines = ["Stats          A          B"]
    lines.append("Games won  %5d      %5d" % (r.games(0), r.games(1)))
    lines.append("Matches    %5d      %5d" % (r.matches(0), r.matches(1)))
    lines.append("Best run   %5d      %5d" % (r.best_streak(0), r.best_streak(1)))
    now = r.streak(0) or r.streak(1)
    lines.append("Run now    %s" % ("-" if not now else "%s %d" % ("A" if r.streak(0) else "B", now)))
    lines.append("Fastest  %7s    %7s" % (_time(r.fastest_ms(0)), _time(r.fastest_ms(1))))
    lines.append("Ties won %3d/%-3d    %3d/%-3d" % (r.ties_won(0), r.ties_won(0) + r.ties_lost(0),
                                                 r.ties_won(1), r.ties_won(1) + r.ties_lost(1)))
    lines.append("Reaction %5s ms   %5s ms" % (_ms(r.reaction_ms(0)), _ms(r.reaction_ms(1))))
    for level in range(min(len(levels), rec.LEVELS)):
        lines.append("A vs %-8s games %d-%d  matches %d-%d" % (
            levels[level], r.vs(level, rec.VS_GAMES_WON), r.vs(level, rec.VS_GAMES_LOST),
            r.vs(level, rec.VS_MATCHES_WON), r.vs(level, rec.VS_MATCHES_LOST)))
    return lines


def _ms(value):
    return "-" if value < 0 else str(value)


class ResetGesture:
    """Hold A1 + B1 for HOLD_MS, then START to confirm (see the module docstring)."""

    def __init__(self):
        self.state = IDLE
        self.down_a = False
        self.down_b = False
        self.since = 0

    def clear(self):
        self.state = IDLE
        self.down_a = False
        self.down_b = False

    def key(self, key, pressed, t):
        """A key event while the stats screen is shown; returns the new state."""
        if key == KEY_A:
            self.down_a = pressed
        elif key == KEY_B:
            self.down_b = pressed
        state = self.state
        if state == CONFIRM:
            if pressed:
                self.state = DONE if key == KEY_START else IDLE
            return self.state
        if state == DONE and not pressed:
            return state  # "Stats reset" stays up until the next press
        if pressed and key != KEY_A and key != KEY_B:
            self.state = IDLE  # another key: no gesture
        elif self.down_a and self.down_b:
            if state != HOLDING:
                self.state = HOLDING
                self.since = t
        else:
            self.state = IDLE
        return self.state

    def tick(self, now):
        """Advance time; returns the state (HOLDING -> CONFIRM after HOLD_MS; CONFIRM times out)."""
        if self.state == HOLDING and ticks_diff(now, self.since) >= HOLD_MS:
            self.state = CONFIRM
            self.since = now
        elif self.state == CONFIRM and ticks_diff(now, self.since) >= CONFIRM_MS:
            self.state = IDLE
        return self.state
