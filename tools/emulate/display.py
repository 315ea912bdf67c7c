"""``board.DISPLAY`` for the emulator: a pygame window that redraws only what changed.

The stock ``PyGameDisplay`` repaints all 320x240 pixels on every refresh (its
``_get_refresh_areas`` returns the whole screen, about 45 ms a frame), and its
partial path sizes the pixel buffer one word short when an area has an odd number
of pixels. :class:`EmuDisplay` keeps Blinka's dirty-area walk (each changed
TileGrid reports its own rectangle, as on the device), renders each area into an
exactly sized buffer, and pushes only those rectangles to the window.

``frame`` holds the panel's pixels 1:1 (what screenshots and PNG frames save); the
window shows it scaled by ``scale`` (1 = pixel exact), with the key legend (``legend``
lines, :func:`.help.legend`) in a strip below it when a window is shown. Nothing is drawn from
Blinka's background thread: pygame belongs to the main thread, and the firmware
refreshes explicitly (``auto_refresh = False``).
"""

import io
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import displayio  # noqa: E402,F401  (Blinka; must precede vectorio and the pygame display)
import busdisplay  # noqa: E402
import numpy as np  # noqa: E402
import pygame  # noqa: E402
from blinka_displayio_pygamedisplay import PyGameDisplay  # noqa: E402
from displayio._area import Area  # noqa: E402


def rgb565_to_rgb(words, width, height):
    """Return an ``(height, width, 3)`` uint8 array from big-endian RGB565 ``words``."""
    p = words.astype(np.uint16)
    rgb = np.empty((height * width, 3), np.uint8)
    r, g, b = (p >> 11) & 31, (p >> 5) & 63, p & 31
    rgb[:, 0] = (r << 3) | (r >> 2)  # bit replication: 31 -> 255 exactly
    rgb[:, 1] = (g << 2) | (g >> 4)
    rgb[:, 2] = (b << 3) | (b >> 2)
    return rgb.reshape(height, width, 3)


