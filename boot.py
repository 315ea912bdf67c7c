"""Boot: USB devices that fit the board, with a second serial port for the match log.

The REPL/console stays on the first USB serial port; the firmware streams every
match's log (LOG.md) on the second, ``usb_cdc.data``, so a desktop can replay it with
``tools/replay``. The handheld uses neither USB HID nor USB MIDI: both are turned
off, which frees their endpoints. Changes here take effect after a hard reset:
unplug the board and plug it back in (the Pico and Pico 2 have no RESET button).

Endpoints decide what fits. CircuitPython counts, besides EP0: 2 IN endpoints per
serial port, 1 for the CIRCUITPY drive, 1 for HID, 1 for MIDI, and goes to safe
mode (``USB_TOO_MANY_ENDPOINTS``) at boot when a board has fewer
(``supervisor/shared/usb/usb_desc.c``). ESP32-S2/S3 (``sys.platform`` "Espressif")
have only 5 IN endpoints: console + drive already take 4 with EP0, so the data port
(2 more) never fits there and stays off; the match log is then not streamed
(``usb_cdc.data`` is None and the firmware writes nowhere). RP2040/RP2350, SAMD51
and nRF52840 boards have 8 and get the data port.

Implementation Notes
--------------------

**Software and Dependencies:** CircuitPython 10 (9.x works): ``usb_cdc.enable(*,
console=True, data=False)`` (keyword-only), ``usb_hid.disable()``,
``usb_midi.disable()``; boot.py only. A board without native USB (ESP32-C3, ...)
has no ``usb_cdc``: nothing is set up.
"""

import sys

# IN endpoints (EP0 included) per sys.platform, where fewer than 8: each port's
# USB_NUM_IN_ENDPOINTS in CircuitPython 10.2.1 (ports/*/mpconfigport.mk).
IN_ENDPOINTS = {"Espressif": 5}
# What the console, the drive and the data port take: EP0 + 2 + 1 + 2.
DATA_PORT_NEEDS = 6


def data_port_fits(platform):
    """True if console + CIRCUITPY drive + data port fit this chip's IN endpoints."""
    return DATA_PORT_NEEDS <= IN_ENDPOINTS.get(platform, 8)


def _disable(name):
    try:
        module = __import__(name)
    except ImportError:  # not built into this board's CircuitPython
        return
    module.disable()


_disable("usb_hid")
_disable("usb_midi")
try:
    import usb_cdc
except ImportError:  # no native USB
    usb_cdc = None
if usb_cdc is not None:
    usb_cdc.enable(console=True, data=data_port_fits(sys.platform))
