"""Stand-in for CircuitPython's ``microcontroller``: ``Pin``, ``nvm``, ``cpu``.

``nvm`` behaves as CircuitPython 10.2.1's ``nvm.ByteArray``
(``shared-bindings/nvm/ByteArray.c``): a fixed size (4096 here, as a Pico's), erased
flash reads 0xFF, items are ints 0-255, a slice reads as a new ``bytearray``, a slice
assignment takes a ``bytes``/``bytearray``/``memoryview``/``array`` of exactly the
slice's length (anything else: ``ValueError`` / ``NotImplementedError``, never a
resize), only step 1 slices, no deletion, and none of ``bytearray``'s methods.
"""

import array


class Pin:
    """A named pin (compared by identity, as on a board)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board.%s" % self.name


# Pins taken by a bus, a PWM, a key scanner or a display bus, until its deinit: as on
# a board, taking one already taken raises ``ValueError("GP18 in use")``
# (``shared-bindings/microcontroller/Pin.c``, ``validate_obj_is_free_pin``). Note that
# ``displayio.release_displays()`` frees a ``FourWire``'s own pins, never the ``SPI``
# bus the code made for it.
# A pin is known by its name, as a board's pins are singletons: keying by ``id`` would
# let a new object take the address (and so the claim) of one the collector freed.
_claimed = set()


def _key(pin):
    return getattr(pin, "name", None) or id(pin)


def claim(*pins):
    """Take ``pins`` (None skipped); ``ValueError`` naming the first one already taken."""
    pins = [p for p in pins if p is not None]
    for pin in pins:
        if _key(pin) in _claimed:
            raise ValueError("%s in use" % getattr(pin, "name", pin))
    for pin in pins:
        _claimed.add(_key(pin))


def release(*pins):
    """Free ``pins`` (None skipped)."""
    for pin in pins:
        if pin is not None:
            _claimed.discard(_key(pin))


def release_all():
    """Free every pin (a power-on: ``board.configure``)."""
    _claimed.clear()


class _Processor:
    uid = bytes(range(8))
    frequency = 125000000
    temperature = 25.0
    voltage = 3.3


class ByteArray:
    """Non-volatile memory: a fixed number of bytes (see the module docstring)."""

    def __init__(self, size=4096, fill=0xFF):
        self._data = bytearray([fill]) * size

    def _changed(self):
        """Called after every write (a file-backed subclass saves here)."""

    def __len__(self):
        return len(self._data)

    def _slice(self, index):
        start, stop, step = index.indices(len(self._data))
        if step != 1:
            raise NotImplementedError("only slices with step=1 (aka None) are supported")
        return start, max(start, stop)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop = self._slice(index)
            return bytearray(self._data[start:stop])
        return self._data[index]  # IndexError out of range, as a board

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop = self._slice(index)
            if not isinstance(value, (bytes, bytearray, memoryview, array.array)):
                raise NotImplementedError("array/bytes required on right side")
            data = memoryview(value).cast("B") if isinstance(value, memoryview) else value
            if isinstance(value, array.array) and value.itemsize != 1:
                raise ValueError("Array values should be single bytes.")
            if len(data) != stop - start:
                raise ValueError("Slice and value different lengths.")
            self._data[start:stop] = bytes(data)
        else:
            if not isinstance(value, int):
                raise TypeError("can't convert %s to int" % type(value).__name__)
            if not 0 <= value <= 255:
                raise ValueError("bytes must be 0-255")
            self._data[index] = value
        self._changed()

    def __delitem__(self, index):
        raise TypeError("'ByteArray' object doesn't support item deletion")

    def __bytes__(self):
        return bytes(self._data)

    def erase(self):
        """Stand-in only: every byte back to 0xFF (a fresh board)."""
        self._data[:] = b"\xff" * len(self._data)


cpu = _Processor()
nvm = ByteArray()


def reset():
    """A board would restart; here it raises SystemExit so a test notices."""
    raise SystemExit("microcontroller.reset()")
