"""``microcontroller.nvm`` backed by a file, so menu choices survive like on a board."""

import os


def default_path():
    """``$XDG_CACHE_HOME/california-speed/nvm.bin`` (``~/.cache/...``)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "california-speed", "nvm.bin")


class FileNVM(bytearray):
    """A fixed-size bytearray that writes itself to ``path`` on every change.

    ``path=None`` keeps it in memory only (demos, tests). A missing or short file
    reads as erased flash (0xFF), as on a fresh board.
    """

    def __init__(self, path=None, size=4096):
        data = b""
        if path is not None and os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read(size)
        super().__init__(data + b"\xff" * (size - len(data)))
        self.path = path

    def __setitem__(self, index, value):
        if isinstance(index, slice) and len(range(*index.indices(len(self)))) != len(value):
            raise ValueError("nvm slice assignment must keep the size")  # as on a board
        super().__setitem__(index, value)
        self._save()

    def _save(self):
        if self.path is None:
            return
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self)
        os.replace(tmp, self.path)  # never a half-written file
