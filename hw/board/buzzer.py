"""Optional piezo: short, non-blocking sounds, one for each kind of event.

:meth:`Buzzer.beep` starts a sound and returns at once; :meth:`Buzzer.update`
(called every loop) moves it on to its next note and stops it when its time is up.
A sound is a few ``(frequency Hz, ms)`` notes (frequency 0: a rest), so that each
event has its own: a click for a cover (higher for A than for B, so a player hears
who covered), a dull thud for a press on a locked pad, a low buzz for an illegal
press, a falling pair for a lost coin toss, a double chirp for a tie, a falling
tone for "no match", a rising run for a redeal, a long tone for a game's end and a
fanfare for a match's. Which event makes which sound: ``hw.app.feedback``. Without a
piezo, :class:`Silent` does nothing.

Implementation Notes
--------------------

**Hardware:** a passive piezo between a PWM-capable pin and GND (optional).

**Software and Dependencies:** ``pwmio``, ``board``; ``engine.ticks``.
"""

from engine.ticks import ticks_add, ticks_diff

SOUND_NONE = 0
SOUND_COVER = 1  # seat A covered
SOUND_COVER_B = 2  # seat B covered
SOUND_LOCKED = 3  # a press on a locked pad
SOUND_ILLEGAL = 4
SOUND_LOST_TIE = 5  # a coin toss decided a tie
SOUND_TIE = 6  # a tie: nobody covers
SOUND_STUCK = 7  # no match: the cards are gathered
SOUND_REDEAL = 8
SOUND_OVER = 9  # a game's end
SOUND_MATCH = 10  # a match's end
SOUND_COVER_A = SOUND_COVER
# The notes by sound id, a higher id winning within one loop: NOTES holds (frequency
# Hz, ms) pairs flat, sound n's from NOTES[FIRST[n]] up to NOTES[FIRST[n + 1]] (one
# tuple of ints: a tuple per note would cost ~1 KB of heap).
NOTES = (
    0, 0,
    1760, 15,
    1320, 15,
    150, 40,
    220, 120,
    660, 50, 440, 90,
    1568, 40, 0, 40, 1568, 40,
    523, 120, 392, 200,
    523, 50, 659, 50, 784, 70,
    880, 300,
    523, 110, 659, 110, 784, 110, 1047, 350,
)
FIRST = bytes((0, 2, 4, 6, 8, 10, 14, 20, 24, 30, 32, 40))


class Silent:
    """No piezo fitted."""

    def beep(self, sound, now):
        """Do nothing."""

    def update(self, now):
        """Do nothing."""


class Buzzer:
    """A passive piezo on a PWM pin."""

    def __init__(self, pin):
        import pwmio

        self.pwm = pwmio.PWMOut(pin, duty_cycle=0, frequency=440, variable_frequency=True)
        self.until = 0
        self.on = False  # a sound is playing (a note or a rest)
        self.note = 0  # the index in NOTES of the note playing
        self.end = 0  # the index in NOTES just past the sound's last note

    def beep(self, sound, now):
        """Start sound ``sound`` (a ``SOUND_*`` id) at ``now``."""
        at = FIRST[sound]
        if not NOTES[at]:
            return
        self.note = at
        self.end = FIRST[sound + 1]
        self._play(now)

    def _play(self, now):
        freq = NOTES[self.note]
        if freq:
            self.pwm.frequency = freq
            self.pwm.duty_cycle = 0x8000
        else:
            self.pwm.duty_cycle = 0
        self.until = ticks_add(now, NOTES[self.note + 1])
        self.on = True

    def update(self, now):
        """Play the next note when a note's time is up; stop after the last."""
        if self.on and ticks_diff(now, self.until) >= 0:
            self.note += 2
            if self.note < self.end:
                self._play(now)
            else:
                self.pwm.duty_cycle = 0
                self.on = False


def make_buzzer(pin_name, board_module=None):
    """Return a :class:`Buzzer` on ``pin_name``, or :class:`Silent` if it is None.

    Raises ``ValueError`` naming ``CSPEED_PIEZO`` if the pin cannot drive a piezo
    (``hw.main.build`` then runs silent with a warning on the title)."""
    if pin_name is None:
        return Silent()
    if board_module is None:
        import board as board_module
    pin = getattr(board_module, pin_name, None)
    if pin is None:
        raise ValueError("CSPEED_PIEZO=%s: this board has no such pin" % pin_name)
    try:
        return Buzzer(pin)
    except (ValueError, RuntimeError) as err:  # not a PWM pin, or no PWM left
        raise ValueError("CSPEED_PIEZO=%s: %s" % (pin_name, err)) from None
