"""Optional piezo: short, non-blocking beeps for a cover, an illegal press, a game end.

:meth:`Buzzer.beep` starts a tone and returns at once; :meth:`Buzzer.update`
(called every loop) stops it when its time is up. Without a piezo, :class:`Silent`
does nothing.

Implementation Notes
--------------------

**Hardware:** a passive piezo between a PWM-capable pin and GND (optional).

**Software and Dependencies:** ``pwmio``, ``board``; ``engine.ticks``.
"""

from engine.ticks import ticks_add, ticks_diff

SOUND_NONE = 0
SOUND_COVER = 1
SOUND_ILLEGAL = 2
SOUND_OVER = 3
# (frequency Hz, duration ms) by sound id; a higher id wins within one loop.
TONES = ((0, 0), (1760, 15), (220, 120), (880, 300))


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
        self.on = False

    def beep(self, sound, now):
        """Start tone ``sound`` (a ``SOUND_*`` id) at ``now``."""
        freq, ms = TONES[sound]
        if not freq:
            return
        self.pwm.frequency = freq
        self.pwm.duty_cycle = 0x8000
        self.until = ticks_add(now, ms)
        self.on = True

    def update(self, now):
        """Stop the tone when its time is up."""
        if self.on and ticks_diff(now, self.until) >= 0:
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
