"""``microcontroller.nvm`` backed by a file, so menu choices survive like on a board."""

import os

from tools.cpstubs.microcontroller import ByteArray


def default_path():
    """``$XDG_CACHE_HOME/california-speed/nvm.bin`` (``~/.cache/...``)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "california-speed", "nvm.bin")


class FileNVM(ByteArray):
    """The stand-in ``nvm.ByteArray`` (fixed size, no resizing), saved to ``path`` on every change.

    ``path=None`` keeps it in memory only (demos, tests). A missing or short file
    reads as erased flash (0xFF), as on a fresh board.
    """

    def __init__(self, path=None, size=4096):
        super().__init__(size)
        if path is not None and os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read(size)
            self._data[:len(data)] = data
        self.path = path

    def _changed(self):
        self._save()

    def _save(self):
        if self.path is None:
            return
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self._data)
        os.replace(tmp, self.path)  # never a half-written file
