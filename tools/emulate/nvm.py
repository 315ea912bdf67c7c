"""``microcontroller.nvm`` backed by a file, so the menu and stats survive like on a board.

:class:`FileNVM` can also cut the power in the middle of a write (``cut_after``), to
test that the firmware's record (``hw.store.record``) survives it: either byte by byte
(``mode="bytes"``: the file holds every byte written before the cut) or the way
CircuitPython's RP2040 port writes (``mode="rp2040"``: a write into erased bytes
programs 256-byte pages; any other write erases the whole 4 KB sector and programs
it back page by page; the cut falls after a whole erase or page program step).
"""

import os

from tools.cpstubs.microcontroller import ByteArray

PAGE = 256


class PowerCut(Exception):
    """The power went in the middle of an nvm write (what was written so far stays)."""


def default_path():
    """``$XDG_CACHE_HOME/california-speed/nvm.bin`` (``~/.cache/...``)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "california-speed", "nvm.bin")


class FileNVM(ByteArray):
    """The stand-in ``nvm.ByteArray`` (fixed size, no resizing), saved to ``path`` on every change.

    ``path=None`` keeps it in memory only (demos, tests). A missing or short file
    reads as erased flash (0xFF), as on a fresh board. ``cut_after=N`` (N >= 0)
    lets the next writes complete N steps (bytes, or erase/program steps in
    ``rp2040`` mode) and then raises :class:`PowerCut`; ``steps`` counts the steps
    done so far.
    """

    def __init__(self, path=None, size=4096, cut_after=-1, mode="bytes"):
        super().__init__(size)
        if path is not None and os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read(size)
            self._data[:len(data)] = data
        self.path = path
        self.cut_after = cut_after
        self.mode = mode
        self.steps = 0
        self.erases = 0
        self.on_error = None  # fn(OSError) for a failed save (else it raises)

    def __setitem__(self, index, value):
        if self.cut_after < 0 and self.mode == "bytes":
            super().__setitem__(index, value)  # checks, writes, _changed() saves
            return
        shadow = ByteArray(len(self))  # the stand-in's checks and conversions
        shadow._data[:] = self._data
        shadow[index] = value
        if isinstance(index, slice):
            start, stop = self._slice(index)
        else:
            start = index % len(self)
            stop = start + 1
        new = bytes(shadow._data[start:stop])
        if self.mode == "bytes":
            for i in range(start, stop):
                self._step()
                self._data[i] = new[i - start]
            self._save()
        else:
            self._rp2040(start, new)

    def _changed(self):
        self._save()

    def _step(self):
        if self.cut_after >= 0 and self.steps >= self.cut_after:
            self._save()
            raise PowerCut("power cut after %d steps" % self.steps)
        self.steps += 1

    def _rp2040(self, start, value):
        """ports/raspberrypi/common-hal/nvm/ByteArray.c: program pages, or erase + program."""
        end = start + len(value)
        if all(b == 0xFF for b in self._data[start:end]):
            first = start - start % PAGE
            for page in range(first, end, PAGE):
                self._step()
                lo = max(page, start)
                hi = min(page + PAGE, end)
                self._data[lo:hi] = value[lo - start:hi - start]
        else:
            image = bytearray(self._data)
            image[start:end] = value
            self._step()
            self._data[:] = b"\xff" * len(self)
            self.erases += 1
            for page in range(0, len(self), PAGE):
                self._step()
                self._data[page:page + PAGE] = image[page:page + PAGE]
        self._save()

    def _save(self):
        save_model(self, self._data)


def save_model(model, data):
    """Write a model's ``data`` to its ``path``; a failure goes to its ``on_error`` if set.

    ``on_error(err)`` is the emulator's: a full disk ends the run in one line, and the
    firmware, which knows nothing of the file behind its nvm or FRAM, is not told.
    """
    try:
        write_whole(model.path, data)
    except OSError as err:
        if getattr(model, "on_error", None) is None:
            raise
        model.on_error(err)


def choose_game(nvm, key):
    """Make game ``key`` (``hw.games``) the chosen one in the record ``nvm`` holds (the
    other choices and the stats kept), as the firmware's menu saves it."""
    from hw.games import index_of
    from hw.menu import DEFAULTS
    from hw.store.record import GAME, Record

    record = Record(DEFAULTS)
    record.load(nvm)
    if record.buf[GAME] != index_of(key):
        record.buf[GAME] = index_of(key)
        record.dirty = True
        record.save(nvm)


def write_whole(path, data):
    """Write ``data`` to ``path`` (nothing if None) so the file is never half-written."""
    if path is None:
        return
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        if os.path.exists(tmp):
            os.remove(tmp)  # the old file stays whole
        raise
