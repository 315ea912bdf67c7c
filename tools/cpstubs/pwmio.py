"""Stand-in for ``pwmio``: a ``PWMOut`` that records every tone it is asked for."""

from tools.cpstubs.microcontroller import claim, release


class PWMOut:
    """An inert PWM output; ``history`` lists ``(frequency, duty_cycle)`` changes."""

    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        claim(pin)
        self.pin = pin
        self._duty = duty_cycle
        self._frequency = frequency
        self.variable_frequency = variable_frequency
        self.history = []

    @property
    def duty_cycle(self):
        """16-bit duty cycle."""
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value):
        if not 0 <= value <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        self._duty = value
        self.history.append((self._frequency, value))

    @property
    def frequency(self):
        """Frequency in Hz."""
        return self._frequency

    @frequency.setter
    def frequency(self, value):
        if not self.variable_frequency:
            raise AttributeError("frequency is fixed: create with variable_frequency=True")
        self._frequency = value

    def deinit(self):
        """Free the pin."""
        release(self.pin)
