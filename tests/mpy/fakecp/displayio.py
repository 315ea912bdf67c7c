"""Fake ``displayio``: Group, TileGrid, Bitmap, Palette (see fakecp/README.md).

As strict as CircuitPython 10's native classes where that is cheap:

* ``Bitmap(width, height, value_count)`` packs its pixels as the real one does
  (``bits_per_value`` = the smallest power of two that holds ``value_count - 1``,
  rows padded to 32-bit words), so it takes the same heap; a value
  ``>= value_count`` raises ``ValueError``, a pixel outside raises ``IndexError``;
* ``Palette``: a colour outside 0..0xFFFFFF raises ``ValueError``, an index outside
  ``IndexError``;
* ``TileGrid``: the bitmap's width/height must be multiples of the tile size, a tile
  index must exist in the bitmap (``ValueError``), one ``uint8`` per tile (as the real
  one while the bitmap has at most 255 tiles);
* ``Group``: a layer can be in one group only (``ValueError``).

``touches`` counts the scene writes a frame makes (``touch()`` is called by every
counted setter: a tile, a palette entry, ``hidden``, a flip, a position, and the
display's ``root_group``). Counting allocates nothing.
"""

touches = 0


def touch():
    """Count one write to the scene."""
    global touches
    touches += 1


def release_displays():
    """Nothing to release."""


class Bitmap:
    """``width x height`` pixels of ``bits_per_value`` bits, rows padded to 32 bits."""

    def __init__(self, width, height, value_count):
        if not 1 <= value_count <= 0x10000 or width < 1 or height < 1:
            raise ValueError("invalid bitmap size or value_count")
        bits = 1
        while (1 << bits) < value_count:
            bits *= 2
        self.width = width
        self.height = height
        self.value_count = value_count
        self.bits_per_value = bits
        self.stride = (width * bits + 31) // 32 * 4  # bytes per row
        self.data = bytearray(self.stride * height)
        self.mask = (1 << bits) - 1

    def _where(self, xy):
        x = xy[0]
        y = xy[1]
        if not 0 <= x < self.width or not 0 <= y < self.height:
            raise IndexError("pixel out of range")
        bit = x * self.bits_per_value
        return y * self.stride + bit // 8, bit % 8

    def __getitem__(self, xy):
        i, shift = self._where(xy)
        bits = self.bits_per_value
        if bits >= 8:
            value = 0
            for k in range(bits // 8):
                value |= self.data[i + k] << (8 * k)
            return value
        return (self.data[i] >> shift) & self.mask

    def __setitem__(self, xy, value):
        if not 0 <= value < self.value_count:
            raise ValueError("value out of range for this bitmap")
        i, shift = self._where(xy)
        bits = self.bits_per_value
        if bits >= 8:
            for k in range(bits // 8):
                self.data[i + k] = (value >> (8 * k)) & 0xFF
            return
        self.data[i] = (self.data[i] & ~(self.mask << shift)) | (value << shift)


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
        if not 0 <= color <= 0xFFFFFF:
            raise ValueError("color out of range")
        self.colors[i] = color  # IndexError outside, as on a board
        touch()

    def make_transparent(self, i):
        self.transparent[i] = 1

    def make_opaque(self, i):
        self.transparent[i] = 0

    def is_transparent(self, i):
        return self.transparent[i] == 1


class _Layer:
    """What TileGrid and Group share: a position, ``hidden``, membership of one group."""

    def _place(self, x, y):
        self._x = x
        self._y = y
        self._hidden = False
        self._parent = None

    @property
    def x(self):
        return self._x

    @x.setter
    def x(self, value):
        self._x = value
        touch()

    @property
    def y(self):
        return self._y

    @y.setter
    def y(self, value):
        self._y = value
        touch()

    @property
    def hidden(self):
        return self._hidden

    @hidden.setter
    def hidden(self, value):
        self._hidden = bool(value)
        touch()


class TileGrid(_Layer):
    """``width x height`` tiles of ``bitmap``; ``grid[i] = tile`` is counted."""

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        tile_width = bitmap.width if tile_width is None else tile_width
        tile_height = bitmap.height if tile_height is None else tile_height
        if tile_width < 1 or bitmap.width % tile_width:
            raise ValueError("Tile width must exactly divide bitmap width")
        if tile_height < 1 or bitmap.height % tile_height:
            raise ValueError("Tile height must exactly divide bitmap height")
        self.tile_width = tile_width
        self.tile_height = tile_height
        self.tiles_in_bitmap = (bitmap.width // tile_width) * (bitmap.height // tile_height)
        self.width = width
        self.height = height
        self._check(default_tile)
        self.tiles = bytearray(width * height)
        for i in range(width * height):
            self.tiles[i] = default_tile
        self._place(x, y)
        self._flip_x = False
        self._flip_y = False

    def _check(self, tile):
        if not 0 <= tile < self.tiles_in_bitmap:
            raise ValueError("Tile index out of bounds")

    def __getitem__(self, i):
        return self.tiles[i]

    def __setitem__(self, i, tile):
        self._check(tile)
        self.tiles[i] = tile
        touch()

    @property
    def flip_x(self):
        return self._flip_x

    @flip_x.setter
    def flip_x(self, value):
        self._flip_x = bool(value)
        touch()

    @property
    def flip_y(self):
        return self._flip_y

    @flip_y.setter
    def flip_y(self, value):
        self._flip_y = bool(value)
        touch()


class Group(_Layer):
    """A list of layers (each in one group only); setting ``hidden`` is counted."""

    def __init__(self, *, scale=1, x=0, y=0):
        if scale < 1:
            raise ValueError("scale must be >= 1")
        self.scale = scale
        self._place(x, y)
        self._layers = []

    def append(self, layer):
        if layer._parent is not None:
            raise ValueError("Layer already in a group")
        layer._parent = self
        self._layers.append(layer)

    def remove(self, layer):
        self._layers.remove(layer)
        layer._parent = None

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __contains__(self, layer):
        return layer in self._layers
