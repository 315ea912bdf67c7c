"""California Speed rules engine, shared by the CircuitPython firmware and CPython.

Modules, one job each:

* ``compat`` -- ``const`` for MicroPython and CPython alike.
* ``ticks``  -- wrap-aware millisecond arithmetic (CircuitPython's 2**29 tick counter).
* ``cards``  -- card codes and their two-letter notation.
* ``rng``    -- the engine's own 30-bit xorshift generator and Fisher-Yates shuffle.
* ``rules``  -- the rules configuration (validated once, at set-up).
* ``game``   -- the rules state machine: deal, presses, ticks, stuck, deadlock, match.
* ``row``    -- the second game, shared-row California Speed (RULES-ROW.md), same contract.
* ``log``    -- the match-log format (LOG.md): a reader that drives a game and an
  allocation-free writer for the device.
* ``trace``  -- JSON-lines trace of what the game decided (used by ``tools/replay``).
* ``speed``  -- the third game, Speed (RULES-SPEED.md), same contract.
* ``bot``    -- the CPU opponent; ``rowbot`` and ``speedbot`` -- the same player for
  the row game and for Speed.

Nothing here imports hardware, CircuitPython-only or CPython-only modules.
"""

__version__ = "1.0.0"
