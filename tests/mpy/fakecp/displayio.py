"""Fake ``displayio``: Group, TileGrid, Bitmap, Palette (see fakecp/README.md).

``touches`` counts the scene writes a frame makes (``touch()`` is called by every
counted setter, here and in the other fakes). Counting allocates nothing.
"""

touches = 0


def touch():
    """Count one write to the scene."""
    global touches
    touches += 1


def release_displays():
    """Nothing to release."""


class Bitmap:
    """``width x height`` pixels, one byte each, indexed by ``(x, y)``."""

    def __init__(self, width, height, value_count):
        self.width = width
        self.height = height
        self.value_count = value_count
        self.data = bytearray(width * height)

    def __getitem__(self, xy):
        return self.data[xy[1] * self.width + xy[0]]

    def __setitem__(self, xy, value):
        self.data[xy[1] * self.width + xy[0]] = value


class Palette:
    """``count`` colours (ints); ``palette[i] = colour`` is counted."""

    def __init__(self, count):
        self.colors = [0] * count
        self.transparent = bytearray(count)

    def __len__(self):
        return len(self.colors)

    def __getitem__(self, i):
        return self.colors[i]

    def __setitem__(self, i, color):
        self.colors[i] = color
        touch()

    def make_transparent(self, i):
        self.transparent[i] = 1


class TileGrid:
    """Tiles of ``bitmap``; ``grid[i] = tile`` is counted."""

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.tile_width = bitmap.width if tile_width is None else tile_width
        self.tile_height = bitmap.height if tile_height is None else tile_height
        self.tiles = bytearray(width * height)
        for i in range(width * height):
            self.tiles[i] = default_tile
        self.x = x
        self.y = y
        self.flip_x = False
        self.flip_y = False
        self.hidden = False

    def __getitem__(self, i):
        return self.tiles[i]

    def __setitem__(self, i, tile):
        self.tiles[i] = tile
        touch()


class Group:
    """A list of layers; setting ``hidden`` is counted."""

    def __init__(self, *, scale=1, x=0, y=0):
        self.scale = scale
        self.x = x
        self.y = y
        self._hidden = False
        self._layers = []

    @property
    def hidden(self):
        return self._hidden

    @hidden.setter
    def hidden(self, value):
        self._hidden = value
        touch()

    def append(self, layer):
        self._layers.append(layer)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __contains__(self, layer):
        return layer in self._layers
