"""code.py measuring what the design card's display libraries cost a Pico's heap.

Run by ``tools.picosim.libcost``: after the firmware's own build (``hw.main.build``),
each import is measured as the free heap it takes (after a collection), then what a
label of 20 characters and its change to other text cost. Prints ``libcost`` lines.
"""

import gc
import time

time.sleep(0.2)  # prints in code.py's first ~50 ms can be lost before the console is open


def free():
    gc.collect()
    return gc.mem_free()


import hw.main  # noqa: E402

app = hw.main.build()[1]
before = free()
print("libcost build free=%d" % before)
from adafruit_display_text import bitmap_label  # noqa: E402

after = free()
print("libcost import name=adafruit_display_text.bitmap_label bytes=%d" % (before - after))
import terminalio  # noqa: E402

label = bitmap_label.Label(terminalio.FONT, text="A 1 - 0 B  first to 2", color=0xFFFFFF)
made = free()
print("libcost label chars=21 bytes=%d" % (after - made))
label.text = "A 2 - 0 B  first to 2"
print("libcost relabel bytes=%d" % (made - free()))
before = free()
from adafruit_displayio_layout.layouts.grid_layout import GridLayout  # noqa: E402

after = free()
print("libcost import name=adafruit_displayio_layout.layouts.grid_layout bytes=%d"
      % (before - after))
grid = GridLayout(x=0, y=0, width=320, height=240, grid_size=(4, 2), cell_padding=2)
print("libcost grid cells=8 bytes=%d" % (after - free()))
print("libcost done")
while True:
    time.sleep(1)
