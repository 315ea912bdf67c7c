"""The firmware, linked, for ``tools.picosim.linkbench --firmware`` (a code.py).

Runs the unchanged firmware (``hw.main.run``). With ``LINK_ROLE = "host"`` in
settings.toml it first wraps the host's ``LinkSession.on_press`` to print
``p G M`` for each guest play it maps: the guest's keypad stamp ``G`` and the host
time ``M`` it maps to (what the bench compares with true time). The wrapper imports
``hw.app.linked`` (and ``hw.link``) before the build, so the host's heap figures of
such a run include that code from the start; the guest runs the firmware as it is.
"""

import os

if os.getenv("LINK_ROLE") == "host":
    from hw.app import linked

    _on_press = linked.LinkSession.on_press

    def _mapped(self, seat, t, key, arg):
        sync = self.link.sync
        if key == 0 and sync.ready:
            print("p %d %d" % (t, sync.to_host(t)))
        _on_press(self, seat, t, key, arg)

    linked.LinkSession.on_press = _mapped

from hw.main import run  # noqa: E402

run()
