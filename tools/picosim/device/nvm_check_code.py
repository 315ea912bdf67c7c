"""code.py for the picosim's power-cut runs: the firmware boots on the nvm a cut left.

Builds the real firmware (``hw.main.build``: its ``App`` loads the record from
``microcontroller.nvm`` through the menu, as at every boot), prints a ``cutcheck``
line with the slot it loaded, whether it is on the title, and the record's menu and
stats bytes in hex, then runs 30 main-loop steps and prints ``cutcheck ran``.
"""

import time

time.sleep(0.3)  # the console must be open before anything is printed
import hw.main  # noqa: E402
from hw.app.modes import TITLE
from hw.store.record import CRC, MENU  # noqa: E402
from supervisor import ticks_ms  # noqa: E402

app = hw.main.build()[1]
record = app.menu.record
print("cutcheck slot=%d title=%d image=%s" % (
    record.slot, app.mode == TITLE, "".join("%02x" % b for b in record.buf[MENU:CRC])))
for _ in range(30):
    app.step(ticks_ms())
print("cutcheck ran")
while True:
    time.sleep(1)
