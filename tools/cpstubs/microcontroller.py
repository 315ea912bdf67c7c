"""Stand-in for CircuitPython's ``microcontroller``: ``Pin``, ``nvm``, ``cpu``."""


class Pin:
    """A named pin (compared by identity, as on a board)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board.%s" % self.name


class _Processor:
    uid = bytes(range(8))
    frequency = 125000000
    temperature = 25.0
    voltage = 3.3


cpu = _Processor()
nvm = bytearray(4096)


def reset():
    """A board would restart; here it raises SystemExit so a test notices."""
    raise SystemExit("microcontroller.reset()")
