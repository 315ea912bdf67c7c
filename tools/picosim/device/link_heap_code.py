"""code.py for what link play costs the heap on the emulated Pico
(``--code tools/picosim/device/link_heap_code.py``; ``LINK_HEAP_ROLE = "guest"`` in
the settings for the guest's side, else the host's).

Builds the app as ``code.py`` does, then takes the steps the menu's *Link* takes, one
at a time, printing the free heap after a collection at each (``probe STEP free=``):
each link module imported (its code and the names it interns), the cable's port
opened, the session made (its buffers and the ``Link``), the link screen shown. The
last line is the whole cost of link play before a match (``probe total=``).
"""

import gc
import os
import time

time.sleep(0.2)  # prints in code.py's first ~50 ms can be lost before the console is open
import hw.main  # noqa: E402

app = hw.main.build()[1]
GUEST = os.getenv("LINK_HEAP_ROLE") == "guest"


def free():
    gc.collect()
    return gc.mem_free()


start = free()
print("probe build free=%d" % start)
last = start
modules = ["hw.link.frame", "hw.link.link"]
if not GUEST:
    modules += ["hw.link.fair", "hw.link.sync"]  # the host's only
for name in modules + ["hw.app.linked", "hw.app.link_guest" if GUEST else "hw.app.link_host",
                       "hw.views.link_view"]:
    __import__(name)
    now = free()
    print("probe import-%s free=%d cost=%d" % (name, now, last - now))
    last = now
from hw.app import linked  # noqa: E402
from hw.app.modes import LINK  # noqa: E402

app.menu.link = 1 if GUEST else 0
port = app.link()
now = free()
print("probe uart free=%d cost=%d" % (now, last - now))
last = now
app.session = linked.session(app, app.menu.link, port, app.clock, 1)
now = free()
print("probe session free=%d cost=%d" % (now, last - now))
last = now
app._show(LINK)  # pylint: disable=protected-access
now = free()
print("probe link-screen free=%d cost=%d" % (now, last - now))
print("probe total=%d" % (start - now))
while True:
    time.sleep(1)
