"""Make engine/, hw/ and tools/ importable without shadowing the stdlib.

The repository root is *appended* to sys.path: the firmware's ``code.py`` must not
hide the standard library's ``code`` module (imported by pdb, and so by pytest).
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.append(ROOT)
