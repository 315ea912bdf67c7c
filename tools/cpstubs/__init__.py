"""Desktop stand-ins for the CircuitPython-only modules the firmware imports.

For the tests and the desktop emulator. :func:`install` puts them in
``sys.modules`` under their CircuitPython names, after importing Blinka's real
``displayio`` (``adafruit-blinka-displayio``; it must come before ``vectorio``), so
the firmware runs unchanged on CPython with real displayio drawing:

* ``supervisor``  -- ``ticks_ms()`` from a settable fake clock that wraps at 2**29;
* ``keypad``      -- ``Keys``/``KeyMatrix``/``Event``/``EventQueue`` with timestamps,
  ``get_into``, a bounded queue that sets ``overflowed`` when full, and
  ``press``/``release``/``inject`` for scripted key events;
* ``usb_cdc``     -- ``data``/``console`` ports that capture written bytes (``data``
  None unless booted with it), short writes, ``connected``;
* ``usb_hid``, ``usb_midi`` -- ``disable``/``enable`` recorded (for ``boot.py``);
* ``microcontroller`` -- ``Pin``, ``nvm`` (fixed size, erased 0xFF, no resizing), ``cpu``;
* ``board``       -- pin names, ``board_id``, and an injectable ``DISPLAY``;
* ``busio``, ``pwmio`` -- inert ``SPI`` / ``PWMOut`` that record what they were told,
  and an ``I2C`` that reaches the device models attached to its pins (an FRAM);
* ``fourwire``    -- a ``FourWire`` display bus that sends nowhere (a subclass of
  Blinka's, so Blinka's ``busdisplay`` and ``adafruit_ili9341``/``adafruit_st7789``
  accept it).

Blinka's ``BusDisplay`` joins the display pool in ``__new__``, before ``__init__``
runs, and Blinka's background thread refreshes every display in the pool each ms: it
could meet one whose ``__init__`` had not yet set ``_auto_refresh`` (``no attribute
'_auto_refresh'``), or one whose constructor failed (a bad setting) and stays there.
On CircuitPython neither exists, so :func:`install` makes Blinka's display off until
its ``__init__`` says otherwise and drops one whose constructor raised
(:func:`_drop_failed_displays`).

:mod:`tools.cpstubs.screen` makes a display for ``board.DISPLAY`` and takes
screenshots of any of these displays.
"""

import sys

STUBS = ("supervisor", "keypad", "usb_cdc", "usb_hid", "usb_midi", "microcontroller", "board",
         "busio", "pwmio", "fourwire")


def install(board_id="raspberry_pi_pico"):
    """Put the stand-ins in ``sys.modules``; return the ``board`` stand-in.

    Idempotent. Blinka's ``displayio`` (and what it imports: its own ``fourwire``,
    ``busio`` and ``microcontroller``) is imported first, before the names are taken
    over, so Blinka keeps working and ``import fourwire`` then gives the stand-in.
    """
    import displayio  # noqa: F401  (Blinka; before vectorio and before the takeover)
    import busdisplay  # noqa: F401
    import terminalio  # noqa: F401

    from tools.cpstubs import board, busio, fourwire, keypad, microcontroller, pwmio
    from tools.cpstubs import supervisor, usb_cdc, usb_hid, usb_midi

    modules = {
        "supervisor": supervisor, "keypad": keypad, "usb_cdc": usb_cdc,
        "usb_hid": usb_hid, "usb_midi": usb_midi,
        "microcontroller": microcontroller, "board": board, "busio": busio,
        "pwmio": pwmio, "fourwire": fourwire,
    }
    sys.modules.update(modules)
    board.configure(board_id)
    _drop_failed_displays(busdisplay.BusDisplay)
    return board


def _drop_failed_displays(cls):
    """A ``cls`` whose ``__init__`` raises leaves Blinka's display pool, and one not yet
    made is not refreshed (once per class)."""
    if getattr(cls, "_cpstubs_drops_failed", False):
        return
    cls._auto_refresh = False  # (the class's, until __init__ sets the instance's)
    init = cls.__init__

    def __init__(self, *args, **kwargs):
        try:
            init(self, *args, **kwargs)
        except BaseException:
            import displayio

            if self in displayio.displays:
                displayio.displays.remove(self)
            raise

    cls.__init__ = __init__
    cls._cpstubs_drops_failed = True


def reset():
    """Return every stand-in to its start-up state (between tests)."""
    from tools.cpstubs import board, busio, keypad, microcontroller, supervisor, usb_cdc
    from tools.cpstubs import usb_hid, usb_midi

    supervisor.set_ticks(0)
    supervisor.set_hook(None)
    keypad.scanners.clear()
    keypad.held_at_start.clear()
    usb_cdc.reset()
    usb_hid.reset()
    usb_midi.reset()
    microcontroller.nvm.erase()
    busio.detach_all()
    board.configure("raspberry_pi_pico")