class EmuDisplay(PyGameDisplay):
    """A ``width x height`` panel shown ``scale`` times larger in a window."""

    def __init__(self, width=320, height=240, scale=2, caption="California Speed", legend=()):
        self.scale = scale
        self.legend_lines = tuple(legend)
        self.legend = None  # pygame.Surface drawn under the panel, or None
        self.frame = None  # pygame.Surface, the panel 1:1
        self.changed = []  # pygame.Rects (panel pixels) drawn by the last refresh
        self.overlay = None  # a Surface shown over the window (F1 help), or None
        self.refreshes = 0
        super().__init__(width=width, height=height, caption=caption, auto_refresh=False)

    def _initialize(self, init_sequence):
        # Only the video part of pygame: no mixer, no joystick threads.
        pygame.display.init()
        pygame.display.set_caption(self._caption)
        size = (self.width * self.scale, self.height * self.scale)
        if self.legend_lines:
            from tools.emulate.help import legend

            self.legend = legend(size[0], self.legend_lines, self.scale)
            size = (size[0], size[1] + self.legend.get_height())
        self._pygame_screen = pygame.display.set_mode(size, self._flags)
        pygame.display.set_caption(self._caption)  # some SDL builds drop it before set_mode
        self.frame = pygame.Surface((self.width, self.height))
        if self.legend is not None:
            self.show_window()  # the legend strip; the panel follows with each refresh

    def _background(self):
        """Blinka's refresh thread: never draw from it (pygame is main-thread only)."""

    def _get_refresh_areas(self):
        # BusDisplay's version: the changed rectangles (the whole screen only when
        # the root group changed), instead of PyGameDisplay's always-everything.
        group = self._core.current_group
        if self._core.full_refresh and group is not None:
            # Blinka keeps the change flags through a full refresh (in case its
            # thread changes something meanwhile), so the NEXT refresh would draw
            # every item again. Nothing runs concurrently here: consume them now.
            group._get_refresh_areas([])  # pylint: disable=protected-access
        areas = []
        seen = set()
        for area in busdisplay.BusDisplay._get_refresh_areas(self):
            key = (area.x1, area.y1, area.x2, area.y2)
            if key not in seen:  # a changed tile is often reported twice
                seen.add(key)
                areas.append(area)
        return areas

    def _refresh_area(self, area):
        clipped = Area()
        if not self._core.clip_area(area, clipped):
            return True
        width, height = clipped.width(), clipped.height()
        count = width * height
        # Two 16-bit pixels per 32-bit word, rounded UP (the stock path rounds down).
        buffer = memoryview(bytearray(((count + 1) // 2) * 4)).cast("I")
        mask = memoryview(bytearray((count // 32 + 1) * 4)).cast("I")
        self._core.fill_area(clipped, mask, buffer)
        words = np.frombuffer(buffer, dtype=">u2", count=count)
        rgb = rgb565_to_rgb(words, width, height)
        image = pygame.image.frombuffer(rgb.tobytes(), (width, height), "RGB")
        self.frame.blit(image, (clipped.x1, clipped.y1))
        self.changed.append(pygame.Rect(clipped.x1, clipped.y1, width, height))
        return True

    def _refresh_display(self):
        self.changed = []
        if not busdisplay.BusDisplay._refresh_display(self):
            return False
        self.refreshes += 1
        if self.changed:
            self._present(self.changed)
        return True

    def full_refresh(self):
        """Redraw every pixel from the scene (what the stock display does each time)."""
        self._core.full_refresh = True
        return self._refresh_display()

    def _present(self, rects):
        """Copy ``rects`` of ``frame`` to the window (scaled) and show just those."""
        screen = self._pygame_screen
        if screen is None:
            return
        if self.overlay is not None:
            self.show_window()
            return
        s = self.scale
        shown = []
        for r in rects:
            part = self.frame.subsurface(r)
            if s != 1:
                part = pygame.transform.scale(part, (r.w * s, r.h * s))
            screen.blit(part, (r.x * s, r.y * s))
            shown.append(pygame.Rect(r.x * s, r.y * s, r.w * s, r.h * s))
        pygame.display.update(shown)

    def show_window(self):
        """Repaint the whole window from ``frame`` (+ overlay): exposure, F1."""
        screen = self._pygame_screen
        if screen is None:
            return
        panel = (self.width * self.scale, self.height * self.scale)
        pygame.transform.scale(self.frame, panel, screen.subsurface((0, 0) + panel))
        if self.legend is not None:
            screen.blit(self.legend, (0, panel[1]))
        if self.overlay is not None:
            screen.blit(self.overlay, (0, 0))
        pygame.display.flip()

    def pixels(self):
        """Return the panel as an ``(height, width, 3)`` uint8 array."""
        return pygame.surfarray.array3d(self.frame).transpose(1, 0, 2).copy()

    def save(self, path):
        """Write the panel (1:1, without overlay) to ``path`` (PNG)."""
        _write_png(self.frame, path)

    def save_window(self, path, lines):
        """Write the window as a person sees it to ``path`` (PNG): the panel at ``scale``
        with the key legend (``lines``) under it, even headless (no overlay)."""
        from tools.emulate.help import legend

        panel = pygame.transform.scale(self.frame, (self.width * self.scale,
                                                    self.height * self.scale))
        strip = self.legend if self.legend is not None else \
            legend(panel.get_width(), lines, self.scale)
        window = pygame.Surface((panel.get_width(), panel.get_height() + strip.get_height()))
        window.blit(panel, (0, 0))
        window.blit(strip, (0, panel.get_height()))
        _write_png(window, path)


def _write_png(surface, path):
    """Write ``surface`` to ``path`` as a PNG, encoded in memory and written as bytes: a
    full disk is an ``OSError`` naming the reason (not SDL's ``pygame.error``), and no
    half-written PNG is left behind."""
    data = io.BytesIO()
    pygame.image.save(surface, data, "frame.png")
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.getvalue())
    except OSError:
        if os.path.isfile(path):
            os.remove(path)
        raise
