"""The stats screen's reset gesture (the screen itself is ``hw.views.stats_view``).

:class:`ResetGesture` makes resetting the stats hard to do by accident: hold pad A's
button 1 and pad B's button 1 (the first near-row button of each pad) together for
``HOLD_MS``; the screen then asks for a confirmation, which is START within
``CONFIRM_MS``; any other key, or the time running out, cancels. Two players'
hands and a deliberate START are needed.

Implementation Notes
--------------------

``ResetGesture`` holds ints only; :meth:`ResetGesture.key` and
:meth:`ResetGesture.tick` allocate nothing.

**Software and Dependencies:** ``engine.ticks``; ``hw.board.profiles`` (``KEY_START``).
"""

from engine.ticks import ticks_diff
from hw.board.profiles import KEY_START

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


class ResetGesture:
    """Hold A1 + B1 for HOLD_MS, then START to confirm (see the module docstring)."""

    CONFIRM = CONFIRM
    DONE = DONE

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
