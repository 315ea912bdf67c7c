"""Make engine/, hw/ and tools/ importable without shadowing the stdlib.

The repository root is *appended* to sys.path: the firmware's ``code.py`` must not
hide the standard library's ``code`` module (imported by pdb, and so by pytest).
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.append(ROOT)


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _pins_free():
    """Each test starts with every stand-in pin free, as a board at power-on.

    The stand-ins take pins as CircuitPython does (``tools.cpstubs.microcontroller``):
    a bus or scanner a previous test left open would otherwise hold its pins.
    """
    stubs = sys.modules.get("tools.cpstubs.microcontroller")
    if stubs is not None:
        stubs.release_all()
    yield
