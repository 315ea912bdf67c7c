"""California Speed handheld: CircuitPython entry point.

Picks the board profile (``hw.board.profiles``, overridable in ``settings.toml``), builds
the display, the two pads + START and the app (``hw.main.start``), then lets start-up's
code go and runs the main loop (``hw.app.App.run``). Match logs stream over ``usb_cdc.data`` (enabled by ``boot.py``).

Implementation Notes
--------------------

**Hardware:** see ``hw/board/profiles.py`` and ``docs/BUILD.md``.

**Software and Dependencies:** CircuitPython 10 (9.x works); libraries listed in
``lib/requirements.txt``; this project's ``engine/`` and ``hw/`` packages.
"""

from hw.games import forget
from hw.main import start

loop, args = start()
forget("hw.main")  # start-up's code, not needed again: the heap gets it back
del start, forget
loop(*args)
