"""Fail fast when ``--plots`` cannot be drawn (issue 11: no results lost at the end).

The simulators draw their plots with matplotlib after minutes of games. Run with a
Python that lacks it (a bare ``python3`` instead of ``.venv/bin/python``), they used to
die at the very end and lose the results; :func:`plots_unavailable` is asked before
the first game instead, and the tool stops with one line and exit status 2.
"""

import importlib.util


def plots_unavailable(tool):
    """Return the one-line error for ``tool`` if matplotlib is missing, else None."""
    if importlib.util.find_spec("matplotlib") is not None:
        return None
    return ("%s: --plots needs matplotlib, which this Python does not have: run it with"
            " .venv/bin/python (make venv sets it up; make simulate uses it)" % tool)
