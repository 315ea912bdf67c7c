"""code.py for measuring the heap on the emulated Pico (``--code tools/picosim/device/heap_code.py``).

Prints ``diag`` lines (parsed by ``tools.picosim.analyze.diag_records``): free heap
at start, after ``import hw.main``, after ``build()`` (each after a collection),
then every 500 main-loop steps the free heap, the lowest seen at those samples and
the loop count. ``gc.mem_free()`` costs about 9 ms on the Pico: sampled, not per
loop. The firmware itself runs unchanged (``hw.main.build`` and ``App.step``).
"""

import gc
import time

time.sleep(0.2)  # prints in code.py's first ~50 ms can be lost before the console is open
gc.collect()
print("diag boot free=%d alloc=%d" % (gc.mem_free(), gc.mem_alloc()))
import hw.main  # noqa: E402

gc.collect()
print("diag import free=%d alloc=%d" % (gc.mem_free(), gc.mem_alloc()))
app = hw.main.build()[1]
gc.collect()
print("diag build free=%d alloc=%d" % (gc.mem_free(), gc.mem_alloc()))

from supervisor import ticks_ms  # noqa: E402

step = app.step
low = gc.mem_free()
loops = 0
while True:
    step(ticks_ms())
    loops += 1
    if loops % 500 == 0:
        free = gc.mem_free()
        low = min(low, free)
        print("diag run loops=%d free=%d low=%d" % (loops, free, low))
