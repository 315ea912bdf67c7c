"""Desktop emulator of the handheld: ``python -m tools.emulate`` (``make play``).

Runs the unchanged firmware (``boot.py``, ``code.py``) on CPython with desktop
parts for what only CircuitPython has. One job per module:

* :mod:`.display` -- ``board.DISPLAY``: a pygame window with dirty-rectangle refresh
* :mod:`.keys`    -- the keyboard as both pads and START (one timestamped path)
* :mod:`.port`    -- ``usb_cdc.data`` as a pseudo-terminal (+ ``--log`` tee)
* :mod:`.clock`   -- ``supervisor.ticks_ms`` (2**29 wrap; real or virtual time)
* :mod:`.nvm`     -- ``microcontroller.nvm`` in a file
* :mod:`.script`  -- timed key presses for headless runs (``--script``)
* :mod:`.demo`    -- the firmware's attract mode (CPU vs CPU) as frames and a GIF
* :mod:`.help`    -- the F1 key-map overlay
* :mod:`.main`    -- :class:`~tools.emulate.main.Emulator`, which ties them together
* ``__main__``    -- the command line

See docs/EMULATOR.md.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before any module imports pygame
