"""Stand-in for CircuitPython's ``board``: pin names, ``board_id``, ``DISPLAY``.

:func:`configure` picks the board id and (optionally) a built-in display; pins are
``microcontroller.Pin`` objects named like the Pico's (``GP0``..``GP29``) plus the
usual Feather names (``A0``..``A5``, ``D0``..``D13``, ``SCK``, ``MOSI``, ...).
"""

from tools.cpstubs.microcontroller import Pin, release_all

board_id = "raspberry_pi_pico"

_NAMES = tuple("GP%d" % i for i in range(30)) + tuple("A%d" % i for i in range(6)) + \
    tuple("D%d" % i for i in range(14)) + ("SCK", "MOSI", "MISO", "SDA", "SCL", "TX", "RX",
                                            "LED", "NEOPIXEL", "BUTTON")
for _name in _NAMES:
    globals()[_name] = Pin(_name)
del _name


def configure(new_board_id, display=None):
    """Set ``board_id`` and ``DISPLAY`` (None: the board has no built-in display).

    A power-on: every pin is free again."""
    global board_id
    board_id = new_board_id
    release_all()
    if display is None:
        globals().pop("DISPLAY", None)
    else:
        globals()["DISPLAY"] = display
