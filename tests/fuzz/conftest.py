"""tests/fuzz imports helpers of tests/ (test_rules' hand-built decks)."""

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent.parent)
if TESTS not in sys.path:
    sys.path.append(TESTS)
