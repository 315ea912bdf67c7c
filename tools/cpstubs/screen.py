"""Displays for the desktop: a ``board.DISPLAY`` stand-in, and screenshots.

:func:`make_display` builds a real Blinka ``busdisplay.BusDisplay`` on the inert
``fourwire`` stand-in (16-bit colour, auto-refresh off), to be passed to
``board.configure(..., display=...)``. :func:`snapshot` renders any 16-bit Blinka
display's current scene into a Pillow RGB image (from the scene, not from what
was sent to the bus), for tests and screenshots.
"""

import displayio
from busdisplay import BusDisplay

from tools.cpstubs import board, busio
from tools.cpstubs.fourwire import FourWire


def make_display(width=320, height=240):
    """Return a ``width x height`` BusDisplay on a bus that sends nowhere."""
    displayio.release_displays()
    bus = FourWire(busio.SPI(board.SCK, MOSI=board.MOSI), command=board.D5)
    return BusDisplay(bus, b"", width=width, height=height, auto_refresh=False)


def snapshot(display):
    """Return the display's scene as a ``PIL.Image`` (RGB)."""
    from PIL import Image

    width = display.width
    height = display.height
    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        row = display.fill_row(y, None)
        raw = row.tobytes()
        for x in range(width):
            hi = raw[2 * x]
            lo = raw[2 * x + 1]
            value = (hi << 8) | lo  # RGB565, big-endian as sent to the panel
            r = (value >> 11) & 0x1F
            g = (value >> 5) & 0x3F
            b = value & 0x1F
            pixels[x, y] = (r * 255 // 31, g * 255 // 63, b * 255 // 31)
    return image
