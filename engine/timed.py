"""What every game of the family does alike with time: end of input, locks, the sink.

Implementation Notes
--------------------

:class:`Timed` is the base of ``engine.game.Game``, ``engine.row.RowGame`` and
``engine.speed.SpeedGame``: each keeps ``tick_n``, ``started``, ``clock``, ``due``,
``locked``, ``lock_end``, ``penalty`` and ``sink`` and provides ``_resolve`` and
``_run_steps``; these methods read them and allocate nothing.
"""

from engine.ticks import ticks_diff


class Timed:
    """The methods the three games share word for word (see the module docstring)."""

    def finish(self):
        """End of input: judge the pending tick and run steps due by ``clock``."""
        if self.tick_n:
            self._resolve()
        if self.started:
            self._run_steps(self.clock)

    def locked_at(self, player, t):
        """Return True if ``player``'s pad is locked at time ``t`` (not before ``clock``)."""
        return bool(self.locked[player]) and ticks_diff(self.lock_end[player], t) > 0

    def lock_left(self, player, t):
        """Return the ms of lock left for ``player`` at ``t`` (0 if none)."""
        if not self.locked[player]:
            return 0
        left = ticks_diff(self.lock_end[player], t)
        return left if 0 < left <= self.penalty else 0

    def due_at(self):
        """Return the time of the next timed step, or -1 if none is waiting."""
        return self.due

    def _emit(self, ev, t, i):
        sink = self.sink
        if sink is not None:
            sink(ev, t, i)
