"""Fake ``microcontroller``: ``Pin`` and a small ``nvm``.

``nvm`` behaves as a board's ``nvm.ByteArray``: fixed length; index and slice reads;
a slice assignment must keep the length (``ValueError`` otherwise: it never resizes).
"""


class Pin:
    def __init__(self, name):
        self.name = name


class ByteArray:
    def __init__(self, size):
        self._data = bytearray(size)

    def __len__(self):
        return len(self._data)

    def __getitem__(self, index):
        return self._data[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start = 0 if index.start is None else index.start
            stop = len(self._data) if index.stop is None else min(index.stop, len(self._data))
            if index.step not in (None, 1) or len(value) != max(0, stop - start):
                raise ValueError("Slice and value different lengths")
        elif not 0 <= value <= 255:
            raise ValueError("bytes value out of range")
        self._data[index] = value


nvm = ByteArray(64)
