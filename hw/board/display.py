"""The display: build it from a board profile, with manual refresh.

``make_display(profile)`` returns a ``busdisplay`` display (or the board's built-in
``board.DISPLAY``) with ``auto_refresh`` off: the firmware builds its whole frame,
then calls ``refresh()`` once per loop, so a frame is never drawn half-updated.

Implementation Notes
--------------------

**Hardware:** 2.8" ILI9341 320x240 (reference) or ST7789 240x240 / 240x135 over
SPI; or a board's built-in display.

**Software and Dependencies:** CircuitPython 10 ``displayio``, ``fourwire``
(CircuitPython 9: ``fourwire`` too, with ``displayio.FourWire`` as the fallback of
older builds), ``busio``, ``board``; libraries ``adafruit_ili9341`` and
``adafruit_st7789`` (only the one the profile names is imported).
"""

from hw.board.profiles import SettingError, source


def _pin(board_module, spec, part, chosen):
    name = spec.get(part)
    if name is None:
        return None
    try:
        return getattr(board_module, name)
    except AttributeError:
        raise SettingError("%s: this board has no pin %s (display %s)"
                           % (chosen, name, part)) from None


def make_display(profile, board_module=None):
    """Return the display described by ``profile["display"]`` (auto-refresh off)."""
    import displayio

    if board_module is None:
        import board as board_module
    spec = profile["display"]
    driver = spec["driver"]
    chosen = source(profile, "display")
    if driver == "builtin":
        display = getattr(board_module, "DISPLAY", None)
        if display is None:
            raise SettingError("%s: this board has no built-in display (board.DISPLAY)" % chosen)
        if spec.get("rotation") is not None:
            display.rotation = spec["rotation"]
    else:
        import busio
        try:
            from fourwire import FourWire
        except ImportError:  # CircuitPython before 9
            from displayio import FourWire

        extra = {}
        if driver == "ili9341":  # imported before any pin is taken (a missing library)
            from adafruit_ili9341 import ILI9341 as Driver
        elif driver == "st7789":
            from adafruit_st7789 import ST7789 as Driver
            extra = {"rowstart": spec.get("rowstart", 0), "colstart": spec.get("colstart", 0)}
        else:
            raise ValueError("unknown display driver %r" % driver)
        displayio.release_displays()
        spi = busio.SPI(_pin(board_module, spec, "sck", chosen),
                        MOSI=_pin(board_module, spec, "mosi", chosen))
        try:
            bus = FourWire(spi, command=_pin(board_module, spec, "dc", chosen),
                           chip_select=_pin(board_module, spec, "cs", chosen),
                           reset=_pin(board_module, spec, "reset", chosen),
                           baudrate=spec.get("baudrate", 24000000))
            display = Driver(bus, width=spec["width"], height=spec["height"],
                             rotation=spec["rotation"], **extra)
        except Exception:
            # Free the pins (release_displays leaves the SPI bus taken) so that the
            # error screen can try again.
            displayio.release_displays()
            spi.deinit()
            raise
    display.auto_refresh = False
    return display
